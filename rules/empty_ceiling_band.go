package rules

import (
	"fmt"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/rules/format"
)

// EmptyCeilingBand reports autoscalers for which no ceiling is safe.
var EmptyCeilingBand = &analyzer.Analyzer{
	Name:     "empty-ceiling-band",
	Severity: analyzer.Error,
	Doc:      doc("empty-ceiling-band"),
	URL:      analyzer.RulesReferenceURL + "#empty-ceiling-band",
	Run: func(pass *analyzer.Pass) error {
		for _, e := range evaluations(pass) {
			c := e.Ceiling
			if c == nil || !c.HasFloor || !c.HasTop || !c.BandEmpty {
				continue
			}
			a := e.Autoscaler
			r := ceilingRange(a)
			pass.Report(analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "spec.maxReplicas",
				Message: fmt.Sprintf("no ceiling is safe: the amplified need A·λ/c = %s pods is at or above 0.8 × scalability peak %s = %s; lower the retry amplification or bound the queue instead",
					format.Num(c.Floor, 2), format.Num(c.Top/0.8, 2), format.Num(c.Top, 2)),
				Facts:   map[string]float64{"ceiling": c.Ceiling, "ceilingFloor": c.Floor, "ceilingTop": c.Top},
				Related: inputRelated(e.Inputs["scalability-peak"], "the scalability peak")})
		}
		return nil
	},
}
