package rules

import "github.com/scalelint/scalelint/analyzer"

// InvalidField reports typed-decode errors at the offending field.
var InvalidField = &analyzer.Analyzer{
	Name:     "invalid-field",
	Severity: analyzer.Error,
	Doc:      doc("invalid-field"),
	URL:      analyzer.RulesReferenceURL + "#invalid-field",
	Local:    true,
	Run: func(pass *analyzer.Pass) error {
		decoded := reportProblems(pass, "invalid-field")
		// Values the decode accepts and KEDA does not: a trigger threshold
		// its scaler cannot read, or that makes the HPA it creates invalid
		// (once per field: the decode may have refused it already).
		for _, a := range pass.Workspace.Autoscalers().All() {
			for _, p := range a.FieldProblems {
				if !decoded[p.Pos] {
					pass.Report(analyzer.Diagnostic{Pos: p.Pos, End: p.End, Message: p.Message, Object: p.Object})
				}
			}
		}
		return nil
	},
}
