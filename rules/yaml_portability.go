package rules

import "github.com/scalelint/scalelint/analyzer"

// YAMLPortability reports YAML that kubectl reads but other tools reject.
var YAMLPortability = &analyzer.Analyzer{
	Name:     "yaml-portability",
	Severity: analyzer.Warning,
	Doc: analyzer.Doc{
		Title: "YAML that kubectl accepts but other tools reject",
		What: "Reports a tab used as whitespace between tokens (after a colon, before a comment). YAML 1.2 allows it, " +
			"and so do kubectl's parser and scalelint's, but PyYAML-based tools do not.",
		Why: "The same repository is usually read by more than kubectl: pre-commit's check-yaml hook, yamllint, " +
			"Ansible's Kubernetes modules and many CI scripts use PyYAML, which stops at the tab with \"found " +
			"character '\\t' that cannot start any token\" and rejects the whole file.",
		Example:    "spec:\n  scaleTargetRef:\t\t# a tab before the comment\n    name: web",
		UseInstead: "spec:\n  scaleTargetRef:  # spaces before the comment\n    name: web",
		Fix:        "A safe fix replaces the tab with two spaces.",
		References: []string{"YAML 1.2 s-white (space or tab): https://yaml.org/spec/1.2.2/#white-space-characters", "PyYAML scanner: tabs cannot start a token"},
	},
	Run: func(pass *analyzer.Pass) error {
		for _, f := range pass.Workspace.Files {
			for _, p := range f.Problems() {
				if p.Rule != "yaml-portability" {
					continue
				}
				pass.Report(analyzer.Diagnostic{Pos: p.Pos, End: p.End, Message: p.Message,
					SuggestedFixes: []analyzer.SuggestedFix{{Message: "Replace the tab with spaces",
						Edits: []analyzer.TextEdit{{Pos: p.Pos, End: p.End, NewText: "  "}}, Safe: true}}})
			}
		}
		return nil
	},
}
