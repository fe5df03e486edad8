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
	Doc: analyzer.Doc{
		Title: "Replica ceiling above 80% of the scalability peak",
		What: "With the scalability peak N_max (`scalelint.dev/scalability-peak`), reports a ceiling M > 0.8·N_max " +
			"(KEDA's default of 100 counts when maxReplicaCount is unset).",
		Why: "Past its scalability peak each added pod lowers throughput (contention, coherence). An autoscaler " +
			"that can climb there reads the falling throughput as more load and climbs further, into the " +
			"retrograde region, and stays. The rule of thumb the seed adopts from \"The Governance Tax\" is a hard " +
			"ceiling at 80% of the worst-case peak (LAWS.md §4; seed \"The Barrier the Scaler Cannot Hold\", " +
			"\"The Belief: a Limit Removes a Risk\").\n\nWorked example: N_max = 18 → ceiling at most 14.",
		Example:    "metadata:\n  annotations:\n    scalelint.dev/scalability-peak: \"18\"\nspec:\n  maxReplicas: 20",
		UseInstead: "spec:\n  maxReplicas: 14",
		Fix:        "A fix lowers the ceiling to ⌊0.8·N_max⌋ when that stays above the amplified need (not marked safe).",
		References: []string{"LAWS.md §4", "seed: The Barrier the Scaler Cannot Hold, Corollary 6"},
	},
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
				Related: inputRelated(e.Inputs["scalability-peak"], "the scalability peak")}
			fix := math.Floor(c.Top + 1e-9)
			if fix >= 1 && (!c.HasFloor || fix > c.Floor) {
				if edit, ok := setField(a.Object, maxPath(a), format.Num(fix, 0)); ok {
					d.SuggestedFixes = []analyzer.SuggestedFix{{Message: fmt.Sprintf("Lower the ceiling to %s", format.Num(fix, 0)), Edits: []analyzer.TextEdit{edit}}}
				}
			}
			pass.Report(d)
		}
		return nil
	},
}
