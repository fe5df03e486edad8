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

// TestClosestAsBefore: Closest, which skips candidates too long or short
// to be near enough and lowers code points as it compares them,
// returns what the plain computation returns (every candidate's distance
// from the lowered strings, the nearest within the limits), on names
// mixing case, lengths and non-ASCII letters.
func TestClosestAsBefore(t *testing.T) {
	plain := func(s string, candidates []string) string {
		best, bestD := "", 1<<62
		for _, c := range candidates {
			d := editDistance(strings.ToLower(s), strings.ToLower(c))
			if d < bestD || (d == bestD && c < best) {
				best, bestD = c, d
			}
		}
		limit := 2
		if len(s) > 8 {
			limit = 3
		}
		if bestD <= limit && bestD < len(s) {
			return best
		}
		return ""
	}
	names := []string{"", "a", "ab", "AB", "min", "maxReplicas", "MaxReplica", "minReplicas", "target-utilization",
		"targetUtilization", "tolerance", "Tolerance-Trap", "café", "CAFÉ", "cafe", "日本", "日本語", "scaleTargetRef",
		"scaletargetref", "scaleTargetRefs", "kind", "Kind", "kinds", "apiVersion", "apiversion", "apiVersions",
		"a-very-long-annotation-name-of-seventy-bytes-or-so-to-pass-the-stack-rows", "a-very-long-annotation-name-of-seventy-bytes-or-so-to-pass-the-stack-row"}
	for _, s := range names {
		for i := range names {
			for j := i; j <= len(names) && j <= i+4; j++ {
				candidates := names[i:j]
				if got, want := Closest(s, candidates), plain(s, candidates); got != want {
					t.Errorf("Closest(%q, %q) = %q, want %q", s, candidates, got, want)
				}
			}
		}
	}
}

// TestClosestAllocates checks that Closest allocates nothing, on ASCII and
// other names alike (it lowered non-ASCII names with strings.ToLower).
func TestClosestAllocates(t *testing.T) {
	candidates := []string{"scalelint.dev/dead-time", "scalelint.dev/pod-rate", "Café-Größe"}
	for _, s := range []string{"scalelint.dev/dead-tmie", "CAFÉ-GRÖSSE"} {
		if n := testing.AllocsPerRun(100, func() { Closest(s, candidates) }); n != 0 {
			t.Errorf("Closest(%q) allocates %v times, want 0", s, n)
		}
	}
}
