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
				pass.Report(analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "metadata.annotations.latency-target",
					Message: fmt.Sprintf("promised latency %s is below the %s floor of this loop (dead time %s, window %s): it cannot hold it at rest; any promise of %s or more is safe",
						format.Secs(b.LatencyTarget), format.Secs(b.Required), format.Secs(b.DeadTime), format.Secs(b.Window), format.Secs(b.WindowProof)),
					Facts: map[string]float64{"latencyTarget": b.LatencyTarget, "requiredStandingDelay": b.Required, "phi": b.Phi,
						"deadTime": b.DeadTime, "window": b.Window}})
				break // one report per annotation
			}
		}
		return nil
	},
}
