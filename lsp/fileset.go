package lsp

import (
	"slices"
	"sort"
	"sync"

	"github.com/scalelint/scalelint/analyzer/render/lint"
)

// fileSet is a snapshot's files: the disk index, which snapshots share
// (the server never writes a disk map a snapshot holds: it copies it
// first, setDiskLocked), and the open documents over it. An edit makes
// a new snapshot by copying the overlays alone, and what changed between
// two snapshots over the same disk index is found among their overlays
// (changedPaths): per-edit work that does not grow with the workspace.
type fileSet struct {
	disk *diskIndex
	// over are the open documents; a nil handle hides a disk file (an
	// open document the configuration excludes).
	over map[string]*fileHandle
}

// diskIndex is one version of the disk index; its identity tells two
// snapshots over the same one.
type diskIndex struct {
	files map[string]*fileHandle

	// Computed once per version: every snapshot over it shares them.
	pathsOnce sync.Once
	sorted    []string  // the paths, sorted
	plan      lint.Plan // what renders: lint.Discover of sorted
}

// sortedPaths returns the disk index's paths, sorted, and their render
// plan, computed once (callers must not change them).
func (d *diskIndex) sortedPaths() ([]string, lint.Plan) {
	if d == nil {
		return nil, lint.Plan{}
	}
	d.pathsOnce.Do(func() {
		d.sorted = make([]string, 0, len(d.files))
		for p := range d.files {
			d.sorted = append(d.sorted, p)
		}
		sort.Strings(d.sorted)
		d.plan = lint.Discover(d.sorted)
	})
	return d.sorted[:len(d.sorted):len(d.sorted)], d.plan
}

// get returns the handle of a path, or nil.
func (fs fileSet) get(p string) *fileHandle {
	if h, ok := fs.over[p]; ok {
		return h
	}
	if fs.disk == nil {
		return nil
	}
	return fs.disk.files[p]
}

// each calls f for every file.
func (fs fileSet) each(f func(p string, h *fileHandle)) {
	if fs.disk != nil {
		for p, h := range fs.disk.files {
			if _, ok := fs.over[p]; !ok {
				f(p, h)
			}
		}
	}
	for p, h := range fs.over {
		if h != nil {
			f(p, h)
		}
	}
}

// len returns the number of files.
func (fs fileSet) len() int {
	n := 0
	if fs.disk != nil {
		n = len(fs.disk.files)
	}
	for p, h := range fs.over {
		_, onDisk := fs.disk.get(p)
		switch {
		case h != nil && !onDisk:
			n++
		case h == nil && onDisk:
			n--
		}
	}
	return n
}

func (d *diskIndex) get(p string) (*fileHandle, bool) {
	if d == nil {
		return nil, false
	}
	h, ok := d.files[p]
	return h, ok
}

// paths returns every path, sorted (callers must not change the slice),
// and their render plan (lint.Discover): the disk index's, computed once
// for every snapshot over it, unless the open documents add or hide a
// path.
func (fs fileSet) paths() ([]string, lint.Plan) {
	base, plan := fs.disk.sortedPaths()
	var add []string
	hide := map[string]bool{}
	for p, h := range fs.over {
		_, onDisk := fs.disk.get(p)
		switch {
		case h != nil && !onDisk:
			add = append(add, p)
		case h == nil && onDisk:
			hide[p] = true
		}
	}
	if len(add) == 0 && len(hide) == 0 {
		return base, plan
	}
	out := make([]string, 0, len(base)+len(add))
	for _, p := range base {
		if !hide[p] {
			out = append(out, p)
		}
	}
	out = append(out, add...)
	slices.Sort(out)
	return out, lint.Discover(out)
}

// changedPaths returns the paths whose handle differs between a and b.
func changedFileSetPaths(a, b fileSet) []string {
	var out []string
	if a.disk == b.disk {
		seen := map[string]bool{}
		for _, m := range []map[string]*fileHandle{a.over, b.over} {
			for p := range m {
				if !seen[p] {
					seen[p] = true
					if a.get(p) != b.get(p) {
						out = append(out, p)
					}
				}
			}
		}
		return out
	}
	b.each(func(p string, h *fileHandle) {
		if a.get(p) != h {
			out = append(out, p)
		}
	})
	a.each(func(p string, _ *fileHandle) {
		if b.get(p) == nil {
			out = append(out, p)
		}
	})
	return out
}
