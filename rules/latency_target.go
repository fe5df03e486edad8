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
	Doc: analyzer.Doc{
		Title: "Promised latency below the floor of the backlog loop",
		What: "For a backlog-scaled consumer with a promised latency ℓ_acc (`scalelint.dev/latency-target`), " +
			"compares it with the standing delay the loop needs to rest, τ_eff·Φ(W_eff/τ_eff), and reports the " +
			"annotation when the promise is lower.",
		Why: "Sizing the threshold from the latency the team accepts (AWS's rule: acceptable latency over time per " +
			"message) makes the standing delay equal to it. Below the floor the loop cannot rest at that threshold: " +
			"either it hunts, or the threshold must carry more delay than promised. Any promise of at least " +
			"e·τ_eff is safe for every window (LAWS.md §2; seed \"The Delay a Window Demands\", Corollary 3).\n\n" +
			"Worked example: a consumer whose pods start in 60 s, under a 2-minute window, needs about 52.6 s " +
			"(τ_eff = 70 s, w = 1.86): a promise of one minute holds, thirty seconds cannot, at that window; a " +
			"one-minute window still needs 41 s. Only a shorter dead time can promise thirty seconds.",
		Example: "metadata:\n  annotations:\n    scalelint.dev/dead-time: \"60s\"\n    scalelint.dev/latency-target: \"30s\"\n" +
			"spec:\n  advanced:\n    horizontalPodAutoscalerConfig:\n      behavior:\n        scaleDown: {stabilizationWindowSeconds: 120}",
		UseInstead: "metadata:\n  annotations:\n    scalelint.dev/dead-time: \"60s\"\n    scalelint.dev/latency-target: \"1m\"",
		Fix:        "None: raise the promise, shorten the window, or shorten the dead time.",
		References: []string{"LAWS.md §2, \"Latency target (Corollary 3)\"", "seed: The Delay a Window Demands, Corollary 3",
			"AWS: Scaling policy based on Amazon SQS (backlog per instance)"},
	},
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
