package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
)

// --fix applies the suggested fixes marked safe, in place and atomically
// (a temporary file renamed over the original), only to files named on the
// command line (directly or inside a named directory), never to stdin. A
// file that is read-only, or that changed since it was read, is left
// alone with an error. --diff prints the same changes as a unified diff
// and writes nothing.

type fileEdit struct {
	start, end int
	text       string
}

// plannedFixes collects the first safe fix of each shown finding, by file,
// dropping edits that overlap an earlier one. It returns the findings
// whose fix was taken.
func (r *report) plannedFixes(named map[string]bool) (map[*manifest.File][]fileEdit, map[int]bool) {
	edits := map[*manifest.File][]fileEdit{}
	fixed := map[int]bool{}
	for i, d := range r.shown {
		for _, fix := range d.SuggestedFixes {
			if !fix.Safe {
				continue
			}
			ok := true
			var planned []fileEdit
			var files []*manifest.File
			for _, e := range fix.Edits {
				f := r.ws.FileOf(e.Pos)
				if f == nil || !named[f.Path] {
					ok = false
					break
				}
				planned = append(planned, fileEdit{f.Tok.Offset(e.Pos), f.Tok.Offset(e.End), e.NewText})
				files = append(files, f)
			}
			if !ok {
				break
			}
			for k, pe := range planned {
				if overlaps(edits[files[k]], pe) {
					ok = false
				}
			}
			if ok {
				for k, pe := range planned {
					edits[files[k]] = append(edits[files[k]], pe)
				}
				fixed[i] = true
			}
			break // only a finding's first safe fix
		}
	}
	for f := range edits {
		sort.SliceStable(edits[f], func(i, j int) bool { return edits[f][i].start < edits[f][j].start })
	}
	return edits, fixed
}

func overlaps(es []fileEdit, e fileEdit) bool {
	for _, x := range es {
		if e.start < x.end && x.start < e.end || (e.start == x.start && e.end == x.end) {
			return true
		}
	}
	return false
}

func applyEdits(src []byte, es []fileEdit) []byte {
	var b bytes.Buffer
	last := 0
	for _, e := range es {
		b.Write(src[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.Write(src[last:])
	return b.Bytes()
}

// applyFixes writes the planned fixes and returns how many findings were
// fixed; errors name the file.
func (r *report) applyFixes(named map[string]bool, stderr io.Writer) (int, []error) {
	edits, fixed := r.plannedFixes(named)
	var errs []error
	failed := map[*manifest.File]bool{}
	for _, f := range sortedFiles(edits) {
		if err := writeFixed(f, applyEdits(f.Text(), edits[f])); err != nil {
			errs = append(errs, err)
			failed[f] = true
		}
	}
	n := 0
	var remaining []analyzer.Diagnostic
	for i, d := range r.shown {
		if fixed[i] && !failed[r.ws.FileOf(d.Pos)] {
			n++
			continue
		}
		remaining = append(remaining, d)
	}
	r.shown = remaining
	if n > 0 {
		fmt.Fprintf(stderr, "scalelint: fixed %s in %s\n", plural(n, "finding"), plural(len(edits)-len(failed), "file"))
	}
	return n, errs
}

func sortedFiles(m map[*manifest.File][]fileEdit) []*manifest.File {
	var fs []*manifest.File
	for f := range m {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].Path < fs[j].Path })
	return fs
}

// writeFixed replaces a file's content, refusing when the file is not
// writable or changed since it was read.
func writeFixed(f *manifest.File, content []byte) error {
	// A file without its owner's write bit is read-only by intent (a
	// generated or vendored file), even to root, who could write it.
	if st, err := os.Stat(f.Path); err == nil && st.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("%s: not fixed: the file is read-only", f.Path)
	}
	w, err := os.OpenFile(f.Path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("%s: not fixed: %v", f.Path, unwrapErr(err))
	}
	w.Close()
	now, err := os.ReadFile(f.Path)
	if err != nil {
		return fmt.Errorf("%s: not fixed: %v", f.Path, unwrapErr(err))
	}
	if !bytes.Equal(now, f.Text()) {
		return fmt.Errorf("%s: not fixed: the file changed since scalelint read it", f.Path)
	}
	return writeFileAtomic(f.Path, content)
}

func unwrapErr(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// writeDiff prints the planned fixes as a unified diff.
func (r *report) writeDiff(named map[string]bool, w io.Writer) int {
	edits, fixed := r.plannedFixes(named)
	for _, f := range sortedFiles(edits) {
		fmt.Fprint(w, unifiedDiff(filepath.ToSlash(f.Path), f.Text(), edits[f]))
	}
	return len(fixed)
}

// unifiedDiff renders edits of src as a unified diff with three lines of
// context. The hunks come from the edits themselves: no line matching is
// needed.
func unifiedDiff(name string, src []byte, es []fileEdit) string {
	lines := splitLines(src)
	lineOf := func(off int) int { // 0-based line holding off
		n := 0
		for i, l := range lines {
			if off < n+len(l) || i == len(lines)-1 {
				return i
			}
			n += len(l)
		}
		return 0
	}
	lineStart := func(i int) int {
		n := 0
		for k := 0; k < i; k++ {
			n += len(lines[k])
		}
		return n
	}
	// Group edits whose changed lines are within 6 lines of each other.
	type hunk struct{ first, last int } // old line range touched, inclusive
	var hunks []hunk
	var groups [][]fileEdit
	for _, e := range es {
		first, last := lineOf(e.start), lineOf(max(e.start, e.end-1))
		if len(hunks) > 0 && first-hunks[len(hunks)-1].last <= 6 {
			hunks[len(hunks)-1].last = max(hunks[len(hunks)-1].last, last)
			groups[len(groups)-1] = append(groups[len(groups)-1], e)
			continue
		}
		hunks = append(hunks, hunk{first, last})
		groups = append(groups, []fileEdit{e})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", name, name)
	for i, h := range hunks {
		from := max(0, h.first-3)
		to := min(len(lines)-1, h.last+3)
		base := lineStart(from)
		oldText := []byte{}
		for k := from; k <= to; k++ {
			oldText = append(oldText, lines[k]...)
		}
		var rel []fileEdit
		for _, e := range groups[i] {
			rel = append(rel, fileEdit{e.start - base, e.end - base, e.text})
		}
		newLines := splitLines(applyEdits(oldText, rel))
		oldLines := lines[from : to+1]
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", from+1, len(oldLines), from+1, len(newLines))
		for _, op := range lineDiff(oldLines, newLines) {
			b.WriteString(op.kind + withNewline(op.line))
		}
	}
	return b.String()
}

type diffOp struct {
	kind string // " ", "-" or "+"
	line string
}

// lineDiff is a longest-common-subsequence diff of two short line lists
// (a hunk's worth).
func lineDiff(a, b []string) []diffOp {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, diffOp{" ", a[i]})
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, diffOp{"+", b[j]})
			j++
		default:
			ops = append(ops, diffOp{"-", a[i]})
			i++
		}
	}
	// Show removals before additions in each changed run, as diff does.
	for k := 0; k < len(ops); {
		if ops[k].kind == " " {
			k++
			continue
		}
		e := k
		for e < len(ops) && ops[e].kind != " " {
			e++
		}
		run := append([]diffOp(nil), ops[k:e]...)
		sort.SliceStable(run, func(x, y int) bool { return run[x].kind == "-" && run[y].kind == "+" })
		copy(ops[k:e], run)
		k = e
	}
	return ops
}

func splitLines(src []byte) []string {
	var out []string
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			out = append(out, string(src))
			break
		}
		out = append(out, string(src[:i+1]))
		src = src[i+1:]
	}
	if len(out) == 0 {
		out = []string{""}
	}
	return out
}

func withNewline(l string) string {
	if strings.HasSuffix(l, "\n") {
		return l
	}
	return l + "\n\\ No newline at end of file\n"
}
