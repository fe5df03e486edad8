package rules

import (
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
)

// InvalidAnnotation reports malformed and unknown scalelint.dev annotations.
var InvalidAnnotation = &analyzer.Analyzer{
	Name:     "invalid-annotation",
	Severity: analyzer.Error,
	Doc:      doc("invalid-annotation"),
	URL:      analyzer.RulesReferenceURL + "#invalid-annotation",
	Local:    true,
	Run: func(pass *analyzer.Pass) error {
		ws := pass.Workspace
		seen := map[*manifest.Object]bool{}
		report := func(ps []manifest.Problem) {
			for _, p := range ps {
				d := analyzer.Diagnostic{Pos: p.Pos, End: p.End, Message: p.Message, Object: p.Object}
				if p.Suggestion != "" {
					d.SuggestedFixes = []analyzer.SuggestedFix{{
						Message: "Rename to " + p.Suggestion,
						Edits:   []analyzer.TextEdit{{Pos: p.Pos, End: p.End, NewText: p.Suggestion}},
						Safe:    true,
					}}
				}
				d.Message = strings.TrimSuffix(d.Message, ".")
				pass.Report(d)
			}
		}
		for _, a := range ws.Autoscalers().All() {
			if !seen[a.Object] {
				seen[a.Object] = true
				report(a.Problems)
			}
		}
		for _, o := range ws.Objects().All() {
			if w := ws.Workload(o); w != nil && !seen[o] {
				seen[o] = true
				report(w.Problems)
			}
		}
		return nil
	},
}
