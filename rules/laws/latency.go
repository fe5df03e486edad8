package laws

import "math"

// The latency floor of a backlog loop and the latency target:
// rules/laws/README.md §2, with the deployed loop's sampling correction of
// §6.1. All times are in seconds.

// RequiredStandingDelay returns the standing delay a backlog-scaled loop needs
// to rest, required = τ_eff·Φ(W_eff/τ_eff) with τ_eff = τ + s and
// W_eff = W + s, together with Φ and w = W_eff/τ_eff (README.md §2.2). The
// default case, τ = 90 s, W = 300 s, s = 10 s, gives w = 3.1 and 89.5 s (§2.4).
// NaN when τ_eff ≤ 0 or W_eff < 0.
func RequiredStandingDelay(deadTime, window, samplingDelay float64) (required, phi, w float64) {
	te := deadTime + samplingDelay
	we := window + samplingDelay
	if !(te > 0) || !(we >= 0) {
		return math.NaN(), math.NaN(), math.NaN()
	}
	w = we / te
	phi = Phi(w)
	return te * phi, phi, w
}

// StandingDelay returns D = T/c, the seconds every message waits at rest
// when each pod holds a threshold of T messages and serves c per second
// (README.md §2.1, by Little's law). NaN unless c > 0.
func StandingDelay(threshold, podRate float64) float64 {
	if !(podRate > 0) {
		return math.NaN()
	}
	return threshold / podRate
}

// Rests reports whether a loop with standing delay D rests, D ≥ required
// (README.md §2.2); otherwise it hunts. KEDA's Kafka default, T = 10 at
// c = 10 msg/s, carries D = 1 s against the 89.5 s of the default case.
func Rests(standingDelay, required float64) bool {
	return standingDelay >= required
}

// SmallestRestingThreshold returns the smallest whole per-pod threshold T that
// rests with a relative margin: ⌈c·required·(1 + margin)⌉ (README.md §2.6). A
// product within 1e-9 of a whole number counts as that number. NaN unless c > 0
// and required ≥ 0.
func SmallestRestingThreshold(podRate, required, margin float64) float64 {
	if !(podRate > 0) || !(required >= 0) {
		return math.NaN()
	}
	x := podRate * required * (1 + margin)
	return math.Ceil(x - eps*math.Max(1, x))
}

// LongestRestingWindow returns the longest stabilization window W ≥ 0 at which
// a standing delay D still rests: the largest W with
// τ_eff·Φ((W + s)/τ_eff) ≤ D, τ_eff = τ + s (README.md §2.6: the longest window
// that rests at today's T). ok is false when no window rests, not even W = 0
// (the sampling delay alone is a window of s). unlimited is true, with window
// +Inf, when every window rests: D ≥ e·τ_eff (§2.2), or D/τ_eff at least the
// table's last value (see Phi).
func LongestRestingWindow(standingDelay, deadTime, samplingDelay float64) (window float64, ok, unlimited bool) {
	te := deadTime + samplingDelay
	if !(te > 0) || math.IsNaN(standingDelay) {
		return math.NaN(), false, false
	}
	y := standingDelay / te
	if y >= math.E {
		return math.Inf(1), true, true
	}
	w, ok := PhiInverse(y)
	if !ok {
		return 0, false, false
	}
	if math.IsInf(w, 1) {
		return w, true, true
	}
	window = w*te - samplingDelay
	if window < 0 {
		return 0, false, false
	}
	return window, true, false
}

// WindowProofStandingDelay returns e·τ_eff, τ_eff = τ + s: a standing delay
// (or a promised latency) at least this long rests after an upward step
// whatever the window (README.md §2.2, §2.5).
func WindowProofStandingDelay(deadTime, samplingDelay float64) float64 {
	return math.E * (deadTime + samplingDelay)
}

// LatencyTargetHeld reports whether a consumer that promises a latency
// target ℓ_acc, with its threshold sized from it (so D = ℓ_acc), can hold it
// at rest: ℓ_acc ≥ required (README.md §2.5). Any target at least
// WindowProofStandingDelay is held for every window.
func LatencyTargetHeld(target, required float64) bool {
	return target >= required
}

// PodRateCeiling returns c* = T / required: the pod rate above which a loop
// with per-pod threshold T hunts (README.md §10.1). A loop rests only if
// D = T/c ≥ required, so it hunts whenever c > c*. required grows with the
// dead time and the sampling delay (TestRequiredGrowsWithDelays), so c*
// computed at lower bounds on them is an upper bound on the pod rates that
// rest. +Inf when required is 0 (every pod rate rests); NaN unless T > 0.
func PodRateCeiling(threshold, required float64) float64 {
	if !(threshold > 0) || math.IsNaN(required) || required < 0 {
		return math.NaN()
	}
	if required == 0 {
		return math.Inf(1)
	}
	return threshold / required
}
