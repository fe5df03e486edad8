package laws

import (
	"math"
	"testing"
)

// rules/laws/README.md §3.4.
func TestRetryTrap(t *testing.T) {
	for _, c := range []struct {
		retries []int
		a       float64
	}{{[]int{2}, 3}, {[]int{2, 2}, 9}, {nil, 1}, {[]int{0}, 1}, {[]int{3, 1}, 8}} {
		if got := Amplification(c.retries); got != c.a {
			t.Errorf("Amplification(%v) = %g, want %g", c.retries, got, c.a)
		}
	}
	if got := Amplification([]int{2, -1}); !math.IsNaN(got) {
		t.Errorf("Amplification with a negative count = %g, want NaN", got)
	}
	// §3.4: a retrying gateway in front, A = 9, 1/A = 0.111.
	if got := TrapTarget(9); !near(got, 0.111, 2e-3) {
		t.Errorf("TrapTarget(9) = %g, want 0.111", got)
	}
	// §3.4: two retries, A = 3, every target ≥ 33.4% is trapped.
	for _, c := range []struct {
		target, a float64
		bound     bool
		want      bool
	}{
		{0.334, 3, false, true},
		{0.333, 3, false, false},
		{1.0 / 3, 3, false, true}, // A·ρ ≥ 1 is inclusive
		{0.8, 3, false, true},
		{0.8, 3, true, false}, // a bound shorter than the timeout removes the debt
		{0.112, 9, false, true},
		{0.111, 9, false, false},
		{0.99, 1, false, false},
		{1.0, 1, false, true},
	} {
		if got := RetryTrapped(c.target, c.a, c.bound); got != c.want {
			t.Errorf("RetryTrapped(%g, %g, %v) = %v, want %v", c.target, c.a, c.bound, got, c.want)
		}
	}
	// The trigger (§3.1): a 10 s timeout over a 90 s dead time, about 11%.
	if got := TriggerOverload(10, 90); !near(got, 0.111, 2e-3) {
		t.Errorf("TriggerOverload(10, 90) = %g, want 0.111", got)
	}
	if got := TriggerOverload(10, 0); !math.IsNaN(got) {
		t.Errorf("TriggerOverload(10, 0) = %g, want NaN", got)
	}
}
