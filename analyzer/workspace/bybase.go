package workspace

import (
	"maps"
	"slices"
	"sort"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// byBase is every file of a workspace by token.File base (FileOf's index).
// A workspace made by With shares its base's sorted list and holds what
// the edit changed apart (the files it removed, those it added): a copy
// of the list per edit, tens of thousands of pointers, was the largest
// allocation of a language server's edit. Once the difference is a
// sixteenth of the list, With builds a list of its own.
type byBase struct {
	files []*manifest.File        // sorted by base; shared: never written
	gone  map[*manifest.File]bool // files of files not in the workspace
	added []*manifest.File        // sorted by base; none in files
	n     int                     // the number of files
}

func newByBase(files []*manifest.File) byBase {
	sorted := slices.Clone(files)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Tok.Base() < sorted[j].Tok.Base() })
	return byBase{files: sorted, n: len(sorted)}
}

// search returns the file of list, sorted by base, whose range holds p.
func search(list []*manifest.File, p int) *manifest.File {
	i := sort.Search(len(list), func(i int) bool { return list[i].Tok.Base() > p }) - 1
	if i < 0 {
		return nil
	}
	if f := list[i]; p <= f.Tok.Base()+f.Tok.Size() {
		return f
	}
	return nil
}

// find returns the file whose range holds p, or nil.
func (b *byBase) find(p int) *manifest.File {
	if f := search(b.added, p); f != nil {
		return f
	}
	if f := search(b.files, p); f != nil && !b.gone[f] {
		return f
	}
	return nil
}

// each calls f for every file in base order.
func (b *byBase) each(f func(*manifest.File)) {
	i := 0
	for _, a := range b.added {
		for ; i < len(b.files) && b.files[i].Tok.Base() < a.Tok.Base(); i++ {
			if !b.gone[b.files[i]] {
				f(b.files[i])
			}
		}
		f(a)
	}
	for ; i < len(b.files); i++ {
		if !b.gone[b.files[i]] {
			f(b.files[i])
		}
	}
}

// holds reports whether list, sorted by base, holds f.
func holds(list []*manifest.File, f *manifest.File) (int, bool) {
	i := sort.Search(len(list), func(i int) bool { return list[i].Tok.Base() >= f.Tok.Base() })
	return i, i < len(list) && list[i] == f
}

// with returns the index without the files of gone, then with those of
// add (a file may be in both: an unchanged document of an edited file).
func (b *byBase) with(gone map[*manifest.File]bool, add []*manifest.File) byBase {
	out := byBase{files: b.files, gone: maps.Clone(b.gone), added: slices.Clone(b.added), n: b.n}
	if out.gone == nil {
		out.gone = map[*manifest.File]bool{}
	}
	for f := range gone {
		if i, ok := holds(out.added, f); ok {
			out.added = slices.Delete(out.added, i, i+1)
			out.n--
		} else if _, ok := holds(out.files, f); ok && !out.gone[f] {
			out.gone[f] = true
			out.n--
		}
	}
	for _, f := range add {
		if _, ok := holds(out.files, f); ok && out.gone[f] {
			delete(out.gone, f)
		} else {
			i, _ := holds(out.added, f)
			out.added = slices.Insert(out.added, i, f)
		}
		out.n++
	}
	if len(out.gone)+len(out.added) > len(out.files)/16 {
		files := make([]*manifest.File, 0, out.n)
		out.each(func(f *manifest.File) { files = append(files, f) })
		return byBase{files: files, n: len(files)}
	}
	return out
}
