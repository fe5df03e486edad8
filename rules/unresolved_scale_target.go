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
	Doc:      doc("unresolved-scale-target"),
	URL:      analyzer.RulesReferenceURL + "#unresolved-scale-target",
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
