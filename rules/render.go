package rules

import "github.com/scalelint/scalelint/analyzer"

// RenderError and RenderIncomplete are reported by the driver that renders
// charts and kustomizations (analyzer/render/lint), not by a Run function:
// they are rules so that they have documentation and can be configured.
// input-limit reports a render over a limit.
var (
	RenderError = &analyzer.Analyzer{
		Name:     "render-error",
		Severity: analyzer.Error,
		Doc:      doc("render-error"),
		URL:      analyzer.RulesReferenceURL + "#render-error",
	}
	RenderIncomplete = &analyzer.Analyzer{
		Name:     "render-incomplete",
		Severity: analyzer.Info,
		Doc:      doc("render-incomplete"),
		URL:      analyzer.RulesReferenceURL + "#render-incomplete",
	}
)
