package rules

import (
	"fmt"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/rules/format"
)

// RetryTrap reports targets at or above 1/A: after an overload trips it, a
// service that completes abandoned work stays failed.
var RetryTrap = &analyzer.Analyzer{
	Name:     "retry-trap",
	Severity: analyzer.Error,
	Doc:      doc("retry-trap"),
	URL:      analyzer.RulesReferenceURL + "#retry-trap",
	Run: func(pass *analyzer.Pass) error {
		for _, e := range evaluations(pass) {
			rt := e.Retry
			if rt == nil || !rt.Trapped {
				continue
			}
			a := e.Autoscaler
			m := rt.Metric
			file := a.Object.File()
			at := metricField(a, m)
			var sev analyzer.Severity
			target := format.Pct(rt.Target)
			what := "CPU target " + target
			fixValue := format.Plain(rt.FixTarget, 0) // written into the manifest: never an exponent
			fixMsg := fmt.Sprintf("Lower the target to %s%%", fixValue)
			if rt.Signal == scaling.SignalRate {
				at = a.ThresholdField(m)
				what = fmt.Sprintf("rate target %s (threshold %s / pod rate %s)", target, format.Num(m.Threshold.V, 3), InputText(e.Inputs["pod-rate"], file))
				fixValue = format.Plain(rt.FixTarget, 2)
				fixMsg = fmt.Sprintf("Lower %s to %s", m.ThresholdKey, fixValue)
				if len(rt.Others) > 0 || rt.Bounded {
					// Another metric may hold more pods; an inferred A
					// counts only the requests through the routes found.
					sev = analyzer.Warning
				}
			} else {
				sev = analyzer.Warning // CPU sees the debt as busy pods
			}
			if rt.Bounded {
				fixMsg += " (the most that may escape: A is at least " + format.Num(rt.Amplification, 3) + ")"
			}
			r := analyzer.FieldSpan(a.Object, at)
			d := analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: fmt.Sprintf("metrics[%d].target", m.Index), Severity: sev,
				Message: fmt.Sprintf("%s is at or above 1/A %s %s (retry amplification A %s): after an overload trips it, this service stays failed; keep the target below %s or bound the queue below the client timeout%s",
					what, relation(rt.Bounded, "≤"), format.Pct(rt.TrapTarget), amplificationText(e, rt.Amplification, file), format.Pct(rt.TrapTarget), othersClause(a, rt.Others)+throughRoutes(rt.Bounded)),
				Facts:   map[string]float64{"amplification": rt.Amplification, "trapTarget": rt.TrapTarget, "target": rt.Target},
				Sources: factSources(e, "amplification", amplificationInput(e), "podRate", "pod-rate"),
				Related: append(inputRelated(e.Inputs["retries"], "the retries"), inputRelated(e.Inputs["retry-amplification"], "the retry amplification")...),
			}
			value := m.Utilization.At
			if rt.Signal == scaling.SignalRate {
				value = m.Threshold.At
			}
			if value.IsValid() && (m.Utilization.Set || m.Threshold.Set) && rt.FixTarget > 0 {
				d.SuggestedFixes = []analyzer.SuggestedFix{{Message: fixMsg, Edits: []analyzer.TextEdit{replaceScalar(value, fixValue)}}}
			}
			pass.Report(d)
		}
		return nil
	},
}
