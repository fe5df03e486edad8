package rules

import (
	"fmt"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/rules/format"
)

// LatencyTarget reports a promised queue latency below the loop's floor.
var LatencyTarget = &analyzer.Analyzer{
	Name:     "latency-target",
	Severity: analyzer.Error,
	Doc:      doc("latency-target"),
	URL:      analyzer.RulesReferenceURL + "#latency-target",
	Run: func(pass *analyzer.Pass) error {
		for _, e := range evaluations(pass) {
			for _, b := range e.Backlog {
				if !b.HasLatencyTarget || b.LatencyHeld {
					continue
				}
				in := e.Inputs["latency-target"]
				a := e.Autoscaler
				r := analyzer.FieldSpan(a.Object, a.Object.KindAt)
				if in.Object != nil && in.At.IsValid() {
					r = analyzer.FieldSpan(in.Object, in.At)
				}
				msg := fmt.Sprintf("promised latency %s is below the %s%s floor of this loop (%s): it cannot hold it at rest",
					format.Secs(b.LatencyTarget), format.Secs(b.Required), orMore(b.Bounded), loopInputs(e, b, a.Object.File()))
				if !b.Bounded {
					// e·τ_eff at a lower bound on τ is not a safe promise.
					msg += fmt.Sprintf("; any promise of %s or more is safe", format.Secs(b.WindowProof))
				}
				pass.Report(analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "metadata.annotations.latency-target",
					Message: msg,
					Facts: map[string]float64{"latencyTarget": b.LatencyTarget, "requiredStandingDelay": b.Required, "phi": b.Phi,
						"deadTime": b.DeadTime, "window": b.Window},
					Sources: factSources(e, "latencyTarget", "latency-target", "deadTime", "dead-time", "samplingDelay", "sampling-delay")})
				break // one report per annotation
			}
		}
		return nil
	},
}
