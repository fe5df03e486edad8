package rules

import (
	"fmt"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/rules/format"
)

// ToleranceTrap reports CPU targets the controller can never scale up from
// on a saturated metric.
var ToleranceTrap = &analyzer.Analyzer{
	Name:     "tolerance-trap",
	Severity: analyzer.Error,
	Doc: analyzer.Doc{
		Title: "CPU target the controller never scales up from",
		What: "Computes the growth factor g = ℓ/(r·u*) of a CPU utilization target: the CPU limit over the request, " +
			"summed over the containers the HPA counts, over the target, with utilization truncated to a whole " +
			"percent as the controller does. Reports the target when g ≤ 1 + tolerance (the scale-up tolerance, " +
			"`behavior.scaleUp.tolerance`, default 0.1). Applies to HPA Resource and ContainerResource metrics " +
			"and KEDA cpu triggers. A counted container without a CPU limit makes g unbounded: no finding.",
		Why: "On a saturated metric every ready pod reads at most ℓ/r of its request, so the usage ratio the " +
			"controller sees is at most g. If that ratio sits inside the tolerance band (the test is inclusive), " +
			"the controller holds the replica count however large the overload: the service stays saturated. " +
			"With limit = request and the default tolerance, every target of 91% or more is trapped: " +
			"100/91 = 1.0989 ≤ 1.1 (LAWS.md §1; seed \"The Barrier the Scaler Cannot Hold\", \"What to " +
			"Compute\": \"If g is at most 1 plus the tolerance, the controller will not scale on a saturated " +
			"metric at all\").\n\nWorked example: limit 1 core, request 1 core, target 95% → g = 100/95 = 1.053 ≤ 1.1: trapped. " +
			"At 90%, g = 1.111: it scales, by at most 11% per round.",
		Example: "# Deployment: resources: {requests: {cpu: \"1\"}, limits: {cpu: \"1\"}}\n" +
			"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nspec:\n  metrics:\n  - type: Resource\n    resource:\n" +
			"      name: cpu\n      target: {type: Utilization, averageUtilization: 95}",
		UseInstead: "      target: {type: Utilization, averageUtilization: 50}   # g = 2: doubles per round\n" +
			"# or raise the limit: limits: {cpu: \"2\"} makes g = 200/95 = 2.1",
		Fix: "Two fixes: lower the target to the largest that escapes the trap, or (with one counted container) " +
			"raise its CPU limit to the smallest that does. Neither is marked safe: both change capacity.",
		References: []string{
			"LAWS.md §1",
			"kubernetes pkg/controller/podautoscaler/replica_calculator.go (GetResourceReplicas, tolerance band)",
			"seed: The Barrier the Scaler Cannot Hold, \"What to Compute\"",
		},
	},
	Run: func(pass *analyzer.Pass) error {
		for _, e := range evaluations(pass) {
			g := e.Growth
			if g == nil || !g.Trapped {
				continue
			}
			a := e.Autoscaler
			r := analyzer.FieldSpan(a.Object, metricField(a, g.Metric))
			d := analyzer.Diagnostic{
				Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "metrics.cpu.target",
				Message: fmt.Sprintf("CPU target %d%% with limit %s and request %s cores gives g = %s ≤ 1 + tolerance %s: on a saturated metric the controller never scales up",
					g.TargetPercent, format.Num(g.Limit, 3), format.Num(g.Request, 3), format.Num(g.G, 4), format.Num(g.Tolerance, 3)),
				Facts: map[string]float64{"g": g.G, "tolerance": g.Tolerance, "limit": g.Limit, "request": g.Request,
					"target": float64(g.TargetPercent) / 100},
			}
			if g.FixTarget >= 1 && g.Metric.Utilization.Set {
				d.SuggestedFixes = append(d.SuggestedFixes, analyzer.SuggestedFix{
					Message: fmt.Sprintf("Lower the target to %d%%", g.FixTarget),
					Edits:   []analyzer.TextEdit{replaceScalar(g.Metric.Utilization.At, fmt.Sprint(g.FixTarget))},
				})
			}
			if cs := e.Target.Workload.Counted(g.Metric.Container); len(cs) == 1 && cs[0].CPULimit.Set && cs[0].CPULimit.At.IsValid() {
				c := cs[0]
				value := fmt.Sprintf("%dm", int64(g.FixLimit*1000+0.5))
				d.SuggestedFixes = append(d.SuggestedFixes, analyzer.SuggestedFix{
					Message: fmt.Sprintf("Raise the CPU limit of %s to %s", c.Name, value),
					Edits:   []analyzer.TextEdit{replaceScalar(c.CPULimit.At, value)},
				})
				lr := analyzer.FieldSpan(e.Target.Object, c.CPULimit.At)
				d.Related = append(d.Related, analyzer.Related{Pos: lr.Pos(), End: lr.End(), Message: "the CPU limit of " + c.Name})
			}
			pass.Report(d)
		}
		return nil
	},
}
