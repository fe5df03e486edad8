package render

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/scalelint/scalelint/analyzer/workspace"
)

// TreeFile is a file read from a confined tree.
type TreeFile struct {
	Rel  string // slash-separated path below the root
	Data []byte
}

// skipDirs are never read into a render: version control and vendored
// package trees.
var skipDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, "node_modules": true}

// ReadTree reads the regular files below root, confined to the directory
// confine ("" for root itself; a directory root is in): a symbolic link
// whose target lies outside confine is not followed (a render-incomplete
// problem says so), links to directories are followed once (no loops),
// and at most lim.MaxFiles files and lim.MaxInput bytes are read (a
// problem says what was left out). keep, when set, decides which files
// and directories (rel ends in "/") are read.
func ReadTree(root, confine string, lim Limits, keep func(rel string) bool) ([]TreeFile, []Problem) {
	lim = lim.WithDefaults()
	realRoot, err := realPath(root)
	if err != nil {
		return nil, []Problem{{Rule: RuleError, Path: root, Message: fmt.Sprintf("cannot read %s: %v", root, unwrap(err))}}
	}
	realConfine := realRoot
	if confine != "" {
		if c, err := realPath(confine); err == nil && Within(c, realRoot) {
			realConfine = c
		}
	}
	r := &treeReader{root: root, realConfine: realConfine, lim: lim, keep: keep, seen: map[string]bool{realRoot: true}}
	r.dir(root, "")
	sort.Slice(r.files, func(i, j int) bool { return r.files[i].Rel < r.files[j].Rel })
	return r.files, r.problems
}

// realPath is the absolute path of p with its symbolic links resolved:
// what a link's target (filepath.EvalSymlinks of an absolute link path)
// is compared with.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// RepositoryRoot returns the directory of the version-control checkout
// that holds dir (the nearest one above it with a .git entry: a directory,
// or a file in a worktree or submodule), or "" when none does. A chart
// may link to files of its repository outside its own directory
// (kubernetes-ingress's chart links crds to ../../config/crd/bases), which
// Helm's loader reads as the chart's own.
func RepositoryRoot(dir string) string {
	d, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

type treeReader struct {
	root        string
	realConfine string // real path of the directory links may lead into
	lim         Limits
	keep        func(string) bool
	seen        map[string]bool // real paths of directories entered
	files       []TreeFile
	size        int
	problems    []Problem
	full        bool
}

func (r *treeReader) dir(dir, rel string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		r.problems = append(r.problems, Problem{Rule: RuleError, Path: dir, Message: fmt.Sprintf("cannot read directory: %v", unwrap(err))})
		return
	}
	for _, e := range entries {
		if r.full {
			return
		}
		p := filepath.Join(dir, e.Name())
		relPath := e.Name()
		if rel != "" {
			relPath = rel + "/" + e.Name()
		}
		typ := e.Type()
		if typ&fs.ModeSymlink != 0 {
			target, err := realPath(p)
			if err != nil {
				continue // dangling: nothing to read
			}
			if !Within(r.realConfine, target) {
				// Incomplete, not an error: Helm's loader follows such a
				// link, and kustomize refuses it only when a kustomization
				// reads it (and then the build says so).
				r.problems = append(r.problems, Problem{Rule: RuleIncomplete, Path: p,
					Message: fmt.Sprintf("symbolic link points outside %s (to %s); not read, so what is built from this directory may lack it", r.confined(), shownPath(target))})
				continue
			}
			st, err := os.Stat(target)
			if err != nil {
				continue
			}
			typ = st.Mode().Type()
			if st.IsDir() {
				if r.seen[target] {
					continue
				}
				r.seen[target] = true
			}
		}
		switch {
		case typ.IsDir():
			if skipDirs[e.Name()] || (r.keep != nil && !r.keep(relPath+"/")) {
				continue
			}
			r.dir(p, relPath)
		case typ.IsRegular():
			if r.keep != nil && !r.keep(relPath) {
				continue
			}
			r.file(p, relPath)
		}
	}
}

// confined names the directory links are confined to, as given when it
// is the root.
func (r *treeReader) confined() string {
	if real, err := realPath(r.root); err == nil && real == r.realConfine {
		return r.root
	}
	return shownPath(r.realConfine)
}

// shownPath is an absolute path as a message shows it: relative to the
// working directory when it is below it.
func shownPath(p string) string {
	if wd, err := os.Getwd(); err == nil && Within(wd, p) {
		if rel, err := filepath.Rel(wd, p); err == nil {
			return rel
		}
	}
	return p
}

func (r *treeReader) file(p, rel string) {
	if len(r.files) >= r.lim.MaxFiles {
		r.problems = append(r.problems, Problem{Rule: RuleLimit, Path: p, Message: fmt.Sprintf("more than %d files under %s; the rest are not read", r.lim.MaxFiles, r.root)})
		r.full = true
		return
	}
	// As every file scalelint reads (workspace.ReadLimited): opened
	// without blocking, read only when it is still a regular file (a
	// FIFO or device put in its place since the directory was listed
	// would block the read or fill memory), at most one byte over what
	// the input limit leaves.
	left := r.lim.MaxInput - r.size
	data, err := workspace.ReadLimited(p, int64(left))
	if err != nil {
		r.problems = append(r.problems, Problem{Rule: RuleError, Path: p, Message: fmt.Sprintf("cannot read: %v", unwrap(err))})
		return
	}
	if len(data) > left {
		r.problems = append(r.problems, Problem{Rule: RuleLimit, Path: p, Message: fmt.Sprintf("files under %s are over the input limit of %d bytes; the rest are not read", r.root, r.lim.MaxInput)})
		r.full = true
		return
	}
	r.size += len(data)
	r.files = append(r.files, TreeFile{Rel: rel, Data: data})
}

// ReadFile reads one file of at most limit bytes that a render needs
// besides its tree (a .helmignore, a values file named on the command
// line, a kustomization file looked for, a file a finding points into),
// through workspace.ReadWhole like every file scalelint reads: a FIFO or
// a device is refused, not waited on, and a file over the limit is read
// no further than one byte past it.
func ReadFile(p string, limit int) ([]byte, error) {
	data, err := workspace.ReadWhole(p, int64(limit))
	if tl := (*workspace.TooLargeError)(nil); errors.As(err, &tl) {
		return nil, fmt.Errorf("%s is over the input limit of %d bytes", p, limit)
	}
	return data, err
}

// WithOverlay returns the files of a tree read from below root with the
// texts of overlay (by path on disk: the editor's unsaved documents) over
// them; an overlay below root that is not on disk is added. Sorted.
func WithOverlay(root string, files []TreeFile, overlay map[string][]byte) []TreeFile {
	if len(overlay) == 0 {
		return files
	}
	out := make([]TreeFile, 0, len(files))
	seen := map[string]bool{}
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f.Rel))
		if data, ok := overlay[p]; ok {
			f.Data = data
		}
		seen[p] = true
		out = append(out, f)
	}
	for p, data := range overlay {
		if seen[p] {
			continue
		}
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			continue
		}
		out = append(out, TreeFile{Rel: filepath.ToSlash(rel), Data: data})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out
}

// Within reports whether path p is root or below it (both cleaned).
func Within(root, p string) bool {
	if p == root {
		return true
	}
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func unwrap(err error) error {
	var pe *fs.PathError
	if e, ok := err.(*fs.PathError); ok {
		pe = e
		return pe.Err
	}
	return err
}
