package rules

import "github.com/scalelint/scalelint/analyzer"

// InvalidField reports typed-decode errors at the offending field.
var InvalidField = &analyzer.Analyzer{
	Name:     "invalid-field",
	Severity: analyzer.Error,
	Doc:      doc("invalid-field"),
	URL:      analyzer.RulesReferenceURL + "#invalid-field",
	Run: func(pass *analyzer.Pass) error {
		reportProblems(pass, "invalid-field")
		return nil
	},
}
