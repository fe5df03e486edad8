package rules

import (
	"fmt"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/rules/format"
)

// ToleranceTrap reports CPU targets the controller can never scale up from
// on a saturated metric.
var ToleranceTrap = &analyzer.Analyzer{
	Name:     "tolerance-trap",
	Severity: analyzer.Error,
	Doc:      doc("tolerance-trap"),
	URL:      analyzer.RulesReferenceURL + "#tolerance-trap",
	Run: func(pass *analyzer.Pass) error {
		for _, e := range evaluations(pass) {
			g := e.Growth
			if g == nil || !g.Trapped {
				continue
			}
			a := e.Autoscaler
			r := analyzer.FieldSpan(a.Object, metricField(a, g.Metric))
			gText, tolText := GrowthText(g)
			msg := fmt.Sprintf("CPU target %d%% with limit %s and request %s cores gives g = %s ≤ 1 + tolerance %s: on a saturated metric the controller never scales up",
				g.TargetPercent, format.Num(g.Limit, 3), format.Num(g.Request, 3), gText, tolText)
			var sev analyzer.Severity
			if len(g.Others) > 0 {
				// The HPA scales to the largest recommendation of its
				// metrics: another one may still ask for more pods.
				var names []string
				for _, o := range g.Others {
					names = append(names, metricLabel(a, o))
				}
				msg = fmt.Sprintf("CPU target %d%% with limit %s and request %s cores gives g = %s ≤ 1 + tolerance %s: on saturated pods this target never asks for more, so only %s can scale this workload up",
					g.TargetPercent, format.Num(g.Limit, 3), format.Num(g.Request, 3), gText, tolText, strings.Join(names, ", "))
				sev = analyzer.Warning
			}
			d := analyzer.Diagnostic{
				Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "metrics.cpu.target", Severity: sev,
				Message: msg,
				Facts: map[string]float64{"g": g.G, "tolerance": g.Tolerance, "limit": g.Limit, "request": g.Request,
					"target": float64(g.TargetPercent) / 100},
			}
			// Each fix satisfies the law and does what it says, or is not
			// offered (laws.EscapeTarget, laws.EscapeLimit).
			if g.FixTarget >= 1 && g.FixTarget < g.TargetPercent && g.Metric.Utilization.Set {
				d.SuggestedFixes = append(d.SuggestedFixes, analyzer.SuggestedFix{
					Message: fmt.Sprintf("Lower the target to %d%%", g.FixTarget),
					Edits:   []analyzer.TextEdit{replaceScalar(g.Metric.Utilization.At, fmt.Sprint(g.FixTarget))},
				})
			}
			if cs := e.Target.Pods.Counted(g.Metric.Container); g.FixLimit > g.Limit && len(cs) == 1 && cs[0].CPULimit.Set && cs[0].CPULimit.At.IsValid() {
				c := cs[0]
				value := fmt.Sprintf("%dm", int64(g.FixLimit*1000+0.5))
				d.SuggestedFixes = append(d.SuggestedFixes, analyzer.SuggestedFix{
					Message: fmt.Sprintf("Raise the CPU limit of %s to %s", c.Name, value),
					Edits:   []analyzer.TextEdit{replaceScalar(c.CPULimit.At, value)},
				})
				lr := analyzer.FieldSpan(e.Target.PodsObject, c.CPULimit.At)
				d.Related = append(d.Related, analyzer.Related{Pos: lr.Pos(), End: lr.End(), Message: "the CPU limit of " + c.Name})
			}
			pass.Report(d)
		}
		return nil
	},
}
