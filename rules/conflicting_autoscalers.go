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
	Doc: analyzer.Doc{
		Title: "Two autoscalers scale the same workload",
		What: "Reports two different autoscalers (HPAs or ScaledObjects; a ScaledObject creates an HPA of its own) " +
			"whose scale targets resolve to the same workload, with related information pointing at the other one. " +
			"Definitions of one autoscaler in several places (a kustomize base and its overlays, per-environment " +
			"folders) are variants, not a conflict; autoscalers in kustomizations that share no root are not deployed " +
			"together and are not reported.",
		Why: "Each autoscaler writes the workload's replica count from its own metric every sync, so the count " +
			"flips between their answers; neither law holds. KEDA's admission webhook refuses a ScaledObject on a " +
			"workload an HPA already manages, but two plain HPAs are accepted silently.",
		Example: "# backend/hpa.yaml\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: backend\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: backend}\n---\n" +
			"# frontend/hpa.yaml\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: frontend\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: backend}   # copied, not renamed",
		UseInstead: "# frontend/hpa.yaml\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: frontend}",
		Fix:        "None: decide which autoscaler owns the workload, or point the copy at its own workload.",
		References: []string{"KEDA webhook verifyHpas (apis/keda/v1alpha1/scaledobject_webhook.go)"},
	},
	Run: func(pass *analyzer.Pass) error {
		ws := pass.Workspace
		byTarget := map[*manifest.Object][]*scaling.Autoscaler{}
		var order []*manifest.Object
		for _, a := range ws.Autoscalers() {
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
