// Package simulation runs the deployed control loop of one backlog-scaled
// autoscaler (package rules/simulate) on the numbers of its manifest: the
// simulate command, and the audit's HTML report, which embeds a run per
// backlog consumer whose demand is annotated.
//
// Data flow: a workspace -> Pick (the autoscaler and its backlog metric)
// -> Setup (the manifest's threshold, replicas, behavior and window, the
// annotated dead time, pod rate and demand as rules.Evaluate merged them,
// each overridden by the command's flags, with where each came from) ->
// Simulate or FindBoundary -> text, JSON, SVG or CSV, beside the law's
// prediction: the loop rests iff its standing delay T/c is at least
// τ_eff·Φ(W_eff/τ_eff) (rules/laws/README.md §2, the deployed loop §6).
package simulation

import (
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"math"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
	"github.com/scalelint/scalelint/rules/format"
	"github.com/scalelint/scalelint/rules/laws"
	"github.com/scalelint/scalelint/rules/simulate"
)

// Overrides are the numbers the simulate command's flags set in place of
// the manifest's; a nil one was not given.
type Overrides struct {
	DeadTime, PodRate, Threshold *float64
	Window                       *float64 // the scale-down stabilization window, seconds
	From, To                     *float64 // demand before and after the step
	Hours, Noise                 *float64
	Seed                         int64 // of the demand noise
	// FindBoundary notes that a boundary will be sought (a note warns when
	// noise may hide it).
	FindBoundary bool
}

// Check refuses overrides the simulation cannot run with.
func (o Overrides) Check() error {
	switch {
	case o.Hours != nil && (*o.Hours < 1 || *o.Hours > 1000):
		return fmt.Errorf("--hours: %s is outside [1, 1000]", format.Num(*o.Hours, 4))
	case o.Noise != nil && *o.Noise > 1:
		return fmt.Errorf("--noise: %s is above 1", format.Num(*o.Noise, 4))
	case o.Window != nil && (*o.Window > 3600 || *o.Window != math.Trunc(*o.Window)):
		return fmt.Errorf("--window: %ss must be whole seconds up to 3600s", format.Num(*o.Window, 4))
	}
	return nil
}

// Candidate is an autoscaler of the input, and how to name the places of
// its workspace's objects.
type Candidate struct {
	Autoscaler *scaling.Autoscaler
	Workspace  *workspace.Workspace
	// Place writes file:line of a position of an object of the
	// workspace (OwnFile for objects read from files; a chart's are
	// placed in its templates and values files).
	Place Placer
}

// Placer writes file:line of a position of an object.
type Placer func(o *manifest.Object, pos token.Pos) string

// OwnFile is the Placer of objects read from files: their file and line.
func OwnFile(o *manifest.Object, pos token.Pos) string {
	f := o.File()
	line, _ := f.Position(pos)
	return fmt.Sprintf("%s:%d", f.Path, line)
}

// Candidates returns the autoscalers of a workspace of files.
func Candidates(ws *workspace.Workspace) []Candidate {
	var out []Candidate
	for _, a := range ws.Autoscalers().All() {
		out = append(out, Candidate{a, ws, OwnFile})
	}
	return out
}

// Problems returns the autoscaler's malformed annotations, each prefixed
// with its file:line, for the command to warn about.
func (c Candidate) Problems() []string {
	var out []string
	for _, p := range c.Autoscaler.Problems {
		out = append(out, c.Place(c.Autoscaler.Object, p.Pos)+": "+p.Message)
	}
	return out
}

// fieldPos is file:line of a field of an object (the object when the
// field has no position).
func (c Candidate) fieldPos(o *manifest.Object, f manifest.Field) string {
	if !f.IsValid() {
		f = o.At
	}
	return c.Place(o, f.Pos)
}

// name is how an autoscaler is named in messages: Kind namespace/name (file:line).
func (c Candidate) name() string {
	a := c.Autoscaler
	return fmt.Sprintf("%s (%s)", a.Object, c.fieldPos(a.Object, a.Object.At))
}

func backlogMetric(a *scaling.Autoscaler) *scaling.Metric {
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

// matches reports whether --object names the autoscaler: name,
// Kind/name or namespace/name.
func matches(a *scaling.Autoscaler, sel string) bool {
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

// Pick chooses the autoscaler to simulate and its backlog metric, among
// the input's (files: how many files were read, for a message).
func Pick(all []Candidate, files int, sel string) (Candidate, *scaling.Metric, error) {
	list := func(cs []Candidate) string {
		var b strings.Builder
		for _, c := range cs {
			b.WriteString("\n  " + c.name())
			if backlogMetric(c.Autoscaler) == nil {
				b.WriteString(": no backlog signal")
			}
		}
		return b.String()
	}
	var cands []Candidate
	for _, c := range all {
		if sel != "" && matches(c.Autoscaler, sel) || sel == "" && backlogMetric(c.Autoscaler) != nil {
			cands = append(cands, c)
		}
	}
	const how = "a KEDA queue trigger, or an HPA External/Object AverageValue metric with the annotation scalelint.dev/signal: backlog"
	switch {
	case len(all) == 0:
		return Candidate{}, nil, fmt.Errorf("no autoscaler in the input (%d files read)", files)
	case sel != "" && len(cands) == 0:
		return Candidate{}, nil, fmt.Errorf("--object %s: no autoscaler of that name; the input holds:%s", sel, list(all))
	case sel == "" && len(cands) == 0:
		return Candidate{}, nil, fmt.Errorf("no autoscaler with a backlog signal (%s); the input holds:%s", how, list(all))
	case len(cands) > 1:
		what := "several autoscalers with a backlog signal"
		if sel != "" {
			what = "--object " + sel + " matches several autoscalers"
		}
		return Candidate{}, nil, fmt.Errorf("%s; choose one with --object NAME (or Kind/NAME, namespace/NAME):%s", what, list(cands))
	}
	c := cands[0]
	m := backlogMetric(c.Autoscaler)
	if m == nil {
		if c.Autoscaler.Kind == scaling.ScaledJob {
			return Candidate{}, nil, fmt.Errorf("%s is a ScaledJob: it starts jobs per message and has no replica loop to simulate", c.name())
		}
		return Candidate{}, nil, fmt.Errorf("%s has no backlog signal (%s)", c.name(), how)
	}
	return c, m, nil
}

// Run is one simulation's inputs, where they came from, and its results.
type Run struct {
	a     *scaling.Autoscaler
	m     *scaling.Metric
	Where string // Kind namespace/name (file:line)
	// Namespace is that of an object that sets none ("" for "default").
	Namespace string
	// Config is the deployed loop set up for rules/simulate.
	Config  simulate.Config
	sources map[string]string // input -> where it came from
	// Notes say what the run does not model or where it may mislead.
	Notes []string

	deadTime, podRate, threshold float64
	window                       float64 // the scale-down window W, seconds
	tolUp, tolDown               float64
	behavior                     bool
	sampling                     float64
	required, phi, w             float64 // the law: τ_eff·Φ(W_eff/τ_eff)

	result   *simulate.Result
	boundary *boundary
}

// Setup gathers the simulation's inputs: flags over annotations (the
// autoscaler's, its target's, the configured defaults, merged by
// rules.Evaluate) over the manifest.
func Setup(c Candidate, m *scaling.Metric, e *rules.Evaluation, o Overrides) (*Run, error) {
	a := c.Autoscaler
	fieldPos := c.fieldPos
	r := &Run{a: a, m: m, Where: c.name(), sources: map[string]string{}}
	in := e.Inputs
	bounds := map[string]string{}
	annotated := func(name, flagName string, flagValue *float64) (float64, bool) {
		if flagValue != nil {
			r.sources[name] = "flag --" + flagName
			return *flagValue, true
		}
		if v, ok := in[name]; ok {
			if v.IsBound() {
				// A bound read from the manifests is not a value to
				// simulate with: the loop at a lower bound on τ may rest
				// where the true one hunts.
				bounds[name] = fmt.Sprintf("; the manifests give only %s %s%s (%s)", v.Bound.Relation(), format.Num(v.Value, 4), unitOf(name), v.From)
				return 0, false
			}
			r.sources[name] = v.Origin.String()
			if v.Object != nil && v.At.IsValid() {
				r.sources[name] += ", " + fieldPos(v.Object, v.At)
			}
			return v.Value, true
		}
		return 0, false
	}
	var missing []string
	var ok bool
	if r.deadTime, ok = annotated("dead-time", "dead-time", o.DeadTime); !ok {
		missing = append(missing, "the dead time (annotation scalelint.dev/dead-time, or --dead-time"+bounds["dead-time"]+")")
	}
	if r.podRate, ok = annotated("pod-rate", "pod-rate", o.PodRate); !ok {
		missing = append(missing, "the pod rate (annotation scalelint.dev/pod-rate, or --pod-rate)")
	}
	to, hasTo := annotated("demand", "to", o.To)
	if !hasTo {
		missing = append(missing, "the demand after the step (annotation scalelint.dev/demand, or --to)")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s: cannot simulate without %s", r.Where, strings.Join(missing, ", "))
	}
	if r.sampling, ok = annotated("sampling-delay", "", nil); !ok {
		// useCachedMetrics: simulate at the default, the range's low end.
		spec, _ := scaling.SpecOf("sampling-delay")
		if d, err := scaling.ParseValue(spec, spec.Default); err == nil {
			r.sampling, r.sources["sampling-delay"] = d.Value, "the built-in default"
		}
	}
	from := to / 4
	r.sources["from"] = "a 4x step: demand/4"
	if o.From != nil {
		from, r.sources["from"] = *o.From, "flag --from"
	}

	// The threshold: the manifest's (KEDA's default when absent) or --threshold.
	key := m.ThresholdKey
	if key == "" {
		key = "threshold"
	}
	switch {
	case o.Threshold != nil:
		r.threshold, r.sources["threshold"] = *o.Threshold, "flag --threshold"
	case m.Threshold.Invalid || m.Threshold.V <= 0:
		return nil, fmt.Errorf("%s: %s: the %s of %s is not a positive number; give --threshold",
			r.Where, fieldPos(a.Object, m.Threshold.At), key, metricName(m))
	case !m.Threshold.Set:
		r.threshold, r.sources["threshold"] = m.Threshold.V, "KEDA's default "+key
	default:
		r.threshold, r.sources["threshold"] = m.Threshold.V, key+", "+fieldPos(a.Object, m.Threshold.At)
	}

	// Replicas: KEDA's minReplicaCount 0 gives the HPA a floor of 1.
	if a.Min.Invalid || a.Max.Invalid {
		n := a.Min
		if !a.Max.Invalid {
			n = a.Max
		}
		return nil, fmt.Errorf("%s: %s: replica bound is not a number", r.Where, fieldPos(a.Object, n.At))
	}
	minR, maxR := int(a.Min.V), int(a.Max.V)
	if a.Min.V != math.Trunc(a.Min.V) || a.Max.V != math.Trunc(a.Max.V) || maxR < 1 {
		return nil, fmt.Errorf("%s: %s: replicas %s to %s: the ceiling must be a whole number of at least 1",
			r.Where, fieldPos(a.Object, a.Max.At), format.Num(a.Min.V, 4), format.Num(a.Max.V, 4))
	}
	if minR < 1 {
		minR = 1
		if a.Kind == scaling.ScaledObject {
			r.Notes = append(r.Notes, "minReplicaCount 0 gives the HPA a floor of 1; KEDA's own scaling to and from zero is not modelled")
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
		Behavior:    behavior(b),
		DemandFrom:  from,
		DemandTo:    to,
		Hours:       or(o.Hours, simulate.DefaultHours),
		Noise:       or(o.Noise, 0),
		Seed:        o.Seed,
		Tolerance:   scaling.DefaultTolerance,
	}
	r.behavior = cfg.Behavior != nil
	r.window = a.DownWindow.V
	r.sources["window"] = "the controller's default"
	if r.behavior {
		r.sources["window"] = "the behavior's default"
		if a.DownWindow.Set {
			r.sources["window"] = "stabilizationWindowSeconds, " + fieldPos(a.Object, a.DownWindow.At)
		}
	}
	if o.Window != nil {
		r.window, r.sources["window"] = *o.Window, "flag --window"
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
	r.Config = cfg

	// The law. rules.Evaluate predicts from the manifest's own numbers;
	// recompute when a flag moved the dead time or the window.
	r.required, r.phi, r.w = laws.RequiredStandingDelay(r.deadTime, r.window, r.sampling)
	if o.DeadTime == nil && o.Window == nil {
		for _, be := range e.Backlog {
			if be.Metric == m {
				r.required, r.phi, r.w = be.Required, be.Phi, be.W
			}
		}
	}

	if n := len(a.Metrics); n > 1 {
		r.Notes = append(r.Notes, fmt.Sprintf("simulating %s alone; the HPA follows the largest recommendation of its %d metrics", metricName(m), n))
	}
	if o.FindBoundary && cfg.Noise > 0 {
		r.Notes = append(r.Notes, "with demand noise the swing includes the noise's own: the hunting criterion (rules/laws/README.md §6.1) may place no boundary")
	}
	if need := to / r.podRate; need > float64(maxR) {
		r.Notes = append(r.Notes, fmt.Sprintf("the need of %s pods is above the ceiling of %d: the backlog grows without bound", format.Num(need, 4), maxR))
	}
	return r, nil
}

func metricName(m *scaling.Metric) string {
	if m.Type == "External" || m.Type == "Object" || m.Type == "Pods" {
		return fmt.Sprintf("metrics[%d] (%s)", m.Index, m.Type)
	}
	return fmt.Sprintf("triggers[%d] (%s)", m.Index, m.Type)
}

// behavior converts an autoscaling/v2 behavior to the package's mirror
// of it; nil stays nil (the legacy path).
func behavior(b *autoscalingv2.HorizontalPodAutoscalerBehavior) *simulate.Behavior {
	if b == nil {
		return nil
	}
	return &simulate.Behavior{ScaleUp: scalingRules(b.ScaleUp), ScaleDown: scalingRules(b.ScaleDown)}
}

func scalingRules(r *autoscalingv2.HPAScalingRules) *simulate.Rules {
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

// or is *p, or def when p is nil.
func or(p *float64, def float64) float64 {
	if p != nil {
		return *p
	}
	return def
}

// Simulate runs the loop through its step in demand.
func (r *Run) Simulate() error {
	res, err := simulate.Run(r.Config)
	if err != nil {
		return fmt.Errorf("%s: %v", r.Where, err)
	}
	res.Config.DownscaleWindow = r.displayWindow()
	r.result = &res
	return nil
}

// FindBoundary bisects on the threshold for the smallest standing delay
// at which the deployed loop rests.
func (r *Run) FindBoundary() error {
	b, err := findBoundary(r)
	if err != nil {
		return fmt.Errorf("%s: %v", r.Where, err)
	}
	r.boundary = b
	return nil
}

// Writer returns the writer of a format (text, json, svg or csv) for what
// the run did: the boundary found (text or json), or the simulation.
func (r *Run) Writer(format string) func(io.Writer) error {
	switch {
	case format == "json":
		return r.writeJSON
	case r.boundary != nil:
		return r.writeBoundaryText
	case format == "svg":
		return func(w io.Writer) error { return simulate.WriteSVG(w, *r.result, r.result.Summary.Need) }
	case format == "csv":
		return func(w io.Writer) error { return simulate.WriteCSV(w, *r.result) }
	}
	return r.writeText
}

// displayWindow is the legacy window as the SVG's title should show it.
func (r *Run) displayWindow() time.Duration {
	return time.Duration(r.window) * time.Second
}

func (r *Run) standingDelay() float64 { return r.threshold / r.podRate }

func (r *Run) pathName() string {
	if r.behavior {
		return "behavior"
	}
	return "legacy"
}

// boundary is the result of --find-boundary.
type boundary struct {
	found  bool
	d      float64 // smallest resting standing delay, seconds
	lo, hi float64 // the bracket bisected
	why    string  // when not found
}

// findBoundary brackets the deployed boundary around the law's
// prediction (halving and doubling until the loop hunts below and rests
// above) and bisects it with simulate.FindBoundary.
func findBoundary(r *Run) (*boundary, error) {
	hunts := func(d float64) (bool, error) {
		c := r.Config
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
			return &boundary{why: fmt.Sprintf("the loop still hunts at a standing delay of %ss", format.Num(hi, 4))}, nil
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
				return &boundary{why: fmt.Sprintf("the loop already rests at a standing delay of %ss", format.Num(lo, 4))}, nil
			}
			lo, hi = math.Max(lo/2, floor), lo
		}
	}
	d, err := simulate.FindBoundary(r.Config, lo, hi)
	if err != nil {
		return nil, err
	}
	return &boundary{found: true, d: d, lo: lo, hi: hi}, nil
}

// Text output.

// The text's numbers are format.Num's with four decimals. None is +Inf
// (which format.Num writes "∞", strconv "+Inf"): the flags are finite
// (numFlag), the replica bounds int32 fields, the demand and pod rate
// annotations within [1e-9, 1e15] (scaling.CheckMagnitude), so the need
// of the notes too; the text, header included, is written once
// simulate.Run has accepted the configuration (every number finite, the
// threshold up to 1e12, the pod rate positive), and findBoundary's
// bracket is a finite multiple of the law's finite prediction.

// sec writes seconds rounded to a tenth, halves away from zero. It is not
// format.Secs(format.Round(v, 1)): above 1e12 s a tenth has no exact float
// and Num(…, 4) writes the float's next digits (1234567890123.3999s) where
// Secs would not (1234567890123.4s), and a standing delay T/c reaches
// that far (a threshold of 1e12 at a pod rate of 0.5): four decimals keep
// the text as it was.
func sec(v float64) string { return tenth(v) + "s" }

// tenth writes a number rounded to a tenth, halves away from zero (four
// decimals, as sec says why).
func tenth(v float64) string { return rounded(v, 1, 4) }

// rounded writes v rounded to decimals, halves away from zero, with Num's
// prec; a nonzero v that rounds to zero is written as Num writes it (one
// significant digit), never "0": Φ(3e-8) is not Φ(0).
func rounded(v float64, decimals, prec int) string {
	if r := format.Round(v, decimals); r != 0 || v == 0 {
		return format.Num(r, prec)
	}
	return format.Num(v, decimals)
}

func (r *Run) writeHeader(w io.Writer) {
	src := func(name string) string { return " (" + r.sources[name] + ")" }
	fmt.Fprintf(w, "%s, %s\n", r.Where, metricName(r.m))
	fmt.Fprintf(w, "  threshold %s%s / pod rate %s%s: standing delay %s\n",
		format.Num(r.threshold, 4), src("threshold"), format.Num(r.podRate, 4), src("pod-rate"), sec(r.standingDelay()))
	fmt.Fprintf(w, "  dead time %s%s, sampling delay %s (%s)\n", sec(r.deadTime), src("dead-time"), sec(r.sampling), r.sources["sampling-delay"])
	step := fmt.Sprintf("%s → %s%s", format.Num(r.Config.DemandFrom, 4), format.Num(r.Config.DemandTo, 4), src("demand"))
	if !strings.HasPrefix(r.sources["from"], "flag") {
		step += ", from a quarter of it"
	}
	fmt.Fprintf(w, "  demand %s: need %s pods, replicas %d to %d\n", step, tenth(r.Config.DemandTo/r.podRate), r.Config.MinReplicas, r.Config.MaxReplicas)
	path := "legacy path (no behavior)"
	if r.behavior {
		path = "behavior path"
	}
	tol := "tolerance " + format.Num(r.tolUp, 4)
	if r.tolUp != r.tolDown {
		tol = fmt.Sprintf("tolerance up %s, down %s", format.Num(r.tolUp, 4), format.Num(r.tolDown, 4))
	}
	fmt.Fprintf(w, "  %s: scale-down window %s%s, %s\n", path, sec(r.window), src("window"), tol)
}

// lawText is the law's prediction with its numbers.
func (r *Run) lawText() string {
	tEff := r.deadTime + r.sampling
	return fmt.Sprintf("τ_eff·Φ(W_eff/τ_eff) = %s × Φ(%s) = %s × %s = %s",
		sec(tEff), rounded(r.w, 3, 4), sec(tEff), rounded(r.phi, 3, 4), sec(r.required))
}

func (r *Run) lawRests() bool { return laws.Rests(r.standingDelay(), r.required) }

func verdict(hunts bool) string {
	if hunts {
		return "hunts"
	}
	return "rests"
}

func (r *Run) writeNotes(w io.Writer) {
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

func (r *Run) writeText(w io.Writer) error {
	s := r.result.Summary
	r.writeHeader(w)
	run := fmt.Sprintf("%s hours", format.Num(r.Config.Hours, 4))
	if r.Config.Noise > 0 {
		run += fmt.Sprintf(", demand noise %s (seed %d)", format.Num(r.Config.Noise, 4), r.Config.Seed)
	}
	fmt.Fprintf(w, "simulated: last hour of %s: pods min %d, p5 %s, p95 %s, max %d, mean %s; need %s\n",
		run, s.Min, tenth(s.P5), tenth(s.P95), s.Max, tenth(s.Mean), tenth(s.Need))
	period := ""
	if s.Period > 0 {
		period = fmt.Sprintf(", repeating every %ss", format.Num(s.Period, 4))
	}
	fmt.Fprintf(w, "  swing %s of the need: %s (hunts above %s: rules/laws/README.md §6.1)%s\n",
		rounded(s.Swing, 2, 4), verdict(s.Hunts), format.Num(simulate.HuntThreshold, 4), period)
	rel := "at least"
	if !r.lawRests() {
		rel = "below"
	}
	agree := "the simulation agrees"
	if s.Hunts != !r.lawRests() {
		agree = "the simulation disagrees: near its boundary the deployed loop may part from the law by a few seconds (--find-boundary)"
	}
	fmt.Fprintf(w, "law: standing delay %s is %s %s: %s; %s\n", sec(r.standingDelay()), rel, r.lawText(), verdict(!r.lawRests()), agree)
	var pods []float64
	for _, x := range r.result.Samples {
		if x.T >= s.From {
			pods = append(pods, float64(x.Pods))
		}
	}
	top := math.Max(float64(s.Max), s.Need)
	fmt.Fprintf(w, "pods, last hour, a minute a column, 0 to %s:\n  %s\n", format.Num(math.Ceil(top), 4), simulate.SparklineRange(pods, 60, 0, math.Ceil(top)))
	r.writeNotes(w)
	return nil
}

func (r *Run) writeBoundaryText(w io.Writer) error {
	r.writeHeader(w)
	b := r.boundary
	if !b.found {
		fmt.Fprintf(w, "deployed boundary: none found: %s\n", b.why)
		fmt.Fprintf(w, "law: %s\n", r.lawText())
		r.writeNotes(w)
		return nil
	}
	fmt.Fprintf(w, "deployed boundary: rests from a standing delay of %s (threshold %s), bisected to %ss between %s and %s\n",
		sec(b.d), format.Num(math.Ceil(b.d*r.podRate-1e-9), 4), format.Num(simulate.BoundaryResolution, 4), sec(b.lo), sec(b.hi))
	fmt.Fprintf(w, "law: %s; the deployed boundary is %+.1f%% from it\n", r.lawText(), 100*(b.d/r.required-1))
	d := r.standingDelay()
	fmt.Fprintf(w, "this threshold: standing delay %s, %s\n", sec(d), map[bool]string{true: "at or above the deployed boundary", false: "below the deployed boundary"}[d >= b.d])
	r.writeNotes(w)
	return nil
}

// JSON output: stable field names, numbers rounded to six significant digits.

type JSON struct {
	Version    int               `json:"version"`
	Autoscaler objectJSON        `json:"autoscaler"`
	Metric     metricJSON        `json:"metric"`
	Inputs     inputsJSON        `json:"inputs"`
	Sources    map[string]string `json:"sources"` // where each input came from, by its field name in inputs
	LastHour   *summaryJSON      `json:"lastHour,omitempty"`
	Law        lawJSON           `json:"law"`
	Agrees     *bool             `json:"agrees,omitempty"`
	Boundary   *boundaryJSON     `json:"boundary,omitempty"`
	Notes      []string          `json:"notes,omitempty"`
}

type objectJSON struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
	File       string `json:"file"`
	Line       int    `json:"line"`
}

type metricJSON struct {
	Index        int    `json:"index"`
	Type         string `json:"type"`
	ThresholdKey string `json:"thresholdKey,omitempty"`
}

type inputsJSON struct {
	DeadTime      format.Float `json:"deadTime"`
	PodRate       format.Float `json:"podRate"`
	Threshold     format.Float `json:"threshold"`
	StandingDelay format.Float `json:"standingDelay"`
	DemandFrom    format.Float `json:"demandFrom"`
	DemandTo      format.Float `json:"demandTo"`
	Need          format.Float `json:"need"`
	MinReplicas   int          `json:"minReplicas"`
	MaxReplicas   int          `json:"maxReplicas"`
	Path          string       `json:"path"` // legacy or behavior
	Window        format.Float `json:"window"`
	ToleranceUp   format.Float `json:"toleranceUp"`
	ToleranceDown format.Float `json:"toleranceDown"`
	SamplingDelay format.Float `json:"samplingDelay"`
	Hours         format.Float `json:"hours"`
	Noise         format.Float `json:"noise"`
	Seed          int64        `json:"seed"`
}

type summaryJSON struct {
	From        format.Float `json:"from"`
	To          format.Float `json:"to"`
	Min         int          `json:"min"`
	P5          format.Float `json:"p5"`
	P95         format.Float `json:"p95"`
	Max         int          `json:"max"`
	Mean        format.Float `json:"mean"`
	MeanBacklog format.Float `json:"meanBacklog"`
	Need        format.Float `json:"need"`
	Swing       format.Float `json:"swing"`
	Hunts       bool         `json:"hunts"`
	Period      format.Float `json:"period"`
}

type lawJSON struct {
	DeadTimeEff           format.Float `json:"deadTimeEff"`
	WindowEff             format.Float `json:"windowEff"`
	W                     format.Float `json:"w"`
	Phi                   format.Float `json:"phi"`
	RequiredStandingDelay format.Float `json:"requiredStandingDelay"`
	StandingDelay         format.Float `json:"standingDelay"`
	Rests                 bool         `json:"rests"`
}

type boundaryJSON struct {
	Found         bool         `json:"found"`
	StandingDelay format.Float `json:"standingDelay,omitempty"`
	Threshold     format.Float `json:"threshold,omitempty"`
	Resolution    format.Float `json:"resolution,omitempty"`
	Lo            format.Float `json:"lo,omitempty"`
	Hi            format.Float `json:"hi,omitempty"`
	// Difference is the deployed boundary relative to the law's: 0.05 is 5% above.
	Difference format.Float `json:"difference,omitempty"`
	Why        string       `json:"why,omitempty"`
}

func (r *Run) json() JSON {
	o := r.a.Object
	line, _ := o.File().Position(o.At.Pos)
	ns := o.Namespace
	if ns == "" {
		ns = r.Namespace
	}
	if ns == "" {
		ns = "default"
	}
	out := JSON{
		Version:    1,
		Autoscaler: objectJSON{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: ns, Name: o.Name, File: o.File().Path, Line: line},
		Metric:     metricJSON{Index: r.m.Index, Type: r.m.Type, ThresholdKey: r.m.ThresholdKey},
		Inputs: inputsJSON{
			DeadTime: format.JSONSig(r.deadTime), PodRate: format.JSONSig(r.podRate), Threshold: format.JSONSig(r.threshold),
			StandingDelay: format.JSONSig(r.standingDelay()), DemandFrom: format.JSONSig(r.Config.DemandFrom), DemandTo: format.JSONSig(r.Config.DemandTo),
			Need: format.JSONSig(r.Config.DemandTo / r.podRate), MinReplicas: r.Config.MinReplicas, MaxReplicas: r.Config.MaxReplicas,
			Path: r.pathName(), Window: format.Float(r.window), ToleranceUp: format.JSONSig(r.tolUp), ToleranceDown: format.JSONSig(r.tolDown),
			SamplingDelay: format.JSONSig(r.sampling), Hours: format.JSONSig(r.Config.Hours), Noise: format.JSONSig(r.Config.Noise), Seed: r.Config.Seed,
		},
		Sources: map[string]string{},
		Law: lawJSON{
			DeadTimeEff: format.JSONSig(r.deadTime + r.sampling), WindowEff: format.JSONSig(r.window + r.sampling), W: format.JSONSig(r.w),
			Phi: format.JSONSig(r.phi), RequiredStandingDelay: format.JSONSig(r.required), StandingDelay: format.JSONSig(r.standingDelay()), Rests: r.lawRests(),
		},
		Notes: r.Notes,
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
		out.LastHour = &summaryJSON{From: format.Float(s.From), To: format.Float(s.To), Min: s.Min, P5: format.JSONSig(s.P5), P95: format.JSONSig(s.P95), Max: s.Max,
			Mean: format.JSONSig(s.Mean), MeanBacklog: format.JSONSig(s.MeanBacklog), Need: format.JSONSig(s.Need), Swing: format.JSONSig(s.Swing), Hunts: s.Hunts, Period: format.Float(s.Period)}
		agrees := s.Hunts == !r.lawRests()
		out.Agrees = &agrees
	}
	if b := r.boundary; b != nil {
		out.Boundary = &boundaryJSON{Found: b.found, Why: b.why}
		if b.found {
			out.Boundary.StandingDelay = format.JSONSig(b.d)
			out.Boundary.Threshold = format.Float(math.Ceil(b.d*r.podRate - 1e-9))
			out.Boundary.Resolution = simulate.BoundaryResolution
			out.Boundary.Lo, out.Boundary.Hi = format.JSONSig(b.lo), format.JSONSig(b.hi)
			out.Boundary.Difference = format.JSONSig(b.d/r.required - 1)
		}
	}
	return out
}

func (r *Run) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r.json())
}

// unitOf is the unit an input's value is shown with.
func unitOf(name string) string {
	if spec, ok := scaling.SpecOf(name); ok && spec.Kind == scaling.Duration {
		return "s"
	}
	return ""
}
