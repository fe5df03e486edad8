package rules

import (
	"go/token"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
)

// reportProblems reports the parse and decode problems of every file that
// belong to a rule, and returns where they start.
func reportProblems(pass *analyzer.Pass, rule string) map[token.Pos]bool {
	at := map[token.Pos]bool{}
	for _, f := range pass.Workspace.Files {
		for _, p := range f.Problems() {
			if p.Rule != rule {
				continue
			}
			at[p.Pos] = true
			d := analyzer.Diagnostic{Pos: p.Pos, End: p.End, Message: lowerFirst(p.Message), Object: p.Object}
			if p.Suggestion != "" {
				d.SuggestedFixes = []analyzer.SuggestedFix{{
					Message: "Replace with " + p.Suggestion,
					Edits:   []analyzer.TextEdit{{Pos: p.Pos, End: p.End, NewText: p.Suggestion}},
					Safe:    true,
				}}
			}
			pass.Report(d)
		}
	}
	return at
}

// lowerFirst lowercases a message's first letter, as messages are written
// (lowercase, no final period, as every scalelint message).
func lowerFirst(s string) string {
	s = strings.TrimSuffix(s, ".")
	if s == "" {
		return s
	}
	if len(s) > 1 && s[1] >= 'A' && s[1] <= 'Z' {
		return s // an acronym: YAML, HPA
	}
	return strings.ToLower(s[:1]) + s[1:]
}
