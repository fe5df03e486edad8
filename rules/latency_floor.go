package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/rules/format"
)

// LatencyFloor reports backlog-scaled consumers whose standing delay is
// below the floor their dead time and window demand: they hunt.
var LatencyFloor = &analyzer.Analyzer{
	Name:     "latency-floor",
	Severity: analyzer.Error,
	Options: []analyzer.Option{{Name: "margin", Default: defaultMargin,
		Doc: "relative margin added to the smallest resting threshold the fix suggests (0.1 = 10%)"}},
	Doc: doc("latency-floor"),
	URL: analyzer.RulesReferenceURL + "#latency-floor",
	Run: func(pass *analyzer.Pass) error {
		for _, e := range evaluations(pass) {
			for _, b := range e.Backlog {
				switch {
				case b.HasPodRateCeiling:
					reportPodRateCeiling(pass, e, b)
				case b.HasDelay && b.StandingDelay > 0 && !b.Rests:
					reportLatencyFloor(pass, e, b)
				}
			}
		}
		return nil
	},
}

// thresholdPath is the field path of a metric's threshold.
func thresholdPath(a *scaling.Autoscaler, m *scaling.Metric) manifest.Path {
	if a.Kind == scaling.HPA {
		return nil // an HPA's threshold is always written; setField replaces it
	}
	return manifest.Path{manifest.Key("spec"), manifest.Key("triggers"), manifest.Index(m.Index), manifest.Key("metadata"), manifest.Key(m.ThresholdKey)}
}

// windowPath is the field path of the scale-down stabilization window.
func windowPath(a *scaling.Autoscaler) manifest.Path {
	if a.Kind == scaling.HPA {
		return manifest.ParsePath("spec.behavior.scaleDown.stabilizationWindowSeconds")
	}
	return manifest.ParsePath("spec.advanced.horizontalPodAutoscalerConfig.behavior.scaleDown.stabilizationWindowSeconds")
}

// thresholdName is a metric's threshold key, with "KEDA's default" when
// the key is absent.
func thresholdName(m *scaling.Metric) string {
	key := m.ThresholdKey
	if key == "" {
		key = "threshold"
	}
	if !m.Threshold.Set {
		return key + " " + format.Num(m.Threshold.V, 3) + ", KEDA's default"
	}
	return key + " " + format.Num(m.Threshold.V, 3)
}

// loopInputs describes the inputs of the floor: "dead time ≥ 20s
// (readinessProbe, line 31), window 300s", with the sampling delay when it
// is not the built-in default.
func loopInputs(e *Evaluation, b *BacklogEval, file *manifest.File) string {
	out := "dead time " + InputText(e.Inputs["dead-time"], file) + ", window " + format.Secs(b.Window)
	if s, ok := e.Inputs["sampling-delay"]; ok && s.Origin != scaling.FromBuiltin {
		out += ", sampling delay " + InputText(s, file)
	}
	return out
}

// orMore is " or more" after a value that is a lower bound.
func orMore(bounded bool) string {
	if bounded {
		return " or more"
	}
	return ""
}

// othersClause qualifies a finding on one metric of several: the HPA
// scales to the largest recommendation of its metrics.
func othersClause(a *scaling.Autoscaler, others []*scaling.Metric) string {
	if len(others) == 0 {
		return ""
	}
	var names []string
	for _, o := range others {
		names = append(names, metricLabel(a, o))
	}
	return fmt.Sprintf("; the HPA follows the largest recommendation of its metrics, so this holds while this one asks for the most pods (also %s)", strings.Join(names, ", "))
}

// metricLabel names a metric for a message: "trigger 1 (cpu)", "metric 0
// (Resource memory)".
func metricLabel(a *scaling.Autoscaler, m *scaling.Metric) string {
	what := m.Type
	if m.Resource != "" && (m.Type == "Resource" || m.Type == "ContainerResource") {
		what += " " + m.Resource
	}
	if a.Kind == scaling.HPA {
		return fmt.Sprintf("metric %d (%s)", m.Index, what)
	}
	return fmt.Sprintf("trigger %d (%s)", m.Index, what)
}

func latencySources(e *Evaluation) map[string]analyzer.FactSource {
	return factSources(e, "deadTime", "dead-time", "podRate", "pod-rate", "samplingDelay", "sampling-delay")
}

func reportLatencyFloor(pass *analyzer.Pass, e *Evaluation, b *BacklogEval) {
	a := e.Autoscaler
	m := b.Metric
	file := a.Object.File()
	r := analyzer.FieldSpan(a.Object, a.ThresholdField(m))
	key := m.ThresholdKey
	if key == "" {
		key = "threshold"
	}
	delay := fmt.Sprintf("%s / pod rate %s", thresholdName(m), InputText(e.Inputs["pod-rate"], file))
	if b.Delay {
		delay = thresholdName(m) + ", the drain time the trigger holds"
	}
	var sev analyzer.Severity
	if len(b.Others) > 0 {
		sev = analyzer.Warning
	}
	d := analyzer.Diagnostic{
		Pos: r.Pos(), End: r.End(), Object: a.Object, Field: fmt.Sprintf("metrics[%d].threshold", m.Index), Severity: sev,
		Message: fmt.Sprintf("standing delay %s (%s) is below the %s%s this loop needs to rest (%s): it hunts%s",
			format.Secs(b.StandingDelay), delay, format.Secs(b.Required), orMore(b.Bounded), loopInputs(e, b, file), othersClause(a, b.Others)),
		Facts: map[string]float64{"standingDelay": b.StandingDelay, "requiredStandingDelay": b.Required, "phi": b.Phi, "w": b.W,
			"deadTime": b.DeadTime, "window": b.Window, "threshold": b.Threshold, "samplingDelay": b.SamplingDelay},
		Sources: latencySources(e),
	}
	if b.HasPodRate {
		d.Facts["podRate"] = b.PodRate
	}
	d.Related = append(d.Related, inputRelated(e.Inputs["dead-time"], "the dead time")...)
	d.Related = append(d.Related, inputRelated(e.Inputs["pod-rate"], "the pod rate")...)
	// Fix 1: the smallest threshold that rests (at least that, at a bound).
	value := format.Plain(b.FixThreshold(pass.Option("margin", file)), 0)
	var edit analyzer.TextEdit
	ok := false
	if m.Threshold.Set && m.Threshold.At.IsValid() {
		edit, ok = replaceScalar(m.Threshold.At, value), true
	} else if p := thresholdPath(a, m); p != nil {
		edit, ok = setField(a.Object, p, `"`+value+`"`)
	}
	if ok {
		msg := fmt.Sprintf("Set %s to %s", key, value)
		if b.Bounded {
			msg += " (the least that may rest: the dead time is at least " + format.Secs(b.DeadTime) + ")"
		}
		d.SuggestedFixes = append(d.SuggestedFixes, analyzer.SuggestedFix{Message: msg, Edits: []analyzer.TextEdit{edit}})
	}
	// Fix 2: the longest window that rests at today's threshold (at most
	// that, at a bound).
	if b.FixWindowOK && !b.FixWindowUnlimited && b.FixWindow < b.Window {
		wv := math.Floor(b.FixWindow)
		if edit, ok := setField(a.Object, windowPath(a), format.Plain(wv, 0)); ok {
			msg := fmt.Sprintf("Shorten the scale-down stabilization window to %ss", format.Plain(wv, 0))
			if b.Bounded {
				msg += " (the longest that may rest: the dead time is at least " + format.Secs(b.DeadTime) + ")"
			}
			d.SuggestedFixes = append(d.SuggestedFixes, analyzer.SuggestedFix{Message: msg, Edits: []analyzer.TextEdit{edit}})
		}
	} else if !b.FixWindowOK {
		d.Message += "; no window is short enough at this threshold"
	}
	d.Message = strings.TrimSpace(d.Message)
	pass.Report(d)
}

// reportPodRateCeiling reports a backlog loop without a pod rate: it hunts
// whenever one pod serves more than c* = T/Required, Required computed at
// the lower bound on the dead time (rules/laws/README.md §10.1). A warning:
// whether it hunts depends on the pod rate, which the manifests do not
// state. Its fixes need the pod rate, so the message says what rests at a
// rate the user names (scalelint.dev/pod-rate then gives them exactly).
func reportPodRateCeiling(pass *analyzer.Pass, e *Evaluation, b *BacklogEval) {
	a := e.Autoscaler
	m := b.Metric
	file := a.Object.File()
	r := analyzer.FieldSpan(a.Object, a.ThresholdField(m))
	key := m.ThresholdKey
	if key == "" {
		key = "threshold"
	}
	// Rounded up, so that each claim stays true: above c* it hunts, a
	// threshold of at least the multiple rests, above the last rate no
	// window rests.
	unit := "messages/s"
	written := key + " " + format.Num(m.Threshold.V, 3)
	if !m.Threshold.Set {
		written += " (KEDA's default)"
	}
	msg := fmt.Sprintf("hunts unless each pod serves fewer than %s %s: with %s the loop rests only if the standing delay T/c ≥ %s (%s); at a pod rate c, %s ≥ %s·c rests",
		format.SigUp(b.PodRateCeiling, 2), unit, written, format.Secs(b.Required), loopInputs(e, b, file), key, format.SigUp(b.Required, 3))
	if !math.IsInf(b.PodRateCeilingNoWindow, 1) && b.PodRateCeilingNoWindow > b.PodRateCeiling {
		msg += fmt.Sprintf(", and above %s %s no window does", format.SigUp(b.PodRateCeilingNoWindow, 2), unit)
	}
	msg += " (annotate scalelint.dev/pod-rate for the fixes)" + othersClause(a, b.Others)
	d := analyzer.Diagnostic{
		Pos: r.Pos(), End: r.End(), Object: a.Object, Field: fmt.Sprintf("metrics[%d].threshold", m.Index), Severity: analyzer.Warning,
		Message: msg,
		Facts: map[string]float64{"podRateCeiling": b.PodRateCeiling, "podRateCeilingNoWindow": b.PodRateCeilingNoWindow,
			"requiredStandingDelay": b.Required, "phi": b.Phi, "w": b.W, "deadTime": b.DeadTime, "window": b.Window,
			"threshold": b.Threshold, "samplingDelay": b.SamplingDelay},
		Sources: latencySources(e),
	}
	d.Related = append(d.Related, inputRelated(e.Inputs["dead-time"], "the dead time")...)
	pass.Report(d)
}
