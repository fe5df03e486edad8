package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/token"
	"io"
	"math"
	"os"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
	"github.com/scalelint/scalelint/rules/laws"
	"github.com/scalelint/scalelint/rules/simulate"
)

// `scalelint simulate` runs the deployed control loop of one backlog-scaled
// autoscaler (package rules/simulate, the seed's deployed model) on the
// numbers of its manifest and reports whether it hunts (the seed's
// Definition 5) next to the Φ law's prediction (LAWS.md §2).

const simulateUsage = `Usage: scalelint simulate [flags] [FILE...|-]

Runs the deployed control loop of a backlog-scaled autoscaler (an HPA with
an External/Object AverageValue metric marked scalelint.dev/signal: backlog,
or a KEDA ScaledObject with a backlog trigger) through a step in demand and
reports, over the last hour of the run, the pod count (min, p5, p95, max,
mean), the need and whether the loop hunts (its swing above 30% of the
need), beside the law's prediction: it rests iff its standing delay T/c is
at least τ_eff·Φ(W_eff/τ_eff).

The numbers come from the manifest: the threshold (KEDA's default when
absent), min and max replicas, the behavior (none: the controller's legacy
path), and the scalelint.dev annotations of the autoscaler, its target and
.scalelint.yaml's defaults: dead-time, pod-rate, sampling-delay, and demand
(the step goes from demand/4 to demand, the seed's 4x step). Flags override.

With --find-boundary it bisects on the threshold for the smallest standing
delay at which the deployed loop rests and prints it beside the law's.

Examples:
  scalelint simulate deploy/consumer.yaml
  scalelint simulate --object orders --window 60s --format svg --output orders.svg .
  scalelint simulate --find-boundary deploy/

Exit status: 0 done, 2 usage or input error.

Flags:`

// simOptions are the flags of `scalelint simulate`; a NaN number was not given.
type simOptions struct {
	object, format, output string
	configPath, namespace  string
	findBoundary           bool
	deadTime, podRate      float64
	threshold, window      float64
	from, to, hours, noise float64
	seed                   int64
}

func runSimulate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o := simOptions{}
	nan := math.NaN()
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	num := func(p *float64, name, usage, kind string) {
		*p = nan
		fs.Var(numFlag{v: p, name: name, duration: strings.HasPrefix(kind, "d"), positive: !strings.HasSuffix(kind, "0")}, name, usage)
	}
	fs.StringVar(&o.object, "object", "", "the autoscaler to simulate, by name (or Kind/name, namespace/name), when the input holds several")
	fs.StringVar(&o.format, "format", "text", "text, json, svg (pods and backlog, first and last hour) or csv (the samples)")
	fs.StringVar(&o.output, "output", "", "write to this file (atomically) instead of stdout")
	fs.BoolVar(&o.findBoundary, "find-boundary", false, "bisect on the threshold for the smallest standing delay at which the loop rests (text or json)")
	num(&o.deadTime, "dead-time", "dead time τ: ordering a pod to its first consumed message (default: scalelint.dev/dead-time)", "d0")
	num(&o.podRate, "pod-rate", "messages per second one pod consumes (default: scalelint.dev/pod-rate)", "")
	num(&o.threshold, "threshold", "per-pod threshold T, messages per pod (default: the manifest's)", "")
	num(&o.window, "window", "scale-down stabilization window: the behavior's, or the controller's on the legacy path (default: the manifest's, else 300s)", "d0")
	num(&o.from, "from", "demand before the step, in the pod rate's unit (default: --to/4)", "0")
	num(&o.to, "to", "demand after the step, in the pod rate's unit (default: scalelint.dev/demand)", "")
	num(&o.hours, "hours", "hours simulated after the step, 1 to 1000 (default 20)", "")
	num(&o.noise, "noise", "relative demand noise, a factor redrawn every minute from [1-noise, 1+noise] (default 0)", "0")
	fs.Int64Var(&o.seed, "seed", 1, "seed of the demand noise")
	fs.StringVar(&o.configPath, "config", "", "configuration file (default: .scalelint.yaml found from the working directory up to the repository root)")
	fs.StringVar(&o.namespace, "namespace", "", "namespace of objects that set none (default: the config's, else \"default\")")
	paths, code, ok := parseCommand(fs, simulateUsage, args, stderr)
	if !ok {
		return code
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "scalelint: "+format+"\n", args...)
		return exitError
	}
	switch o.format {
	case "text", "json":
	case "svg", "csv":
		if o.findBoundary {
			return fail("--format %s: --find-boundary prints text or json", o.format)
		}
	default:
		return fail("--format must be text, json, svg or csv, not %q", o.format)
	}
	if given(o.hours) && (o.hours < 1 || o.hours > 1000) {
		return fail("--hours: %s is outside [1, 1000]", fmtNum(o.hours))
	}
	if given(o.noise) && o.noise > 1 {
		return fail("--noise: %s is above 1", fmtNum(o.noise))
	}
	if given(o.window) && (o.window > 3600 || o.window != math.Trunc(o.window)) {
		return fail("--window: %ss must be whole seconds up to 3600s", fmtNum(o.window))
	}
	cfg, err := loadConfig(o.configPath, o.namespace)
	if err != nil {
		return fail("%v", err)
	}

	in := loadInputs(paths, stdin, cfg, nil)
	for _, e := range in.errs {
		fmt.Fprintf(stderr, "scalelint: %v\n", e)
	}
	if len(in.errs) > 0 {
		return exitError
	}
	ws := in.ws

	a, m, err := simPick(ws, o.object)
	if err != nil {
		return fail("%v", err)
	}
	for _, p := range a.Problems {
		fmt.Fprintf(stderr, "scalelint: warning: %s: %s\n", simPosOf(a.Object, p.Pos), p.Message)
	}
	e := rules.Evaluate(ws, a, cfg.Defaults)
	run, err := simSetup(a, m, e, o)
	if err != nil {
		return fail("%v", err)
	}
	run.namespace = cfg.Namespace
	if o.format == "svg" || o.format == "csv" {
		for _, n := range run.notes {
			fmt.Fprintf(stderr, "scalelint: note: %s\n", n)
		}
	}

	var write func(w io.Writer) error
	if o.findBoundary {
		b, err := simFindBoundary(run)
		if err != nil {
			return fail("%s: %v", run.where, err)
		}
		run.boundary = b
		if o.format == "json" {
			write = run.writeJSON
		} else {
			write = run.writeBoundaryText
		}
	} else {
		res, err := simulate.Run(run.cfg)
		if err != nil {
			return fail("%s: %v", run.where, err)
		}
		res.Config.DownscaleWindow = run.displayWindow()
		run.result = &res
		switch o.format {
		case "json":
			write = run.writeJSON
		case "svg":
			write = func(w io.Writer) error { return simulate.WriteSVG(w, res, res.Summary.Need) }
		case "csv":
			write = func(w io.Writer) error { return simulate.WriteCSV(w, res) }
		default:
			write = run.writeText
		}
	}
	if o.output == "" {
		if err := write(stdout); err != nil {
			return fail("%v", err)
		}
	} else if err := simWriteAtomic(o.output, write); err != nil {
		return fail("--output: %v", err)
	}
	if in.changed(stderr) {
		return exitError
	}
	return exitOK
}

// simWriteAtomic writes a file through a temporary file renamed over it:
// a failed run never leaves a partial file in place of a good one.
func simWriteAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(dirOf(path), ".scalelint-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// simPosOf is file:line of a position in an object's file.
func simPosOf(o *manifest.Object, pos token.Pos) string {
	f := o.File()
	line, _ := f.Position(pos)
	return fmt.Sprintf("%s:%d", f.Path, line)
}

// simFieldPos is file:line of a field of an object (the object when the
// field has no position).
func simFieldPos(o *manifest.Object, f manifest.Field) string {
	if !f.IsValid() {
		f = o.At
	}
	return simPosOf(o, f.Pos)
}

// simName is how an autoscaler is named in messages: Kind namespace/name (file:line).
func simName(a *scaling.Autoscaler) string {
	return fmt.Sprintf("%s (%s)", a.Object, simFieldPos(a.Object, a.Object.At))
}

func simBacklogMetric(a *scaling.Autoscaler) *scaling.Metric {
	if a.Kind == scaling.ScaledJob {
		return nil // a ScaledJob starts jobs per message: no replica loop
	}
	for _, m := range a.Metrics {
		if m.Signal == scaling.SignalBacklog {
			return m
		}
	}
	return nil
}

// simMatches reports whether --object names the autoscaler: name,
// Kind/name or namespace/name.
func simMatches(a *scaling.Autoscaler, sel string) bool {
	o := a.Object
	if sel == o.Name {
		return true
	}
	prefix, name, ok := strings.Cut(sel, "/")
	if !ok || name != o.Name {
		return false
	}
	return strings.EqualFold(prefix, o.Kind) || prefix == o.Namespace
}

// simPick chooses the autoscaler to simulate and its backlog metric.
func simPick(ws *workspace.Workspace, sel string) (*scaling.Autoscaler, *scaling.Metric, error) {
	all := ws.Autoscalers()
	list := func(as []*scaling.Autoscaler) string {
		var b strings.Builder
		for _, a := range as {
			b.WriteString("\n  " + simName(a))
			if simBacklogMetric(a) == nil {
				b.WriteString(": no backlog signal")
			}
		}
		return b.String()
	}
	var cands []*scaling.Autoscaler
	for _, a := range all {
		if sel != "" && simMatches(a, sel) || sel == "" && simBacklogMetric(a) != nil {
			cands = append(cands, a)
		}
	}
	const how = "a KEDA queue trigger, or an HPA External/Object AverageValue metric with the annotation scalelint.dev/signal: backlog"
	switch {
	case len(all) == 0:
		return nil, nil, fmt.Errorf("no autoscaler in the input (%d files read)", len(ws.Files))
	case sel != "" && len(cands) == 0:
		return nil, nil, fmt.Errorf("--object %s: no autoscaler of that name; the input holds:%s", sel, list(all))
	case sel == "" && len(cands) == 0:
		return nil, nil, fmt.Errorf("no autoscaler with a backlog signal (%s); the input holds:%s", how, list(all))
	case len(cands) > 1:
		what := "several autoscalers with a backlog signal"
		if sel != "" {
			what = "--object " + sel + " matches several autoscalers"
		}
		return nil, nil, fmt.Errorf("%s; choose one with --object NAME (or Kind/NAME, namespace/NAME):%s", what, list(cands))
	}
	a := cands[0]
	m := simBacklogMetric(a)
	if m == nil {
		if a.Kind == scaling.ScaledJob {
			return nil, nil, fmt.Errorf("%s is a ScaledJob: it starts jobs per message and has no replica loop to simulate", simName(a))
		}
		return nil, nil, fmt.Errorf("%s has no backlog signal (%s)", simName(a), how)
	}
	return a, m, nil
}

// simRun is one simulation's inputs, where they came from, and its results.
type simRun struct {
	a     *scaling.Autoscaler
	m     *scaling.Metric
	where string // Kind namespace/name (file:line)
	// namespace of an object that sets none ("" for "default")
	namespace string
	cfg       simulate.Config
	sources   map[string]string // input -> where it came from
	notes     []string

	deadTime, podRate, threshold float64
	window                       float64 // the scale-down window W, seconds
	tolUp, tolDown               float64
	behavior                     bool
	sampling                     float64
	required, phi, w             float64 // the law: τ_eff·Φ(W_eff/τ_eff)

	result   *simulate.Result
	boundary *simBoundary
}

// simSetup gathers the simulation's inputs: flags over annotations (the
// autoscaler's, its target's, the configured defaults, merged by
// rules.Evaluate) over the manifest.
func simSetup(a *scaling.Autoscaler, m *scaling.Metric, e *rules.Evaluation, o simOptions) (*simRun, error) {
	r := &simRun{a: a, m: m, where: simName(a), sources: map[string]string{}}
	in := e.Inputs
	annotated := func(name, flagName string, flagValue float64) (float64, bool) {
		if given(flagValue) {
			r.sources[name] = "flag --" + flagName
			return flagValue, true
		}
		if v, ok := in[name]; ok {
			r.sources[name] = v.Origin.String()
			if v.Object != nil && v.At.IsValid() {
				r.sources[name] += ", " + simFieldPos(v.Object, v.At)
			}
			return v.Value, true
		}
		return 0, false
	}
	var missing []string
	var ok bool
	if r.deadTime, ok = annotated("dead-time", "dead-time", o.deadTime); !ok {
		missing = append(missing, "the dead time (annotation scalelint.dev/dead-time, or --dead-time)")
	}
	if r.podRate, ok = annotated("pod-rate", "pod-rate", o.podRate); !ok {
		missing = append(missing, "the pod rate (annotation scalelint.dev/pod-rate, or --pod-rate)")
	}
	to, hasTo := annotated("demand", "to", o.to)
	if !hasTo {
		missing = append(missing, "the demand after the step (annotation scalelint.dev/demand, or --to)")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s: cannot simulate without %s", r.where, strings.Join(missing, ", "))
	}
	r.sampling, _ = annotated("sampling-delay", "", math.NaN())
	from := to / 4
	r.sources["from"] = "the seed's 4x step: demand/4"
	if given(o.from) {
		from, r.sources["from"] = o.from, "flag --from"
	}

	// The threshold: the manifest's (KEDA's default when absent) or --threshold.
	key := m.ThresholdKey
	if key == "" {
		key = "threshold"
	}
	switch {
	case given(o.threshold):
		r.threshold, r.sources["threshold"] = o.threshold, "flag --threshold"
	case m.Threshold.Invalid || m.Threshold.V <= 0:
		return nil, fmt.Errorf("%s: %s: the %s of %s is not a positive number; give --threshold",
			r.where, simFieldPos(a.Object, m.Threshold.At), key, simMetricName(m))
	case !m.Threshold.Set:
		r.threshold, r.sources["threshold"] = m.Threshold.V, "KEDA's default "+key
	default:
		r.threshold, r.sources["threshold"] = m.Threshold.V, key+", "+simFieldPos(a.Object, m.Threshold.At)
	}

	// Replicas: KEDA's minReplicaCount 0 gives the HPA a floor of 1.
	if a.Min.Invalid || a.Max.Invalid {
		n := a.Min
		if !a.Max.Invalid {
			n = a.Max
		}
		return nil, fmt.Errorf("%s: %s: replica bound is not a number", r.where, simFieldPos(a.Object, n.At))
	}
	minR, maxR := int(a.Min.V), int(a.Max.V)
	if a.Min.V != math.Trunc(a.Min.V) || a.Max.V != math.Trunc(a.Max.V) || maxR < 1 {
		return nil, fmt.Errorf("%s: %s: replicas %s to %s: the ceiling must be a whole number of at least 1",
			r.where, simFieldPos(a.Object, a.Max.At), fmtNum(a.Min.V), fmtNum(a.Max.V))
	}
	if minR < 1 {
		minR = 1
		if a.Kind == scaling.ScaledObject {
			r.notes = append(r.notes, "minReplicaCount 0 gives the HPA a floor of 1; KEDA's own scaling to and from zero is not modelled")
		}
	}

	// The behavior: none selects the controller's legacy normaliser.
	b := a.BehaviorSpec
	cfg := simulate.Config{
		DeadTime:    time.Duration(math.Round(r.deadTime * float64(time.Second))),
		PodRate:     r.podRate,
		Threshold:   r.threshold,
		MinReplicas: minR,
		MaxReplicas: maxR,
		Behavior:    simBehavior(b),
		DemandFrom:  from,
		DemandTo:    to,
		Hours:       or(o.hours, simulate.DefaultHours),
		Noise:       or(o.noise, 0),
		Seed:        o.seed,
		Tolerance:   scaling.DefaultTolerance,
	}
	r.behavior = cfg.Behavior != nil
	r.window = a.DownWindow.V
	r.sources["window"] = "the controller's default"
	if r.behavior {
		r.sources["window"] = "the behavior's default"
		if a.DownWindow.Set {
			r.sources["window"] = "stabilizationWindowSeconds, " + simFieldPos(a.Object, a.DownWindow.At)
		}
	}
	if given(o.window) {
		r.window, r.sources["window"] = o.window, "flag --window"
	}
	if r.behavior {
		sd := simulate.Rules{}
		if cfg.Behavior.ScaleDown != nil {
			sd = *cfg.Behavior.ScaleDown
		}
		sd.StabilizationWindowSeconds = simulate.Int32(int32(r.window))
		cfg.Behavior.ScaleDown = &sd
	} else {
		// The legacy path's window is the controller's. The package reads
		// a zero window as its 300 s default; a nanosecond keeps only the
		// recommendation of the sync itself, which is no window.
		cfg.DownscaleWindow = max(time.Duration(r.window)*time.Second, 1)
	}
	r.tolUp, r.tolDown = cfg.Tolerance, cfg.Tolerance
	if r.behavior {
		if u := cfg.Behavior.ScaleUp; u != nil && u.Tolerance != nil {
			r.tolUp = *u.Tolerance
		}
		if d := cfg.Behavior.ScaleDown; d != nil && d.Tolerance != nil {
			r.tolDown = *d.Tolerance
		}
	}
	r.cfg = cfg

	// The law. rules.Evaluate predicts from the manifest's own numbers;
	// recompute when a flag moved the dead time or the window.
	r.required, r.phi, r.w = laws.RequiredStandingDelay(r.deadTime, r.window, r.sampling)
	if !given(o.deadTime) && !given(o.window) {
		for _, be := range e.Backlog {
			if be.Metric == m {
				r.required, r.phi, r.w = be.Required, be.Phi, be.W
			}
		}
	}

	if n := len(a.Metrics); n > 1 {
		r.notes = append(r.notes, fmt.Sprintf("simulating %s alone; the HPA follows the largest recommendation of its %d metrics", simMetricName(m), n))
	}
	if o.findBoundary && cfg.Noise > 0 {
		r.notes = append(r.notes, "with demand noise the swing includes the noise's own: Definition 5 may place no boundary (the seed could not at 30% noise)")
	}
	if need := to / r.podRate; need > float64(maxR) {
		r.notes = append(r.notes, fmt.Sprintf("the need of %s pods is above the ceiling of %d: the backlog grows without bound", fmtNum(need), maxR))
	}
	return r, nil
}

func simMetricName(m *scaling.Metric) string {
	if m.Type == "External" || m.Type == "Object" || m.Type == "Pods" {
		return fmt.Sprintf("metrics[%d] (%s)", m.Index, m.Type)
	}
	return fmt.Sprintf("triggers[%d] (%s)", m.Index, m.Type)
}

// simBehavior converts an autoscaling/v2 behavior to the package's mirror
// of it; nil stays nil (the legacy path).
func simBehavior(b *autoscalingv2.HorizontalPodAutoscalerBehavior) *simulate.Behavior {
	if b == nil {
		return nil
	}
	return &simulate.Behavior{ScaleUp: simRules(b.ScaleUp), ScaleDown: simRules(b.ScaleDown)}
}

func simRules(r *autoscalingv2.HPAScalingRules) *simulate.Rules {
	if r == nil {
		return nil
	}
	out := &simulate.Rules{}
	if r.StabilizationWindowSeconds != nil {
		out.StabilizationWindowSeconds = simulate.Int32(*r.StabilizationWindowSeconds)
	}
	if r.SelectPolicy != nil {
		out.SelectPolicy = simulate.SelectPolicy(*r.SelectPolicy)
	}
	for _, p := range r.Policies {
		out.Policies = append(out.Policies, simulate.Policy{Type: simulate.PolicyType(p.Type), Value: p.Value, PeriodSeconds: p.PeriodSeconds})
	}
	if r.Tolerance != nil {
		out.Tolerance = simulate.Float64(r.Tolerance.AsApproximateFloat64())
	}
	return out
}

// displayWindow is the legacy window as the SVG's title should show it.
func (r *simRun) displayWindow() time.Duration {
	return time.Duration(r.window) * time.Second
}

func (r *simRun) standingDelay() float64 { return r.threshold / r.podRate }

func (r *simRun) pathName() string {
	if r.behavior {
		return "behavior"
	}
	return "legacy"
}

// simBoundary is the result of --find-boundary.
type simBoundary struct {
	found  bool
	d      float64 // smallest resting standing delay, seconds
	lo, hi float64 // the bracket bisected
	why    string  // when not found
}

// simFindBoundary brackets the deployed boundary around the law's
// prediction (halving and doubling until the loop hunts below and rests
// above) and bisects it with simulate.FindBoundary.
func simFindBoundary(r *simRun) (*simBoundary, error) {
	hunts := func(d float64) (bool, error) {
		c := r.cfg
		c.Threshold = d * c.PodRate
		res, err := simulate.Run(c)
		return res.Summary.Hunts, err
	}
	guess := r.required
	if !(guess > 0) {
		guess = 1
	}
	floor := math.Max(guess/64, 0.01/r.podRate) // a threshold of at least 0.01
	ceil := guess * 64
	hi, lo := guess*2, 0.0 // lo: 0 until a hunting delay is known
	for {
		h, err := hunts(hi)
		if err != nil {
			return nil, err
		}
		if !h {
			break
		}
		if hi >= ceil {
			return &simBoundary{why: fmt.Sprintf("the loop still hunts at a standing delay of %ss", fmtNum(hi))}, nil
		}
		lo, hi = hi, math.Min(hi*2, ceil)
	}
	if lo == 0 {
		lo = guess / 2
		for {
			h, err := hunts(lo)
			if err != nil {
				return nil, err
			}
			if h {
				break
			}
			if lo <= floor {
				return &simBoundary{why: fmt.Sprintf("the loop already rests at a standing delay of %ss", fmtNum(lo))}, nil
			}
			lo, hi = math.Max(lo/2, floor), lo
		}
	}
	d, err := simulate.FindBoundary(r.cfg, lo, hi)
	if err != nil {
		return nil, err
	}
	return &simBoundary{found: true, d: d, lo: lo, hi: hi}, nil
}

// Text output.

// simSec formats seconds to a tenth.
func simSec(v float64) string { return fmtNum(math.Round(v*10)/10) + "s" }

// simTenth formats a number to a tenth.
func simTenth(v float64) string { return fmtNum(math.Round(v*10) / 10) }

func (r *simRun) writeHeader(w io.Writer) {
	src := func(name string) string { return " (" + r.sources[name] + ")" }
	fmt.Fprintf(w, "%s, %s\n", r.where, simMetricName(r.m))
	fmt.Fprintf(w, "  threshold %s%s / pod rate %s%s: standing delay %s\n",
		fmtNum(r.threshold), src("threshold"), fmtNum(r.podRate), src("pod-rate"), simSec(r.standingDelay()))
	fmt.Fprintf(w, "  dead time %s%s, sampling delay %s (%s)\n", simSec(r.deadTime), src("dead-time"), simSec(r.sampling), r.sources["sampling-delay"])
	step := fmt.Sprintf("%s → %s%s", fmtNum(r.cfg.DemandFrom), fmtNum(r.cfg.DemandTo), src("demand"))
	if !strings.HasPrefix(r.sources["from"], "flag") {
		step += ", from a quarter of it"
	}
	fmt.Fprintf(w, "  demand %s: need %s pods, replicas %d to %d\n", step, simTenth(r.cfg.DemandTo/r.podRate), r.cfg.MinReplicas, r.cfg.MaxReplicas)
	path := "legacy path (no behavior)"
	if r.behavior {
		path = "behavior path"
	}
	tol := "tolerance " + fmtNum(r.tolUp)
	if r.tolUp != r.tolDown {
		tol = fmt.Sprintf("tolerance up %s, down %s", fmtNum(r.tolUp), fmtNum(r.tolDown))
	}
	fmt.Fprintf(w, "  %s: scale-down window %s%s, %s\n", path, simSec(r.window), src("window"), tol)
}

// lawText is the law's prediction with its numbers.
func (r *simRun) lawText() string {
	tEff := r.deadTime + r.sampling
	return fmt.Sprintf("τ_eff·Φ(W_eff/τ_eff) = %s × Φ(%s) = %s × %s = %s",
		simSec(tEff), fmtNum(math.Round(r.w*1000)/1000), simSec(tEff), fmtNum(math.Round(r.phi*1000)/1000), simSec(r.required))
}

func (r *simRun) lawRests() bool { return laws.Rests(r.standingDelay(), r.required) }

func simVerdict(hunts bool) string {
	if hunts {
		return "hunts"
	}
	return "rests"
}

func (r *simRun) writeNotes(w io.Writer) {
	for _, n := range r.notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

func (r *simRun) writeText(w io.Writer) error {
	s := r.result.Summary
	r.writeHeader(w)
	run := fmt.Sprintf("%s hours", fmtNum(r.cfg.Hours))
	if r.cfg.Noise > 0 {
		run += fmt.Sprintf(", demand noise %s (seed %d)", fmtNum(r.cfg.Noise), r.cfg.Seed)
	}
	fmt.Fprintf(w, "simulated: last hour of %s: pods min %d, p5 %s, p95 %s, max %d, mean %s; need %s\n",
		run, s.Min, simTenth(s.P5), simTenth(s.P95), s.Max, simTenth(s.Mean), simTenth(s.Need))
	period := ""
	if s.Period > 0 {
		period = fmt.Sprintf(", repeating every %ss", fmtNum(s.Period))
	}
	fmt.Fprintf(w, "  swing %s of the need: %s (Definition 5: hunts above %s)%s\n",
		fmtNum(math.Round(s.Swing*100)/100), simVerdict(s.Hunts), fmtNum(simulate.HuntThreshold), period)
	rel := "at least"
	if !r.lawRests() {
		rel = "below"
	}
	agree := "the simulation agrees"
	if s.Hunts != !r.lawRests() {
		agree = "the simulation disagrees: near its boundary the deployed loop may part from the law by a few seconds (--find-boundary)"
	}
	fmt.Fprintf(w, "law: standing delay %s is %s %s: %s; %s\n", simSec(r.standingDelay()), rel, r.lawText(), simVerdict(!r.lawRests()), agree)
	var pods []float64
	for _, x := range r.result.Samples {
		if x.T >= s.From {
			pods = append(pods, float64(x.Pods))
		}
	}
	top := math.Max(float64(s.Max), s.Need)
	fmt.Fprintf(w, "pods, last hour, a minute a column, 0 to %s:\n  %s\n", fmtNum(math.Ceil(top)), simulate.SparklineRange(pods, 60, 0, math.Ceil(top)))
	r.writeNotes(w)
	return nil
}

func (r *simRun) writeBoundaryText(w io.Writer) error {
	r.writeHeader(w)
	b := r.boundary
	if !b.found {
		fmt.Fprintf(w, "deployed boundary: none found: %s\n", b.why)
		fmt.Fprintf(w, "law: %s\n", r.lawText())
		r.writeNotes(w)
		return nil
	}
	fmt.Fprintf(w, "deployed boundary: rests from a standing delay of %s (threshold %s), bisected to %ss between %s and %s\n",
		simSec(b.d), fmtNum(math.Ceil(b.d*r.podRate-1e-9)), fmtNum(simulate.BoundaryResolution), simSec(b.lo), simSec(b.hi))
	fmt.Fprintf(w, "law: %s; the deployed boundary is %+.1f%% from it\n", r.lawText(), 100*(b.d/r.required-1))
	d := r.standingDelay()
	fmt.Fprintf(w, "this threshold: standing delay %s, %s\n", simSec(d), map[bool]string{true: "at or above the deployed boundary", false: "below the deployed boundary"}[d >= b.d])
	r.writeNotes(w)
	return nil
}

// JSON output: stable field names, numbers rounded to six significant digits.

type simJSON struct {
	Version    int               `json:"version"`
	Autoscaler simObjectJSON     `json:"autoscaler"`
	Metric     simMetricJSON     `json:"metric"`
	Inputs     simInputsJSON     `json:"inputs"`
	Sources    map[string]string `json:"sources"` // where each input came from, by its field name in inputs
	LastHour   *simSummaryJSON   `json:"lastHour,omitempty"`
	Law        simLawJSON        `json:"law"`
	Agrees     *bool             `json:"agrees,omitempty"`
	Boundary   *simBoundaryJSON  `json:"boundary,omitempty"`
	Notes      []string          `json:"notes,omitempty"`
}

type simObjectJSON struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
	File       string `json:"file"`
	Line       int    `json:"line"`
}

type simMetricJSON struct {
	Index        int    `json:"index"`
	Type         string `json:"type"`
	ThresholdKey string `json:"thresholdKey,omitempty"`
}

type simInputsJSON struct {
	DeadTime      float64 `json:"deadTime"`
	PodRate       float64 `json:"podRate"`
	Threshold     float64 `json:"threshold"`
	StandingDelay float64 `json:"standingDelay"`
	DemandFrom    float64 `json:"demandFrom"`
	DemandTo      float64 `json:"demandTo"`
	Need          float64 `json:"need"`
	MinReplicas   int     `json:"minReplicas"`
	MaxReplicas   int     `json:"maxReplicas"`
	Path          string  `json:"path"` // legacy or behavior
	Window        float64 `json:"window"`
	ToleranceUp   float64 `json:"toleranceUp"`
	ToleranceDown float64 `json:"toleranceDown"`
	SamplingDelay float64 `json:"samplingDelay"`
	Hours         float64 `json:"hours"`
	Noise         float64 `json:"noise"`
	Seed          int64   `json:"seed"`
}

type simSummaryJSON struct {
	From        float64 `json:"from"`
	To          float64 `json:"to"`
	Min         int     `json:"min"`
	P5          float64 `json:"p5"`
	P95         float64 `json:"p95"`
	Max         int     `json:"max"`
	Mean        float64 `json:"mean"`
	MeanBacklog float64 `json:"meanBacklog"`
	Need        float64 `json:"need"`
	Swing       float64 `json:"swing"`
	Hunts       bool    `json:"hunts"`
	Period      float64 `json:"period"`
}

type simLawJSON struct {
	DeadTimeEff           float64 `json:"deadTimeEff"`
	WindowEff             float64 `json:"windowEff"`
	W                     float64 `json:"w"`
	Phi                   float64 `json:"phi"`
	RequiredStandingDelay float64 `json:"requiredStandingDelay"`
	StandingDelay         float64 `json:"standingDelay"`
	Rests                 bool    `json:"rests"`
}

type simBoundaryJSON struct {
	Found         bool    `json:"found"`
	StandingDelay float64 `json:"standingDelay,omitempty"`
	Threshold     float64 `json:"threshold,omitempty"`
	Resolution    float64 `json:"resolution,omitempty"`
	Lo            float64 `json:"lo,omitempty"`
	Hi            float64 `json:"hi,omitempty"`
	// Difference is the deployed boundary relative to the law's: 0.05 is 5% above.
	Difference float64 `json:"difference,omitempty"`
	Why        string  `json:"why,omitempty"`
}

func (r *simRun) json() simJSON {
	o := r.a.Object
	line, _ := o.File().Position(o.At.Pos)
	ns := o.Namespace
	if ns == "" {
		ns = r.namespace
	}
	if ns == "" {
		ns = "default"
	}
	out := simJSON{
		Version:    1,
		Autoscaler: simObjectJSON{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: ns, Name: o.Name, File: o.File().Path, Line: line},
		Metric:     simMetricJSON{Index: r.m.Index, Type: r.m.Type, ThresholdKey: r.m.ThresholdKey},
		Inputs: simInputsJSON{
			DeadTime: round6(r.deadTime), PodRate: round6(r.podRate), Threshold: round6(r.threshold),
			StandingDelay: round6(r.standingDelay()), DemandFrom: round6(r.cfg.DemandFrom), DemandTo: round6(r.cfg.DemandTo),
			Need: round6(r.cfg.DemandTo / r.podRate), MinReplicas: r.cfg.MinReplicas, MaxReplicas: r.cfg.MaxReplicas,
			Path: r.pathName(), Window: r.window, ToleranceUp: round6(r.tolUp), ToleranceDown: round6(r.tolDown),
			SamplingDelay: round6(r.sampling), Hours: round6(r.cfg.Hours), Noise: round6(r.cfg.Noise), Seed: r.cfg.Seed,
		},
		Sources: map[string]string{},
		Law: simLawJSON{
			DeadTimeEff: round6(r.deadTime + r.sampling), WindowEff: round6(r.window + r.sampling), W: round6(r.w),
			Phi: round6(r.phi), RequiredStandingDelay: round6(r.required), StandingDelay: round6(r.standingDelay()), Rests: r.lawRests(),
		},
		Notes: r.notes,
	}
	// Sources by the inputs' field names.
	for k, v := range r.sources {
		name := map[string]string{"dead-time": "deadTime", "pod-rate": "podRate", "demand": "demandTo", "from": "demandFrom",
			"sampling-delay": "samplingDelay"}[k]
		if name == "" {
			name = k
		}
		out.Sources[name] = v
	}
	if r.result != nil {
		s := r.result.Summary
		out.LastHour = &simSummaryJSON{From: s.From, To: s.To, Min: s.Min, P5: round6(s.P5), P95: round6(s.P95), Max: s.Max,
			Mean: round6(s.Mean), MeanBacklog: round6(s.MeanBacklog), Need: round6(s.Need), Swing: round6(s.Swing), Hunts: s.Hunts, Period: s.Period}
		agrees := s.Hunts == !r.lawRests()
		out.Agrees = &agrees
	}
	if b := r.boundary; b != nil {
		out.Boundary = &simBoundaryJSON{Found: b.found, Why: b.why}
		if b.found {
			out.Boundary.StandingDelay = round6(b.d)
			out.Boundary.Threshold = math.Ceil(b.d*r.podRate - 1e-9)
			out.Boundary.Resolution = simulate.BoundaryResolution
			out.Boundary.Lo, out.Boundary.Hi = round6(b.lo), round6(b.hi)
			out.Boundary.Difference = round6(b.d/r.required - 1)
		}
	}
	return out
}

func (r *simRun) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r.json())
}
