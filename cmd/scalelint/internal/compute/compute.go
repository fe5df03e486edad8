// Package compute evaluates the laws from raw numbers (`scalelint
// compute`): it builds, from the numbers given, the autoscaler, workload
// and annotations a manifest would hold, and evaluates them with the
// evaluation the rules report from (rules.EvaluateTarget), so that compute
// and check agree on every number and verdict: the growth factor as the
// controller computes it (whole percent), the built-in defaults of the
// sampling delay, metric window and tolerance, latency-floor's margin.
package compute

import (
	"fmt"
	"math"
	"strconv"

	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
	"github.com/scalelint/scalelint/rules/format"
	"github.com/scalelint/scalelint/rules/laws"
)

// Inputs are the raw numbers; a nil one was not given. Times are in
// seconds, the target a fraction.
type Inputs struct {
	DeadTime, Window, PodRate, Threshold, Limit, Request, Target, Overload  *float64
	Demand, MaxReplicas, Peak, ClientTimeout, Bound, Sampling, MetricWindow *float64
	Tolerance, LatencyTarget, Margin                                        *float64
	Retries                                                                 []int // per layer of callers; nil: not given
}

// Check refuses inputs no manifest could hold.
func (in Inputs) Check() error {
	if in.Target != nil && *in.Target > 1 {
		return fmt.Errorf("--target: %g is above 1; write a fraction (0.5) or a percentage (50%%)", *in.Target)
	}
	return nil
}

// Result is what Compute found: the JSON object, and the text table's
// lines (law, numbers and verdict, tab-separated).
type Result struct {
	Values map[string]any
	Lines  []string
}

// evaluate builds the autoscaler, its workload and the annotations the
// inputs describe, and evaluates them.
func evaluate(in Inputs) *rules.Evaluation {
	a := &scaling.Autoscaler{Kind: scaling.HPA,
		UpTolerance: scaling.Num{V: or(in.Tolerance, scaling.DefaultTolerance)},
		DownWindow:  scaling.Num{V: or(in.Window, laws.DefaultStabilizationWindow)},
		Max:         scaling.Num{V: or(in.MaxReplicas, 0), Set: in.MaxReplicas != nil},
	}
	target := &workspace.Resolution{}
	if in.Target != nil {
		a.Metrics = append(a.Metrics, &scaling.Metric{Index: len(a.Metrics), Type: "Resource", Resource: "cpu",
			Signal: scaling.SignalCPU, Utilization: scaling.Num{V: 100 * *in.Target, Set: true}})
	}
	if in.Limit != nil && in.Request != nil {
		target.Workload = &scaling.Workload{HasTemplate: true, Containers: []scaling.Container{{Name: "app",
			CPURequest: scaling.Num{V: *in.Request, Set: true}, CPULimit: scaling.Num{V: *in.Limit, Set: true}}}}
		target.Pods = target.Workload // the pods run the workload's own template
	}
	if in.DeadTime != nil {
		a.Metrics = append(a.Metrics, &scaling.Metric{Index: len(a.Metrics), Type: "External", Signal: scaling.SignalBacklog,
			Threshold: scaling.Num{V: or(in.Threshold, 0), Set: in.Threshold != nil}})
	}
	annotations := scaling.Inputs{}
	for name, v := range map[string]*float64{"dead-time": in.DeadTime, "pod-rate": in.PodRate, "overload": in.Overload,
		"demand": in.Demand, "scalability-peak": in.Peak, "client-timeout": in.ClientTimeout, "admission-bound": in.Bound,
		"sampling-delay": in.Sampling, "metric-window": in.MetricWindow, "latency-target": in.LatencyTarget} {
		if v != nil {
			annotations[name] = scaling.Input{Value: *v}
		}
	}
	if in.Retries != nil {
		annotations["retries"] = scaling.Input{List: in.Retries}
	}
	return rules.EvaluateTarget(a, target, annotations)
}

func or(p *float64, def float64) float64 {
	if p != nil {
		return *p
	}
	return def
}

// Compute evaluates every law its inputs allow.
func Compute(in Inputs) Result {
	e := evaluate(in)
	r := Result{Values: map[string]any{}}
	add := func(law, numbers, verdict string) {
		r.Lines = append(r.Lines, law+"\t"+numbers+"\t"+verdict)
	}
	verdict := func(bad bool, badText, goodText string) string {
		if bad {
			return "✗ " + badText
		}
		return "✓ " + goodText
	}
	// Numbers with at most four decimals, the JSON's with six significant
	// digits. No +Inf reaches num (format.Num would write it "∞", where
	// this table wrote strconv's "+Inf"): every flag is finite, a number
	// within [1e-9, 1e15] or 0 (scaling.CheckMagnitude), a duration within
	// [1ns, 292 years] (scaling.ParseDuration), A at most 1e15
	// (scaling.ParseValue); the laws divide only by positive inputs (the
	// dead time, the pod rate, the request, the whole target percent) or
	// by A ≥ 1; and the two values that may be +Inf are written only when
	// they are not: the time to capacity once g escapes the tolerance (so
	// Rounds ≥ 0), the longest resting window when it is not unlimited.
	// The JSON's numbers are format.Float, as every JSON writer's: should
	// one be unbounded after all, the document is still written.
	num := func(v float64) string { return format.Num(v, 4) }
	round6 := format.JSONSig

	// §1 growth factor, tolerance trap, rounds.
	if g := e.Growth; g != nil {
		r.Values["g"] = format.JSONApart(g.G, 1+g.Tolerance)
		r.Values["toleranceTrap"] = g.Trapped
		add("tolerance trap (§1)", fmt.Sprintf("g = ℓ/(r·u*) = %s against 1 + %s", format.Apart(g.G, 1+g.Tolerance, 4), format.Exact(g.Tolerance)),
			verdict(g.Trapped, "never scales up on a saturated metric", "scales up"))
		if g.HasOverload && !g.Trapped {
			r.Values["rounds"] = g.Rounds
			text := fmt.Sprintf("%d rounds for a %sx overload", g.Rounds, num(g.Overload))
			if g.HasDeadTime {
				r.Values["timeToCapacity"] = round6(g.TimeToCapacity)
				text += fmt.Sprintf(", %s × (%ss + %ss) = %ss to capacity", strconv.Itoa(g.Rounds), num(g.DeadTime), num(g.MetricWindow), num(g.TimeToCapacity))
			}
			add("rounds (§1)", text, "")
		}
	}
	// §2 latency floor.
	if in.DeadTime != nil {
		var b *rules.BacklogEval
		if len(e.Backlog) > 0 {
			b = e.Backlog[0]
		}
		sampling := e.Inputs["sampling-delay"].Value
		tauEff := *in.DeadTime + sampling
		f := rules.FloorOf(*in.DeadTime, e.Autoscaler.DownWindow.V, sampling)
		if b != nil {
			f = rules.Floor{Required: b.Required, Phi: b.Phi, W: b.W, WindowProof: b.WindowProof}
		}
		r.Values["phi"] = round6(f.Phi)
		r.Values["w"] = round6(f.W)
		r.Values["requiredStandingDelay"] = round6(f.Required)
		floor := fmt.Sprintf("%s × Φ(%s) = %s × %s = %ss", num(tauEff), num(f.W), num(tauEff), num(f.Phi), num(f.Required))
		if b != nil && b.HasPodRate && b.Threshold > 0 {
			r.Values["standingDelay"] = round6(b.StandingDelay)
			r.Values["rests"] = b.Rests
			fix := b.FixThreshold(or(in.Margin, defaultMargin()))
			hint := fmt.Sprintf("rests; smallest resting threshold %s", num(fix))
			bad := fmt.Sprintf("hunts; smallest resting threshold %s", num(fix))
			if b.FixWindowOK && !b.FixWindowUnlimited {
				bad += fmt.Sprintf(", or a window of at most %ss", num(math.Floor(b.FixWindow)))
			}
			add("latency floor (§2)", fmt.Sprintf("standing delay T/c = %ss against %s", num(b.StandingDelay), floor), verdict(!b.Rests, bad, hint))
		} else {
			add("latency floor (§2)", "needs τ_eff·Φ(W_eff/τ_eff) = "+floor, "")
		}
		if b != nil && b.HasLatencyTarget {
			r.Values["latencyTargetHeld"] = b.LatencyHeld
			add("latency target (§2)", fmt.Sprintf("promise %ss against the %ss floor", num(b.LatencyTarget), num(f.Required)),
				verdict(!b.LatencyHeld, "cannot be held at rest", "holds"))
		}
	}
	// §5 bound (before §3: it protects against the trap).
	if bd := e.Bound; bd != nil {
		r.Values["boundShorterThanTimeout"] = bd.Shorter
		add("admission bound (§5)", fmt.Sprintf("b = %ss against τ_out = %ss", num(bd.Bound), num(bd.Timeout)),
			verdict(!bd.Shorter, "retry debt still forms", "no retry debt"))
	}
	// §3 retry trap. A and 1/A are the retries' alone (laws.Amplification,
	// as the evaluation reads them); the trap needs a target.
	if in.Retries != nil {
		a := laws.Amplification(in.Retries)
		r.Values["amplification"] = round6(a)
		r.Values["trapTarget"] = round6(laws.TrapTarget(a))
		text := fmt.Sprintf("A = %s, 1/A = %s%%", num(a), num(100*laws.TrapTarget(a)))
		if rt := e.Retry; rt != nil {
			r.Values["trapped"] = rt.Trapped
			add("retry trap (§3)", fmt.Sprintf("target %s%% against %s", num(100**in.Target), text),
				verdict(rt.Trapped, "stays failed after a trigger", "recovers"))
		} else {
			add("retry trap (§3)", text, "")
		}
		if in.ClientTimeout != nil && in.DeadTime != nil {
			r.Values["triggerOverload"] = round6(laws.TriggerOverload(*in.ClientTimeout, *in.DeadTime))
		}
	}
	// §4 ceiling band.
	if c := e.Ceiling; c != nil {
		if c.HasFloor {
			r.Values["ceilingFloor"] = round6(c.Floor)
		}
		if c.HasTop {
			r.Values["ceilingTop"] = round6(c.Top)
		}
		if c.HasFloor && c.HasTop {
			r.Values["ceilingBandEmpty"] = c.BandEmpty
			add("ceiling band (§4)", fmt.Sprintf("A·λ/c = %s < M ≤ 0.8·N_max = %s", num(c.Floor), num(c.Top)),
				verdict(c.BandEmpty, "empty: no ceiling is safe", "a safe ceiling exists"))
		}
		if in.MaxReplicas != nil && c.HasFloor {
			r.Values["ceilingTrap"] = c.Trapped
			add("ceiling trap (§4)", fmt.Sprintf("M = %s against A·λ/c = %s", num(c.Ceiling), num(c.Floor)),
				verdict(c.Trapped, "stays failed after a trigger", "recovers, in time ∝ 1/(M − A·λ/c)"))
		}
		if in.MaxReplicas != nil && c.HasTop {
			r.Values["ceilingOverPeak"] = c.OverPeak
			add("ceiling over peak (§4)", fmt.Sprintf("M = %s against 0.8·N_max = %s", num(c.Ceiling), num(c.Top)),
				verdict(c.OverPeak, "may climb past the scalability peak", "below the peak"))
		}
	}
	return r
}

// defaultMargin is latency-floor's default margin, the one check applies
// when the configuration sets none.
func defaultMargin() float64 {
	o, _ := rules.LatencyFloor.Option("margin")
	return o.Default
}
