package rules

import "github.com/scalelint/scalelint/analyzer"

// YAMLSyntax reports documents the YAML parser rejects.
var YAMLSyntax = &analyzer.Analyzer{
	Name:     "yaml-syntax",
	Severity: analyzer.Error,
	Doc: analyzer.Doc{
		Title: "YAML that does not parse",
		What: "Reports a document the YAML parser rejects, with the parser's message at the line it names, and " +
			"files that are not text (NUL bytes, UTF-16). The rest of the file is still linted.",
		Why: "kubectl and the API server reject the whole file, so nothing in it is deployed; and no other rule can " +
			"read the document, so its autoscalers are not checked at all.",
		Example:    "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n\tname: web   # a tab cannot indent YAML",
		UseInstead: "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web",
		Fix:        "None: the parser's message says what to change.",
		References: []string{"YAML 1.2 specification: https://yaml.org/spec/1.2.2/"},
	},
	Run: func(pass *analyzer.Pass) error {
		reportProblems(pass, "yaml-syntax")
		return nil
	},
}
