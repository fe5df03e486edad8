package rules

import "testing"

// TestPercentPhrase: the article follows how the number is said in
// English ("an eighty", "an eleven", "a seventy", "a one hundred").
func TestPercentPhrase(t *testing.T) {
	for v, want := range map[float64]string{
		70: "a 70%", 80: "an 80%", 8: "an 8%", 85.5: "an 85.5%", 11: "an 11%", 18: "an 18%",
		110: "a 110%", 100: "a 100%", 1: "a 1%", 800: "an 800%",
	} {
		if got := percentPhrase(v); got != want {
			t.Errorf("percentPhrase(%g) = %q, want %q", v, got, want)
		}
	}
}
