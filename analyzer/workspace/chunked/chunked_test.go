package chunked

import (
	"math/rand"
	"runtime"
	"slices"
	"sort"
	"testing"
	"unsafe"
)

// checkList compares a list with the slice it models, through every
// reader, and checks the chunks' invariants: none empty, each of Size/2
// to 3·Size/2 elements (the cut, From and Splice both make) unless the
// whole list is smaller, ends the running sums.
func checkList(t *testing.T, step int, l List[int], want []int, rng *rand.Rand) {
	t.Helper()
	if l.Len() != len(want) {
		t.Fatalf("step %d: Len %d, want %d", step, l.Len(), len(want))
	}
	var got []int
	for i, x := range l.All() {
		if i != len(got) {
			t.Fatalf("step %d: All gave index %d at position %d", step, i, len(got))
		}
		got = append(got, x)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("step %d: All gave %v, want %v", step, got, want)
	}
	end := 0
	for c, head := range l.chunks {
		ch := *head
		if len(ch) == 0 || (len(want) >= Size/2 && (len(ch) < Size/2 || len(ch) >= 3*Size/2)) {
			t.Fatalf("step %d: chunk %d of %d elements (list of %d)", step, c, len(ch), len(want))
		}
		end += len(ch)
		if int(l.ends[c]) != end {
			t.Fatalf("step %d: ends[%d] = %d, want %d", step, c, l.ends[c], end)
		}
	}
	if len(want) == 0 {
		return
	}
	for k := 0; k < 20; k++ {
		i := rng.Intn(len(want))
		if l.At(i) != want[i] {
			t.Fatalf("step %d: At(%d) = %d, want %d", step, i, l.At(i), want[i])
		}
		lo := rng.Intn(len(want) + 1)
		hi := lo + rng.Intn(len(want)-lo+1)
		if s := l.Slice(lo, hi); !slices.Equal(s, want[lo:hi]) || cap(s) != len(s) {
			t.Fatalf("step %d: Slice(%d, %d) = %v (cap %d), want %v", step, lo, hi, s, cap(s), want[lo:hi])
		}
		var r []int
		for j, x := range l.Range(lo, hi) {
			if j != lo+len(r) {
				t.Fatalf("step %d: Range(%d, %d) gave index %d at %d", step, lo, hi, j, lo+len(r))
			}
			r = append(r, x)
		}
		if !slices.Equal(r, want[lo:hi]) {
			t.Fatalf("step %d: Range(%d, %d) = %v, want %v", step, lo, hi, r, want[lo:hi])
		}
	}
}

// randomEdits returns up to four edits of a list of n elements, in index
// order, not overlapping: deletions, insertions and replacements, mostly
// of a few elements (an edit's), sometimes of hundreds (across chunks).
func randomEdits(rng *rand.Rand, n int, next *int) []Edit[int] {
	size := func() int {
		if rng.Intn(8) == 0 {
			return rng.Intn(3 * Size)
		}
		return rng.Intn(4)
	}
	var edits []Edit[int]
	at := 0
	for k := rng.Intn(4) + 1; k > 0 && at <= n; k-- {
		lo := at + rng.Intn(min(n-at, 2*Size)+1)
		if rng.Intn(3) == 0 {
			lo = at + rng.Intn(n-at+1)
		}
		hi := min(n, lo+size())
		var with []int
		for m := size(); m > 0; m-- {
			*next++
			with = append(with, *next)
		}
		edits = append(edits, Edit[int]{lo, hi, with})
		at = hi
	}
	return edits
}

// apply makes the edits on a copy of a slice: the model of Splice.
func apply(s []int, edits []Edit[int]) []int {
	var out []int
	at := 0
	for _, e := range edits {
		out = append(append(out, s[at:e.Lo]...), e.With...)
		at = e.Hi
	}
	return append(out, s[at:]...)
}

// TestSpliceMatchesSlice splices lists at random (a fixed source, so that a failure repeats) and
// compares each with a plain slice the same edits were made on; the
// list spliced from stays what it was (lists are immutable).
func TestSpliceMatchesSlice(t *testing.T) {
	rng := rand.New(rand.NewSource(19))
	for _, n0 := range []int{0, 1, 100, Size, 5*Size + 17, 40 * Size} {
		next := 0
		var model []int
		for ; next < n0; next++ {
			model = append(model, next)
		}
		l := From(slices.Clone(model))
		checkList(t, -1, l, model, rng)
		for step := 0; step < 400; step++ {
			edits := randomEdits(rng, len(model), &next)
			if rng.Intn(50) == 0 {
				edits = []Edit[int]{{0, len(model), nil}} // empties it
			}
			prev, prevModel := l, model
			l = l.Splice(edits...)
			model = apply(model, edits)
			checkList(t, step, l, model, rng)
			checkList(t, step, prev, prevModel, rng)
		}
	}
}

// TestSearch compares Search over a sorted list with sort.SearchInts
// over the same elements.
func TestSearch(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	var s []int
	for i := 0; i < 3000; i++ {
		s = append(s, rng.Intn(5000))
	}
	sort.Ints(s)
	l := From(slices.Clone(s))
	// Cut differently: a splice of the middle.
	l = l.Splice(Edit[int]{1000, 1010, slices.Clone(s[1000:1010])})
	for k := -1; k <= 5001; k++ {
		if got, want := l.Search(func(x int) bool { return x >= k }), sort.SearchInts(s, k); got != want {
			t.Fatalf("Search(>= %d) = %d, want %d", k, got, want)
		}
	}
	if got := (List[int]{}).Search(func(int) bool { return true }); got != 0 {
		t.Fatalf("Search of the empty list = %d", got)
	}
}

// TestSpliceSharesChunks checks that a splice of one element of a long
// list (an edit of one file of a workspace of 34,000) shares every chunk
// but the one it touches, and allocates the directory and that chunk:
// not a copy of the list.
func TestSpliceSharesChunks(t *testing.T) {
	const n = 34000
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	l := From(s)
	m := l.Splice(Edit[int]{n / 2, n/2 + 1, []int{-1}})
	if got := shared(l, m); got < len(l.chunks)-1 {
		t.Errorf("the splice of one element shares %d of %d chunks, want all but one", got, len(l.chunks))
	}
	if got := shared(l, l.Splice(Edit[int]{n, n, []int{-1}})); got < len(l.chunks)-1 {
		t.Errorf("an append shares %d of %d chunks, want all but one", got, len(l.chunks))
	}
	// The directory (a slice header and an end per chunk, two more
	// entries of room) and the touched chunk (at most 3·Size/2 elements,
	// with Size/8 of room): derived from Splice's code, doubled for the
	// allocator's size classes. A copy of the list is n·8 bytes, 272,000.
	dir := (len(l.chunks) + 2) * int(unsafe.Sizeof(&[]int{})+unsafe.Sizeof(int32(0)))
	chunk := (3*Size/2+Size/8)*int(unsafe.Sizeof(0)) + 2*int(unsafe.Sizeof([]int{}))
	bound := 2 * (dir + chunk)
	if bound >= n*8/4 {
		t.Fatalf("bound %d is no test", bound)
	}
	var before, after runtime.MemStats
	const runs = 100
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < runs; i++ {
		m = l.Splice(Edit[int]{i * 300, i*300 + 1, []int{-1}})
	}
	runtime.ReadMemStats(&after)
	if per := int(after.TotalAlloc-before.TotalAlloc) / runs; per > bound {
		t.Errorf("a splice of one element allocates %d bytes, want at most %d (the directory and one chunk)", per, bound)
	}
	if allocs := testing.AllocsPerRun(runs, func() { m = l.Splice(Edit[int]{n / 3, n / 3, []int{-1}}) }); allocs > 5 {
		t.Errorf("a splice of one element makes %v allocations, want at most 5 (directory, ends, one chunk, its regrowth, its slice header)", allocs)
	}
	_ = m
}

// shared returns the number of chunks of b that are chunks of a (the same
// elements in memory): what a splice kept of the list it was made from.
func shared[T any](a, b List[T]) int {
	in := make(map[*T]int, len(a.chunks))
	for _, ch := range a.chunks {
		in[&(*ch)[0]] = len(*ch)
	}
	n := 0
	for _, ch := range b.chunks {
		if in[&(*ch)[0]] == len(*ch) {
			n++
		}
	}
	return n
}
