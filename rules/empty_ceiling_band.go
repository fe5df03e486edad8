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
	Doc: analyzer.Doc{
		Title: "No safe replica ceiling exists",
		What: "With the amplified need M* = A·λ/c and the scalability peak N_max (`scalelint.dev/scalability-peak`, " +
			"the pod count past which throughput falls), reports the ceiling when M* ≥ 0.8·N_max: the band of safe " +
			"ceilings, M* < M ≤ 0.8·N_max, is empty.",
		Why: "A ceiling must sit above the amplified need (or the service stays failed after a trigger) and below " +
			"80% of the scalability peak (or the autoscaler climbs into the region where each pod lowers " +
			"throughput). When retries raise the need past the peak's bound, every ceiling fails one way or the " +
			"other: the ceiling is not the lever; lower A or bound the queue (LAWS.md §4; seed \"The Barrier the " +
			"Scaler Cannot Hold\", Corollary 6).\n\nWorked example: N_max = 18 gives a top of 14.4; a service needing " +
			"5 pods with two retries has M* = 15 > 14.4: empty. With A = 9, a service needing only 2 pods closes it.",
		Example: "metadata:\n  annotations:\n    scalelint.dev/retries: \"2\"\n    scalelint.dev/demand: \"50\"\n    scalelint.dev/pod-rate: \"10\"\n" +
			"    scalelint.dev/scalability-peak: \"18\"\nspec:\n  maxReplicas: 14",
		UseInstead: "metadata:\n  annotations:\n    scalelint.dev/retries: \"2\"\n    scalelint.dev/client-timeout: \"10s\"\n" +
			"    scalelint.dev/admission-bound: \"5s\"   # no debt: the ceiling only needs the need itself\n",
		Fix:        "None: lower the amplification (retry budgets, fewer layers retrying) or bound the queue below the client timeout.",
		References: []string{"LAWS.md §4", "seed: The Barrier the Scaler Cannot Hold, Corollary 6"},
	},
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
