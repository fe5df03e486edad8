package laws

import "math"

// The retry trap: rules/laws/README.md §3.

// Amplification returns A = Π(1 + r_i) over the retry counts of every layer
// (README.md §3.1): the units of work per first attempt once every attempt
// fails. Two retries give 3; a retrying gateway in front of them, "2,2", gives
// 9. An empty list gives 1; a negative count gives NaN.
func Amplification(retries []int) float64 {
	a := 1.0
	for _, r := range retries {
		if r < 0 {
			return math.NaN()
		}
		a *= float64(1 + r)
	}
	return a
}

// TrapTarget returns 1/A, the utilization at or above which a service that
// completes abandoned work is trapped after a trigger (A·ρ ≥ 1). NaN unless
// A ≥ 1.
func TrapTarget(amplification float64) float64 {
	if !(amplification >= 1) {
		return math.NaN()
	}
	return 1 / amplification
}

// RetryTrapped reports whether a scaler that holds utilization near target
// is trapped by retries of amplification A: target ≥ 1/A (A·u* ≥ 1 with a
// relative slack of 1e-9 for float error), unless an admission bound shorter
// than the client timeout removes the debt (README.md §3.2 and §5; see
// BoundShorterThanTimeout). With two retries every target of 33.4% or more
// is trapped; with 2,2 every target of 11.2% or more.
func RetryTrapped(target, amplification float64, boundShorterThanTimeout bool) bool {
	if boundShorterThanTimeout || !(amplification >= 1) || !(target > 0) {
		return false
	}
	return amplification*target >= 1-eps
}

// TriggerOverload returns τ_out/τ, the sustained overload (as a fraction of
// capacity) above which the retry trap triggers before the first new pod
// serves (README.md §3.1): a 10 s client timeout over a 90 s dead time gives
// about 0.111. NaN unless τ > 0.
func TriggerOverload(clientTimeout, deadTime float64) float64 {
	if !(deadTime > 0) {
		return math.NaN()
	}
	return clientTimeout / deadTime
}
