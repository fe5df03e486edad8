package rules

import "github.com/scalelint/scalelint/analyzer"

// RenderError reports a chart template that does not render, a chart that
// does not load, or a kustomization that does not build. The driver that
// renders charts and kustomizations reports it (analyzer/render/lint), not
// a Run function: it is a rule so that it has documentation and can be
// configured.
var RenderError = &analyzer.Analyzer{
	Name:     "render-error",
	Severity: analyzer.Error,
	Doc:      doc("render-error"),
	URL:      analyzer.RulesReferenceURL + "#render-error",
}
