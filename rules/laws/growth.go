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

// MaxUtilization is the largest utilization, in percent, the controller
// can hold: it computes currentUtilization = int32(Σusage·100/Σrequest)
// (pkg/controller/podautoscaler/metrics/utilization.go), which wraps
// above it. A fix never asks the controller for more.
const MaxUtilization = math.MaxInt32

// EscapeTarget returns the largest whole target percent below
// targetPercent at which pods at their limit leave the tolerance band as
// the controller computes it (ControllerGrowthFactor, ToleranceTrapped):
// the "lower the target" fix of README.md §1.5, so it satisfies the law
// and lowers. It is 0 when no target from 1% to targetPercent − 1
// escapes (a limit within 1 + tolerance of 1% of the request, a tolerance
// no target beats), or when the pods' utilization is more than the
// controller can hold (MaxUtilization). With ℓ = r and a tolerance of 0.1,
// 90 at a target of 95 (README.md §1.4).
func EscapeTarget(limit, request float64, targetPercent int, tolerance float64) int {
	g := ControllerGrowthFactor(limit, request, targetPercent)
	if math.IsNaN(g) || g*float64(targetPercent) > MaxUtilization || math.IsNaN(tolerance) {
		return 0
	}
	escapes := func(p int) bool { return !ToleranceTrapped(ControllerGrowthFactor(limit, request, p), tolerance) }
	// g falls as the target rises: the largest escaping target is the last
	// of a prefix of 1 … targetPercent−1.
	if targetPercent < 2 || !escapes(1) {
		return 0
	}
	lo, hi := 1, targetPercent-1 // escapes(lo); the answer lies in [lo, hi]
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if escapes(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// EscapeLimit returns the smallest summed CPU limit, in millicores, above
// limit (cores) at which pods at their limit leave the tolerance band at
// targetPercent as the controller computes it: the "raise the limit" fix
// of README.md §1.5, so it satisfies the law and raises. It is 0 when the
// utilization that escapes is more than the controller can hold
// (MaxUtilization: a target of 2,000,000,000% needs 2,200,000,001% with a
// tolerance of 0.1), or the request or target is not positive. With
// ℓ = r = 1 core, a target of 95 and a tolerance of 0.1, 1050 (README.md
// §1.4).
func EscapeLimit(limit, request float64, targetPercent int, tolerance float64) int64 {
	if !(request > 0) || targetPercent <= 0 || !(limit >= 0) || math.IsNaN(tolerance) {
		return 0
	}
	rm := int64(math.Round(request * 1000))
	if rm <= 0 || rm > math.MaxInt64/MaxUtilization {
		return 0
	}
	p := float64(targetPercent)
	escapes := func(u int64) bool { return !ToleranceTrapped(float64(u)/p, tolerance) }
	if !escapes(MaxUtilization) {
		return 0
	}
	// The least whole utilization that escapes: g = u/p rises with u.
	lo, hi := int64(0), int64(MaxUtilization) // escapes(hi); the answer lies in (lo, hi]
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if escapes(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	// The least limit whose ⌊100·ℓ/r⌋ reaches it: ℓ = ⌈u·r/100⌉ millicores
	// (u·r fits in an int64: rm ≤ MaxInt64/MaxUtilization).
	lm := (hi*rm + 99) / 100
	if float64(lm) <= math.Round(limit*1000) || ToleranceTrapped(ControllerGrowthFactor(float64(lm)/1000, request, targetPercent), tolerance) {
		return 0 // not a raise, or not one the law's arithmetic sees escape
	}
	return lm
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
