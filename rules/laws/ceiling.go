package laws

import "math"

// The ceiling band and the admission bound: rules/laws/README.md §4 and §5.

// CeilingTopFraction is the share of the scalability peak N_max a replica
// ceiling may reach: a rule of thumb, a margin for how well N_max is known
// (rules/laws/README.md §4.1).
const CeilingTopFraction = 0.8

// CeilingFloor returns M* = A·λ/c, the amplified need in pods: a replica
// ceiling at or below it keeps a failing service failed whatever its signal
// (rules/laws/README.md §4.2). NaN unless c > 0.
func CeilingFloor(amplification, demand, podRate float64) float64 {
	if !(podRate > 0) {
		return math.NaN()
	}
	return amplification * demand / podRate
}

// CeilingTop returns 0.8·N_max, the highest safe ceiling for a service whose
// throughput falls past N_max pods (rules/laws/README.md §4.2).
func CeilingTop(scalabilityPeak float64) float64 {
	return CeilingTopFraction * scalabilityPeak
}

// CeilingTrapped reports whether a ceiling M traps a failing service,
// M ≤ M* (§4.2; equality within a relative 1e-9 counts). KEDA's
// default ceiling of 100 traps a service whose amplified need is 600 pods.
func CeilingTrapped(maxReplicas, floor float64) bool {
	return maxReplicas <= floor+eps*math.Max(1, math.Abs(floor))
}

// BandEmpty reports whether the safe band M* < M ≤ 0.8·N_max is empty,
// M* ≥ 0.8·N_max: no ceiling is safe, and the levers left are a lower
// amplification or an admission bound. Worked example (README.md §4.4):
// N_max = 18, five pods of need, A = 3: M* = 15 ≥ 14.4.
func BandEmpty(floor, top float64) bool {
	return floor >= top
}

// OverPeak reports whether a ceiling M lets the autoscaler climb past the
// scalability peak, M > 0.8·N_max (rules/laws/README.md §4.2).
func OverPeak(maxReplicas, top float64) bool {
	return maxReplicas > top
}

// BoundShorterThanTimeout reports whether an admission bound of b seconds of
// capacity is strictly shorter than the client timeout τ_out: then every
// admitted attempt is served before its client gives up, no retry debt forms
// and the retry trap cannot hold (rules/laws/README.md §5.2). A 5 s bound under
// a 10 s timeout passes; a 20 s bound does not, and still served abandoned work
// in the series' runs (7.5% of demand lost against 1.2%). τ_out must be the
// shortest timeout among the callers in a chain.
func BoundShorterThanTimeout(bound, clientTimeout float64) bool {
	return bound < clientTimeout
}
