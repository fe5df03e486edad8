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
	Doc: analyzer.Doc{
		Title: "Target at or above 1/A, the retry trap",
		What: "With the retry amplification A = Π(1 + rᵢ) over the layers of callers (`scalelint.dev/retries`, such " +
			"as `2,2`, or `scalelint.dev/retry-amplification`), reports a target u* ≥ 1/A, unless an admission " +
			"bound shorter than the client timeout removes the debt. For a CPU utilization target u* is the target; " +
			"for a rate signal (a KEDA rate mode such as rabbitmq MessageRate, or a metric marked " +
			"`scalelint.dev/signal: rate`) it is the per-pod threshold over the pod rate. An error for a rate " +
			"signal, which is blind to the debt; a warning for CPU, which sees the debt as busy pods and " +
			"overshoots instead.",
		Why: "Once clients time out and retry, every first attempt costs up to A units of work, and a service that " +
			"completes abandoned attempts runs at A·ρ. A scaler holds ρ near its target, so at u* ≥ 1/A a trigger " +
			"(a sustained overload above about τ_out/τ, 11% for a 10 s timeout over a 90 s dead time) leaves it " +
			"failed at twice the capacity demand needs (LAWS.md §3; seed \"The Barrier the Scaler Cannot Hold\", " +
			"\"What to Compute\": \"a scaler on a debt-excluding signal must keep its target below that\").\n\n" +
			"Worked example: two retries give A = 3 and 1/A = 33.3%: a 50% target is trapped. A retrying gateway in " +
			"front (`2,2`) gives A = 9: every target of 11.2% or more.",
		Example:    "metadata:\n  annotations:\n    scalelint.dev/retries: \"2\"\nspec:\n  metrics:\n  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}",
		UseInstead: "metadata:\n  annotations:\n    scalelint.dev/retries: \"2\"\n    scalelint.dev/client-timeout: \"10s\"\n    scalelint.dev/admission-bound: \"5s\"   # the queue never holds abandoned work",
		Fix:        "A fix lowers the target below 1/A (not marked safe: it holds more pods every hour). Bounding the queue below the client timeout is usually cheaper; the annotation records it.",
		References: []string{"LAWS.md §3 and §5", "seed: The Barrier the Scaler Cannot Hold (Propositions 9, 10)"},
	},
	Run: func(pass *analyzer.Pass) error {
		for _, e := range evaluations(pass) {
			rt := e.Retry
			if rt == nil || !rt.Trapped {
				continue
			}
			a := e.Autoscaler
			m := rt.Metric
			at := metricField(a, m)
			var sev analyzer.Severity
			target := format.Pct(rt.Target)
			what := "CPU target " + target
			fixMsg := fmt.Sprintf("Lower the target to %s%%", format.Num(rt.FixTarget, 0))
			fixValue := format.Num(rt.FixTarget, 0)
			if rt.Signal == scaling.SignalRate {
				at = a.ThresholdField(m)
				what = fmt.Sprintf("rate target %s (threshold %s / pod rate %s)", target, format.Num(m.Threshold.V, 3), format.Num(e.Inputs["pod-rate"].Value, 3))
				fixMsg = fmt.Sprintf("Lower %s to %s", m.ThresholdKey, format.Num(rt.FixTarget, 2))
				fixValue = format.Num(rt.FixTarget, 2)
			} else {
				sev = analyzer.Warning // CPU sees the debt as busy pods
			}
			r := analyzer.FieldSpan(a.Object, at)
			d := analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: fmt.Sprintf("metrics[%d].target", m.Index), Severity: sev,
				Message: fmt.Sprintf("%s is at or above 1/A = %s (retry amplification A = %s): after an overload trips it, this service stays failed; keep the target below %s or bound the queue below the client timeout",
					what, format.Pct(rt.TrapTarget), format.Num(rt.Amplification, 3), format.Pct(rt.TrapTarget)),
				Facts:   map[string]float64{"amplification": rt.Amplification, "trapTarget": rt.TrapTarget, "target": rt.Target},
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
