package rules

import (
	"fmt"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
)

// ConflictingAutoscalers reports two autoscalers on one workload.
var ConflictingAutoscalers = &analyzer.Analyzer{
	Name:     "conflicting-autoscalers",
	Severity: analyzer.Error,
	Doc:      doc("conflicting-autoscalers"),
	URL:      analyzer.RulesReferenceURL + "#conflicting-autoscalers",
	Run: func(pass *analyzer.Pass) error {
		ws := pass.Workspace
		byTarget := map[*manifest.Object][]*scaling.Autoscaler{}
		var order []*manifest.Object
		for _, a := range ws.Autoscalers().All() {
			t := ws.Target(a).Object
			if t == nil {
				continue
			}
			if len(byTarget[t]) == 0 {
				order = append(order, t)
			}
			byTarget[t] = append(byTarget[t], a)
		}
		identity := func(a *scaling.Autoscaler) string {
			ns := ws.Namespaces(a.Object)
			return a.Object.Kind + "/" + fmt.Sprint(ns) + "/" + a.Object.Name
		}
		for _, t := range order {
			as := byTarget[t]
			for i, a := range as {
				for j, b := range as {
					if i == j || identity(a) == identity(b) || !ws.DeployedTogether(a.Object, b.Object) {
						continue
					}
					ra, rb := analyzer.FieldSpan(a.Object, a.Target.NameAt), analyzer.FieldSpan(b.Object, b.Object.NameAt)
					rt := analyzer.FieldSpan(t, t.NameAt)
					pass.Report(analyzer.Diagnostic{
						Pos: ra.Pos(), End: ra.End(), Object: a.Object, Field: "spec.scaleTargetRef",
						Message: fmt.Sprintf("%s %q and %s %q both scale %s %q: their replica counts fight",
							a.Object.Kind, a.Object.Name, b.Object.Kind, b.Object.Name, t.Kind, t.Name),
						Related: []analyzer.Related{
							{Pos: rb.Pos(), End: rb.End(), Message: fmt.Sprintf("the other autoscaler, %s %q", b.Object.Kind, b.Object.Name)},
							{Pos: rt.Pos(), End: rt.End(), Message: fmt.Sprintf("the workload, %s %q", t.Kind, t.Name)},
						},
					})
				}
			}
		}
		return nil
	},
}
