package analyzer

import (
	"fmt"

	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// Pass is what a rule sees of one run: the workspace, its options and the
// repository's annotation defaults. A rule reports through it and never
// reads files, prints, reads config files or knows which driver runs it.
type Pass struct {
	Analyzer  *Analyzer
	Workspace *workspace.Workspace
	// Defaults are the annotation defaults of the repository's config.
	Defaults scaling.Inputs
	options  map[string]float64
	report   func(Diagnostic)
}

// Report records a diagnostic. The driver stamps its rule name and
// severity.
func (p *Pass) Report(d Diagnostic) {
	d.Rule = p.Analyzer.Name
	p.report(d)
}

// Reportf records a diagnostic with a formatted message at r.
func (p *Pass) Reportf(r Range, format string, args ...any) {
	p.Report(Diagnostic{Pos: r.Pos(), End: r.End(), Message: fmt.Sprintf(format, args...)})
}

// Option returns the value of a rule option: the configured one, or its
// default.
func (p *Pass) Option(name string) float64 {
	if v, ok := p.options[name]; ok {
		return v
	}
	if o, ok := p.Analyzer.Option(name); ok {
		return o.Default
	}
	return 0
}

// Inputs returns the law inputs of an autoscaler: its annotations, its
// target's, the repository's defaults and the built-in defaults.
func (p *Pass) Inputs(a *scaling.Autoscaler) scaling.Inputs {
	return scaling.MergeInputs(a, p.Workspace.Target(a).Workload, p.Defaults)
}
