package analyzer

import (
	"sync"

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
	shared   *sharedResults
}

// sharedResults holds what rules of one run derive from the workspace
// alike, each built once (Pass.Shared).
type sharedResults struct {
	mu sync.Mutex
	m  map[any]*sharedResult
}

type sharedResult struct {
	once  sync.Once
	value any
}

// Shared returns the value build makes for key, built once per run and
// shared by every rule's pass: the law evaluations several rules report
// on are computed once, not once per rule. A rule calling it concurrently
// with another waits for the first build. Without a run (a Pass made by
// hand) it just builds.
func (p *Pass) Shared(key any, build func() any) any {
	if p.shared == nil {
		return build()
	}
	p.shared.mu.Lock()
	r := p.shared.m[key]
	if r == nil {
		r = &sharedResult{}
		p.shared.m[key] = r
	}
	p.shared.mu.Unlock()
	r.once.Do(func() { r.value = build() })
	return r.value
}

// Report records a diagnostic. The driver stamps its rule name and
// severity. A rule sets the diagnostic's Object and Field when it is about
// an object, as every rule's finding is: a baseline fingerprint identifies
// a finding by them, and without them by its file and its message with
// the digits taken out, which moves with every change of wording and can
// be shared by findings about two objects. So there is no Reportf taking
// only a range and a message, as go/analysis has.
func (p *Pass) Report(d Diagnostic) {
	d.Rule = p.Analyzer.Name
	p.report(d)
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
