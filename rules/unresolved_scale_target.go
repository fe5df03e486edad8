package rules

import (
	"fmt"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/scaling"
)

// UnresolvedScaleTarget reports autoscalers whose target is not among the
// inputs.
var UnresolvedScaleTarget = &analyzer.Analyzer{
	Name:     "unresolved-scale-target",
	Severity: analyzer.Info,
	Doc: analyzer.Doc{
		Title: "Scale target not among the inputs",
		What: "Reports an HPA or ScaledObject whose `scaleTargetRef` names no object among the files checked (matched " +
			"on group, kind, namespace and name), or names none at all.",
		Why: "The target may well live elsewhere (another repository, a chart rendered separately), so this is " +
			"information, not an error. But every check that needs the target's pods (CPU requests and limits, " +
			"replicas, conflicts) is skipped for this autoscaler, and a misspelled name is a real bug: the HPA " +
			"reports `FailedGetScale` and never scales.",
		Example:    "spec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: web-frontnd   # no such Deployment",
		UseInstead: "spec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: web-frontend",
		Fix: "None. Lint the target together with the autoscaler (`scalelint check dir/`), or fix the name. KEDA " +
			"defaults a missing apiVersion and kind to apps/v1 Deployment.",
		References: []string{"kube-score #332: false alarms when the target is in another file"},
	},
	Run: func(pass *analyzer.Pass) error {
		ws := pass.Workspace
		for _, a := range ws.Autoscalers() {
			if a.Kind == scaling.ScaledJob {
				continue
			}
			t := a.Target
			r := analyzer.FieldSpan(a.Object, t.NameAt)
			if t.Name == "" {
				pass.Report(analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "spec.scaleTargetRef.name",
					Message: "scaleTargetRef names no target: set scaleTargetRef.name"})
				continue
			}
			if ws.Target(a).Object != nil {
				continue
			}
			pass.Report(analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "spec.scaleTargetRef.name",
				Message: fmt.Sprintf("scale target %s %q (%s) is not among the inputs; checks that need its pods are skipped",
					t.Kind, t.Name, t.APIVersion)})
		}
		return nil
	},
}
