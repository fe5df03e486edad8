package lsp

import (
	"testing"

	"github.com/scalelint/scalelint/rules"
)

// TestEscapes: the hover's verdict for a trapped growth factor names the
// fixes that exist (rules.GrowthEval: 0 is none; rules/laws: EscapeTarget,
// EscapeLimit), never "target ≤ 0%" or a limit at or below today's.
func TestEscapes(t *testing.T) {
	for _, c := range []struct {
		g    rules.GrowthEval
		want string
	}{
		// rules/laws/README.md §1.4: ℓ = r = 1 core at 95%.
		{rules.GrowthEval{Limit: 1, FixTarget: 90, FixLimit: 1.05}, ": target ≤ 90% or CPU limit ≥ 1.05 escapes"},
		{rules.GrowthEval{Limit: 1, FixTarget: 181}, ": target ≤ 181% escapes"},
		{rules.GrowthEval{Limit: 0.001, FixLimit: 0.445}, ": CPU limit ≥ 0.445 escapes"},
		{rules.GrowthEval{Limit: 2200000.001}, ": no target and no CPU limit the controller can hold escapes"},
	} {
		if got := escapes(&c.g); got != c.want {
			t.Errorf("escapes(%+v) = %q, want %q", c.g, got, c.want)
		}
	}
}
