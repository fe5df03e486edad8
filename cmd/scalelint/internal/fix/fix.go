// Package fix applies the suggested fixes marked safe (check --fix) or
// prints them as a unified diff (check --diff). The fixes are planned and
// applied by analyzer.PlanFixes and analyzer.ApplyEdits, as the rule
// tests' golden files are; this package decides which files may be
// written and writes them.
//
// --fix writes in place and atomically (output.WriteFile: through a
// symbolic link to the file it names, in place for a file with other hard
// links, the mode kept), only to files named on the command line
// (directly or inside a named directory), never to stdin. A file that is
// read-only, or that changed since it was read, is left alone with an
// error. The command lints the fixed files again to report what is left
// in their new text. --diff prints the same changes and writes nothing
// (file names that could forge a header are quoted as git quotes them).
package fix

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/output"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/report"
)

// plan takes the first safe fix of each shown finding whose edits stay in
// the named files.
func plan(r *report.Report, named map[string]bool) (map[*manifest.File][]analyzer.FileEdit, map[int]bool) {
	return analyzer.PlanFixes(r.Workspace, r.Shown, analyzer.FirstSafeFix, func(f *manifest.File) bool { return named[f.Path] })
}

// Result is what Apply did.
type Result struct {
	Findings int     // findings fixed
	Files    int     // files written
	Errs     []error // files not written, each error naming its file
}

// Apply writes the planned fixes to the named files and removes the
// findings it fixed from the report's shown ones.
func Apply(r *report.Report, named map[string]bool) Result {
	edits, fixed := plan(r, named)
	var res Result
	failed := map[*manifest.File]bool{}
	for _, f := range sortedFiles(edits) {
		if err := write(f, analyzer.ApplyEdits(f.Text(), edits[f])); err != nil {
			res.Errs = append(res.Errs, err)
			failed[f] = true
			continue
		}
		res.Files++
	}
	var remaining []analyzer.Diagnostic
	for i, d := range r.Shown {
		if fixed[i] && !failed[r.Workspace.FileOf(d.Pos)] {
			res.Findings++
			continue
		}
		remaining = append(remaining, d)
	}
	r.Shown = remaining
	return res
}

func sortedFiles(m map[*manifest.File][]analyzer.FileEdit) []*manifest.File {
	var fs []*manifest.File
	for f := range m {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].Path < fs[j].Path })
	return fs
}

// write replaces a file's content, refusing when the file is not writable
// or changed since it was read.
func write(f *manifest.File, content []byte) error {
	// A file without its owner's write bit is read-only by intent (a
	// generated or vendored file), even to root, who could write it.
	if st, err := os.Stat(f.Path); err == nil && st.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("%s: not fixed: the file is read-only", f.Path)
	}
	w, err := os.OpenFile(f.Path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("%s: not fixed: %v", f.Path, unwrap(err))
	}
	w.Close()
	now, err := workspace.ReadLimited(f.Path, int64(len(f.Text())))
	if err != nil {
		return fmt.Errorf("%s: not fixed: %v", f.Path, unwrap(err))
	}
	if !bytes.Equal(now, f.Text()) {
		return fmt.Errorf("%s: not fixed: the file changed since scalelint read it", f.Path)
	}
	return output.WriteFile(f.Path, func(w io.Writer) error {
		_, err := w.Write(content)
		return err
	})
}

func unwrap(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// Diff prints the planned fixes as a unified diff and returns how many
// findings they fix.
func Diff(r *report.Report, named map[string]bool, w io.Writer) (int, error) {
	edits, fixed := plan(r, named)
	for _, f := range sortedFiles(edits) {
		if _, err := io.WriteString(w, unifiedDiff(filepath.ToSlash(f.Path), f.Text(), edits[f])); err != nil {
			return 0, err
		}
	}
	return len(fixed), nil
}
