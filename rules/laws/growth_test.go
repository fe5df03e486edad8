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

// TestEscapes: the fixes of README.md §1.5. §1.4 gives 90% and 1.05 cores
// for ℓ = r = 1 at 95%; the rest is checked against the law itself: every
// fix escapes (ControllerGrowthFactor, ToleranceTrapped), lowers or
// raises, and is the extreme one (one step further back is trapped), or
// is 0 when none exists, over targets up to the int32 range.
func TestEscapes(t *testing.T) {
	if p := EscapeTarget(1, 1, 95, 0.1); p != 90 {
		t.Errorf("EscapeTarget(1, 1, 95, 0.1) = %d, want 90 (README.md §1.4)", p)
	}
	if l := EscapeLimit(1, 1, 95, 0.1); l != 1050 {
		t.Errorf("EscapeLimit(1, 1, 95, 0.1) = %dm, want 1050m (README.md §1.4)", l)
	}
	trapped := func(limit, request float64, p int, tol float64) bool {
		return ToleranceTrapped(ControllerGrowthFactor(limit, request, p), tol)
	}
	for _, limit := range []float64{0.001, 0.5, 1, 1.04, 2, 1000, 2090000.001, 2200000.001, 1e7} {
		for _, request := range []float64{0.001, 0.1, 0.5, 1, 3} {
			for _, target := range []int{1, 2, 50, 91, 95, 100, 1000, 123456789, 1900000000, 2000000000, math.MaxInt32} {
				for _, tol := range []float64{0, 0.05, 0.1, 1, 1e6} {
					if !trapped(limit, request, target, tol) {
						continue
					}
					u := ControllerGrowthFactor(limit, request, target) * float64(target)
					if p := EscapeTarget(limit, request, target, tol); p != 0 {
						switch {
						case p < 1 || p >= target:
							t.Errorf("EscapeTarget(%g, %g, %d, %g) = %d: not a lower target", limit, request, target, tol, p)
						case trapped(limit, request, p, tol):
							t.Errorf("EscapeTarget(%g, %g, %d, %g) = %d: still trapped", limit, request, target, tol, p)
						case p+1 < target && !trapped(limit, request, p+1, tol):
							t.Errorf("EscapeTarget(%g, %g, %d, %g) = %d: %d escapes too", limit, request, target, tol, p, p+1)
						case u > MaxUtilization:
							t.Errorf("EscapeTarget(%g, %g, %d, %g) = %d at a utilization past int32", limit, request, target, tol, p)
						}
					} else if u <= MaxUtilization && target > 1 && !trapped(limit, request, 1, tol) {
						t.Errorf("EscapeTarget(%g, %g, %d, %g) = 0, but 1%% escapes", limit, request, target, tol)
					}
					l := EscapeLimit(limit, request, target, tol)
					if l == 0 {
						// None only when the least escaping utilization is past int32.
						if float64(target)*(1+tol) < MaxUtilization-2 {
							t.Errorf("EscapeLimit(%g, %g, %d, %g) = 0", limit, request, target, tol)
						}
						continue
					}
					lc := float64(l) / 1000
					switch {
					case lc <= limit:
						t.Errorf("EscapeLimit(%g, %g, %d, %g) = %dm: not a raise", limit, request, target, tol, l)
					case trapped(lc, request, target, tol):
						t.Errorf("EscapeLimit(%g, %g, %d, %g) = %dm: still trapped", limit, request, target, tol, l)
					case float64(l-1)/1000 > limit && !trapped(float64(l-1)/1000, request, target, tol):
						t.Errorf("EscapeLimit(%g, %g, %d, %g) = %dm: %dm escapes too", limit, request, target, tol, l, l-1)
					case math.Floor(float64(l)*100/math.Round(request*1000)) > MaxUtilization:
						t.Errorf("EscapeLimit(%g, %g, %d, %g) = %dm: a utilization past int32", limit, request, target, tol, l)
					}
				}
			}
		}
	}
}
