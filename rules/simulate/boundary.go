package simulate

import "fmt"

// BoundaryResolution is the width, in seconds of standing delay, at which
// FindBoundary stops bisecting.
const BoundaryResolution = 0.25

// FindBoundary bisects on the threshold T = D·c for the smallest standing delay
// D in [lo, hi] seconds at which the loop of cfg rests (does not hunt by the
// criterion of rules/laws/README.md §6.1), as the blog series found its
// deployed boundaries. cfg's Threshold is ignored. The loop must hunt at lo and
// rest at hi; the answer is the upper end of the final bracket, within
// BoundaryResolution. The bisection assumes one crossing between lo and hi.
func FindBoundary(cfg Config, lo, hi float64) (float64, error) {
	if !finite(lo) || !finite(hi) || lo <= 0 || hi <= lo {
		return 0, fmt.Errorf("simulate: boundary bracket [%v, %v] must satisfy 0 < lo < hi", lo, hi)
	}
	hunts := func(d float64) (bool, error) {
		c := cfg
		c.Threshold = d * cfg.PodRate
		s, err := resolve(c)
		if err != nil {
			return false, err
		}
		return run(s, false).Summary.Hunts, nil
	}
	h, err := hunts(hi)
	if err != nil {
		return 0, err
	}
	if h {
		return 0, fmt.Errorf("simulate: the loop still hunts at the upper standing delay %v s", hi)
	}
	h, err = hunts(lo)
	if err != nil {
		return 0, err
	}
	if !h {
		return 0, fmt.Errorf("simulate: the loop already rests at the lower standing delay %v s", lo)
	}
	for i := 0; hi-lo > BoundaryResolution && i < 64; i++ {
		mid := (lo + hi) / 2
		h, err := hunts(mid)
		if err != nil {
			return 0, err
		}
		if h {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, nil
}
