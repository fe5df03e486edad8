package laws

import (
	"math"
	"testing"
)

// The table against a fresh integration with the generator's settings
// (TableIntegrateOptions), at windows halfway between knots in log w, where
// the interpolation is least accurate. Expected agreement: the integration's
// own scatter (a few parts in 10⁴) plus the interpolation error (smaller).
// The short mode checks 0.05..30; the full run adds 0.012, 110 and 1100
// (a few more seconds).
func TestPhiTableMatchesIntegration(t *testing.T) {
	ks := []int{55, 68, 80, 93, 105, 118, 130, 142} // w ≈ 0.054 … 28
	if !testing.Short() {
		ks = append(ks, 34, 161, 193) // w ≈ 0.012, 111, 1114
	}
	for _, k := range ks {
		w := math.Pow(10, phiLog10First+(float64(k)+0.5)/phiKnotsPerDecade)
		fresh := IntegratePhi(w, TableIntegrateOptions(w))
		if got := Phi(w); !near(got, fresh, 0.001) {
			t.Errorf("Phi(%.4g) = %.6f, fresh integration %.6f: %+.3f%%", w, got, fresh, 100*(got/fresh-1))
		}
	}
}

// The values the blog series published (rules/laws/README.md §7.4). They carry
// the error of its fixed step of τ/200 (TestIntegratePublishedStep reproduces
// them at that step); the table is step-converged and sits 0.1–0.2% lower,
// except at w = 0.1, where the published 0.119 is 1.6% above the converged
// 0.1171: at that window a step of τ/200 is only 20 steps per window. So 0.1 is
// checked within 2% here and within 1% at the series' own step.
func TestPhiPublishedValues(t *testing.T) {
	for _, c := range []struct{ w, published, tol float64 }{
		{0.1, 0.119, 0.02},
		{1, 0.573, 0.01},
		{2, 0.773, 0.01},
		{3.33, 0.916, 0.01},
		{100, 1.719, 0.02},
		{400, 1.938, 0.02},
	} {
		if got := Phi(c.w); !near(got, c.published, c.tol) {
			t.Errorf("Phi(%g) = %.5f, want the published %g within %g%%", c.w, got, c.published, 100*c.tol)
		}
	}
	// The converged value at w = 0.1 (independent runs at 20 000–64 000 steps
	// per dead time give 0.1171).
	if got := Phi(0.1); !near(got, 0.1171, 0.002) {
		t.Errorf("Phi(0.1) = %.5f, want 0.1171", got)
	}
}

// README.md §7.1: Φ(0) = 0, Φ → 0 as w → 0, Φ < e for every w; the curve
// rises over the whole table (observed, not proven, and checked by the
// generator at every knot).
func TestPhiShape(t *testing.T) {
	if Phi(0) != 0 || Phi(-1) != 0 || !math.IsNaN(Phi(math.NaN())) {
		t.Errorf("Phi(0), Phi(-1), Phi(NaN) = %g, %g, %g; want 0, 0, NaN", Phi(0), Phi(-1), Phi(math.NaN()))
	}
	if got := Phi(1e-6); got <= 0 || got > 1e-5 {
		t.Errorf("Phi(1e-6) = %g, want in (0, 1e-5]", got)
	}
	prev := 0.0
	last := math.Pow(10, phiLog10First+float64(len(phiKnots)-1)/phiKnotsPerDecade)
	for i := 0; i <= 10000; i++ {
		w := math.Pow(10, -5+10*float64(i)/10000)
		p := Phi(w)
		if p >= math.E || math.IsNaN(p) {
			t.Fatalf("Phi(%g) = %g, want below e", w, p)
		}
		if w < last && p <= prev || p < prev {
			t.Fatalf("Phi not increasing at w = %g: %g after %g", w, p, prev)
		}
		prev = p
	}
	if got := Phi(math.Inf(1)); got >= math.E || got != phiKnots[len(phiKnots)-1] {
		t.Errorf("Phi(+Inf) = %g, want the last knot, below e", got)
	}
	// The knots themselves come back exactly.
	for k, v := range phiKnots {
		w := math.Pow(10, phiLog10First+float64(k)/phiKnotsPerDecade)
		if got := Phi(w); !near(got, v, 1e-9) {
			t.Fatalf("Phi at knot %d (w = %g) = %g, want %g", k, w, got, v)
		}
	}
}

// The two closed forms of README.md §7.5 against the table, with the errors the
// blog series reports against its own curve: harmonic balance high by 1.0%,
// 0.8% and 3.3% at w = 1, 2 and 3.33 (checked within half a point), 9.3% at 5
// and 34% at 10 (within a point); the long-window form within 0.46% on [10,
// 400] (allowed 0.7%), low by 2.7% at 3.33 and 1.4% at 5 (within half a point).
// At 3.33 the two bracket the computed curve.
func TestPhiApproximations(t *testing.T) {
	errPct := func(approx, w float64) float64 { return 100 * (approx/Phi(w) - 1) }
	for _, c := range []struct{ w, pct, tol float64 }{
		{1, 1.0, 0.5}, {2, 0.8, 0.5}, {3.33, 3.3, 0.5}, {5, 9.3, 1}, {10, 34, 1},
	} {
		if got := errPct(PhiHarmonicBalance(c.w), c.w); math.Abs(got-c.pct) > c.tol {
			t.Errorf("harmonic balance at w = %g: %+.2f%%, want %+.1f%% ± %g", c.w, got, c.pct, c.tol)
		}
	}
	for _, c := range []struct{ w, pct float64 }{{3.33, -2.7}, {5, -1.4}} {
		if got := errPct(PhiLongWindow(c.w), c.w); math.Abs(got-c.pct) > 0.5 {
			t.Errorf("long-window form at w = %g: %+.2f%%, want %+.1f%% ± 0.5", c.w, got, c.pct)
		}
	}
	worst := 0.0
	for i := 0; i <= 200; i++ {
		w := 10 * math.Pow(40, float64(i)/200)
		worst = math.Max(worst, math.Abs(errPct(PhiLongWindow(w), w)))
	}
	if worst > 0.7 {
		t.Errorf("long-window form on [10, 400]: worst error %.2f%%, want ≤ 0.7%% (the series reports 0.46%% against its curve)", worst)
	}
	if w := 3.33; !(PhiLongWindow(w) < Phi(w) && Phi(w) < PhiHarmonicBalance(w)) {
		t.Errorf("at w = 3.33 the two forms must bracket Φ: %g < %g < %g", PhiLongWindow(w), Phi(w), PhiHarmonicBalance(w))
	}
	// The series' figures for the two forms at the default window (§7.4).
	if !near(PhiHarmonicBalance(3.33), 0.946, 0.001) || !near(PhiLongWindow(3.33), 0.891, 0.001) {
		t.Errorf("forms at 3.33: %g and %g, want the published 0.946 and 0.891", PhiHarmonicBalance(3.33), PhiLongWindow(3.33))
	}
	if !near(PhiHarmonicBalance(1), 0.579, 0.001) || !near(PhiHarmonicBalance(2), 0.779, 0.001) {
		t.Errorf("harmonic balance at 1 and 2: %g and %g, want 0.579 and 0.779", PhiHarmonicBalance(1), PhiHarmonicBalance(2))
	}
}

func TestPhiInverse(t *testing.T) {
	for i := 0; i <= 2000; i++ {
		w := math.Pow(10, -4+7.9*float64(i)/2000) // 1e-4 … 7.9e3
		got, ok := PhiInverse(Phi(w))
		if !ok || !near(got, w, 1e-9) {
			t.Fatalf("PhiInverse(Phi(%g)) = %g, %v", w, got, ok)
		}
	}
	for i := 1; i < 1000; i++ {
		y := 2.3 * float64(i) / 1000
		w, ok := PhiInverse(y)
		if !ok {
			t.Fatalf("PhiInverse(%g) not ok", y)
		}
		if math.IsInf(w, 1) {
			if y < phiKnots[len(phiKnots)-1] {
				t.Fatalf("PhiInverse(%g) = +Inf below the table's top", y)
			}
			continue
		}
		// the largest w with Φ(w) ≤ y: Φ(w) ≤ y < Φ(w·(1+1e-9))
		if Phi(w) > y || Phi(w*(1+1e-9)) <= y {
			t.Fatalf("PhiInverse(%g) = %g: Phi there %g, just above %g", y, w, Phi(w), Phi(w*(1+1e-9)))
		}
	}
	for _, y := range []float64{0, -1, math.NaN()} {
		if _, ok := PhiInverse(y); ok {
			t.Errorf("PhiInverse(%g) ok, want not ok", y)
		}
	}
	for _, y := range []float64{math.E, 3, phiKnots[len(phiKnots)-1]} {
		if w, ok := PhiInverse(y); !ok || !math.IsInf(w, 1) {
			t.Errorf("PhiInverse(%g) = %g, %v; want +Inf (every window rests)", y, w, ok)
		}
	}
}

var sink float64

func BenchmarkPhi(b *testing.B) {
	ws := []float64{0.0031, 0.1, 0.7, 1, 3.1, 3.3333, 6.1, 42, 1000}
	for i := 0; b.Loop(); i++ {
		sink += Phi(ws[i%len(ws)])
	}
}

func BenchmarkPhiInverse(b *testing.B) {
	ys := []float64{0.003, 0.1, 0.47, 0.57, 0.895, 0.915, 1.08, 1.5, 2.05}
	for i := 0; b.Loop(); i++ {
		w, _ := PhiInverse(ys[i%len(ys)])
		sink += w
	}
}
