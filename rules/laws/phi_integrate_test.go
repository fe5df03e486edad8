package laws

import (
	"math"
	"testing"
)

// publishedStepOptions reproduces the values the blog series published
// (rules/laws/README.md §7.4): a fixed step of τ/200, no refinement and no
// extrapolation (0.1194 at w = 0.1, 0.5732 at 1, 0.7734 at 2, 0.9168 at
// 3.3333, 1.7197 at 100, 1.9393 at 400).
func publishedStepOptions() IntegrateOptions {
	return IntegrateOptions{
		StepsPerDeadTime: 200,
		RelTol:           1e-6,
		HorizonWindows:   14,
		HorizonExtra:     40,
		MaxSteps:         400_000_000,
	}
}

// The blog series evidently integrated with a fixed step of τ/200: at that
// step, without extrapolation, IntegratePhi reproduces its published values
// ("The Delay a Window Demands": 0.119 at a tenth of a dead time, 0.573 at one,
// 0.773 at two, 0.916 at the default window of 3.33, 1.719 at 100 and 1.938 at
// 400). The converged values (the table) are slightly lower; see
// TestPhiPublishedValues.
func TestIntegratePublishedStep(t *testing.T) {
	opts := publishedStepOptions()
	for _, c := range []struct{ w, published, tol float64 }{
		{0.1, 0.119, 0.01}, // the series rounds 0.1194 to three places
		{1, 0.573, 0.001},
		{2, 0.773, 0.001},
		{3.33, 0.916, 0.001},
		{100, 1.719, 0.001},
		{400, 1.938, 0.001},
	} {
		if got := IntegratePhi(c.w, opts); !near(got, c.published, c.tol) {
			t.Errorf("IntegratePhi(%g) at h = τ/200 = %.5f, want the published %g within %g%%", c.w, got, c.published, 100*c.tol)
		}
	}
}

// README.md §7.1, and the series' integration at its edge: at a standing delay
// of exactly e dead times the loop never rises above rest (windows 1, 10 and
// 100); at 2.5 dead times it overshoots by 0.07% and at 2 by 4.1%, at every
// window, because the window has not acted yet when the overshoot happens.
func TestIntegrateOvershoot(t *testing.T) {
	opts := DefaultIntegrateOptions()
	for _, w := range []float64{1, 10, 100} {
		// (an overshoot of 1e-27 is rounding, not a rise above rest)
		if r := simulate(w, 1/math.E, 400, opts); len(r.troughs) != 0 || (len(r.peaks) > 0 && r.peaks[0] > 1e-12) {
			t.Errorf("w = %g, D = e: peaks %v troughs %v, want no overshoot", w, r.peaks, r.troughs)
		}
		for _, c := range []struct{ d, overshoot, tol float64 }{{2.5, 0.0007, 0.1}, {2, 0.041, 0.01}} {
			r := simulate(w, 1/c.d, 400, opts)
			if len(r.peaks) == 0 || !near(r.peaks[0], c.overshoot, c.tol) {
				t.Errorf("w = %g, D = %g: first overshoot %v, want %g", w, c.d, r.peaks, c.overshoot)
			}
		}
		if HuntsAt(w, 1/math.E, 400, opts) {
			t.Errorf("w = %g, D = e: hunts, want rest (Φ ≤ e)", w)
		}
	}
}

// README.md §7.1: with no window the loop rests at every standing delay; the
// series' integration rested at an eighth of a dead time, the shortest it
// tested.
func TestIntegrateNoWindowRests(t *testing.T) {
	opts := DefaultIntegrateOptions()
	for _, gain := range []float64{8, 50} {
		if HuntsAt(0, gain, 2000, opts) {
			t.Errorf("w = 0, D = %g dead times: hunts, want rest", 1/gain)
		}
	}
	if got := IntegratePhi(0, opts); got != 0 {
		t.Errorf("IntegratePhi(0) = %g, want 0", got)
	}
}

// The bisection assumes the resting gains form one interval (observed, not
// proven; README.md §2.2). Check the verdict on either side of the computed Φ.
func TestIntegrateSingleCrossing(t *testing.T) {
	opts := TableIntegrateOptions(2)
	n := opts.StepsPerDeadTimeAt(2)
	p := phiAtSteps(2, n, opts)
	for _, f := range []float64{0.3, 0.6, 0.9, 0.99} {
		if !HuntsAt(2, 1/(p*f), n, opts) {
			t.Errorf("w = 2, D = %.3f·Φ: rests, want hunt", f)
		}
	}
	for _, f := range []float64{1.01, 1.1, 1.5, 2.5, 4} {
		if HuntsAt(2, 1/(p*f), n, opts) {
			t.Errorf("w = 2, D = %.3f·Φ: hunts, want rest", f)
		}
	}
}

func TestIntegrateEdges(t *testing.T) {
	opts := DefaultIntegrateOptions()
	for _, w := range []float64{math.NaN(), -1, math.Inf(1), 2 * MaxIntegrateWindow} {
		if got := IntegratePhi(w, opts); !math.IsNaN(got) {
			t.Errorf("IntegratePhi(%g) = %g, want NaN", w, got)
		}
	}
	// A run stops with a verdict instead of overflowing: a far too large gain
	// grows past 1e30 long before the horizon.
	if r := simulate(1, 50, 200, opts); r.verdict != grew {
		t.Errorf("w = 1, a = 50: verdict %d, want grew", r.verdict)
	}
	// MaxSteps bounds a run whatever the horizon.
	o := opts
	o.MaxSteps = 1000
	if r := simulate(5000, 0.5, 200, o); len(r.troughs) != 0 {
		t.Errorf("a 1000-step run saw troughs %v", r.troughs)
	}
}

func TestGrowthPerCycle(t *testing.T) {
	for _, c := range []struct {
		troughs []float64
		want    float64
	}{
		{nil, 0},                          // never came back below rest: rested
		{[]float64{0.5}, 0.5},             // against the initial disturbance
		{[]float64{2, 4}, 2},              // one ratio
		{[]float64{9, 1, 2, 4, 8, 16}, 2}, // first third skipped as transient
	} {
		if got := growthPerCycle(c.troughs); !near(got, c.want, 1e-12) {
			t.Errorf("growthPerCycle(%v) = %g, want %g", c.troughs, got, c.want)
		}
	}
}
