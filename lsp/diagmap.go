package lsp

import "maps"

// diagMap holds a snapshot's findings by file path ("" for none). A
// snapshot derived from another shares its base's map and holds only
// what its lint changed: copying the findings of every file of a large
// workspace on each edit was the largest allocation of an edit after the
// index's own (a tenth of a megabyte per thousand files with findings).
// A diagMap is immutable.
type diagMap struct {
	base map[string]*fileDiags // shared with other snapshots: never written
	// over holds the paths that differ from base: their findings, or nil
	// for none (a path base holds that lost them).
	over map[string]*fileDiags
	n    int // the paths with findings
}

// newDiagMap returns the diagMap of m, which it takes over.
func newDiagMap(m map[string]*fileDiags) diagMap { return diagMap{base: m, n: len(m)} }

// get returns a path's findings, or nil.
func (d diagMap) get(p string) *fileDiags {
	if fd, ok := d.over[p]; ok {
		return fd
	}
	return d.base[p]
}

// len returns the number of paths with findings.
func (d diagMap) len() int { return d.n }

// each calls f for every path with findings, in no order.
func (d diagMap) each(f func(p string, fd *fileDiags)) {
	for p, fd := range d.base {
		if _, ok := d.over[p]; !ok {
			f(p, fd)
		}
	}
	for p, fd := range d.over {
		if fd != nil {
			f(p, fd)
		}
	}
}

// with returns d with the findings of the paths in drop removed, then
// those of fresh set. The paths that differ from the shared base are
// copied, not the base; once they are an eighth of it, the result gets
// a base of its own, so that a long session does not copy a growing
// difference on each edit.
func (d diagMap) with(drop map[string]bool, fresh map[string]*fileDiags) diagMap {
	out := diagMap{base: d.base, over: make(map[string]*fileDiags, len(d.over)+len(drop)+len(fresh)), n: d.n}
	maps.Copy(out.over, d.over)
	set := func(p string, fd *fileDiags) {
		if (out.get(p) != nil) != (fd != nil) {
			if fd != nil {
				out.n++
			} else {
				out.n--
			}
		}
		if _, inBase := out.base[p]; fd == nil && !inBase {
			delete(out.over, p)
			return
		}
		out.over[p] = fd
	}
	for p := range drop {
		set(p, nil)
	}
	for p, fd := range fresh {
		set(p, fd)
	}
	if len(out.over) > len(out.base)/8 {
		flat := make(map[string]*fileDiags, out.n)
		out.each(func(p string, fd *fileDiags) { flat[p] = fd })
		return newDiagMap(flat)
	}
	return out
}
