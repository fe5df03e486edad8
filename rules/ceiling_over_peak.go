package rules

import (
	"fmt"
	"math"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/rules/format"
)

// CeilingOverPeak reports ceilings above 80% of the scalability peak.
var CeilingOverPeak = &analyzer.Analyzer{
	Name:     "ceiling-over-peak",
	Severity: analyzer.Warning,
	Doc:      doc("ceiling-over-peak"),
	URL:      analyzer.RulesReferenceURL + "#ceiling-over-peak",
	Run: func(pass *analyzer.Pass) error {
		for _, e := range evaluations(pass) {
			c := e.Ceiling
			if c == nil || !c.HasTop || !c.OverPeak {
				continue
			}
			a := e.Autoscaler
			r := ceilingRange(a)
			d := analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "spec.maxReplicas",
				Message: fmt.Sprintf("ceiling %s is above 0.8 × scalability peak %s = %s: the autoscaler may climb past the peak, where each pod lowers throughput",
					format.Num(c.Ceiling, 0), format.Num(c.Top/0.8, 2), format.Num(c.Top, 2)),
				Facts:   map[string]float64{"ceiling": c.Ceiling, "ceilingTop": c.Top},
				Sources: factSources(e, "scalabilityPeak", "scalability-peak"),
				Related: inputRelated(e.Inputs["scalability-peak"], "the scalability peak")}
			fix := math.Floor(c.Top + 1e-9)
			// Not into the trap: above the amplified need (a least one when
			// A is a lower bound, so then no fix is offered).
			if fix >= 1 && (!c.HasFloor || (fix > c.Floor && !c.Bounded)) {
				if edit, ok := setField(a.Object, maxPath(a), format.Plain(fix, 0)); ok {
					d.SuggestedFixes = []analyzer.SuggestedFix{{Message: fmt.Sprintf("Lower the ceiling to %s", format.Plain(fix, 0)), Edits: []analyzer.TextEdit{edit}}}
				}
			}
			pass.Report(d)
		}
		return nil
	},
}
