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
				if !b.HasPodRate || b.StandingDelay == 0 || b.Rests {
					continue
				}
				reportLatencyFloor(pass, e, b)
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

func reportLatencyFloor(pass *analyzer.Pass, e *Evaluation, b *BacklogEval) {
	a := e.Autoscaler
	m := b.Metric
	r := analyzer.FieldSpan(a.Object, a.ThresholdField(m))
	key := m.ThresholdKey
	if key == "" {
		key = "threshold"
	}
	defaulted := ""
	if !m.Threshold.Set {
		defaulted = ", KEDA's default"
	}
	d := analyzer.Diagnostic{
		Pos: r.Pos(), End: r.End(), Object: a.Object, Field: fmt.Sprintf("metrics[%d].threshold", m.Index),
		Message: fmt.Sprintf("standing delay %s (%s %s%s / pod rate %s) is below the %s this loop needs to rest (dead time %s, window %s): it hunts",
			format.Secs(b.StandingDelay), key, format.Num(b.Threshold, 3), defaulted, format.Num(b.PodRate, 3), format.Secs(b.Required), format.Secs(b.DeadTime), format.Secs(b.Window)),
		Facts: map[string]float64{"standingDelay": b.StandingDelay, "requiredStandingDelay": b.Required, "phi": b.Phi, "w": b.W,
			"deadTime": b.DeadTime, "window": b.Window, "threshold": b.Threshold, "podRate": b.PodRate, "samplingDelay": b.SamplingDelay},
	}
	d.Related = append(d.Related, inputRelated(e.Inputs["dead-time"], "the dead time")...)
	d.Related = append(d.Related, inputRelated(e.Inputs["pod-rate"], "the pod rate")...)
	// Fix 1: the smallest threshold that rests.
	value := format.Num(b.FixThreshold(pass.Option("margin", a.Object.File())), 0)
	var edit analyzer.TextEdit
	ok := false
	if m.Threshold.Set && m.Threshold.At.IsValid() {
		edit, ok = replaceScalar(m.Threshold.At, value), true
	} else if p := thresholdPath(a, m); p != nil {
		edit, ok = setField(a.Object, p, `"`+value+`"`)
	}
	if ok {
		d.SuggestedFixes = append(d.SuggestedFixes, analyzer.SuggestedFix{
			Message: fmt.Sprintf("Set %s to %s", key, value), Edits: []analyzer.TextEdit{edit}})
	}
	// Fix 2: the longest window that rests at today's threshold.
	if b.FixWindowOK && !b.FixWindowUnlimited && b.FixWindow < b.Window {
		wv := math.Floor(b.FixWindow)
		if edit, ok := setField(a.Object, windowPath(a), format.Num(wv, 0)); ok {
			d.SuggestedFixes = append(d.SuggestedFixes, analyzer.SuggestedFix{
				Message: fmt.Sprintf("Shorten the scale-down stabilization window to %ss", format.Num(wv, 0)), Edits: []analyzer.TextEdit{edit}})
		}
	} else if !b.FixWindowOK {
		d.Message += "; no window is short enough at this threshold"
	}
	d.Message = strings.TrimSpace(d.Message)
	pass.Report(d)
}
