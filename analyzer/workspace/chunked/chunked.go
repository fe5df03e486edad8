// Package chunked is an immutable list stored in chunks that lists made
// from one another share: the form of a workspace's lists (its files,
// objects and autoscalers, tens of thousands at 10,000 services) that an
// edit derives the next workspace's from.
//
// A language server makes a workspace per edit (workspace.With). With
// plain slices each edit copied every list, a few hundred kilobytes of
// garbage per keystroke, and the collector that garbage set off marked
// the whole live index while edits ran (the slowest edits were those
// that ran during a collection). A List is a directory of chunks of about
// Size elements; Splice copies the directory (a pointer and a length per
// chunk) and rebuilds only the chunks an edit touches, so what an edit
// allocates depends on the edit, not on the list.
//
// Data flow:
//
//	[]T -> From (chunks are slices of it, nothing copied)
//	List + edits (index ranges replaced, in index order) -> Splice -> List
//	    (the unchanged chunks shared, the touched ones copied and cut
//	    again into chunks of Size/2 to 2·Size elements)
//	List -> Len, At, All, Search, Slice (reads; a list never changes)
package chunked

import (
	"iter"
	"sort"
)

// Size is the number of elements a chunk is cut to. A splice copies the
// chunks it touches (a few times Size elements) and the directory (one
// entry per Size elements): 256 keeps both a few kilobytes at the sizes
// a workspace reaches.
const Size = 256

// List is an immutable list of T. The zero value is the empty list. A
// List is a small value: copy it freely.
type List[T any] struct {
	// chunks are each non-empty, never written once in a list. A
	// pointer and an int32 per chunk (12 bytes, not a slice header and
	// an int, 32) make the directory a splice copies small.
	chunks []*[]T
	ends   []int32 // ends[i]: the elements in chunks[0..i]
}

// From returns the list of the elements of s, whose chunks are slices of
// s: the caller must not change s afterwards.
func From[T any](s []T) List[T] {
	if len(s) == 0 {
		return List[T]{}
	}
	var l List[T]
	l.appendCut(s)
	return l
}

// appendCut adds s to the list's directory, in chunks of about Size
// elements (slices of s, their capacity clipped).
func (l *List[T]) appendCut(s []T) {
	n := len(s)
	if n == 0 {
		return
	}
	k := max(1, (n+Size/2)/Size) // chunks of Size/2 to 3·Size/2 elements
	end := l.Len()
	heads := make([][]T, k)
	for i := range heads {
		lo, hi := n*i/k, n*(i+1)/k
		heads[i] = s[lo:hi:hi]
		end += hi - lo
		l.chunks = append(l.chunks, &heads[i])
		l.ends = append(l.ends, int32(end))
	}
}

// Len returns the number of elements.
func (l List[T]) Len() int {
	if len(l.ends) == 0 {
		return 0
	}
	return int(l.ends[len(l.ends)-1])
}

// chunkOf returns the chunk that holds index i (0 <= i < Len), and the
// index of its first element.
func (l List[T]) chunkOf(i int) (int, int) {
	c := sort.Search(len(l.ends), func(c int) bool { return int(l.ends[c]) > i })
	return c, l.end(c) - len(*l.chunks[c])
}

// end returns the index after chunk c's last element.
func (l List[T]) end(c int) int { return int(l.ends[c]) }

// chunk returns chunk c's elements.
func (l List[T]) chunk(c int) []T {
	return *l.chunks[c]
}

// At returns the element at index i; it panics when i is out of range,
// as indexing a slice does.
func (l List[T]) At(i int) T {
	if i < 0 || i >= l.Len() {
		panic("chunked: index out of range")
	}
	c, start := l.chunkOf(i)
	return l.chunk(c)[i-start]
}

// All returns the elements with their indexes, in order.
func (l List[T]) All() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		i := 0
		for _, ch := range l.chunks {
			for _, x := range *ch {
				if !yield(i, x) {
					return
				}
				i++
			}
		}
	}
}

// Range returns the elements of indexes lo to hi (excluded), with their
// indexes, in order.
func (l List[T]) Range(lo, hi int) iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		if lo >= hi || lo < 0 || hi > l.Len() {
			return
		}
		c, start := l.chunkOf(lo)
		for i := lo; i < hi; c, start = c+1, l.end(c) {
			for _, x := range l.chunk(c)[i-start : min(hi, l.end(c))-start] {
				if !yield(i, x) {
					return
				}
				i++
			}
		}
	}
}

// Slice returns the elements of indexes lo to hi (excluded) as a slice:
// one of the list's chunks when they lie in one (its capacity clipped, so
// that an append copies), else a copy.
func (l List[T]) Slice(lo, hi int) []T {
	if lo < 0 || hi > l.Len() || lo > hi {
		panic("chunked: slice bounds out of range")
	}
	if lo == hi {
		return nil
	}
	c, start := l.chunkOf(lo)
	if hi <= l.end(c) {
		return l.chunk(c)[lo-start : hi-start : hi-start]
	}
	out := make([]T, 0, hi-lo)
	for _, x := range l.Range(lo, hi) {
		out = append(out, x)
	}
	return out
}

// Search returns the least index i at which f(At(i)) is true, or Len when
// there is none, assuming that f is false and then true along the list
// (sort.Search): a search of a list sorted by a key. It reads the last
// element of O(log(Len/Size)) chunks, then searches one chunk.
func (l List[T]) Search(f func(T) bool) int {
	c := sort.Search(len(l.chunks), func(c int) bool { ch := l.chunk(c); return f(ch[len(ch)-1]) })
	if c == len(l.chunks) {
		return l.Len()
	}
	ch := l.chunk(c)
	return l.end(c) - len(ch) + sort.Search(len(ch), func(i int) bool { return f(ch[i]) })
}

// Edit replaces the elements of indexes Lo to Hi (excluded) with With: a
// deletion when With is empty, an insertion before index Lo when Hi is
// Lo.
type Edit[T any] struct {
	Lo, Hi int
	With   []T
}

// Splice returns the list with the edits made, each on the indexes of l.
// The edits must be in index order and not overlap (an edit's Lo at least
// the previous one's Hi; two insertions at one index are made in the
// order given). l is not changed. The chunks no edit touches are shared
// with l; the touched ones are copied, with With's elements (the result
// does not share With), and cut again into chunks of about Size elements,
// merged with a neighbour when too small.
func (l List[T]) Splice(edits ...Edit[T]) List[T] {
	n := l.Len()
	prev := 0
	for _, e := range edits {
		if e.Lo < prev || e.Hi < e.Lo || e.Hi > n {
			panic("chunked: edits out of range or out of order")
		}
		prev = e.Hi
	}
	if len(edits) == 0 {
		return l
	}
	out := List[T]{chunks: make([]*[]T, 0, len(l.chunks)+2), ends: make([]int32, 0, len(l.chunks)+2)}
	var pending []T // the elements of touched chunks, not yet cut
	flush := func() {
		out.appendCut(pending)
		pending = nil
	}
	ei := 0
	skip := 0 // elements of l before skip are replaced
	touches := func(start, end int) bool {
		if ei == len(edits) {
			return false
		}
		e := edits[ei]
		return e.Lo < end || (e.Lo == end && end == n)
	}
	for c, head := range l.chunks {
		ch := *head
		start, end := l.end(c)-len(ch), l.end(c)
		if pending == nil && skip <= start && !touches(start, end) {
			out.chunks = append(out.chunks, head)
			out.ends = append(out.ends, int32(out.Len()+len(ch)))
			continue
		}
		if pending == nil {
			// Room for the chunk and what the edits that start in it
			// insert: exact for an edit that replaces as many elements
			// as it removes, the usual one; a run that goes on into the
			// next chunk grows it.
			extra := 0
			for _, e := range edits[ei:] {
				if e.Lo > end {
					break
				}
				extra += len(e.With)
			}
			pending = make([]T, 0, len(ch)+extra)
		}
		for i := start; i <= end; i++ {
			for ei < len(edits) && edits[ei].Lo == i {
				pending = append(pending, edits[ei].With...)
				skip = max(skip, edits[ei].Hi)
				ei++
			}
			if i < end && i >= skip {
				pending = append(pending, ch[i-start])
			}
		}
		// A run of touched chunks ends once no edit is under way and
		// it is large enough to stand as a chunk (else the next chunk
		// joins it).
		if skip <= end && len(pending) >= Size/2 {
			flush()
		}
	}
	if n == 0 {
		for _, e := range edits {
			pending = append(pending, e.With...)
		}
	}
	if len(pending) > 0 && len(pending) < Size/2 && len(out.chunks) > 0 {
		// Too small to stand alone: the last chunk joins it.
		last := *out.chunks[len(out.chunks)-1]
		out.chunks, out.ends = out.chunks[:len(out.chunks)-1], out.ends[:len(out.ends)-1]
		pending = append(append(make([]T, 0, len(last)+len(pending)), last...), pending...)
	}
	flush()
	return out
}
