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
	Doc:      doc("scale-up-rounds"),
	URL:      analyzer.RulesReferenceURL + "#scale-up-rounds",
	Run: func(pass *analyzer.Pass) error {
		for _, e := range evaluations(pass) {
			g := e.Growth
			if g == nil || !g.HasOverload || g.Trapped {
				continue
			}
			a := e.Autoscaler
			r := analyzer.FieldSpan(a.Object, metricField(a, g.Metric))
			facts := map[string]float64{"g": g.G, "rounds": float64(g.Rounds), "overload": g.Overload}
			if g.HasDeadTime {
				facts["deadTime"] = g.DeadTime
			}
			gText, _ := GrowthText(g)
			msg := fmt.Sprintf("a %sx overload needs %d rounds at growth factor g = %s", format.Num(g.Overload, 2), g.Rounds, gText)
			if g.Rounds == 0 {
				msg = fmt.Sprintf("a %sx overload needs no round: the capacity held at this target covers it (g = %s)", format.Num(g.Overload, 2), gText)
			}
			var sev analyzer.Severity
			if g.HasDeadTime {
				facts["timeToCapacity"] = g.TimeToCapacity
				if g.Rounds > 0 {
					tau := format.Secs(g.DeadTime)
					if g.DeadTimeBounded {
						tau = "dead time " + InputText(e.Inputs["dead-time"], a.Object.File())
					}
					msg += fmt.Sprintf(": at least %d × (%s + %s) = %s to capacity", g.Rounds, tau, format.Secs(g.MetricWindow), format.Secs(g.TimeToCapacity))
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
				Severity: sev, Message: msg, Facts: facts, Related: inputRelated(e.Inputs["overload"], "the design overload"),
				Sources: factSources(e, "overload", "overload", "deadTime", "dead-time", "capacityDeadline", "capacity-deadline")})
		}
		return nil
	},
}
