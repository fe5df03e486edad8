package rules

import "github.com/scalelint/scalelint/analyzer"

// YAMLSyntax reports documents the YAML parser rejects.
var YAMLSyntax = &analyzer.Analyzer{
	Name:     "yaml-syntax",
	Severity: analyzer.Error,
	Doc:      doc("yaml-syntax"),
	URL:      analyzer.RulesReferenceURL + "#yaml-syntax",
	Local:    true,
	Run: func(pass *analyzer.Pass) error {
		reportProblems(pass, "yaml-syntax")
		return nil
	},
}
