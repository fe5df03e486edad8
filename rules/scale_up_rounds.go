package rules

import (
	"fmt"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/rules/format"
)

// ScaleUpRounds reports how many controller rounds a design overload needs.
var ScaleUpRounds = &analyzer.Analyzer{
	Name:     "scale-up-rounds",
	Severity: analyzer.Info,
	Doc: analyzer.Doc{
		Title: "Rounds and time a CPU target needs to meet the design overload",
		What: "With a design overload k (`scalelint.dev/overload`, or a configured default), computes the rounds a " +
			"CPU utilization target needs, n = ⌈log_g(k·u*·r/ℓ)⌉ (0 when the capacity held already covers it), and " +
			"with a dead time τ the least time to capacity n·(τ + m), m the metric window (default 30 s). Reports " +
			"it as information, and as a warning when it exceeds `scalelint.dev/capacity-deadline`.",
		Why: "A saturated CPU metric tells the controller only that pods are busy, not how much load is waiting, so " +
			"each round multiplies the ready pods by at most g and then waits a dead time for them. The time to " +
			"meet an overload grows with its logarithm, and at the API's default target of 80% (g = 1.25 with " +
			"limit = request) a thirtyfold overload needs fifteen rounds (LAWS.md §1; seed \"The Barrier the " +
			"Scaler Cannot Hold\": \"fifteen rounds for a thirtyfold overload at the API's default target\"; " +
			"\"A tenfold step needs three of them\" at 50%).\n\nWorked example: u* = 0.8, ℓ = r, k = 30: " +
			"g = 1.25, n = ⌈log_1.25 24⌉ = 15 rounds; with τ = 90 s, 15 × 120 s = 1,800 s to capacity.",
		Example:    "metadata:\n  annotations:\n    scalelint.dev/overload: \"30\"\n    scalelint.dev/dead-time: \"90s\"\n    scalelint.dev/capacity-deadline: \"10m\"\nspec:\n  metrics:\n  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}",
		UseInstead: "  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}   # g = 2: 5 rounds, 600 s",
		Fix:        "None: lower the target, raise the limit, shorten the dead time, or scale on a signal that does not saturate.",
		References: []string{"LAWS.md §1", "seed: The Barrier the Scaler Cannot Hold, \"The Dashboard, Read Again\""},
	},
	Run: func(pass *analyzer.Pass) error {
		for _, e := range evaluations(pass) {
			g := e.Growth
			if g == nil || !g.HasOverload || g.Trapped {
				continue
			}
			a := e.Autoscaler
			r := analyzer.FieldSpan(a.Object, metricField(a, g.Metric))
			facts := map[string]float64{"g": g.G, "rounds": float64(g.Rounds), "overload": g.Overload}
			msg := fmt.Sprintf("a %sx overload needs %d rounds at growth factor g = %s", format.Num(g.Overload, 2), g.Rounds, format.Num(g.G, 4))
			if g.Rounds == 0 {
				msg = fmt.Sprintf("a %sx overload needs no round: the capacity held at this target covers it (g = %s)", format.Num(g.Overload, 2), format.Num(g.G, 4))
			}
			var sev analyzer.Severity
			if g.HasDeadTime {
				facts["timeToCapacity"] = g.TimeToCapacity
				if g.Rounds > 0 {
					msg += fmt.Sprintf(": at least %d × (%s + %s) = %s to capacity", g.Rounds, format.Secs(g.DeadTime), format.Secs(g.MetricWindow), format.Secs(g.TimeToCapacity))
				}
				if g.HasDeadline {
					facts["capacityDeadline"] = g.Deadline
					if g.TimeToCapacity > g.Deadline {
						msg += fmt.Sprintf(", past the capacity deadline of %s", format.Secs(g.Deadline))
						sev = analyzer.Warning
					}
				}
			}
			pass.Report(analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "metrics.cpu.target",
				Severity: sev, Message: msg, Facts: facts, Related: inputRelated(e.Inputs["overload"], "the design overload")})
		}
		return nil
	},
}
