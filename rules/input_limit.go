package rules

import "github.com/scalelint/scalelint/analyzer"

// InputLimit reports input refused because it exceeds a safety limit.
var InputLimit = &analyzer.Analyzer{
	Name:     "input-limit",
	Severity: analyzer.Error,
	Doc:      doc("input-limit"),
	URL:      analyzer.RulesReferenceURL + "#input-limit",
	Local:    true,
	Run: func(pass *analyzer.Pass) error {
		reportProblems(pass, "input-limit")
		return nil
	},
}
