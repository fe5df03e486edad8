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
	Doc:      doc("replicas-managed-by-autoscaler"),
	URL:      analyzer.RulesReferenceURL + "#replicas-managed-by-autoscaler",
	Run: func(pass *analyzer.Pass) error {
		ws := pass.Workspace
		done := map[*manifest.Object]bool{}
		for _, a := range ws.Autoscalers().All() {
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
			edit, ok := analyzer.TextEdit{}, false
			if l := w.ReplicasLine; l.OK && w.Replicas.At.Start() == rng.Pos() {
				// The line as deleteLine reads it, read when the view was
				// built.
				f := r.Object.File()
				edit, ok = analyzer.TextEdit{Pos: f.Tok.Pos(l.Start), End: f.Tok.Pos(l.End)}, true
			} else {
				edit, ok = deleteLine(r.Object.File(), rng.Pos())
			}
			if ok {
				d.SuggestedFixes = []analyzer.SuggestedFix{{Message: "Remove spec.replicas", Edits: []analyzer.TextEdit{edit}}}
			}
			pass.Report(d)
		}
		return nil
	},
}
