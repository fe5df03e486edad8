package laws

import "math"

// The tolerance trap and rounds: rules/laws/README.md §1.

// DefaultStabilizationWindow is the HPA's scale-down window in seconds
// (rules/laws/README.md §8.1).
const DefaultStabilizationWindow = 300.0

// eps absorbs floating-point error in comparisons the laws state as exact
// (1.1 against 1 + 0.1, a logarithm that should be a whole number).
const eps = 1e-9

// ControllerGrowthFactor is the growth factor as the controller computes it: it
// truncates utilization to a whole percent,
// currentUtilization = int32(Σusage·100/Σrequest) in milli-cores, and compares
// currentUtilization/targetPercent with the tolerance band. With every pod at
// its limit that is ⌊100·ℓ/r⌋/targetPercent. With ℓ = r every target of 91% or
// more is trapped: 100/91 = 1.0989 ≤ 1.1, while 100/90 = 1.111 is not
// (README.md §1.4). limit and request are in cores and rounded to milli-cores
// as Kubernetes quantities are. NaN unless request and targetPercent are
// positive.
func ControllerGrowthFactor(limit, request float64, targetPercent int) float64 {
	if !(request > 0) || targetPercent <= 0 || !(limit >= 0) {
		return math.NaN()
	}
	lm := math.Round(limit * 1000)
	rm := math.Round(request * 1000)
	if rm <= 0 {
		return math.NaN()
	}
	util := math.Floor(lm * 100 / rm) // integer division of exact integers
	return util / float64(targetPercent)
}

// ToleranceTrapped reports whether a growth factor g lies inside the tolerance
// band, g ≤ 1 + tolerance (inclusive, as the controller's
// |1 − ratio| ≤ tolerance): the controller then never scales up on a saturated
// metric (README.md §1.2). Equality is judged with a tolerance of 1e-9, so
// g = 1.1 is trapped by a tolerance of 0.1.
func ToleranceTrapped(g, tolerance float64) bool {
	return g <= 1+tolerance+eps
}

// Rounds returns the number of controller rounds a k-fold overload needs,
// n = ⌈log_g(k·u*·r/ℓ)⌉ = ⌈log_g(k/g)⌉ (rules/laws/README.md §1.2): the held
// capacity covers a factor g of the old load, and each round multiplies the
// ready pods by at most g. It is 0 when k/g ≤ 1 (the capacity already held
// meets the overload), and −1 when g ≤ 1 or g or k is NaN: the controller never
// gets there. A k/g that is an exact power of g counts that power, not one
// more. Rounds does not apply the tolerance band: check ToleranceTrapped first.
func Rounds(g, k float64) int {
	if math.IsNaN(g) || math.IsNaN(k) || g <= 1 {
		return -1
	}
	need := k / g
	if need <= 1+eps {
		return 0
	}
	if math.IsInf(need, 1) {
		return -1
	}
	n := math.Log(need) / math.Log(g)
	return int(math.Ceil(n - eps*math.Max(1, n)))
}

// TimeToCapacity returns the least time, in seconds, a controller needs to
// reach capacity after rounds rounds: n·(τ + m), each round costing one dead
// time plus one metric window (README.md §1.2, §6.2). It is +Inf for a negative
// rounds (Rounds' "never").
func TimeToCapacity(rounds int, deadTime, metricWindow float64) float64 {
	if rounds < 0 {
		return math.Inf(1)
	}
	return float64(rounds) * (deadTime + metricWindow)
}
