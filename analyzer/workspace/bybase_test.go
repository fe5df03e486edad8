package workspace

import (
	"go/token"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// TestByBaseMatchesSortedList: a chain of With-like changes (files
// removed, new ones added, a removed one added back as an edit's
// unchanged document is) finds every position's file, and lists the files
// in base order, as one sorted list (what New builds) does; every earlier
// link is left as it was.
func TestByBaseMatchesSortedList(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	fset := token.NewFileSet()
	newFile := func() *manifest.File { return &manifest.File{Tok: fset.AddFile("f.yaml", -1, 1+r.IntN(50))} }
	var pool []*manifest.File // every file made, to add back
	var model []*manifest.File
	for range 100 {
		f := newFile()
		pool = append(pool, f)
		model = append(model, f)
	}
	r.Shuffle(len(model), func(i, j int) { model[i], model[j] = model[j], model[i] })
	b := newByBase(model)
	sortByBase := func(l []*manifest.File) {
		sort.Slice(l, func(i, j int) bool { return l[i].Tok.Base() < l[j].Tok.Base() })
	}
	sortByBase(model)
	type link struct {
		b     byBase
		model []*manifest.File
	}
	var chain []link
	for range 200 {
		chain = append(chain, link{b, slices.Clone(model)})
		gone := map[*manifest.File]bool{}
		for range r.IntN(3) {
			if len(model) > 0 {
				gone[model[r.IntN(len(model))]] = true
			}
		}
		var add []*manifest.File
		for f := range gone {
			if r.IntN(3) == 0 {
				add = append(add, f) // kept: in gone and in add
			}
		}
		for range r.IntN(3) {
			f := newFile()
			pool = append(pool, f)
			add = append(add, f)
		}
		if f := pool[r.IntN(len(pool))]; r.IntN(4) == 0 && !slices.Contains(model, f) && !slices.Contains(add, f) {
			add = append(add, f) // an earlier parse again
		}
		b = b.with(gone, add)
		model = slices.DeleteFunc(model, func(f *manifest.File) bool { return gone[f] })
		model = append(model, add...)
		sortByBase(model)
	}
	chain = append(chain, link{b, model})
	end := fset.Base()
	for i, l := range chain {
		var got []*manifest.File
		l.b.each(func(f *manifest.File) { got = append(got, f) })
		if !slices.Equal(got, l.model) {
			t.Fatalf("link %d: each lists %d files, want %d in base order", i, len(got), len(l.model))
		}
		for p := 0; p <= end; p++ {
			var want *manifest.File
			for _, f := range l.model {
				if p >= f.Tok.Base() && p <= f.Tok.Base()+f.Tok.Size() {
					want = f
				}
			}
			if got := l.b.find(p); got != want {
				t.Fatalf("link %d: find(%d) = %v, want %v", i, p, got, want)
			}
		}
	}
}
