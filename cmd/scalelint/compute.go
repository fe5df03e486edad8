package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/rules"
	"github.com/scalelint/scalelint/rules/laws"
)

// computeInputs are the raw numbers of `scalelint compute`; a NaN field
// was not given.
type computeInputs struct {
	deadTime, window, podRate, threshold, limit, request, target, overload  float64
	demand, maxReplicas, peak, clientTimeout, bound, sampling, metricWindow float64
	tolerance, latencyTarget, margin                                        float64
	retries                                                                 []int
	hasRetries                                                              bool
}

// numFlag is a number flag that remembers whether it was given and names
// itself in its error.
type numFlag struct {
	v        *float64
	name     string
	duration bool
	percent  bool // accepts 0.5 or 50%
	positive bool
}

func (f numFlag) String() string {
	if f.v == nil || math.IsNaN(*f.v) {
		return ""
	}
	return strconv.FormatFloat(*f.v, 'g', -1, 64)
}

func (f numFlag) Set(s string) error {
	var v float64
	var err error
	switch {
	case f.duration:
		v, err = scaling.ParseDuration(s)
	case f.percent && strings.HasSuffix(s, "%"):
		v, err = strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		v /= 100
	default:
		v, err = strconv.ParseFloat(s, 64)
	}
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		if f.duration {
			return fmt.Errorf("--%s: %q is not a duration (90s, 1m30s, or seconds)", f.name, s)
		}
		return fmt.Errorf("--%s: %q is not a number", f.name, s)
	}
	if v < 0 || (f.positive && v == 0) {
		return fmt.Errorf("--%s: %q must be positive", f.name, s)
	}
	if !f.duration {
		if err := scaling.CheckMagnitude(v); err != nil {
			return fmt.Errorf("--%s: %q %v", f.name, s, err)
		}
	}
	*f.v = v
	return nil
}

func runCompute(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	in := computeInputs{}
	nan := math.NaN()
	fs := flag.NewFlagSet("compute", flag.ContinueOnError)
	fs.SetOutput(stderr)
	num := func(p *float64, name, usage string, kind string) {
		*p = nan
		// kind: "d" a duration, "%" a fraction or percentage, a trailing "0"
		// allows zero.
		f := numFlag{v: p, name: name, duration: strings.HasPrefix(kind, "d"), percent: kind == "%",
			positive: !strings.HasSuffix(kind, "0")}
		fs.Var(f, name, usage)
	}
	num(&in.deadTime, "dead-time", "dead time τ: ordering a pod to its first served request (90s)", "d")
	num(&in.window, "window", "scale-down stabilization window W (default 300s)", "d0")
	num(&in.podRate, "pod-rate", "rate of one pod c, in the signal's unit", "")
	num(&in.threshold, "threshold", "backlog threshold T per pod", "")
	num(&in.limit, "limit", "CPU limit ℓ (cores, summed over counted containers)", "")
	num(&in.request, "request", "CPU request r (cores)", "")
	num(&in.target, "target", "utilization target u* (0.5 or 50%)", "%")
	num(&in.overload, "overload", "design overload k (multiple of the load before it)", "")
	num(&in.demand, "demand", "design demand λ, in the pod rate's unit", "")
	num(&in.maxReplicas, "max-replicas", "replica ceiling M", "")
	num(&in.peak, "scalability-peak", "scalability peak N_max (pods)", "")
	num(&in.clientTimeout, "client-timeout", "shortest client timeout τ_out", "d")
	num(&in.bound, "admission-bound", "admission bound b", "d")
	num(&in.sampling, "sampling-delay", "sampling delay s (default 10s)", "d0")
	num(&in.metricWindow, "metric-window", "metric window m per round (default 30s)", "d0")
	num(&in.tolerance, "tolerance", "scale-up tolerance (default 0.1)", "0")
	num(&in.latencyTarget, "latency-target", "promised queue latency ℓ_acc", "d")
	num(&in.margin, "margin", "margin on the smallest resting threshold (default 0.1)", "0")
	var retries string
	fs.StringVar(&retries, "retries", "", "retries per layer of callers, outermost first: 2 or 2,2")
	format := fs.String("format", "text", "text or json")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: scalelint compute [flags]\n\nEvaluates every law its flags allow (LAWS.md) and prints the numbers with verdicts.\nExample: scalelint compute --dead-time 90s --window 300s --pod-rate 10 --threshold 10\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitError
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "scalelint: compute takes flags only, not %q\n", fs.Arg(0))
		return exitError
	}
	if retries != "" {
		spec, _ := scaling.SpecOf("retries")
		v, err := scaling.ParseValue(spec, retries)
		if err != nil {
			fmt.Fprintf(stderr, "scalelint: --retries: %v\n", err)
			return exitError
		}
		in.retries, in.hasRetries = v.List, true
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "scalelint: --format must be text or json, not %q\n", *format)
		return exitError
	}
	if in.target > 1 {
		fmt.Fprintf(stderr, "scalelint: --target: %g is above 1; write a fraction (0.5) or a percentage (50%%)\n", in.target)
		return exitError
	}
	res := compute(in)
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res.values); err != nil {
			fmt.Fprintf(stderr, "scalelint: %v\n", err)
			return exitError
		}
		return exitOK
	}
	if len(res.lines) == 0 {
		fmt.Fprintln(stdout, "nothing to compute: give the numbers of at least one law (scalelint compute -h)")
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 2, 2, ' ', 0)
	for _, l := range res.lines {
		fmt.Fprintln(tw, l)
	}
	tw.Flush()
	return exitOK
}

type computeResult struct {
	values map[string]any // the JSON object
	lines  []string       // the text table: law\tnumbers\tverdict
}

func given(v float64) bool { return !math.IsNaN(v) }

func or(v, def float64) float64 {
	if given(v) {
		return v
	}
	return def
}

// compute evaluates every law its inputs allow.
func compute(in computeInputs) computeResult {
	r := computeResult{values: map[string]any{}}
	add := func(law, numbers, verdict string) {
		r.lines = append(r.lines, law+"\t"+numbers+"\t"+verdict)
	}
	verdict := func(bad bool, badText, goodText string) string {
		if bad {
			return "✗ " + badText
		}
		return "✓ " + goodText
	}
	tol := or(in.tolerance, laws.DefaultTolerance)
	sampling := or(in.sampling, laws.DefaultSamplingDelay)
	metricWindow := or(in.metricWindow, laws.DefaultMetricWindow)
	window := or(in.window, laws.DefaultStabilizationWindow)

	// §1 growth factor, tolerance trap, rounds.
	if given(in.limit) && given(in.request) && given(in.target) && in.request > 0 && in.target > 0 {
		g := laws.GrowthFactor(in.limit, in.request, in.target)
		trapped := laws.ToleranceTrapped(g, tol)
		r.values["g"] = round6(g)
		r.values["toleranceTrap"] = trapped
		add("tolerance trap (§1)", fmt.Sprintf("g = ℓ/(r·u*) = %s against 1 + %s", fmtNum(g), fmtNum(tol)),
			verdict(trapped, "never scales up on a saturated metric", "scales up"))
		if given(in.overload) && !trapped {
			n := laws.Rounds(g, in.overload)
			r.values["rounds"] = n
			text := fmt.Sprintf("%d rounds for a %sx overload", n, fmtNum(in.overload))
			if given(in.deadTime) {
				t := laws.TimeToCapacity(n, in.deadTime, metricWindow)
				r.values["timeToCapacity"] = round6(t)
				text += fmt.Sprintf(", %s × (%ss + %ss) = %ss to capacity", strconv.Itoa(n), fmtNum(in.deadTime), fmtNum(metricWindow), fmtNum(t))
			}
			add("rounds (§1)", text, "")
		}
	}
	// §2 latency floor.
	if given(in.deadTime) {
		req, phi, w := laws.RequiredStandingDelay(in.deadTime, window, sampling)
		r.values["phi"] = round6(phi)
		r.values["w"] = round6(w)
		r.values["requiredStandingDelay"] = round6(req)
		text := fmt.Sprintf("τ_eff·Φ(W_eff/τ_eff) = %s × Φ(%s) = %s × %s = %ss", fmtNum(in.deadTime+sampling), fmtNum(w),
			fmtNum(in.deadTime+sampling), fmtNum(phi), fmtNum(req))
		if given(in.threshold) && given(in.podRate) {
			d := laws.StandingDelay(in.threshold, in.podRate)
			rests := laws.Rests(d, req)
			r.values["standingDelay"] = round6(d)
			r.values["rests"] = rests
			fix := laws.SmallestRestingThreshold(in.podRate, req, or(in.margin, defaultMargin()))
			hint := fmt.Sprintf("rests; smallest resting threshold %s", fmtNum(fix))
			bad := fmt.Sprintf("hunts; smallest resting threshold %s", fmtNum(fix))
			if wl, ok, unlimited := laws.LongestRestingWindow(d, in.deadTime, sampling); ok && !unlimited {
				bad += fmt.Sprintf(", or a window of at most %ss", fmtNum(math.Floor(wl)))
			}
			add("latency floor (§2)", fmt.Sprintf("standing delay T/c = %ss against %s", fmtNum(d), text[strings.Index(text, "= ")+2:]), verdict(!rests, bad, hint))
		} else {
			add("latency floor (§2)", "needs "+text, "")
		}
		if given(in.latencyTarget) {
			held := laws.LatencyTargetHeld(in.latencyTarget, req)
			r.values["latencyTargetHeld"] = held
			add("latency target (§2)", fmt.Sprintf("promise %ss against the %ss floor", fmtNum(in.latencyTarget), fmtNum(req)),
				verdict(!held, "cannot be held at rest", "holds"))
		}
	}
	// §5 bound (before §3: it protects against the trap).
	protected := false
	if given(in.bound) && given(in.clientTimeout) {
		shorter := laws.BoundShorterThanTimeout(in.bound, in.clientTimeout)
		protected = shorter
		r.values["boundShorterThanTimeout"] = shorter
		add("admission bound (§5)", fmt.Sprintf("b = %ss against τ_out = %ss", fmtNum(in.bound), fmtNum(in.clientTimeout)),
			verdict(!shorter, "retry debt still forms", "no retry debt"))
	}
	// §3 retry trap.
	if in.hasRetries {
		a := laws.Amplification(in.retries)
		r.values["amplification"] = round6(a)
		r.values["trapTarget"] = round6(laws.TrapTarget(a))
		text := fmt.Sprintf("A = %s, 1/A = %s%%", fmtNum(a), fmtNum(100*laws.TrapTarget(a)))
		if given(in.target) {
			trapped := laws.RetryTrapped(in.target, a, protected)
			r.values["trapped"] = trapped
			add("retry trap (§3)", fmt.Sprintf("target %s%% against %s", fmtNum(100*in.target), text),
				verdict(trapped, "stays failed after a trigger", "recovers"))
		} else {
			add("retry trap (§3)", text, "")
		}
		if given(in.clientTimeout) && given(in.deadTime) {
			r.values["triggerOverload"] = round6(laws.TriggerOverload(in.clientTimeout, in.deadTime))
		}
	}
	// §4 ceiling band.
	a := 1.0
	if in.hasRetries {
		a = laws.Amplification(in.retries)
	}
	var floor, top float64
	hasFloor := in.hasRetries && given(in.demand) && given(in.podRate)
	if hasFloor {
		floor = laws.CeilingFloor(a, in.demand, in.podRate)
		r.values["ceilingFloor"] = round6(floor)
	}
	if given(in.peak) {
		top = laws.CeilingTop(in.peak)
		r.values["ceilingTop"] = round6(top)
	}
	if hasFloor && given(in.peak) {
		empty := laws.BandEmpty(floor, top)
		r.values["ceilingBandEmpty"] = empty
		add("ceiling band (§4)", fmt.Sprintf("A·λ/c = %s < M ≤ 0.8·N_max = %s", fmtNum(floor), fmtNum(top)),
			verdict(empty, "empty: no ceiling is safe", "a safe ceiling exists"))
	}
	if given(in.maxReplicas) && hasFloor {
		trap := laws.CeilingTrapped(in.maxReplicas, floor)
		r.values["ceilingTrap"] = trap
		add("ceiling trap (§4)", fmt.Sprintf("M = %s against A·λ/c = %s", fmtNum(in.maxReplicas), fmtNum(floor)),
			verdict(trap, "stays failed after a trigger", "recovers, in time ∝ 1/(M − A·λ/c)"))
	}
	if given(in.maxReplicas) && given(in.peak) {
		over := laws.OverPeak(in.maxReplicas, top)
		r.values["ceilingOverPeak"] = over
		add("ceiling over peak (§4)", fmt.Sprintf("M = %s against 0.8·N_max = %s", fmtNum(in.maxReplicas), fmtNum(top)),
			verdict(over, "may climb past the scalability peak", "below the peak"))
	}
	return r
}

// round6 keeps six significant digits, so the numbers of every JSON
// output (check's facts, compute, audit, simulate) are stable across
// platforms.
func round6(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	mag := math.Pow(10, 5-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*mag) / mag
}

func fmtNum(v float64) string {
	s := strconv.FormatFloat(v, 'f', 4, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// defaultMargin is latency-floor's default margin, the one check applies
// when the configuration sets none.
func defaultMargin() float64 {
	o, _ := rules.LatencyFloor.Option("margin")
	return o.Default
}
