package analyzer

import (
	"sync"

	"github.com/scalelint/scalelint/analyzer/infer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// Pass is what a rule sees of one run: the workspace, its options and the
// repository's annotation defaults. A rule reports through it and never
// reads files, prints, reads config files or knows which driver runs it.
type Pass struct {
	Analyzer  *Analyzer
	Workspace *workspace.Workspace
	config    *Config
	found     []Diagnostic // what the rule reported (Report)
	shared    *Shared
}

// Shared holds what the rules of a run derive from its workspace alike
// (the law evaluations several rules report on), each built once. Run
// makes one per run. A driver that reads the same values after the run
// (the CLI's audit and explain-missing, the language server's hover) or
// runs again over a view of the same workspace passes its own to RunWith:
// one Shared belongs to one workspace (and the views Focus makes of it)
// and one configuration, and lives as long as the driver keeps it (a run,
// a language server snapshot).
type Shared struct {
	mu sync.Mutex
	m  map[any]*sharedResult
}

// NewShared returns an empty Shared.
func NewShared() *Shared { return &Shared{m: map[any]*sharedResult{}} }

type sharedResult struct {
	once  sync.Once
	value any
}

// Get returns the value build makes for key, built once. A caller asking
// while another builds waits for the first build.
func (s *Shared) Get(key any, build func() any) any {
	s.mu.Lock()
	r := s.m[key]
	if r == nil {
		r = &sharedResult{}
		s.m[key] = r
	}
	s.mu.Unlock()
	r.once.Do(func() { r.value = build() })
	return r.value
}

// Shared returns the value build makes for key, built once per run and
// shared by every rule's pass (Shared.Get). Without a run (a Pass made by
// hand) it just builds.
func (p *Pass) Shared(key any, build func() any) any {
	if p.shared == nil {
		return build()
	}
	return p.shared.Get(key, build)
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
	p.found = append(p.found, d)
}

// Option returns the value of a rule option for the findings in a file:
// a per-path override's (.scalelint.yaml overrides), the configured one,
// or its default (Config.Option).
func (p *Pass) Option(name string, file *manifest.File) float64 {
	cfg := p.config
	if cfg == nil {
		cfg = DefaultConfig()
	}
	path := ""
	if file != nil {
		path = file.Path
	}
	return cfg.Option(p.Analyzer, path, name)
}

// DefaultsFor returns the annotation defaults (.scalelint.yaml defaults)
// of the configuration that governs a file.
func (p *Pass) DefaultsFor(file *manifest.File) scaling.Inputs {
	return p.cfg().DefaultsFor(pathOf(file))
}

// KubernetesVersion returns the Kubernetes version the configuration that
// governs a file deploys to (kubernetes-version).
func (p *Pass) KubernetesVersion(file *manifest.File) KubernetesVersion {
	return p.cfg().For(pathOf(file)).KubernetesVersion
}

// InferFor returns the inference settings (.scalelint.yaml infer) of the
// configuration that governs a file.
func (p *Pass) InferFor(file *manifest.File) infer.Options {
	return p.cfg().For(pathOf(file)).Infer
}

func (p *Pass) cfg() *Config {
	if p.config == nil {
		return DefaultConfig()
	}
	return p.config
}

func pathOf(f *manifest.File) string {
	if f == nil {
		return ""
	}
	return f.Path
}
