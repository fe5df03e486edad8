package laws

import (
	"math"
)

// This file computes Φ(w) from its definition (rules/laws/README.md §7.1;
// the method is §7.2). It is used by the generator in
// internal/phigen to write phi_table.go, and by the tests to check the table.
// Nothing here runs when a rule asks for Phi: Phi reads the table.
//
// The idealized loop, with time measured in dead times, is
//
//	x'(t) = −a·F[x](t),   F[x](t) = min_{u∈[t−1,t]} max_{v∈[u−w,u]} x(v),
//
// started from the constant history x(t) = −1 for t ≤ 0 (an upward step in
// demand: the backlog sits below its new rest level). F is positively
// homogeneous, so whether the disturbance decays does not depend on its size
// and depends on the gain a = τ/D and the window w = W/τ only. For each w there
// is a critical gain a*(w): the disturbance decays for a < a* and grows (the
// loop hunts) for a > a*. Φ(w) = 1/a*(w) is the standing delay, in dead times,
// the loop needs to rest.
//
// Method. Explicit Euler with a step h = 1/N dead times, so the dead time is
// exactly N steps. The window is Wn + f steps (0 ≤ f < 1): the maximum over
// the window is the maximum over the whole steps (a monotonic deque) and the
// value at the fractional end, interpolated linearly, which is the exact
// maximum of the piecewise-linear interpolant of the samples. The minimum over
// the dead time is a second monotonic deque over the window maxima. Both
// deques are ring buffers, so one step costs O(1) amortized and the memory is
// O(N·(1+w)).
//
// Growth criterion. After the first crossing of rest, every excursion below
// rest ends in a trough. The loop hunts at gain a if its troughs grow: the
// mean growth per cycle over the last two thirds of the troughs within the
// horizon is at least 1 (see growthPerCycle); with one trough, its depth is
// compared with the initial disturbance (1); with none the loop rested (the
// disturbance never came back below rest). A run stops early, with a
// verdict, when an excursion exceeds 1e30 (hunts) or a completed excursion
// stayed below 1e-20 of the initial disturbance (rests), so values never
// overflow or underflow, and it never takes more than MaxSteps steps.
//
// The horizon is HorizonWindows·(w+1) + HorizonExtra dead times (default
// 14·(w+1) + 40). One hunt cycle lasts between about (w+1) dead times at
// long windows and 2·(w+1) at windows near one dead time (2.4 at w = 0.3,
// 5.9 at w = 2, 122 at w = 100, 10 215 at w = 10 000), so a run sees at
// least seven cycles, and the per-cycle growth settles after the first.
//
// Φ(w) is found by bisection on log a, on a bracket around a coarse guess
// that is widened until its ends hunt and rest. Euler's error in Φ is first
// order in h; with Richardson set, Φ is computed at N and 2N steps per dead
// time and extrapolated as 2·Φ(2N) − Φ(N). Around the first-order trend,
// Φ(N) scatters by a few parts in 10⁴ at windows near 0.3–1 dead times
// (the hunt cycle locks to the grid); enough steps per window keep that
// scatter below the accuracy wanted.
//
// Findings that fixed the defaults. At a fixed step of τ/200 and no
// extrapolation (publishedStepOptions, in the tests) the integration reproduces the values
// the blog series published (README.md §7.4): 0.1194 at w = 0.1 (published
// 0.119), 0.5732 at 1 (0.573), 0.7734 at 2 (0.773), 0.9168 at 3.3333 (0.916),
// 1.7197 at 100 (1.719) and 1.9393 at 400 (1.938). The series evidently
// integrated with h = τ/200. The
// step-converged values (DefaultIntegrateOptions) are lower: 0.1171, 0.5724,
// 0.7715, 0.9151, 1.7159 and 1.9348; Richardson over N and 2N agrees with
// runs at 16 and 32 times the steps to 1e-5 from w = 3 on and to a few
// parts in 10⁴ below.

// IntegrateOptions sets the numerical method of IntegratePhi. The zero value
// is not useful; start from DefaultIntegrateOptions.
type IntegrateOptions struct {
	// StepsPerDeadTime is the least number N of Euler steps per dead time.
	StepsPerDeadTime int
	// StepsPerWindow, when positive, refines the step so that the window
	// spans at least this many steps. At short windows the loop moves on the
	// time scale of the window (Φ(w) is about 2w there, so 1/a is too), much
	// shorter than the dead time.
	StepsPerWindow int
	// MaxStepsPerDeadTime caps N after the refinement above (0: no cap). It
	// bounds the memory of a run, which holds about N·(1+w) samples.
	MaxStepsPerDeadTime int
	// Richardson extrapolates 2·Φ(2N) − Φ(N), removing Euler's first-order
	// error.
	Richardson bool
	// RelTol is the relative width at which the bisection on the gain stops.
	RelTol float64
	// HorizonWindows and HorizonExtra set the horizon of one run:
	// HorizonWindows·(w+1) + HorizonExtra dead times.
	HorizonWindows float64
	HorizonExtra   float64
	// MaxSteps bounds the Euler steps of one run (0: the horizon alone). A
	// run that reaches it decides on the troughs seen so far.
	MaxSteps int64
}

// MaxIntegrateWindow is the longest window, in dead times, IntegratePhi
// accepts; the table stops well below it (see phi_table.go).
const MaxIntegrateWindow = 1e5

// DefaultIntegrateOptions is the converged setting: at least 400 steps per
// dead time and 400 per window (so 400 000 per dead time at w = 1e-3),
// Richardson extrapolation, a relative bisection tolerance of 1e-5, horizon
// 14·(w+1)+40 dead times, at most 4e8 steps per run. Its error is a few
// parts in 10⁴ at most over 1e-3 ≤ w ≤ 1e4: largest near w = 0.3–1, where
// the hunt cycle locks to the grid and Φ(N) scatters around its
// first-order trend, and below 1e-4 from w = 3 on.
func DefaultIntegrateOptions() IntegrateOptions {
	return IntegrateOptions{
		StepsPerDeadTime:    400,
		StepsPerWindow:      400,
		MaxStepsPerDeadTime: 4_000_000,
		Richardson:          true,
		RelTol:              1e-5,
		HorizonWindows:      14,
		HorizonExtra:        40,
		MaxSteps:            400_000_000,
	}
}

// TableIntegrateOptions returns the options the generator (internal/phigen)
// uses for the knot at window w: DefaultIntegrateOptions with at least 400
// steps per dead time below w = 10, 200 from 10 to 100 and 100 from 100 on.
// Short windows need many steps per dead time anyway (400 per window); from
// w = 10 on the integration converges cleanly in the step (Richardson over
// 100 and 200 steps agrees with 400 and 800 to 1e-5 at w = 100 and 1000),
// and the runs are long, so the step is coarser there.
func TableIntegrateOptions(w float64) IntegrateOptions {
	opts := DefaultIntegrateOptions()
	switch {
	case w < 10:
		opts.StepsPerDeadTime = 400
	case w < 100:
		opts.StepsPerDeadTime = 200
	default:
		opts.StepsPerDeadTime = 100
	}
	return opts
}

// phiGuess is a coarse estimate of Φ(w), within 40% everywhere, used only to
// centre the initial bracket of the bisection: 2w/(1+2.5w) below one dead
// time (Φ(w) ≈ 2w at w = 1e-3), the harmonic balance up to four (high by at
// most 7%), and the long-window form beyond (low by at most 2%).
func phiGuess(w float64) float64 {
	switch {
	case w <= 0:
		return 0
	case w < 1:
		return 2 * w / (1 + 2.5*w)
	case w < 4:
		return PhiHarmonicBalance(w)
	default:
		return PhiLongWindow(w)
	}
}

// StepsPerDeadTimeAt returns the number N of Euler steps per dead time that
// IntegratePhi uses at window w with opts (Richardson adds a run at 2N).
func (opts IntegrateOptions) StepsPerDeadTimeAt(w float64) int {
	n := float64(opts.StepsPerDeadTime)
	if n < 1 {
		n = 1
	}
	if opts.StepsPerWindow > 0 && w > 0 {
		n = math.Max(n, math.Ceil(float64(opts.StepsPerWindow)/w))
	}
	if opts.MaxStepsPerDeadTime > 0 {
		n = math.Min(n, float64(opts.MaxStepsPerDeadTime))
	}
	return int(n)
}

// IntegratePhi computes Φ(w) by integrating the idealized min–max loop and
// bisecting on the gain (README.md §7.2). It returns 0 at w = 0 (§7.1: with
// no window the loop rests at every standing delay), and NaN for a negative, NaN or infinite w or one above
// MaxIntegrateWindow. It is safe for concurrent use.
func IntegratePhi(w float64, opts IntegrateOptions) float64 {
	if math.IsNaN(w) || w < 0 || w > MaxIntegrateWindow {
		return math.NaN()
	}
	if w == 0 {
		return 0
	}
	n := opts.StepsPerDeadTimeAt(w)
	p := phiAtSteps(w, n, opts)
	if !opts.Richardson {
		return p
	}
	p2 := phiAtSteps(w, 2*n, opts)
	return 2*p2 - p
}

// phiAtSteps bisects on the gain at a fixed step of 1/n dead times. It
// works on the standing delay p = 1/a: the loop hunts for p below Φ and
// rests above it.
func phiAtSteps(w float64, n int, opts IntegrateOptions) float64 {
	tol := opts.RelTol
	if tol <= 0 {
		tol = 1e-6
	}
	const spread = 1.3
	g := phiGuess(w)
	lo, hi := g/spread, g*spread
	// lo must hunt and hi must rest; move the bracket until they do.
	// Φ ≤ e (README.md §7.1), so a bracket above 2e means something broke.
	for tries := 0; !HuntsAt(w, 1/lo, n, opts); tries++ {
		if tries > 60 {
			return 0
		}
		hi, lo = lo, lo/spread
	}
	for tries := 0; HuntsAt(w, 1/hi, n, opts); tries++ {
		if hi > 2*math.E {
			return math.Inf(1)
		}
		lo, hi = hi, hi*spread
	}
	for hi/lo-1 > tol {
		mid := math.Sqrt(lo * hi)
		if HuntsAt(w, 1/mid, n, opts) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Sqrt(lo * hi)
}

// HuntsAt reports whether the idealized loop with window w (in dead times)
// and gain a = τ/D hunts after an upward step, integrated with n Euler steps
// per dead time and the horizon of opts.
func HuntsAt(w, gain float64, n int, opts IntegrateOptions) bool {
	r := simulate(w, gain, n, opts)
	switch r.verdict {
	case grew:
		return true
	case decayed:
		return false
	}
	return growthPerCycle(r.troughs) >= 1
}

const (
	undecided = iota
	grew      // the excursion passed 1e30
	decayed   // a completed excursion stayed below 1e-20
)

// run is the outcome of one integration.
type run struct {
	// troughs are the depths of the excursions below rest that ended
	// within the run, after the first crossing (the initial disturbance has
	// depth 1); peaks are the heights of the excursions above rest, the last
	// one included even if it had not ended.
	troughs, peaks []float64
	verdict        int // undecided, grew or decayed
}

// simulate integrates one run of the idealized loop at window w, gain a and
// n steps per dead time.
func simulate(w, gain float64, n int, opts IntegrateOptions) (r run) {
	if n < 1 {
		n = 1
	}
	h := 1 / float64(n)
	ws := w * float64(n)
	wn := int64(math.Floor(ws))
	f := ws - float64(wn)
	if f < 1e-9 {
		f = 0
	} else if f > 1-1e-9 {
		wn++
		f = 0
	}
	hw, he := opts.HorizonWindows, opts.HorizonExtra
	if hw <= 0 && he <= 0 {
		hw, he = 14, 40
	}
	steps := int64(math.Ceil((hw*(w+1) + he) * float64(n)))
	if opts.MaxSteps > 0 && steps > opts.MaxSteps {
		steps = opts.MaxSteps
	}
	// A window longer than the run never lets go of the history; the ring
	// and the deque need not be longer than the run.
	span := wn + 2
	if span > steps+2 {
		span = steps + 2
	}

	xs := newRing(int(span)) // the samples x_i, −1 before the step
	mx := newDeque(int(span), true)
	mn := newDeque(n+2, false)
	ah := gain * h

	x := -1.0
	crossed := false
	neg := true
	cur := 0.0 // largest |x| in the current excursion
	for i := int64(0); i < steps; i++ {
		xs.set(i, x)
		mx.push(i, x)
		mx.evict(i - wn)
		m := mx.front()
		if f > 0 {
			// the window's far end falls between two samples
			a := xs.get(i - wn)
			b := xs.get(i - wn - 1)
			if v := a + f*(b-a); v > m {
				m = v
			}
		}
		mn.push(i, m)
		mn.evict(i - int64(n))
		x -= ah * mn.front()

		if isNeg := x < 0; isNeg != neg {
			// an excursion just ended
			if !neg {
				r.peaks = append(r.peaks, cur)
			} else if crossed {
				r.troughs = append(r.troughs, cur)
			}
			if cur < 1e-20 {
				r.verdict = decayed
				break
			}
			crossed = true
			neg = isNeg
			cur = 0
		}
		if ax := math.Abs(x); ax > cur {
			cur = ax
			if cur > 1e30 {
				r.verdict = grew
				break
			}
		}
	}
	if !neg {
		r.peaks = append(r.peaks, cur)
	}
	return r
}

// growthPerCycle turns the troughs of one run into a growth factor per
// cycle. With no trough the loop rested: the disturbance never came back
// below rest. With one, its depth is compared with the initial disturbance
// (1). With k ≥ 2 the first third of the troughs is skipped as transient and
// the factor is the geometric mean over the rest, (T_k/T_j)^(1/(k−j)),
// j = ⌈k/3⌉: the per-cycle ratios jitter by a few parts in 10⁴ as the cycle
// slides against the grid, and the mean over several cycles keeps that
// jitter out of the bisection.
func growthPerCycle(troughs []float64) float64 {
	k := len(troughs)
	switch k {
	case 0:
		return 0
	case 1:
		return troughs[0]
	}
	j := (k + 2) / 3
	if j >= k {
		j = k - 1
	}
	return math.Pow(troughs[k-1]/troughs[j-1], 1/float64(k-j))
}

// ring holds the last samples of a sequence indexed by int64, with −1 (the
// step's history) before index 0 until overwritten.
type ring struct {
	buf  []float64
	mask int64
}

func newRing(n int) *ring {
	c := 1
	for c < n {
		c <<= 1
	}
	return &ring{buf: make([]float64, c), mask: int64(c - 1)}
}

func (r *ring) set(i int64, v float64) { r.buf[i&r.mask] = v }
func (r *ring) get(i int64) float64 {
	if i < 0 {
		return -1
	}
	return r.buf[i&r.mask]
}

// deque is a monotonic deque on a ring buffer: the sliding maximum (max) or
// minimum of the values pushed with indices in [lo, newest].
type deque struct {
	idx     []int64
	val     []float64
	head, n int
	mask    int
	max     bool
}

func newDeque(capacity int, max bool) *deque {
	c := 1
	for c < capacity+1 {
		c <<= 1
	}
	d := &deque{idx: make([]int64, c), val: make([]float64, c), mask: c - 1, max: max}
	// The history before index 0 is the constant −1 of the step; one entry
	// at index −1 stands for all of it until it leaves the window.
	d.idx[0], d.val[0], d.n = -1, -1, 1
	return d
}

func (d *deque) push(i int64, v float64) {
	for d.n > 0 {
		last := d.val[(d.head+d.n-1)&d.mask]
		if (d.max && last <= v) || (!d.max && last >= v) {
			d.n--
		} else {
			break
		}
	}
	t := (d.head + d.n) & d.mask
	d.idx[t], d.val[t] = i, v
	d.n++
}

func (d *deque) evict(lo int64) {
	for d.n > 1 && d.idx[d.head] < lo {
		d.head = (d.head + 1) & d.mask
		d.n--
	}
}

func (d *deque) front() float64 { return d.val[d.head] }
