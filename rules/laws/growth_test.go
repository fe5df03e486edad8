package laws

import (
	"math"
	"testing"
)

func near(got, want, relTol float64) bool {
	return math.Abs(got-want) <= relTol*math.Abs(want)
}

// Growth factors and rounds with ℓ = r (rules/laws/README.md §1.2, §1.4). The
// 2.3-, 6.9- and 31.3-fold cases at 50% are the blog series' heavy-tailed
// overloads (README.md §9), whose published times to capacity, 105 s, 240 s
// and 480 s, are one, two and four rounds.
func TestGrowthFactorAndRounds(t *testing.T) {
	for _, c := range []struct {
		target, k float64
		g         float64
		rounds    int
	}{
		// §1.4: fifteen rounds for a thirtyfold overload at the API's
		// default target
		{0.8, 30, 1.25, 15},
		// §1.4: a tenfold overload at 50% needs 3 rounds
		{0.5, 10, 2, 3},
		// 2.3-fold → 1, 6.9-fold → 2, 31.3-fold → 4, 1.5-fold → 0 (k ≤ g)
		{0.5, 2.3, 2, 1},
		{0.5, 6.9, 2, 2},
		{0.5, 31.3, 2, 4},
		{0.5, 1.5, 2, 0},
		// u* = 0.9, k = 2: ⌈log_1.111(1.8)⌉ = ⌈5.6⌉ = 6
		{0.9, 2, 1 / 0.9, 6},
	} {
		g := growthFactor(1, 1, c.target)
		if !near(g, c.g, 1e-12) {
			t.Errorf("growthFactor(1, 1, %g) = %g, want %g", c.target, g, c.g)
		}
		if n := Rounds(g, c.k); n != c.rounds {
			t.Errorf("Rounds(%g, %g) = %d, want %d", g, c.k, n, c.rounds)
		}
	}
}

func TestRoundsEdges(t *testing.T) {
	// k/g an exact power of g: 8/2 = 4 = 2², two rounds, not three.
	if n := Rounds(2, 8); n != 2 {
		t.Errorf("Rounds(2, 8) = %d, want 2", n)
	}
	if n := Rounds(2, 16); n != 3 {
		t.Errorf("Rounds(2, 16) = %d, want 3", n)
	}
	if n := Rounds(1.25, 1.25*1.25*1.25*1.25); n != 3 {
		t.Errorf("Rounds(1.25, 1.25⁴) = %d, want 3", n)
	}
	// k = g: the held capacity meets it.
	if n := Rounds(2, 2); n != 0 {
		t.Errorf("Rounds(2, 2) = %d, want 0", n)
	}
	for _, g := range []float64{1, 0.9, 0, -1, math.NaN()} {
		if n := Rounds(g, 10); n != -1 {
			t.Errorf("Rounds(%g, 10) = %d, want -1 (never)", g, n)
		}
	}
	if n := Rounds(2, math.NaN()); n != -1 {
		t.Errorf("Rounds(2, NaN) = %d, want -1", n)
	}
	if got := TimeToCapacity(15, 90, 30); got != 1800 {
		t.Errorf("TimeToCapacity(15, 90, 30) = %g, want 1800", got)
	}
	if got := TimeToCapacity(-1, 90, 30); !math.IsInf(got, 1) {
		t.Errorf("TimeToCapacity(-1, …) = %g, want +Inf", got)
	}
	for _, g := range []float64{growthFactor(1, 0, 0.5), growthFactor(1, 1, 0), growthFactor(-1, 1, 0.5)} {
		if !math.IsNaN(g) {
			t.Errorf("GrowthFactor with a non-positive request or target = %g, want NaN", g)
		}
	}
}

// rules/laws/README.md §1.4: with ℓ = r and the default tolerance every
// target ≥ 91% is trapped, because the controller truncates utilization to a
// whole percent (100/91 = 1.0989); at 90%, g = 1.111 escapes.
func TestToleranceTrap(t *testing.T) {
	if g := growthFactor(1, 1, 0.91); !ToleranceTrapped(g, defaultTolerance) {
		t.Errorf("u* = 0.91: g = %g not trapped", g)
	}
	if g := growthFactor(1, 1, 0.90); ToleranceTrapped(g, defaultTolerance) || !near(g, 1.111, 1e-3) {
		t.Errorf("u* = 0.90: g = %g, trapped %v; want 1.111, not trapped", g, ToleranceTrapped(g, defaultTolerance))
	}
	for pct := 1; pct <= 100; pct++ {
		g := ControllerGrowthFactor(1, 1, pct)
		if want := pct >= 91; ToleranceTrapped(g, defaultTolerance) != want {
			t.Errorf("target %d%%: g = %g, trapped %v, want %v", pct, g, !want, want)
		}
	}
	// the band test is inclusive: g = 1.1 against 1 + 0.1
	if !ToleranceTrapped(1.1, 0.1) || !ToleranceTrapped(0.99/0.9, 0.1) {
		t.Error("g = 1.1 with tolerance 0.1 must be trapped (inclusive band)")
	}
	if ToleranceTrapped(1.1+1e-6, 0.1) {
		t.Error("g = 1.100001 with tolerance 0.1 must not be trapped")
	}
	// Throttled pods reading 99% trap a 90% target: 99/90 = 1.1 is inside
	// the inclusive band (README.md §1.1).
	if g := ControllerGrowthFactor(0.999, 1, 90); g != 1.1 || !ToleranceTrapped(g, 0.1) {
		t.Errorf("ControllerGrowthFactor(0.999, 1, 90) = %g, want 1.1 and trapped", g)
	}
	if g := ControllerGrowthFactor(1.5, 1, 80); g != 1.875 {
		t.Errorf("ControllerGrowthFactor(1.5, 1, 80) = %g, want 1.875", g)
	}
	// 0.29 cores is 290m: exactly 29%, not 28 by float error.
	if g := ControllerGrowthFactor(0.29, 1, 29); g != 1 {
		t.Errorf("ControllerGrowthFactor(0.29, 1, 29) = %g, want 1", g)
	}
	if g := ControllerGrowthFactor(1, 1, 0); !math.IsNaN(g) {
		t.Errorf("ControllerGrowthFactor(1, 1, 0) = %g, want NaN", g)
	}
}
