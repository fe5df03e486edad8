package rules

import (
	"fmt"
	"math"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/rules/format"
)

// CeilingTrap reports replica ceilings at or below the amplified need.
var CeilingTrap = &analyzer.Analyzer{
	Name:     "ceiling-trap",
	Severity: analyzer.Error,
	Doc: analyzer.Doc{
		Title: "Replica ceiling at or below the amplified need",
		What: "With the retry amplification A, the design demand λ (`scalelint.dev/demand`) and the pod rate c, " +
			"computes the amplified need M* = A·λ/c and reports the ceiling M (`maxReplicas`, or KEDA's " +
			"`maxReplicaCount`, 100 when unset) when M ≤ M*.",
		Why: "After a trigger the service must serve the amplified load A·λ to drain its retry debt. At a ceiling " +
			"at or below it, utilization at the ceiling stays at A·λ/(c·M) ≥ 1: the service stays failed whatever " +
			"its signal. Above it the debt drains at c·(M − M*), so recovery time falls as 1/(M − M*) (LAWS.md §4; " +
			"seed \"The Barrier the Scaler Cannot Hold\", Proposition 11: with M* = 15, ceilings of 14 and 15 never " +
			"recover, 16 takes 40,293 s, 20 takes 7,921 s, 40 takes 1,530 s).\n\nWorked example: two retries (A = 3), " +
			"demand 2,000 req/s, 10 req/s per pod: M* = 600 pods. A ScaledObject without maxReplicaCount has KEDA's " +
			"ceiling of 100: trapped.",
		Example: "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata:\n  annotations:\n    scalelint.dev/retries: \"2\"\n" +
			"    scalelint.dev/demand: \"2000\"\n    scalelint.dev/pod-rate: \"10\"\nspec:\n  scaleTargetRef: {name: api}\n  # no maxReplicaCount: KEDA's default of 100",
		UseInstead: "spec:\n  maxReplicaCount: 700   # above A·λ/c = 600",
		Fix:        "A fix raises the ceiling to the smallest above M* (not marked safe: check it stays below the scalability peak, see empty-ceiling-band).",
		References: []string{"LAWS.md §4", "seed: The Barrier the Scaler Cannot Hold, Proposition 11 and Corollary 6"},
	},
	Run: func(pass *analyzer.Pass) error {
		for _, e := range evaluations(pass) {
			c := e.Ceiling
			if c == nil || !c.HasFloor || !c.Trapped {
				continue
			}
			a := e.Autoscaler
			r := ceilingRange(a)
			ceil := format.Num(c.Ceiling, 0)
			if !a.Max.Set {
				ceil += " (KEDA's default)"
			}
			fix := math.Floor(c.Floor) + 1
			d := analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "spec.maxReplicas",
				Message: fmt.Sprintf("ceiling %s is at or below the amplified need A·λ/c = %s pods (A = %s, demand %s, pod rate %s): after a trigger this service stays failed; above it, recovery time falls as 1/(M − %s)",
					ceil, format.Num(c.Floor, 2), format.Num(c.Amplification, 3), format.Num(c.Demand, 3), format.Num(c.PodRate, 3), format.Num(c.Floor, 2)),
				Facts: map[string]float64{"ceiling": c.Ceiling, "ceilingFloor": c.Floor, "amplification": c.Amplification, "demand": c.Demand, "podRate": c.PodRate},
			}
			if !c.HasTop || fix <= c.Top {
				if edit, ok := setField(a.Object, maxPath(a), format.Num(fix, 0)); ok {
					d.SuggestedFixes = []analyzer.SuggestedFix{{Message: fmt.Sprintf("Raise the ceiling to %s", format.Num(fix, 0)), Edits: []analyzer.TextEdit{edit}}}
				}
			}
			pass.Report(d)
		}
		return nil
	},
}

// maxPath is the field path of the replica ceiling.
func maxPath(a *scaling.Autoscaler) manifest.Path {
	if a.Kind == scaling.HPA {
		return manifest.ParsePath("spec.maxReplicas")
	}
	return manifest.ParsePath("spec.maxReplicaCount")
}

// ceilingRange is where a ceiling finding goes: the maxReplicas value, or
// the spec key when KEDA's default applies.
func ceilingRange(a *scaling.Autoscaler) analyzer.Span {
	f := a.Max.At
	if !a.Max.Set {
		if spec, ok := a.Object.FieldAt(manifest.ParsePath("spec")); ok {
			f = manifest.Field{Pos: spec.KeyPos, End: spec.KeyEnd}
		}
	}
	return analyzer.FieldSpan(a.Object, f)
}
