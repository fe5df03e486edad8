package rules

import "github.com/scalelint/scalelint/analyzer"

// YAMLPortability reports YAML that kubectl reads but other tools reject.
var YAMLPortability = &analyzer.Analyzer{
	Name:     "yaml-portability",
	Severity: analyzer.Warning,
	Doc:      doc("yaml-portability"),
	URL:      analyzer.RulesReferenceURL + "#yaml-portability",
	Local:    true,
	Run: func(pass *analyzer.Pass) error {
		for _, f := range pass.Workspace.Files().All() {
			for _, p := range problemsOf(pass, f) {
				if p.Rule != "yaml-portability" {
					continue
				}
				// The problem spans the blanks around the tabs; the fix
				// writes them with two spaces a tab.
				pass.Report(analyzer.Diagnostic{Pos: p.Pos, End: p.End, Message: p.Message,
					SuggestedFixes: []analyzer.SuggestedFix{{Message: "Replace the tabs with spaces",
						Edits: []analyzer.TextEdit{{Pos: p.Pos, End: p.End, NewText: p.Suggestion}}, Safe: true}}})
			}
		}
		return nil
	},
}
