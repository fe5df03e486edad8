package rules

import "github.com/scalelint/scalelint/analyzer"

// TemplateFile reports Helm/Go template files, which are not YAML.
var TemplateFile = &analyzer.Analyzer{
	Name:     "template-file",
	Severity: analyzer.Info,
	Doc:      doc("template-file"),
	URL:      analyzer.RulesReferenceURL + "#template-file",
	Run: func(pass *analyzer.Pass) error {
		reportProblems(pass, "template-file")
		return nil
	},
}
