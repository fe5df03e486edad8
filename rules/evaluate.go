package rules

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/infer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/suggest"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules/laws"
)

// Evaluation is every law evaluated for one autoscaler: the numbers the
// dynamics rules report, the LSP hover shows and the audit tabulates.
// A nil part means the law does not apply (no such signal) or its inputs
// are missing; Missing says which.
//
// Inputs read from the manifests (package infer) are bounds, and each
// law uses them only in the direction in which they are sound
// (rules/laws/README.md §10): a violation found at a bound (a latency
// floor missed at a lower bound on τ, a target at or above 1/A at a lower
// bound on A, an admission bound at or above an upper bound on τ_out)
// holds for the true value too, so each part's violation flag (Rests
// false, Trapped, Shorter false, ...) is always sound; a law that holds at
// a bound is not decided, and its part says so (Bounded).
type Evaluation struct {
	Autoscaler *scaling.Autoscaler
	Target     *workspace.Resolution
	// Inputs are the law inputs: annotations, configured defaults,
	// inferred bounds and built-in defaults, in that precedence
	// (scaling.MergeInferred).
	Inputs scaling.Inputs
	// Notes are what the inference found and did not count (a retry
	// policy that never re-sends work in progress, a budget).
	Notes []infer.Note

	Growth  *GrowthEval    // §1, on the first CPU utilization metric
	Backlog []*BacklogEval // §2, one per backlog metric
	Retry   *RetryEval     // §3
	Ceiling *CeilingEval   // §4
	Bound   *BoundEval     // §5
	// Missing lists, per law, the annotations that would let it be
	// evaluated, for the laws that apply to this autoscaler.
	Missing []Missing

	trapped map[*scaling.Metric]bool // cpuTrapped's answers
}

// Missing is a law that could not be evaluated and what it needs.
type Missing struct {
	Law   string   // a rule name
	Needs []string // annotation names, without the prefix
	Why   string   // when no annotation can help (no CPU limit, no target)
}

// GrowthEval is §1: the growth factor and rounds of a CPU target.
type GrowthEval struct {
	Metric        *scaling.Metric
	Limit         float64 // cores, summed over the counted containers
	Request       float64
	TargetPercent int
	Tolerance     float64
	G             float64 // as the controller computes it (whole percent)
	Trapped       bool
	// FixTarget is the largest target percent below TargetPercent that
	// escapes the trap; FixLimit the smallest summed limit (cores) above
	// Limit that does. 0 when there is none the controller can hold
	// (laws.EscapeTarget, laws.EscapeLimit).
	FixTarget int
	FixLimit  float64
	// Rounds for the design overload, when it is known.
	HasOverload    bool
	Overload       float64
	Rounds         int // -1: never (trapped)
	HasDeadTime    bool
	DeadTime       float64
	MetricWindow   float64
	TimeToCapacity float64
	HasDeadline    bool
	Deadline       float64
	// DeadTimeBounded: the dead time is an inferred lower bound, so
	// TimeToCapacity is one too.
	DeadTimeBounded bool
	// Others are the autoscaler's other metrics that may still ask for
	// more pods when this one is trapped: the HPA scales to the largest
	// recommendation of its metrics (KEDA's HPA, of its triggers), so a
	// trapped CPU target alone does not stop scale-up then.
	Others []*scaling.Metric
}

// BacklogEval is §2 for one backlog metric: the latency floor.
type BacklogEval struct {
	Metric        *scaling.Metric
	Threshold     float64
	PodRate       float64
	DeadTime      float64
	SamplingDelay float64
	Window        float64
	StandingDelay float64
	Required      float64
	Phi           float64
	W             float64
	Rests         bool
	// FixWindow is the longest window that rests at today's threshold;
	// FixWindowOK is false when none does, FixWindowUnlimited when any does.
	FixWindow          float64
	FixWindowOK        bool
	FixWindowUnlimited bool
	// LatencyTarget is the promised latency, when annotated.
	HasLatencyTarget bool
	LatencyTarget    float64
	LatencyHeld      bool
	WindowProof      float64 // e·τ_eff: any latency at least this is safe
	HasPodRate       bool
	// HasDelay: the standing delay is known (a pod rate, or a threshold
	// that is a drain time) and Rests, FixWindow say whether it rests.
	HasDelay bool
	// Delay: the threshold is the standing delay itself, in seconds
	// (rabbitmq ExpectedQueueConsumptionTime with a Value target): the law
	// is evaluated without a pod rate.
	Delay bool
	// Bounded: the dead time or the sampling delay is an inferred lower
	// bound, so Required is a lower bound on what the loop needs: a loop
	// that hunts here hunts (Rests false, LatencyHeld false are sound); one
	// that rests here may not, and FixThreshold and FixWindow are a least
	// threshold and a longest window.
	Bounded bool
	// HasPodRateCeiling is set without a pod rate: the loop hunts whenever
	// one pod serves more than PodRateCeiling, c* = T/Required
	// (rules/laws/README.md §10.1), and no window rests above
	// PodRateCeilingNoWindow, T/Required at W = 0. Both are upper bounds
	// on the pod rates that rest when Bounded.
	HasPodRateCeiling      bool
	PodRateCeiling         float64
	PodRateCeilingNoWindow float64
	// Others are the autoscaler's other metrics: the HPA scales to the
	// largest recommendation, so while another metric asks for more pods
	// than this backlog, this loop does not decide the count.
	Others []*scaling.Metric
}

// FixThreshold is the smallest whole threshold that rests with a relative
// margin (latency-floor's option "margin", read for the autoscaler's file:
// Pass.Option, analyzer.Config.Option): ⌈c·τ_eff·Φ·(1 + margin)⌉. The
// evaluation itself takes no option, so every driver evaluates alike and
// applies the margin the configuration gives the file.
func (b *BacklogEval) FixThreshold(margin float64) float64 {
	if b.Delay {
		return laws.SmallestRestingThreshold(1, b.Required, margin) // the threshold is D in seconds
	}
	return laws.SmallestRestingThreshold(b.PodRate, b.Required, margin)
}

// RetryEval is §3: the retry trap against the target.
type RetryEval struct {
	Metric        *scaling.Metric
	Signal        scaling.Signal // SignalCPU or SignalRate
	Amplification float64
	TrapTarget    float64
	Target        float64 // utilization fraction (or threshold over pod rate)
	Protected     bool    // an admission bound shorter than the client timeout
	Trapped       bool
	FixTarget     float64 // the largest target below 1/A, in the metric's unit
	// Bounded: A is an inferred lower bound, so TrapTarget is an upper
	// bound on 1/A: a target at or above it is trapped (Trapped is sound),
	// one below it is not decided, and FixTarget is a largest target.
	Bounded bool
	// ProtectionUnknown: an admission bound is annotated and the client
	// timeout is known only from above, with the bound below that: whether
	// the bound protects is not decided, so Trapped stays false.
	ProtectionUnknown bool
	// Others are the autoscaler's other metrics (see GrowthEval.Others):
	// one that holds more pods than this target keeps ρ below it.
	Others []*scaling.Metric
}

// CeilingEval is §4: the ceiling band.
type CeilingEval struct {
	Ceiling       float64
	HasFloor      bool
	Floor         float64 // A·λ/c
	Trapped       bool
	HasTop        bool
	Top           float64 // 0.8·N_max
	BandEmpty     bool
	OverPeak      bool
	Amplification float64
	Demand        float64
	PodRate       float64
	// Bounded: A is an inferred lower bound, so Floor is a lower bound on
	// M*: a ceiling at or below it is trapped, and an empty band is empty
	// (Trapped, BandEmpty are sound); a ceiling above it is not decided.
	Bounded bool
}

// BoundEval is §5: the admission bound against the client timeout.
type BoundEval struct {
	Bound, Timeout float64
	Shorter        bool
	// Bounded: the client timeout is an inferred upper bound (a route's
	// timeout: a caller gives up after it, so τ_out is at most this). A
	// bound at or above it is at or above τ_out (Shorter false is sound);
	// a bound below it is not decided.
	Bounded bool
}

// Evaluate evaluates every law it can for an autoscaler of a workspace,
// with the annotation defaults and inference settings of the
// configuration that governs its file (nil: the built-in configuration),
// and the inputs read from the manifests.
func Evaluate(ws *workspace.Workspace, a *scaling.Autoscaler, cfg *analyzer.Config) *Evaluation {
	return evaluate(ws, ws.Target(a), a, defaultsOf(cfg)(a), inferOf(cfg)(a))
}

// defaultsOf returns the annotation defaults an autoscaler is evaluated
// with: those of the configuration that governs its file.
func defaultsOf(cfg *analyzer.Config) func(a *scaling.Autoscaler) scaling.Inputs {
	if cfg == nil {
		cfg = analyzer.DefaultConfig()
	}
	return func(a *scaling.Autoscaler) scaling.Inputs { return cfg.DefaultsFor(a.Object.File().Path) }
}

// inferOf returns the inference settings an autoscaler is evaluated
// with: those of the configuration that governs its file.
func inferOf(cfg *analyzer.Config) func(a *scaling.Autoscaler) infer.Options {
	if cfg == nil {
		cfg = analyzer.DefaultConfig()
	}
	return func(a *scaling.Autoscaler) infer.Options { return cfg.For(a.Object.File().Path).Infer }
}

// EvaluateTarget is Evaluate with the scale target resolved by the caller
// and nothing inferred: `scalelint compute` evaluates an autoscaler and a
// workload it builds from raw numbers, with the evaluation the rules
// report from.
func EvaluateTarget(a *scaling.Autoscaler, target *workspace.Resolution, defaults scaling.Inputs) *Evaluation {
	return evaluate(nil, target, a, defaults, infer.Options{})
}

// Floor is the standing delay a backlog loop needs to rest (§2),
// τ_eff·Φ(W_eff/τ_eff) with τ_eff = τ + s and W_eff = W + s, with Φ, w =
// W_eff/τ_eff, and e·τ_eff, the standing delay at which every window
// rests.
type Floor struct {
	Required, Phi, W, WindowProof float64
}

// FloorOf computes the floor of a backlog loop from its dead time τ,
// scale-down window W and sampling delay s, in seconds.
func FloorOf(deadTime, window, samplingDelay float64) Floor {
	var f Floor
	f.Required, f.Phi, f.W = laws.RequiredStandingDelay(deadTime, window, samplingDelay)
	f.WindowProof = laws.WindowProofStandingDelay(deadTime, samplingDelay)
	return f
}

// An Evaluator evaluates each autoscaler of one workspace (and of the
// views Focus makes of it, which resolve targets alike) once, with one
// configuration's annotation defaults: the rules of a run, and what the
// driver shows after it (the CLI's audit and explain-missing, the
// language server's hover and inlay hints), read the same evaluations.
// It lives in the run's analyzer.Shared (Evaluations), so it lasts as long
// as the driver keeps that: a CLI run, a language server snapshot.
type Evaluator struct {
	defaults func(a *scaling.Autoscaler) scaling.Inputs
	infer    func(a *scaling.Autoscaler) infer.Options
	mu       sync.Mutex
	evals    map[*scaling.Autoscaler]*Evaluation
}

type evaluatorKey struct{}

// Evaluations returns the evaluator kept in shared, made with the
// configuration's annotation defaults and inference settings on first use:
// pass the configuration shared was run with.
func Evaluations(shared *analyzer.Shared, cfg *analyzer.Config) *Evaluator {
	return shared.Get(evaluatorKey{}, func() any { return newEvaluator(defaultsOf(cfg), inferOf(cfg)) }).(*Evaluator)
}

func newEvaluator(defaults func(a *scaling.Autoscaler) scaling.Inputs, opts func(a *scaling.Autoscaler) infer.Options) *Evaluator {
	return &Evaluator{defaults: defaults, infer: opts, evals: map[*scaling.Autoscaler]*Evaluation{}}
}

// Evaluate returns the autoscaler's evaluation, computing it on first use.
// An evaluation is reused only for the target resolution it was made with:
// asked with a workspace that resolves the target otherwise, it evaluates
// again (and does not keep the result).
func (ev *Evaluator) Evaluate(ws *workspace.Workspace, a *scaling.Autoscaler) *Evaluation {
	r := ws.Target(a)
	ev.mu.Lock()
	e, ok := ev.evals[a]
	ev.mu.Unlock()
	if ok && e.Target == r {
		return e
	}
	e = evaluate(ws, r, a, ev.defaults(a), ev.infer(a))
	if !ok {
		ev.mu.Lock()
		ev.evals[a] = e
		ev.mu.Unlock()
	}
	return e
}

// evaluate evaluates an autoscaler; ws nil infers nothing.
func evaluate(ws *workspace.Workspace, r *workspace.Resolution, a *scaling.Autoscaler, defaults scaling.Inputs, opts infer.Options) *Evaluation {
	e := &Evaluation{Autoscaler: a, Target: r, Inputs: scaling.MergeInputs(a, r.Workload, defaults)}
	if ws != nil && a.Kind != scaling.ScaledJob {
		res := infer.For(ws, a, opts)
		e.Inputs = scaling.MergeInferred(e.Inputs, res.Inputs)
		e.Notes = res.Notes
	}
	in := e.Inputs
	val := func(name string) (float64, bool) {
		v, ok := in[name]
		return v.Value, ok
	}
	if a.Kind == scaling.ScaledJob {
		return e // a ScaledJob starts jobs per message: the replica laws do not apply
	}
	e.evalGrowth(val)
	for _, m := range a.Metrics {
		law := "latency-floor"
		if m.Signal == scaling.SignalRate {
			law = "retry-trap"
		}
		switch {
		case m.Composite != "" && (m.Signal == scaling.SignalBacklog || m.Signal == scaling.SignalRate):
			e.Missing = append(e.Missing, Missing{Law: law, Why: fmt.Sprintf("trigger %d (%s): %s", m.Index, m.Type, m.Composite)})
		case m.ThresholdRefused != "" && (m.Signal == scaling.SignalBacklog || m.Signal == scaling.SignalRate):
			e.Missing = append(e.Missing, Missing{Law: law,
				Why: fmt.Sprintf("trigger %d (%s): KEDA refuses %s, so the law has no threshold: %s", m.Index, m.Type, m.ThresholdKey, m.ThresholdRefused)})
		case m.Signal == scaling.SignalBacklog:
			if b := e.evalBacklog(m, val); b != nil {
				e.Backlog = append(e.Backlog, b)
			}
		case m.NotPerPod != "":
			e.Missing = append(e.Missing, Missing{Law: "latency-floor", Why: fmt.Sprintf("trigger %d (%s): %s", m.Index, m.Type, m.NotPerPod)})
		}
	}
	e.evalBound(val)
	e.evalRetry(val)
	e.evalCeiling(val)
	sort.SliceStable(e.Missing, func(i, j int) bool { return e.Missing[i].Law < e.Missing[j].Law })
	return e
}

func (e *Evaluation) need(law string, needs ...string) {
	e.Missing = append(e.Missing, Missing{Law: law, Needs: needs})
}

func (e *Evaluation) absent(names ...string) []string {
	var out []string
	for _, n := range names {
		if _, ok := e.Inputs[n]; !ok {
			out = append(out, n)
		}
	}
	return out
}

func firstCPU(a *scaling.Autoscaler) *scaling.Metric {
	for _, m := range a.Metrics {
		if m.Signal == scaling.SignalCPU && m.Utilization.V > 0 {
			return m
		}
	}
	return nil
}

// countedCPU sums the CPU limits and requests of the containers the HPA
// counts for a metric; ok is false when g cannot be computed (no
// template, no counted container, a container without request or limit),
// with why for the cases a user can act on.
func countedCPU(w *scaling.Workload, m *scaling.Metric) (limit, request float64, why string, ok bool) {
	if w == nil || !w.HasTemplate {
		return 0, 0, "the scale target is not among the inputs", false
	}
	cs := w.Counted(m.Container)
	if len(cs) == 0 {
		return 0, 0, "", false
	}
	for _, c := range cs {
		if !c.CPURequest.Set {
			return 0, 0, "", false // missing-cpu-request reports it
		}
		if !c.CPULimit.Set {
			return 0, 0, "container " + c.Name + " has no CPU limit: it may use more than its share, so g is unbounded", false
		}
		limit += c.CPULimit.V
		request += c.CPURequest.V
	}
	return limit, request, "", true
}

// growthOf computes g for a CPU utilization metric of the target; ok is
// false when it cannot be (countedCPU), with why.
func growthOf(w *scaling.Workload, m *scaling.Metric, tolerance float64) (g *GrowthEval, why string, ok bool) {
	limit, request, why, ok := countedCPU(w, m)
	if !ok {
		return nil, why, false
	}
	pct := int(math.Round(m.Utilization.V))
	g = &GrowthEval{Metric: m, Limit: limit, Request: request, TargetPercent: pct, Tolerance: tolerance}
	g.G = laws.ControllerGrowthFactor(limit, request, pct)
	if math.IsNaN(g.G) {
		return nil, "", false
	}
	g.Trapped = laws.ToleranceTrapped(g.G, g.Tolerance)
	return g, "", true
}

// growthTrapped reports whether a CPU utilization target is in the
// tolerance trap, as growthOf computes it, without keeping its numbers.
func growthTrapped(w *scaling.Workload, m *scaling.Metric, tolerance float64) bool {
	limit, request, _, ok := countedCPU(w, m)
	if !ok {
		return false
	}
	g := laws.ControllerGrowthFactor(limit, request, int(math.Round(m.Utilization.V)))
	return !math.IsNaN(g) && laws.ToleranceTrapped(g, tolerance)
}

// others returns the autoscaler's metrics other than m that may ask for
// more pods: every one but m and the CPU utilization targets that are
// themselves trapped (those never ask on a saturated pod either). A metric
// whose reading scalelint cannot bound (memory, Pods, Object, External, a
// KEDA trigger) may.
func (e *Evaluation) others(m *scaling.Metric) []*scaling.Metric {
	if len(e.Autoscaler.Metrics) < 2 {
		return nil
	}
	var out []*scaling.Metric
	for _, x := range e.Autoscaler.Metrics {
		if x == m || e.cpuTrapped(x) {
			continue
		}
		out = append(out, x)
	}
	return out
}

// cpuTrapped reports whether a metric is a CPU utilization target in the
// tolerance trap, computed once per metric.
func (e *Evaluation) cpuTrapped(m *scaling.Metric) bool {
	if m.Signal != scaling.SignalCPU || !(m.Utilization.V > 0) {
		return false
	}
	if t, ok := e.trapped[m]; ok {
		return t
	}
	t := growthTrapped(e.Target.Pods, m, e.Autoscaler.UpTolerance.V)
	if e.trapped == nil {
		e.trapped = map[*scaling.Metric]bool{}
	}
	e.trapped[m] = t
	return t
}

func (e *Evaluation) evalGrowth(val func(string) (float64, bool)) {
	m := firstCPU(e.Autoscaler)
	if m == nil {
		return
	}
	g, why, ok := growthOf(e.Target.Pods, m, e.Autoscaler.UpTolerance.V)
	if !ok {
		if w := e.Target.Workload; e.Target.Pods == nil && w != nil && w.TemplateRef != nil {
			why = fmt.Sprintf("the %s %q its workloadRef names is not among the inputs", w.TemplateRef.Kind, w.TemplateRef.Name)
		}
		if why != "" {
			e.Missing = append(e.Missing, Missing{Law: "tolerance-trap", Why: why})
		}
		return
	}
	pct := g.TargetPercent
	if g.Trapped {
		g.Others = e.others(m)
	}
	// The largest whole target below this one that escapes, and the
	// smallest limit above this one that does (0 when none is sound).
	g.FixTarget = laws.EscapeTarget(g.Limit, g.Request, pct, g.Tolerance)
	g.FixLimit = float64(laws.EscapeLimit(g.Limit, g.Request, pct, g.Tolerance)) / 1000
	k, hasK := val("overload")
	tau, hasTau := val("dead-time") // with inference, at least the probes' floor
	if hasK {
		g.HasOverload, g.Overload = true, k
		g.Rounds = -1
		if !g.Trapped {
			g.Rounds = laws.Rounds(g.G, k)
		}
	}
	switch {
	case !hasK:
		e.need("scale-up-rounds", e.absent("overload", "dead-time")...)
	case !hasTau:
		e.need("scale-up-rounds", "dead-time")
	default:
		mw, _ := val("metric-window")
		g.HasDeadTime, g.DeadTime, g.MetricWindow = true, tau, mw
		g.DeadTimeBounded = e.bounded("dead-time")
		g.TimeToCapacity = laws.TimeToCapacity(g.Rounds, tau, mw)
		if d, ok := val("capacity-deadline"); ok {
			g.HasDeadline, g.Deadline = true, d
			if g.DeadTimeBounded && !g.Trapped && g.TimeToCapacity <= d {
				e.Missing = append(e.Missing, Missing{Law: "scale-up-rounds", Needs: []string{"dead-time"},
					Why: "reaches capacity by the deadline at the lower bound on the dead time only"})
			}
		}
	}
	e.Growth = g
}

// bounded reports whether an input is an inferred bound.
func (e *Evaluation) bounded(name string) bool {
	in, ok := e.Inputs[name]
	return ok && in.IsBound()
}

// fixedCount reports whether the HPA can hold only one replica count: a
// ceiling at or below the floor (KEDA's minReplicaCount 0 gives the HPA a
// floor of 1). No loop then: the latency floor does not apply.
func (e *Evaluation) fixedCount() bool {
	a := e.Autoscaler
	if a.Min.Invalid || a.Max.Invalid {
		return false
	}
	return a.Max.V > 0 && a.Max.V <= max(a.Min.V, 1) // 0: not given (compute), or refused by replica-bounds
}

func (e *Evaluation) evalBacklog(m *scaling.Metric, val func(string) (float64, bool)) *BacklogEval {
	if e.fixedCount() {
		return nil
	}
	tau, hasTau := val("dead-time")
	c, hasC := val("pod-rate")
	if !hasTau { // only without inference (compute)
		e.need("latency-floor", e.absent("dead-time", "pod-rate")...)
		return nil
	}
	s, _ := val("sampling-delay")
	b := &BacklogEval{Metric: m, Threshold: m.Threshold.V, PodRate: c, HasPodRate: hasC, DeadTime: tau, SamplingDelay: s,
		Window: e.Autoscaler.DownWindow.V, Delay: m.Delay, Others: e.others(m)}
	b.Bounded = e.bounded("dead-time") || e.bounded("sampling-delay")
	f := FloorOf(tau, b.Window, s)
	b.Required, b.Phi, b.W, b.WindowProof = f.Required, f.Phi, f.W, f.WindowProof
	if lt, ok := val("latency-target"); ok {
		b.HasLatencyTarget, b.LatencyTarget = true, lt
		b.LatencyHeld = laws.LatencyTargetHeld(lt, b.Required)
		if b.LatencyHeld && b.Bounded {
			e.Missing = append(e.Missing, Missing{Law: "latency-target", Needs: e.boundedNames("dead-time", "sampling-delay"),
				Why: "held at the lower bound on the dead time only"})
		}
	}
	if m.Threshold.V <= 0 {
		if b.HasLatencyTarget {
			return b
		}
		return nil
	}
	switch {
	case m.Delay:
		b.StandingDelay = b.Threshold // seconds: the threshold is D itself
	case hasC:
		b.StandingDelay = laws.StandingDelay(b.Threshold, c)
	case e.written("pod-rate"):
		// A pod rate is written but cannot be read: invalid-annotation
		// reports it, and a finding that assumes none would follow on.
		e.Missing = append(e.Missing, Missing{Law: "latency-floor", Needs: []string{"pod-rate"},
			Why: scaling.Prefix + "pod-rate is written but not valid (invalid-annotation)"})
		return b
	default:
		// Without a pod rate: the loop hunts whenever c > T/Required.
		e.need("latency-floor", "pod-rate")
		b.HasPodRateCeiling = true
		b.PodRateCeiling = laws.PodRateCeiling(b.Threshold, b.Required)
		r0, _, _ := laws.RequiredStandingDelay(tau, 0, s)
		b.PodRateCeilingNoWindow = laws.PodRateCeiling(b.Threshold, r0)
		return b
	}
	b.HasDelay = true
	b.Rests = laws.Rests(b.StandingDelay, b.Required)
	b.FixWindow, b.FixWindowOK, b.FixWindowUnlimited = laws.LongestRestingWindow(b.StandingDelay, tau, s)
	if b.Rests && b.Bounded {
		e.Missing = append(e.Missing, Missing{Law: "latency-floor", Needs: e.boundedNames("dead-time", "sampling-delay"),
			Why: "rests at the lower bound on the dead time only"})
	}
	return b
}

// boundedNames lists which of the named inputs are inferred bounds.
func (e *Evaluation) boundedNames(names ...string) []string {
	var out []string
	for _, n := range names {
		if e.bounded(n) {
			out = append(out, n)
		}
	}
	return out
}

func (e *Evaluation) evalBound(val func(string) (float64, bool)) {
	b, hasB := val("admission-bound")
	t, hasT := val("client-timeout")
	switch {
	case hasB && hasT:
		bd := &BoundEval{Bound: b, Timeout: t, Shorter: laws.BoundShorterThanTimeout(b, t), Bounded: e.bounded("client-timeout")}
		if bd.Shorter && bd.Bounded {
			e.Missing = append(e.Missing, Missing{Law: "bound-exceeds-timeout", Needs: []string{"client-timeout"},
				Why: "shorter than an upper bound on the client timeout only"})
		}
		e.Bound = bd
	case hasB:
		e.need("bound-exceeds-timeout", "client-timeout")
	}
}

// amplification reads A: scalelint.dev/retries, else retry-amplification
// (annotated, configured or inferred: a lower bound).
func (e *Evaluation) amplification() (float64, bool) {
	if in, ok := e.Inputs["retries"]; ok {
		return laws.Amplification(in.List), true
	}
	if in, ok := e.Inputs["retry-amplification"]; ok {
		return in.Value, true
	}
	return 0, false
}

// amplificationBounded reports whether A is an inferred lower bound (an
// annotated retries list wins over it).
func (e *Evaluation) amplificationBounded() bool {
	if _, ok := e.Inputs["retries"]; ok {
		return false
	}
	return e.bounded("retry-amplification")
}

func (e *Evaluation) evalRetry(val func(string) (float64, bool)) {
	var m *scaling.Metric
	for _, x := range e.Autoscaler.Metrics {
		if x.Signal == scaling.SignalRate && x.Threshold.V > 0 && x.Composite == "" {
			m = x
			break
		}
	}
	if m == nil {
		m = firstCPU(e.Autoscaler)
	}
	if m == nil {
		return
	}
	A, hasA := e.amplification()
	if !hasA {
		e.need("retry-trap", "retries")
		return
	}
	r := &RetryEval{Metric: m, Signal: m.Signal, Amplification: A, TrapTarget: laws.TrapTarget(A), Bounded: e.amplificationBounded(), Others: e.others(m)}
	if m.Signal == scaling.SignalRate {
		c, ok := val("pod-rate")
		if !ok {
			e.need("retry-trap", "pod-rate")
			return
		}
		r.Target = m.Threshold.V / c
		r.FixTarget = math.Floor(c*r.TrapTarget*(1-1e-9)*100) / 100
	} else {
		r.Target = m.Utilization.V / 100
		r.FixTarget = math.Ceil(100*r.TrapTarget-1e-9) - 1
	}
	if bd := e.Bound; bd != nil && bd.Shorter {
		if bd.Bounded {
			r.ProtectionUnknown = true // shorter than τ_out's upper bound: not decided
		} else {
			r.Protected = true
		}
	}
	r.Trapped = !r.ProtectionUnknown && laws.RetryTrapped(r.Target, A, r.Protected)
	switch {
	case r.ProtectionUnknown && laws.RetryTrapped(r.Target, A, false):
		e.Missing = append(e.Missing, Missing{Law: "retry-trap", Needs: []string{"client-timeout"},
			Why: "the admission bound may keep abandoned work out: it is shorter than an upper bound on the client timeout only"})
	case !r.Trapped && !r.Protected && r.Bounded:
		e.Missing = append(e.Missing, Missing{Law: "retry-trap", Needs: []string{"retries"},
			Why: "below 1/A at the lower bound on A only"})
	}
	e.Retry = r
}

func (e *Evaluation) evalCeiling(val func(string) (float64, bool)) {
	a := e.Autoscaler
	if a.Max.Invalid {
		return // invalid-field reports it
	}
	c := &CeilingEval{Ceiling: a.Max.V}
	A, hasA := e.amplification()
	lambda, hasL := val("demand")
	rate, hasC := val("pod-rate")
	peak, hasP := val("scalability-peak")
	if hasA && hasL && hasC {
		c.HasFloor, c.Amplification, c.Demand, c.PodRate = true, A, lambda, rate
		c.Bounded = e.amplificationBounded()
		c.Floor = laws.CeilingFloor(A, lambda, rate)
		c.Trapped = laws.CeilingTrapped(c.Ceiling, c.Floor)
		if !c.Trapped && c.Bounded {
			e.Missing = append(e.Missing, Missing{Law: "ceiling-trap", Needs: []string{"retries"},
				Why: "above the amplified need at the lower bound on A only"})
		}
	} else {
		var needs []string
		if !hasA {
			needs = append(needs, "retries")
		}
		needs = append(needs, e.absent("demand", "pod-rate")...)
		e.need("ceiling-trap", needs...)
	}
	if hasP {
		c.HasTop, c.Top = true, laws.CeilingTop(peak)
		c.OverPeak = laws.OverPeak(c.Ceiling, c.Top)
		if c.HasFloor {
			c.BandEmpty = laws.BandEmpty(c.Floor, c.Top)
		}
	} else {
		e.need("ceiling-over-peak", "scalability-peak")
	}
	if c.HasFloor || c.HasTop {
		e.Ceiling = c
	}
}

// written reports whether an annotation of that name is written on the
// autoscaler or its target, valid or not, or a misspelt key that names it
// (invalid-annotation's "did you mean").
func (e *Evaluation) written(name string) bool {
	objs := []*manifest.Object{e.Autoscaler.Object}
	if e.Target != nil && e.Target.Object != nil {
		objs = append(objs, e.Target.Object)
	}
	for _, o := range objs {
		for _, a := range o.Annotations {
			key, ok := strings.CutPrefix(a.Key, scaling.Prefix)
			if !ok {
				continue
			}
			if key == name {
				return true
			}
			if _, known := scaling.SpecOf(key); !known && suggest.Closest(key, scaling.AnnotationNames()) == name {
				return true
			}
		}
	}
	return false
}
