package rules

import (
	"fmt"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
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
			var sev analyzer.Severity
			if c.Bounded {
				sev = analyzer.Warning // an inferred A counts the requests through the routes read
			}
			pass.Report(analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "spec.maxReplicas", Severity: sev,
				Message: fmt.Sprintf("no ceiling is safe: the amplified need A·λ/c %s %s pods%s is at or above 0.8 × scalability peak %s = %s; lower the retry amplification or bound the queue instead%s",
					relation(c.Bounded, "≥"), format.Num(c.Floor, 2), boundedA(e, c, a.Object.File()), format.Num(c.Top/0.8, 2), format.Num(c.Top, 2), throughRoutes(c.Bounded)),
				Facts: map[string]float64{"ceiling": c.Ceiling, "ceilingFloor": c.Floor, "ceilingTop": c.Top},
				Sources: factSources(e, "amplification", amplificationInput(e), "demand", "demand", "podRate", "pod-rate",
					"scalabilityPeak", "scalability-peak"),
				Related: inputRelated(e.Inputs["scalability-peak"], "the scalability peak")})
		}
		return nil
	},
}

// boundedA says where a lower bound on A came from: " (A ≥ 4 (...))", or
// "" when A is stated.
func boundedA(e *Evaluation, c *CeilingEval, file *manifest.File) string {
	if !c.Bounded {
		return ""
	}
	return " (A " + amplificationText(e, c.Amplification, file) + ")"
}
