package laws

import "math"

// Defaults the tests use (rules/laws/README.md §8.1, §6.1); the rules read
// them from the annotations' defaults (analyzer/scaling).
const (
	// defaultTolerance is the HPA's scale-up tolerance (kube-controller-manager
	// --horizontal-pod-autoscaler-tolerance; behavior.scaleUp.tolerance from
	// Kubernetes 1.33).
	defaultTolerance = 0.1
	// defaultSamplingDelay is the seconds the deployed loop adds to both its
	// dead time and its window (rules/laws/README.md §6.1).
	defaultSamplingDelay = 10.0
)

// growthFactor returns g = ℓ/(r·u*) (rules/laws/README.md §1.2): the most the
// controller can multiply its ready pods by in one round on a saturated CPU
// metric, since every ready pod reads at most ℓ/r of its request and pods on
// order count at zero usage. limit and request are in the same unit (cores),
// target is a fraction in (0, 1]. It returns NaN unless request and target are
// positive; a container without a limit has no g (the caller must not call
// this).
func growthFactor(limit, request, target float64) float64 {
	if !(request > 0) || !(target > 0) || !(limit >= 0) {
		return math.NaN()
	}
	return limit / (request * target)
}
