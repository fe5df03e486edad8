package rules

import "github.com/scalelint/scalelint/analyzer"

// RenderIncomplete reports what a render left out: a chart dependency not
// vendored, a kustomization's remote reference; or the chart of the tree
// a dependency not vendored was rendered with instead. Reported by the driver
// that renders (analyzer/render/lint), like RenderError.
var RenderIncomplete = &analyzer.Analyzer{
	Name:     "render-incomplete",
	Severity: analyzer.Info,
	Doc:      doc("render-incomplete"),
	URL:      analyzer.RulesReferenceURL + "#render-incomplete",
}
