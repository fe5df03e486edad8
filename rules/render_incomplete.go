package rules

import "github.com/scalelint/scalelint/analyzer"

// RenderIncomplete reports what a render left out: a chart dependency not
// vendored, a kustomization's remote reference; or the chart of the tree
// a dependency not vendored was rendered with instead. The driver that
// renders reports those (analyzer/render/lint), like RenderError. Its Run
// reports the charts GitOps objects deploy from outside the repository
// (remote_chart.go), which nothing renders.
var RenderIncomplete = &analyzer.Analyzer{
	Name:     "render-incomplete",
	Severity: analyzer.Info,
	Doc:      doc("render-incomplete"),
	URL:      analyzer.RulesReferenceURL + "#render-incomplete",
	Kinds:    []string{"HelmRelease", "Application", "ApplicationSet"},
	Run:      runRemoteCharts,
}
