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
	Doc: analyzer.Doc{
		Title: "Malformed or unknown scalelint.dev annotation",
		What: "Reports a `scalelint.dev/*` annotation on an autoscaler or its target whose value does not parse " +
			"(durations such as `90s`, `1m30s`, `1.5m` or a bare number of seconds; positive numbers; retry lists " +
			"such as `2,2`), and an unknown `scalelint.dev/` key, with the nearest known key.",
		Why: "The annotations carry what no manifest says (dead time, pod rate, timeouts, retries). A typo such as " +
			"`scalelint.dev/deadtime` is silently ignored otherwise, and every law that needs it stays silent while " +
			"the author believes it was checked.",
		Example:    "metadata:\n  annotations:\n    scalelint.dev/deadtime: \"90s\"\n    scalelint.dev/pod-rate: \"fast\"",
		UseInstead: "metadata:\n  annotations:\n    scalelint.dev/dead-time: \"90s\"\n    scalelint.dev/pod-rate: \"10\"",
		Fix:        "A safe fix renames an unknown key to the known key it is closest to.",
		References: []string{"LAWS.md, \"Quantities and where they come from\""},
	},
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
		for _, a := range ws.Autoscalers() {
			if !seen[a.Object] {
				seen[a.Object] = true
				report(a.Problems)
			}
		}
		for _, o := range ws.Objects() {
			if w := ws.Workload(o); w != nil && !seen[o] {
				seen[o] = true
				report(w.Problems)
			}
		}
		return nil
	},
}
