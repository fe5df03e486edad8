package fastyaml

import (
	"sync"

	yaml "go.yaml.in/yaml/v3"
)

// Arena records the node slabs of the documents parsed into it so that
// they can be reused once nothing holds their trees (manifest's
// Document.Release calls Recycle): a run over thousands of files then
// allocates node memory about once per worker instead of once per file,
// and the garbage collector has far less to do. The zero Arena is ready
// to use.
//
// Slabs come in size classes, and a document takes the smallest class
// that holds what it needs: a document of one line must not hold a 32 KiB
// slab until its file is released, or a file of 10,000 small documents
// holds 640 MB.
type Arena struct {
	nodes [][]yaml.Node
	ptrs  [][]*yaml.Node
}

var (
	nodeSlabs = newSlabPools[yaml.Node](slabNodes)
	ptrSlabs  = newSlabPools[*yaml.Node](slabPtrs)
)

// nodeSlab returns a slab of at least n nodes (at most a full slab).
func (a *Arena) nodeSlab(n int) []yaml.Node {
	s := nodeSlabs.get(n)
	a.nodes = append(a.nodes, s)
	return s
}

// ptrSlab returns a slab of at least n pointers (at most a full slab).
func (a *Arena) ptrSlab(n int) []*yaml.Node {
	s := ptrSlabs.get(n)
	a.ptrs = append(a.ptrs, s)
	return s
}

// Recycle zeroes the slabs (the parser takes nodes as zero values, and a
// stale pointer into a recycled tree must not read old data) and returns
// them to the pools. A nil arena has nothing to return.
func (a *Arena) Recycle() {
	if a == nil {
		return
	}
	for _, s := range a.nodes {
		nodeSlabs.put(s)
	}
	for _, s := range a.ptrs {
		ptrSlabs.put(s)
	}
	a.nodes, a.ptrs = nil, nil
}

// minSlab is the smallest slab class, in elements.
const minSlab = 16

// slabPools keeps recycled slabs by size class: 16, 32, 64... elements,
// the last class a full slab of max elements.
type slabPools[T any] struct {
	max   int
	pools []sync.Pool // pools[i] holds *[]T of size(i) elements
}

func newSlabPools[T any](max int) *slabPools[T] {
	n := 1
	for minSlab<<(n-1) < max {
		n++
	}
	return &slabPools[T]{max: max, pools: make([]sync.Pool, n)}
}

func (s *slabPools[T]) size(class int) int { return min(minSlab<<class, s.max) }

// class returns the smallest class that holds n elements.
func (s *slabPools[T]) class(n int) int {
	i := 0
	for i < len(s.pools)-1 && s.size(i) < n {
		i++
	}
	return i
}

func (s *slabPools[T]) get(n int) []T {
	i := s.class(n)
	if v := s.pools[i].Get(); v != nil {
		return *v.(*[]T)
	}
	return make([]T, s.size(i))
}

// put zeroes a slab taken from get and returns it to its class.
func (s *slabPools[T]) put(slab []T) {
	clear(slab)
	s.pools[s.class(len(slab))].Put(&slab)
}
