package laws

import (
	"math"
	"testing"
)

// The default case of rules/laws/README.md §2.4: τ = 90 s, W = 300 s,
// s = 10 s → τ_eff = 100, W_eff = 310, w = 3.1. The blog series published a
// prediction of 89.6 s for it (against a simulated boundary of 85.5 s, §6.1);
// the converged table gives 89.49 s, and the published value carries the
// series' step of τ/200 (about +0.2%, §7.4), so the check allows 0.2%.
func TestRequiredStandingDelayDefaultCase(t *testing.T) {
	req, phi, w := RequiredStandingDelay(90, DefaultStabilizationWindow, defaultSamplingDelay)
	if !near(w, 3.1, 1e-12) || phi != Phi(3.1) || !near(req, 89.6, 0.002) {
		t.Errorf("RequiredStandingDelay(90, 300, 10) = %g, Φ %g, w %g; want ≈ 89.6, Φ(3.1), 3.1", req, phi, w)
	}
	// KEDA's Kafka default: T = 10 at c = 10 msg/s is D = 1 s: it hunts.
	d := StandingDelay(10, 10)
	if d != 1 || Rests(d, req) {
		t.Errorf("Kafka default: D = %g, rests %v; want 1 s, hunts", d, Rests(d, req))
	}
	// The series' simulations: 60 s hunts and 150 s rests at this window.
	if Rests(60, req) || !Rests(150, req) {
		t.Error("at the default window 60 s must hunt and 150 s rest")
	}
	// Without a window the sampling delay is still a window of a tenth of
	// the effective dead time (README.md §6.1): the series published 11.9 s
	// at its step; the converged curve gives 11.7 s.
	if req0, _, _ := RequiredStandingDelay(90, 0, 10); !near(req0, 11.9, 0.02) {
		t.Errorf("no window: required %g, want ≈ 11.9", req0)
	}
	if r, _, _ := RequiredStandingDelay(0, 300, 0); !math.IsNaN(r) {
		t.Errorf("τ_eff = 0: required %g, want NaN", r)
	}
	if d := StandingDelay(10, 0); !math.IsNaN(d) {
		t.Errorf("StandingDelay(10, 0) = %g, want NaN", d)
	}
}

// The boundaries the blog series found by simulating the deployed controller at
// τ = 90 s (README.md §6.1: W = 60 → 47 s, 120 → 63, 300 → 86, 600 → 98)
// against τ_eff·Φ(W_eff/τ_eff). The series reports that the corrected curve
// lands within 6% of the deployed boundaries on average, misses by up to 14%
// (at the shortest dead time), and every miss above 10% overestimates. At
// τ = 90 the prediction is above every boundary, by up to 10.3% (W = 600);
// checked here as an overestimate of at most 12% and a mean of at most 6%.
func TestDeployedBoundaries(t *testing.T) {
	sum := 0.0
	bounds := []struct{ window, observed float64 }{{60, 47}, {120, 63}, {300, 86}, {600, 98}}
	for _, b := range bounds {
		req, _, _ := RequiredStandingDelay(90, b.window, defaultSamplingDelay)
		e := req/b.observed - 1
		if e < 0 || e > 0.12 {
			t.Errorf("W = %g: predicted %.1f s, deployed %g s (%+.1f%%)", b.window, req, b.observed, 100*e)
		}
		sum += e
	}
	if mean := sum / float64(len(bounds)); mean > 0.06 {
		t.Errorf("mean overestimate %.1f%%, want ≤ 6%%", 100*mean)
	}
	// README.md §2.5: τ = 60 s under a two-minute window; the series
	// published 52.6 s for the corrected curve (52.5 s converged).
	if req, _, _ := RequiredStandingDelay(60, 120, 10); !near(req, 52.6, 0.01) {
		t.Errorf("τ = 60, W = 120: required %g, want ≈ 52.6", req)
	}
}

func TestLongestRestingWindow(t *testing.T) {
	// D = 60 s at τ = 90: between the one- and two-minute boundaries of
	// README.md §6.1.
	w, ok, unlimited := LongestRestingWindow(60, 90, 10)
	if !ok || unlimited || !(w > 60 && w < 120) {
		t.Fatalf("LongestRestingWindow(60, 90, 10) = %g, %v, %v; want between 60 and 120", w, ok, unlimited)
	}
	if req, _, _ := RequiredStandingDelay(90, w, 10); !near(req, 60, 1e-9) {
		t.Errorf("the longest resting window %g needs %g, want exactly 60", w, req)
	}
	if req, _, _ := RequiredStandingDelay(90, w*1.001, 10); Rests(60, req) {
		t.Errorf("a window 0.1%% longer than %g still rests", w)
	}
	// At the default case's own delay the longest window is the default one.
	req, _, _ := RequiredStandingDelay(90, 300, 10)
	if w, ok, _ := LongestRestingWindow(req, 90, 10); !ok || !near(w, 300, 1e-6) {
		t.Errorf("LongestRestingWindow(%g, 90, 10) = %g, want 300", req, w)
	}
	// The Kafka default (1 s) rests at no window: the sampling delay alone
	// needs about 11.7 s.
	if w, ok, unlimited := LongestRestingWindow(1, 90, 10); ok || unlimited {
		t.Errorf("LongestRestingWindow(1, 90, 10) = %g, %v, %v; want none", w, ok, unlimited)
	}
	// e·τ_eff and above rest at every window (README.md §2.2); so does any
	// delay above the table's top (see Phi).
	for _, d := range []float64{WindowProofStandingDelay(90, 10), 300, 240} {
		if w, ok, unlimited := LongestRestingWindow(d, 90, 10); !ok || !unlimited || !math.IsInf(w, 1) {
			t.Errorf("LongestRestingWindow(%g, 90, 10) = %g, %v, %v; want unlimited", d, w, ok, unlimited)
		}
	}
	if _, ok, _ := LongestRestingWindow(0, 90, 10); ok {
		t.Error("D = 0 rests at no window")
	}
	// Without sampling delay, any positive D rests at some window.
	if w, ok, _ := LongestRestingWindow(0.01, 90, 0); !ok || w <= 0 {
		t.Errorf("LongestRestingWindow(0.01, 90, 0) = %g, %v; want a short window", w, ok)
	}
}

func TestSmallestRestingThreshold(t *testing.T) {
	req, _, _ := RequiredStandingDelay(90, 300, 10)
	// c = 10 msg/s: ⌈10·89.49⌉ = 895 with no margin, ⌈984.4⌉ = 985 with 10%.
	if got := SmallestRestingThreshold(10, req, 0); got != math.Ceil(10*req) || got < 894 || got > 897 {
		t.Errorf("SmallestRestingThreshold(10, %g, 0) = %g", req, got)
	}
	if got := SmallestRestingThreshold(10, req, 0.1); got != math.Ceil(11*req) {
		t.Errorf("SmallestRestingThreshold(10, %g, 0.1) = %g, want %g", req, got, math.Ceil(11*req))
	}
	// The threshold it returns rests; one less does not.
	for _, c := range []float64{1, 3, 10, 250} {
		T := SmallestRestingThreshold(c, req, 0)
		if !Rests(StandingDelay(T, c), req) || Rests(StandingDelay(T-1, c), req) {
			t.Errorf("c = %g: T = %g is not the smallest resting threshold for %g s", c, T, req)
		}
	}
	// a whole product is not rounded up once more by float error
	if got := SmallestRestingThreshold(10, 89.5, 0); got != 895 {
		t.Errorf("SmallestRestingThreshold(10, 89.5, 0) = %g, want 895", got)
	}
	if got := SmallestRestingThreshold(3, 0.7, 0.1); got != 3 { // 2.31 → 3
		t.Errorf("SmallestRestingThreshold(3, 0.7, 0.1) = %g, want 3", got)
	}
	if got := SmallestRestingThreshold(0, 10, 0); !math.IsNaN(got) {
		t.Errorf("SmallestRestingThreshold(0, …) = %g, want NaN", got)
	}
}

// README.md §2.5: a promised latency below τ_eff·Φ cannot be held at rest; any
// target of e·τ_eff or more is safe for every window.
func TestLatencyTarget(t *testing.T) {
	req, _, _ := RequiredStandingDelay(90, 300, 10)
	// Ten seconds at a 90 s dead time and the default window cannot be
	// held.
	if LatencyTargetHeld(10, req) || !LatencyTargetHeld(120, req) {
		t.Error("10 s must fail and 120 s hold at the default case")
	}
	safe := WindowProofStandingDelay(90, 10)
	if !near(safe, 100*math.E, 1e-12) {
		t.Errorf("WindowProofStandingDelay(90, 10) = %g, want e·100", safe)
	}
	for _, W := range []float64{0, 60, 300, 3600, 86400, 1e7} {
		r, _, _ := RequiredStandingDelay(90, W, 10)
		if !LatencyTargetHeld(safe, r) {
			t.Errorf("e·τ_eff must hold at W = %g (needs %g)", W, r)
		}
	}
	// README.md §2.5: τ = 60 s, W = 120 s needs about 52.5 s; a one-minute
	// promise holds, thirty seconds does not.
	r, _, _ := RequiredStandingDelay(60, 120, 10)
	if !LatencyTargetHeld(60, r) || LatencyTargetHeld(30, r) {
		t.Errorf("τ = 60, W = 120 needs %g: 60 s must hold and 30 s fail", r)
	}
}

// TestRequiredGrowsWithDelays: the required standing delay never falls as
// the dead time or the sampling delay grows, at any window, so a rule that
// evaluates it at lower bounds on τ and s finds a violation only where the
// true loop has one (README.md §10.1). Checked on a grid from 0 to 1 hour
// of dead time, 0 to 1 hour of window and 0 to 2 minutes of sampling
// delay, against the package's own Phi (interpolation included).
func TestRequiredGrowsWithDelays(t *testing.T) {
	var taus []float64
	for tau := 0.0; tau <= 3600; tau += 0.5 + tau/50 {
		taus = append(taus, tau)
	}
	windows := []float64{0, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600}
	samplings := []float64{0.5, 1, 5, 10, 15, 30, 45, 60, 120}
	for _, W := range windows {
		for _, s := range samplings {
			prev := -1.0
			for _, tau := range taus {
				r, _, _ := RequiredStandingDelay(tau, W, s)
				if r < prev*(1-1e-12) {
					t.Fatalf("W=%g s=%g: required falls from %g to %g at τ=%g", W, s, prev, r, tau)
				}
				prev = r
			}
		}
		for _, tau := range []float64{0, 10, 30, 90, 300} {
			prev := -1.0
			for s := 0.5; s <= 300; s += 0.5 {
				r, _, _ := RequiredStandingDelay(tau, W, s)
				if r < prev*(1-1e-12) {
					t.Fatalf("W=%g τ=%g: required falls from %g to %g at s=%g", W, tau, prev, r, s)
				}
				prev = r
			}
		}
	}
}

// TestPodRateCeiling: README.md §10.1's example, KEDA's Kafka default
// T = 10 with no probe (τ ≥ 0, so τ_eff = s = 10 s) under the default
// 300 s window: w = 310/10 = 31 and 10·Φ(31) from the package's Phi, so
// c* = 10/(10·Φ(31)) ≈ 0.68 messages/s.
func TestPodRateCeiling(t *testing.T) {
	req, _, w := RequiredStandingDelay(0, 300, 10)
	if w != 31 {
		t.Fatalf("w = %g, want 31", w)
	}
	c := PodRateCeiling(10, req)
	if want := 10 / (10 * Phi(31)); math.Abs(c-want) > 1e-12 {
		t.Errorf("c* = %g, want %g", c, want)
	}
	if math.Abs(c-0.68) > 0.005 {
		t.Errorf("c* = %g, want about 0.68 (README.md §10.1)", c)
	}
	// At c* the loop is exactly at its floor: D = T/c* = required.
	if d := StandingDelay(10, c); math.Abs(d-req) > 1e-9 || !Rests(d, req) && math.Abs(d-req) > 1e-12 {
		t.Errorf("D at c* = %g, required %g", d, req)
	}
	if !math.IsInf(PodRateCeiling(10, 0), 1) || !math.IsNaN(PodRateCeiling(0, 5)) {
		t.Errorf("edges: %g %g", PodRateCeiling(10, 0), PodRateCeiling(0, 5))
	}
}
