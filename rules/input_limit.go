package rules

import "github.com/scalelint/scalelint/analyzer"

// InputLimit reports input refused because it exceeds a safety limit.
var InputLimit = &analyzer.Analyzer{
	Name:     "input-limit",
	Severity: analyzer.Error,
	Doc: analyzer.Doc{
		Title: "Input over a safety limit",
		What: "Reports a file, document or object that scalelint refused to read in full because it exceeds a limit: " +
			"file size (10 MiB), documents per file (10,000), nesting depth (256), or the nodes an object expands " +
			"to through YAML aliases (1,000,000).",
		Why: "A linter runs on untrusted input, such as a pull request from anyone. A \"billion laughs\" document of " +
			"a few hundred bytes expands to gigabytes through aliases; scalelint refuses it quickly instead of " +
			"exhausting memory, and says so instead of skipping it silently.",
		Example:    "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n# ... nine levels deep",
		UseInstead: "# plain manifests without alias bombs",
		Fix:        "None.",
		References: []string{"https://en.wikipedia.org/wiki/Billion_laughs_attack"},
	},
	Run: func(pass *analyzer.Pass) error {
		reportProblems(pass, "input-limit")
		return nil
	},
}
