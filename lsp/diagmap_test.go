package lsp

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
)

// TestDiagMapMatchesMap: a chain of derivations (drops and fresh findings,
// as edits make them, some flattening the base) holds what a plain map
// changed the same way holds, and every earlier link is left as it was.
func TestDiagMapMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	path := func() string { return fmt.Sprintf("/ws/f%d.yaml", r.IntN(60)) }
	model := map[string]*fileDiags{}
	for range 40 {
		model[path()] = &fileDiags{}
	}
	d := newDiagMap(maps.Clone(model))
	type link struct {
		d     diagMap
		model map[string]*fileDiags
	}
	var chain []link
	for range 300 {
		drop, fresh := map[string]bool{}, map[string]*fileDiags{}
		for range r.IntN(4) {
			drop[path()] = true
		}
		for range r.IntN(3) {
			fresh[path()] = &fileDiags{}
		}
		if r.IntN(10) == 0 {
			drop[""] = true
			fresh[""] = &fileDiags{}
		}
		chain = append(chain, link{d, maps.Clone(model)})
		d = d.with(drop, fresh)
		for p := range drop {
			delete(model, p)
		}
		maps.Copy(model, fresh)
	}
	chain = append(chain, link{d, model})
	for i, l := range chain {
		got := map[string]*fileDiags{}
		l.d.each(func(p string, fd *fileDiags) {
			if _, dup := got[p]; dup {
				t.Errorf("link %d: %s listed twice", i, p)
			}
			got[p] = fd
		})
		if !maps.Equal(got, l.model) || l.d.len() != len(l.model) {
			t.Fatalf("link %d: %d paths (len %d), want %d", i, len(got), l.d.len(), len(l.model))
		}
		for p, fd := range l.model {
			if l.d.get(p) != fd {
				t.Fatalf("link %d: get(%s) differs", i, p)
			}
		}
		if l.d.get("/ws/none.yaml") != nil {
			t.Fatalf("link %d: findings for a path never set", i)
		}
	}
}
