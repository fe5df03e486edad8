package rules

import (
	"fmt"

	"github.com/scalelint/scalelint/analyzer"
)

// DeprecatedTriggerParameter reports KEDA trigger parameters, and
// scalers, that KEDA deprecated or removed (scaling.DeprecatedParams),
// with what replaces them.
var DeprecatedTriggerParameter = &analyzer.Analyzer{
	Name:     "deprecated-trigger-parameter",
	Severity: analyzer.Warning,
	Doc:      doc("deprecated-trigger-parameter"),
	URL:      analyzer.RulesReferenceURL + "#deprecated-trigger-parameter",
	Local:    true,
	Run: func(pass *analyzer.Pass) error {
		for _, a := range pass.Workspace.Autoscalers().All() {
			for _, m := range a.Metrics {
				for _, u := range m.Deprecated {
					p := u.Param
					var msg string
					if p.Key == "" {
						msg = fmt.Sprintf("the %s scaler is %s; use %s", m.Type, p.Status, p.Replacement)
					} else {
						msg = fmt.Sprintf("%s trigger parameter %s is %s; use %s", m.Type, p.Key, p.Status, p.Replacement)
					}
					r := analyzer.KeySpan(a.Object, u.At)
					pass.Report(analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object,
						Field: triggerField(m.Index, p.Key), Message: msg})
				}
			}
		}
		return nil
	},
}

// triggerField is the field path of a trigger's metadata key, or of its
// type when key is "".
func triggerField(i int, key string) string {
	if key == "" {
		return fmt.Sprintf("spec.triggers[%d].type", i)
	}
	return fmt.Sprintf("spec.triggers[%d].metadata.%s", i, key)
}
