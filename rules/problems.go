package rules

import (
	"go/token"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// reportProblems reports the parse and decode problems of every file that
// belong to a rule, and returns where they start.
func reportProblems(pass *analyzer.Pass, rule string) map[token.Pos]bool {
	at := map[token.Pos]bool{}
	for _, f := range pass.Workspace.Files().All() {
		for _, p := range problemsOf(pass, f) {
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

// problemsOf returns the problems of a file the per-file reading reports:
// none of a chart's files, and of a kustomization's resource or patch only
// those of its text (its objects' are reported through the build), as of
// an end-to-end test's assertion (partial objects: TestAssertion).
func problemsOf(pass *analyzer.Pass, f *manifest.File) []manifest.Problem {
	rendering := pass.Workspace.Rendering(f)
	if pass.Workspace.TestAssertion(f) != "" && rendering == workspace.NotRendered {
		rendering = workspace.RenderedYAML // a test's assertion: its text's problems only
	}
	switch rendering {
	case workspace.RenderedChart:
		return nil
	case workspace.RenderedYAML:
		var out []manifest.Problem
		for _, p := range f.Problems() {
			if p.Object == nil {
				out = append(out, p)
			}
		}
		return out
	}
	return f.Problems()
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
