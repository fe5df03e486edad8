package laws

import "math"

//go:generate go run ./internal/phigen

// Φ(w), the standing delay in dead times a backlog loop with a window of w
// dead times needs to rest (rules/laws/README.md §2.2, §7), read from the
// generated table phi_table.go (§7.3).
//
// The table holds Φ at log-spaced knots from w = 1e-3 to 1e4. Between knots
// Phi interpolates Φ against log w with a monotone cubic (PCHIP,
// Fritsch–Carlson slopes), so the interpolant rises wherever the table
// does. Below the first knot it falls linearly to Φ(0) = 0 (README.md §7.1);
// the computed curve is Φ(w) ≈ 2w there, so the linear form is accurate to a
// few percent and windows that short (a tenth of a second at a 90 s dead
// time) do not occur in deployed loops anyway. Above the last knot (a window
// of ten thousand dead times) Phi returns the last knot's value, about
// 2.258: the true curve keeps creeping toward e, too slowly to matter for
// any window a manifest will carry. Phi never reaches e (README.md §7.1).

var (
	phiFirstW = math.Pow(10, phiLog10First)
	phiSlopes = pchipSlopes(phiKnots[:])
)

// Phi returns Φ(w) for a window of w dead times: 0 for w ≤ 0, NaN for NaN.
// A lookup costs a logarithm and a cubic (tens of nanoseconds; see
// BenchmarkPhi).
func Phi(w float64) float64 {
	switch {
	case math.IsNaN(w):
		return math.NaN()
	case w <= 0:
		return 0
	case w <= phiFirstW:
		return phiKnots[0] * (w / phiFirstW)
	}
	s := (math.Log10(w) - phiLog10First) * phiKnotsPerDecade
	last := len(phiKnots) - 1
	if s >= float64(last) {
		return phiKnots[last]
	}
	k := int(s)
	return hermite(k, s-float64(k))
}

// hermite evaluates the cubic between knots k and k+1 at t in [0, 1]; the
// knot spacing is the unit of t and of the slopes.
func hermite(k int, t float64) float64 {
	y0, y1 := phiKnots[k], phiKnots[k+1]
	d0, d1 := phiSlopes[k], phiSlopes[k+1]
	t2 := t * t
	t3 := t2 * t
	return (2*t3-3*t2+1)*y0 + (t3-2*t2+t)*d0 + (-2*t3+3*t2)*y1 + (t3-t2)*d1
}

// pchipSlopes returns the Fritsch–Carlson slopes of a monotone piecewise
// cubic through y at unit spacing: the harmonic mean of the neighbouring
// secants inside (0 where they differ in sign), and the shape-preserving
// three-point formula at the ends (as SciPy's PchipInterpolator).
func pchipSlopes(y []float64) []float64 {
	n := len(y)
	d := make([]float64, n)
	if n < 2 {
		return d
	}
	delta := make([]float64, n-1)
	for k := range delta {
		delta[k] = y[k+1] - y[k]
	}
	if n == 2 {
		d[0], d[1] = delta[0], delta[0]
		return d
	}
	for k := 1; k < n-1; k++ {
		a, b := delta[k-1], delta[k]
		if a*b > 0 {
			d[k] = 2 / (1/a + 1/b)
		}
	}
	end := func(d0, d1 float64) float64 {
		s := (3*d0 - d1) / 2
		switch {
		case s*d0 <= 0:
			return 0
		case d0*d1 <= 0 && math.Abs(s) > 3*math.Abs(d0):
			return 3 * d0
		}
		return s
	}
	d[0] = end(delta[0], delta[1])
	d[n-1] = end(delta[n-2], delta[n-3])
	return d
}

// PhiInverse returns the largest window w (in dead times) with Φ(w) ≤ y,
// that is the longest window at which a standing delay of y dead times still
// rests (README.md §2.6: the longest window that rests at today's T). ok is
// false when y ≤ 0 (or NaN): no window rests without a standing delay. When
// y is at least the table's last value (about 2.258, and in particular when
// y ≥ e, README.md §2.2) every window rests and w is +Inf.
func PhiInverse(y float64) (w float64, ok bool) {
	if math.IsNaN(y) || y <= 0 {
		return 0, false
	}
	last := len(phiKnots) - 1
	if y >= phiKnots[last] {
		return math.Inf(1), true
	}
	if y <= phiKnots[0] {
		return resting(phiFirstW*(y/phiKnots[0]), y), true
	}
	// the knot interval holding y: phiKnots[k] ≤ y < phiKnots[k+1]
	lo, hi := 0, last
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if phiKnots[mid] <= y {
			lo = mid
		} else {
			hi = mid
		}
	}
	k := lo
	// Solve hermite(k, t) = y on [0, 1]: the cubic is monotone there, so
	// Newton steps kept inside a shrinking bracket converge.
	a, b := 0.0, 1.0
	t := (y - phiKnots[k]) / (phiKnots[k+1] - phiKnots[k])
	for i := 0; i < 60; i++ {
		f := hermite(k, t) - y
		if f <= 0 {
			a = t
		} else {
			b = t
		}
		if b-a < 1e-13 {
			break
		}
		t2 := t * t
		df := (6*t2-6*t)*phiKnots[k] + (3*t2-4*t+1)*phiSlopes[k] +
			(-6*t2+6*t)*phiKnots[k+1] + (3*t2-2*t)*phiSlopes[k+1]
		next := t - f/df
		if df <= 0 || !(next > a && next < b) {
			next = (a + b) / 2
		}
		if next == t {
			break
		}
		t = next
	}
	// a is on the resting side: Φ(w) ≤ y there.
	return resting(math.Pow(10, phiLog10First+(float64(k)+a)/phiKnotsPerDecade), y), true
}

// resting steps w down by a few units in the last place, if rounding in the
// conversion put it where Φ(w) > y, so that Φ(PhiInverse(y)) ≤ y holds
// exactly.
func resting(w, y float64) float64 {
	for i := 0; i < 64 && Phi(w) > y; i++ {
		w = math.Nextafter(w, 0)
	}
	return w
}

// PhiHarmonicBalance is the harmonic-balance closed form of README.md §7.5:
//
//	Φ_hb(w) = [(1 + cos α) + (π + α) sin α] / (2π α),   α = π/(1 + w).
//
// It approximates the hunt by one sinusoid whose half-period is one dead time
// plus one window. Valid for w ≥ 1 and always high: by about 1.1% at w = 1,
// 1.0% at 2, 3.5% at 10/3, 9.4% at 5 and 35% at 10, and it grows without
// bound while Φ stays below e. A cross-check, not the implementation.
func PhiHarmonicBalance(w float64) float64 {
	a := math.Pi / (1 + w)
	return ((1 + math.Cos(a)) + (math.Pi+a)*math.Sin(a)) / (2 * math.Pi * a)
}

// PhiLongWindow is the long-window form of README.md §7.5:
// e/(1 + 30.6/ln²(w/0.07)), the order of growth Φ = e·(1 − O(1/ln² w)) with
// two constants the series fitted to its computed curve. Within 0.6% of the
// table for w in [10, 400]; low by about 1.2% at w = 5 and 2.6% at 10/3. A cross-check,
// not the implementation; meaningless below w ≈ 1.
func PhiLongWindow(w float64) float64 {
	l := math.Log(w / 0.07)
	return math.E / (1 + 30.6/(l*l))
}
