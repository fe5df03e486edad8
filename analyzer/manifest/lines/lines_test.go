package lines

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// TestPackedAsStarts checks a packed table against the plain model, the
// table of starts it was packed from (Start: the start itself; LineOf:
// sort.Search over the starts), on tables of more lines than a mark
// spans (Stride) and of lines whose lengths take one, two and three
// uvarint bytes (under 128, under 16,384, more), with empty lines.
func TestPackedAsStarts(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 4))
	lengths := []int{0, 1, 5, 40, 126, 127, 128, 129, 300, 16382, 16383, 16384, 20000}
	for round := 0; round < 60; round++ {
		starts := []int{0}
		for range rng.IntN(5 * Stride) {
			n := lengths[rng.IntN(len(lengths))]
			if rng.IntN(4) > 0 {
				n = rng.IntN(90) // mostly manifest-like lines
			}
			starts = append(starts, starts[len(starts)-1]+n+1) // +1: the line break
		}
		p, ok := Pack(starts)
		if !ok || p.Len() != len(starts) {
			t.Fatalf("round %d: packed %v, %d lines, want %d", round, ok, p.Len(), len(starts))
		}
		for i, want := range starts {
			if got := p.Start(i); got != want {
				t.Fatalf("round %d: Start(%d) = %d, want %d", round, i, got, want)
			}
		}
		for off := -1; off <= starts[len(starts)-1]+2; off++ {
			want := sort.Search(len(starts), func(i int) bool { return starts[i] > off }) - 1
			if got := p.LineOf(off); got != want {
				t.Fatalf("round %d: LineOf(%d) = %d, want %d", round, off, got, want)
			}
		}
	}
}

// TestPackLimits: an empty table packs to no line; a start past 4 GiB,
// which a mark cannot hold, does not pack; 32-bit starts pack as 64-bit
// ones do.
func TestPackLimits(t *testing.T) {
	if p, ok := Pack([]int{}); !ok || p.Len() != 0 || p.LineOf(0) != -1 {
		t.Errorf("empty table: %v %+v", ok, p)
	}
	if _, ok := Pack([]int{0, 1 << 33}); ok {
		t.Errorf("a start past 4 GiB packed")
	}
	a, _ := Pack([]int{0, 5, 300, 301})
	b, _ := Pack([]uint32{0, 5, 300, 301})
	for off := 0; off < 310; off++ {
		if a.LineOf(off) != b.LineOf(off) {
			t.Fatalf("LineOf(%d): %d from ints, %d from uint32s", off, a.LineOf(off), b.LineOf(off))
		}
	}
}
