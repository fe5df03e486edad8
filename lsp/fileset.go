package lsp

import "sort"

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

// paths returns every path, sorted.
func (fs fileSet) paths() []string {
	var out []string
	fs.each(func(p string, _ *fileHandle) { out = append(out, p) })
	sort.Strings(out)
	return out
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
