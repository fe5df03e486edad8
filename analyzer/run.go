package analyzer

import (
	"context"
	"fmt"
	"runtime/debug"
	"sort"
	"sync"

	"github.com/scalelint/scalelint/analyzer/workspace"
)

// Run runs analyzers over a workspace and returns their diagnostics: the
// one engine behind the CLI, the language server and the tests.
//
// Run stamps each diagnostic with the rule's severity for its file (rule
// default, config, per-path overrides), drops rules that are off, marks
// diagnostics that a suppression covers (Diagnostic.Suppression) and adds
// the diagnostics about suppressions themselves. The result is sorted by
// file, position and rule, and holds no duplicates.
func Run(ctx context.Context, ws *workspace.Workspace, analyzers []*Analyzer, cfg *Config) []Diagnostic {
	return RunWith(ctx, ws, analyzers, cfg, nil)
}

// RunWith is Run with what the rules derive alike kept in shared (a new
// one when nil), for the driver to read after the run or to share with
// another run over a view of the same workspace (see Shared).
//
// The texts rules read again (to make fixes) from files whose text was
// dropped (manifest.File.DropText) are dropped again when the run ends:
// a run over a large repository does not leave them in memory.
func RunWith(ctx context.Context, ws *workspace.Workspace, analyzers []*Analyzer, cfg *Config, shared *Shared) []Diagnostic {
	if shared == nil {
		shared = NewShared()
	}
	defer func() {
		for _, f := range ws.Files().All() {
			f.DropText(nil, false) // a no-op for a file whose text was never dropped
		}
	}()
	if cfg == nil {
		cfg = DefaultConfig()
	}
	// Parse what the rules declared they read before they run concurrently.
	kinds := map[string]bool{}
	for _, a := range analyzers {
		for _, k := range a.Kinds {
			if !kinds[k] {
				kinds[k] = true
				ws.ParseKind(k)
			}
		}
	}
	plan := planFor(analyzers)
	// One allocation for every rule's pass; each collects its findings.
	passes := make([]Pass, len(analyzers))
	run := func(i int, a *Analyzer) {
		pass := &passes[i]
		*pass = Pass{Analyzer: a, Workspace: ws, config: cfg, shared: shared}
		defer func() {
			if r := recover(); r != nil {
				// A rule's bug must not take the run down: report it
				// where it can be seen, and keep the other rules' work.
				pass.found = append(pass.found, internalError(ws, a, fmt.Sprintf("panic: %v\n%s", r, debug.Stack())))
			}
		}()
		if ctx.Err() != nil {
			return
		}
		if err := a.Run(pass); err != nil {
			pass.found = append(pass.found, internalError(ws, a, err.Error()))
		}
	}
	// A goroutine per rule, also for the language server's lint of the
	// few files an edit reaches: running them one after the other saved
	// the goroutines' garbage (about 1 KB an edit) but lost the second
	// core, and measured a worse edit p99 at 10,000 services (lspbench,
	// three interleaved runs on a quiet 2-core machine: 3.7 / 4.8 / 4.9 ms
	// against 3.6 / 3.5 / 3.3 ms).
	var wg sync.WaitGroup
	for i, a := range analyzers {
		if a.Run == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(i, a)
		}()
	}
	wg.Wait()

	var diags []Diagnostic
	for i := range passes {
		diags = append(diags, passes[i].found...)
	}
	diags = stampSeverity(ws, diags, plan.byName, cfg)
	meta := applySuppressions(ws, diags, plan.known, plan.names)
	meta = stampSeverity(ws, meta, plan.meta, cfg)
	diags = append(diags, meta...)
	return SortDiagnostics(ws, diags)
}

func pick(byName map[string]*Analyzer, a *Analyzer) *Analyzer {
	if x, ok := byName[a.Name]; ok {
		return x
	}
	return a
}

// stampSeverity gives each diagnostic its rule's severity for its file
// and drops those of rules that are off there.
func stampSeverity(ws *workspace.Workspace, diags []Diagnostic, byName map[string]*Analyzer, cfg *Config) []Diagnostic {
	out := diags[:0]
	for _, d := range diags {
		a, ok := byName[d.Rule]
		if !ok {
			if d.Severity == 0 {
				d.Severity = Error
			}
			out = append(out, d)
			continue
		}
		file := ""
		if f := ws.FileOf(d.Pos); f != nil {
			file = f.Path
		}
		sev, _, on, configured := cfg.ruleSetting(a, file)
		if !on {
			continue
		}
		// A rule may raise or lower one finding's severity (a deadline
		// passed, a weaker signal); configuration still wins.
		if d.Severity == 0 || configured {
			d.Severity = sev
		}
		out = append(out, d)
	}
	return out
}

func internalError(ws *workspace.Workspace, a *Analyzer, msg string) Diagnostic {
	d := Diagnostic{Rule: a.Name, Severity: Error, Message: "internal error in rule " + a.Name + ": " + msg}
	if ws.Files().Len() > 0 {
		d.Pos = ws.Files().At(0).Tok.Pos(0)
		d.End = d.Pos
	}
	return d
}

// SortDiagnostics sorts diagnostics by file path, position, rule and
// message, and removes exact duplicates.
func SortDiagnostics(ws *workspace.Workspace, diags []Diagnostic) []Diagnostic {
	// Each diagnostic's file path found once, not at each comparison (a
	// search of the workspace's files: at thousands of findings, most of
	// the sort's time). A stable sort's result is the same whatever the
	// algorithm, for one ordering.
	sorter := diagSorter{diags: diags, paths: make([]string, len(diags))}
	for i := range diags {
		if f := ws.FileOf(diags[i].Pos); f != nil {
			sorter.paths[i] = f.Path
		}
	}
	sort.Stable(sorter)
	out := diags[:0]
	for i, d := range diags {
		if i > 0 {
			p := diags[i-1]
			if p.Pos == d.Pos && p.End == d.End && p.Rule == d.Rule && p.Message == d.Message {
				continue
			}
		}
		out = append(out, d)
	}
	return out
}

// diagSorter sorts diagnostics and their file paths together.
type diagSorter struct {
	diags []Diagnostic
	paths []string
}

func (s diagSorter) Len() int { return len(s.diags) }

func (s diagSorter) Swap(i, j int) {
	s.diags[i], s.diags[j] = s.diags[j], s.diags[i]
	s.paths[i], s.paths[j] = s.paths[j], s.paths[i]
}

func (s diagSorter) Less(i, j int) bool {
	a, b := &s.diags[i], &s.diags[j]
	if pa, pb := s.paths[i], s.paths[j]; pa != pb {
		return pa < pb
	}
	if a.Pos != b.Pos {
		return a.Pos < b.Pos
	}
	if a.Rule != b.Rule {
		return a.Rule < b.Rule
	}
	if a.End != b.End {
		return a.End < b.End
	}
	return a.Message < b.Message
}
