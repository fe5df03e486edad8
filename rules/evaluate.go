package rules

import (
	"math"
	"sort"
	"sync"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules/laws"
)

// Evaluation is every law evaluated for one autoscaler: the numbers the
// dynamics rules report, the LSP hover shows and the audit tabulates.
// A nil part means the law does not apply (no such signal) or its inputs
// are missing; Missing says which.
type Evaluation struct {
	Autoscaler *scaling.Autoscaler
	Target     *workspace.Resolution
	Inputs     scaling.Inputs

	Growth  *GrowthEval    // §1, on the first CPU utilization metric
	Backlog []*BacklogEval // §2, one per backlog metric
	Retry   *RetryEval     // §3
	Ceiling *CeilingEval   // §4
	Bound   *BoundEval     // §5
	// Missing lists, per law, the annotations that would let it be
	// evaluated, for the laws that apply to this autoscaler.
	Missing []Missing
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
	// FixTarget is the largest target percent that escapes the trap;
	// FixLimit the smallest summed limit (cores) that does.
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
}

// FixThreshold is the smallest whole threshold that rests with a relative
// margin (latency-floor's option "margin", read for the autoscaler's file:
// Pass.Option, analyzer.Config.Option): ⌈c·τ_eff·Φ·(1 + margin)⌉. The
// evaluation itself takes no option, so every driver evaluates alike and
// applies the margin the configuration gives the file.
func (b *BacklogEval) FixThreshold(margin float64) float64 {
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
}

// BoundEval is §5: the admission bound against the client timeout.
type BoundEval struct {
	Bound, Timeout float64
	Shorter        bool
}

// Evaluate evaluates every law it can for an autoscaler of a workspace,
// with the annotation defaults of the configuration that governs its
// file.
func Evaluate(ws *workspace.Workspace, a *scaling.Autoscaler, cfg *analyzer.Config) *Evaluation {
	return evaluate(ws.Target(a), a, defaultsOf(cfg)(a))
}

// defaultsOf returns the annotation defaults an autoscaler is evaluated
// with: those of the configuration that governs its file.
func defaultsOf(cfg *analyzer.Config) func(a *scaling.Autoscaler) scaling.Inputs {
	if cfg == nil {
		cfg = analyzer.DefaultConfig()
	}
	return func(a *scaling.Autoscaler) scaling.Inputs { return cfg.DefaultsFor(a.Object.File().Path) }
}

// EvaluateTarget is Evaluate with the scale target resolved by the caller:
// `scalelint compute` evaluates an autoscaler and a workload it builds
// from raw numbers, with the evaluation the rules report from.
func EvaluateTarget(a *scaling.Autoscaler, target *workspace.Resolution, defaults scaling.Inputs) *Evaluation {
	return evaluate(target, a, defaults)
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
	mu       sync.Mutex
	evals    map[*scaling.Autoscaler]*Evaluation
}

type evaluatorKey struct{}

// Evaluations returns the evaluator kept in shared, made with the
// configuration's defaults on first use: pass the configuration shared
// was run with.
func Evaluations(shared *analyzer.Shared, cfg *analyzer.Config) *Evaluator {
	return shared.Get(evaluatorKey{}, func() any { return newEvaluator(defaultsOf(cfg)) }).(*Evaluator)
}

func newEvaluator(defaults func(a *scaling.Autoscaler) scaling.Inputs) *Evaluator {
	return &Evaluator{defaults: defaults, evals: map[*scaling.Autoscaler]*Evaluation{}}
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
	e = evaluate(r, a, ev.defaults(a))
	if !ok {
		ev.mu.Lock()
		ev.evals[a] = e
		ev.mu.Unlock()
	}
	return e
}

func evaluate(r *workspace.Resolution, a *scaling.Autoscaler, defaults scaling.Inputs) *Evaluation {
	e := &Evaluation{Autoscaler: a, Target: r, Inputs: scaling.MergeInputs(a, r.Workload, defaults)}
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
		if m.Signal == scaling.SignalBacklog {
			if b := e.evalBacklog(m, val); b != nil {
				e.Backlog = append(e.Backlog, b)
			}
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

func (e *Evaluation) evalGrowth(val func(string) (float64, bool)) {
	m := firstCPU(e.Autoscaler)
	if m == nil {
		return
	}
	w := e.Target.Workload
	if w == nil || !w.HasTemplate {
		e.Missing = append(e.Missing, Missing{Law: "tolerance-trap", Why: "the scale target is not among the inputs"})
		return
	}
	cs := w.Counted(m.Container)
	if len(cs) == 0 {
		return
	}
	var limit, request float64
	for _, c := range cs {
		if !c.CPURequest.Set {
			return // missing-cpu-request reports it
		}
		if !c.CPULimit.Set {
			e.Missing = append(e.Missing, Missing{Law: "tolerance-trap",
				Why: "container " + c.Name + " has no CPU limit: it may use more than its share, so g is unbounded"})
			return
		}
		limit += c.CPULimit.V
		request += c.CPURequest.V
	}
	pct := int(math.Round(m.Utilization.V))
	g := &GrowthEval{Metric: m, Limit: limit, Request: request, TargetPercent: pct, Tolerance: e.Autoscaler.UpTolerance.V}
	g.G = laws.ControllerGrowthFactor(limit, request, pct)
	if math.IsNaN(g.G) {
		return
	}
	g.Trapped = laws.ToleranceTrapped(g.G, g.Tolerance)
	// The largest whole target that escapes: U/p > 1 + tol with U the
	// utilization of a saturated pod in whole percent.
	u := g.G * float64(pct)
	g.FixTarget = int(math.Ceil(u/(1+g.Tolerance)-1e-9)) - 1
	// The smallest limit that escapes at this target, in millicores.
	needU := math.Floor(float64(pct)*(1+g.Tolerance)+1e-9) + 1
	g.FixLimit = math.Ceil(needU*request*1000/100-1e-9) / 1000
	if k, ok := val("overload"); ok {
		g.HasOverload, g.Overload = true, k
		g.Rounds = -1
		if !g.Trapped {
			g.Rounds = laws.Rounds(g.G, k)
		}
		if tau, ok := val("dead-time"); ok {
			mw, _ := val("metric-window")
			g.HasDeadTime, g.DeadTime, g.MetricWindow = true, tau, mw
			g.TimeToCapacity = laws.TimeToCapacity(g.Rounds, tau, mw)
		} else {
			e.need("scale-up-rounds", "dead-time")
		}
		if d, ok := val("capacity-deadline"); ok {
			g.HasDeadline, g.Deadline = true, d
		}
	} else {
		e.need("scale-up-rounds", e.absent("overload", "dead-time")...)
	}
	e.Growth = g
}

func (e *Evaluation) evalBacklog(m *scaling.Metric, val func(string) (float64, bool)) *BacklogEval {
	tau, hasTau := val("dead-time")
	c, hasC := val("pod-rate")
	if !hasTau {
		e.need("latency-floor", e.absent("dead-time", "pod-rate")...)
		return nil
	}
	s, _ := val("sampling-delay")
	b := &BacklogEval{Metric: m, Threshold: m.Threshold.V, PodRate: c, HasPodRate: hasC, DeadTime: tau, SamplingDelay: s,
		Window: e.Autoscaler.DownWindow.V}
	f := FloorOf(tau, b.Window, s)
	b.Required, b.Phi, b.W, b.WindowProof = f.Required, f.Phi, f.W, f.WindowProof
	if lt, ok := val("latency-target"); ok {
		b.HasLatencyTarget, b.LatencyTarget = true, lt
		b.LatencyHeld = laws.LatencyTargetHeld(lt, b.Required)
	}
	if !hasC || m.Threshold.V <= 0 {
		if !hasC {
			e.need("latency-floor", "pod-rate")
		}
		if b.HasLatencyTarget {
			return b
		}
		return nil
	}
	b.StandingDelay = laws.StandingDelay(b.Threshold, c)
	b.Rests = laws.Rests(b.StandingDelay, b.Required)
	b.FixWindow, b.FixWindowOK, b.FixWindowUnlimited = laws.LongestRestingWindow(b.StandingDelay, tau, s)
	return b
}

func (e *Evaluation) evalBound(val func(string) (float64, bool)) {
	b, hasB := val("admission-bound")
	t, hasT := val("client-timeout")
	switch {
	case hasB && hasT:
		e.Bound = &BoundEval{Bound: b, Timeout: t, Shorter: laws.BoundShorterThanTimeout(b, t)}
	case hasB:
		e.need("bound-exceeds-timeout", "client-timeout")
	}
}

// amplification reads A: scalelint.dev/retries, else retry-amplification.
func (e *Evaluation) amplification() (float64, bool) {
	if in, ok := e.Inputs["retries"]; ok {
		return laws.Amplification(in.List), true
	}
	if in, ok := e.Inputs["retry-amplification"]; ok {
		return in.Value, true
	}
	return 0, false
}

func (e *Evaluation) evalRetry(val func(string) (float64, bool)) {
	var m *scaling.Metric
	for _, x := range e.Autoscaler.Metrics {
		if x.Signal == scaling.SignalRate && x.Threshold.V > 0 {
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
	r := &RetryEval{Metric: m, Signal: m.Signal, Amplification: A, TrapTarget: laws.TrapTarget(A)}
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
	r.Protected = e.Bound != nil && e.Bound.Shorter
	r.Trapped = laws.RetryTrapped(r.Target, A, r.Protected)
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
		c.Floor = laws.CeilingFloor(A, lambda, rate)
		c.Trapped = laws.CeilingTrapped(c.Ceiling, c.Floor)
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
