package suggest

import (
	"strings"
	"testing"
)

// The distances are counted by hand: each case says which edits.
func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},               // three insertions
		{"kitten", "sitting", 3},     // k→s, e→i, +g
		{"margin", "margni", 2},      // a transposition is two substitutions
		{"dead-time", "deadtime", 1}, // one deletion
		{"café", "cafe", 1},          // é is one code point
		{"日本", "日本語", 1},
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := editDistance(c.b, c.a); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d (symmetric)", c.b, c.a, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	rules := []string{"latency-floor", "latency-target", "retry-trap", "tolerance-trap", "ceiling-trap"}
	for _, c := range []struct {
		s          string
		candidates []string
		want       string
	}{
		{"latency-flor", rules, "latency-floor"},    // 1 deletion
		{"LATENCY-FLOOR", rules, "latency-floor"},   // case ignored
		{"retry-trpa", rules, "retry-trap"},         // 2 edits
		{"latncy-trgt", rules, "latency-target"},    // 3 insertions, allowed past 8 bytes
		{"toleranse-trep", rules, "tolerance-trap"}, // 2 edits
		{"ceiling", rules, ""},                      // 5 edits from ceiling-trap
		{"xyz", rules, ""},
		{"maxReplica", []string{"maxReplicas", "minReplicas"}, "maxReplicas"},
		{"mn", []string{"min", "max"}, "min"},             // 1 insertion; max needs 2 edits
		{"ab", []string{"ac", "ad"}, "ac"},                // a tie: the first in byte order
		{"ab", []string{"ad", "ac"}, "ac"},                // whatever the order given
		{"a", []string{"b"}, ""},                          // 1 edit is not fewer than 1 byte
		{"abcd", []string{"wxyz"}, ""},                    // 4 edits: over the limit of 2
		{"abcdefghi", []string{"abcdefxyz"}, "abcdefxyz"}, // 3 edits, 9 bytes
		{"abcdefgh", []string{"abcdexyz"}, ""},            // 3 edits, 8 bytes: over 2
		{"x", nil, ""},
	} {
		if got := Closest(c.s, c.candidates); got != c.want {
			t.Errorf("Closest(%q, %q) = %q, want %q", c.s, c.candidates, got, c.want)
		}
	}
}

// TestEditDistanceLong checks the distance of names longer than the
// stack buffers, against the same names' distance counted by hand: a
// prefix of 70 equal code points changes nothing.
func TestEditDistanceLong(t *testing.T) {
	long := strings.Repeat("é", 70)
	for _, c := range []struct {
		a, b string
		want int
	}{
		{long + "kitten", long + "sitting", 3}, // k->s, e->i, +g
		{long, "", 70},
		{"", long, 70},
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%d code points, %d code points) = %d, want %d", len([]rune(c.a)), len([]rune(c.b)), got, c.want)
		}
	}
}

// TestEditDistanceAllocates checks that the distance of names allocates
// nothing: the language server computes it for every annotation of the
// edited file at each edit.
func TestEditDistanceAllocates(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { editDistance("scalelint.dev/dead-tmie", "scalelint.dev/dead-time") }); n != 0 {
		t.Errorf("editDistance allocates %v times, want 0", n)
	}
}
