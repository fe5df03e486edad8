package rules

import (
	"fmt"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
)

// ReplicasManagedByAutoscaler reports workloads that set spec.replicas
// while an autoscaler manages them.
var ReplicasManagedByAutoscaler = &analyzer.Analyzer{
	Name:     "replicas-managed-by-autoscaler",
	Severity: analyzer.Warning,
	Doc: analyzer.Doc{
		Title: "Workload sets spec.replicas while an autoscaler manages it",
		What:  "Reports `spec.replicas` on a workload that an HPA or ScaledObject among the inputs scales.",
		Why: "Every `kubectl apply` (and every GitOps sync) writes the manifest's count back, overriding the " +
			"autoscaler: a scaled-out service drops to the written count in the middle of the load that scaled it " +
			"out, until the next sync notices. The Kubernetes documentation recommends removing the field once an " +
			"HPA manages the workload.",
		Example: "kind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n---\nkind: HorizontalPodAutoscaler\nspec:\n" +
			"  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 3\n  maxReplicas: 30",
		UseInstead: "kind: Deployment\nmetadata:\n  name: web\nspec:\n  # replicas: managed by HorizontalPodAutoscaler web",
		Fix:        "A fix removes the `replicas` line (not marked safe: the first apply after it then starts at one pod until the autoscaler acts).",
		References: []string{
			"https://kubernetes.io/docs/tasks/run-application/horizontal-pod-autoscale/#migrating-deployments-and-statefulsets-to-horizontal-autoscaling",
			"kedacore/keda #5572 (Argo CD sync fights KEDA)",
		},
	},
	Run: func(pass *analyzer.Pass) error {
		ws := pass.Workspace
		done := map[*manifest.Object]bool{}
		for _, a := range ws.Autoscalers() {
			r := ws.Target(a)
			if r.Workload == nil || !r.Workload.Replicas.Set || done[r.Object] {
				continue
			}
			done[r.Object] = true
			w := r.Workload
			rng := analyzer.KeySpan(r.Object, w.Replicas.At)
			rel := analyzer.FieldSpan(a.Object, a.Object.NameAt)
			d := analyzer.Diagnostic{
				Pos: rng.Pos(), End: rng.End(), Object: r.Object, Field: "spec.replicas",
				Message: fmt.Sprintf("spec.replicas %g is managed by %s %q: every apply resets the autoscaler's count",
					w.Replicas.V, a.Object.Kind, a.Object.Name),
				Related: []analyzer.Related{{Pos: rel.Pos(), End: rel.End(), Message: fmt.Sprintf("%s %q scales this workload", a.Object.Kind, a.Object.Name)}},
			}
			if edit, ok := deleteLine(r.Object.File(), rng.Pos()); ok {
				d.SuggestedFixes = []analyzer.SuggestedFix{{Message: "Remove spec.replicas", Edits: []analyzer.TextEdit{edit}}}
			}
			pass.Report(d)
		}
		return nil
	},
}
