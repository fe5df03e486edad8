package lsp

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/render/kustomize"
	"github.com/scalelint/scalelint/analyzer/render/lint"
	"github.com/scalelint/scalelint/rules"
)

// While the index is built, the open documents get their local findings
// (analyzer.Analyzer.Local: those that follow from the file itself and the
// configuration, such as a syntax error or a replica bound KEDA refuses)
// as soon as the walk has listed the workspace, seconds before the index
// is read: no file still unread can add, remove or change them. Every
// other finding rests on other files (a scale target, the other
// autoscalers of a workload, what is deployed together, inferred inputs,
// or the absence of any of them: unresolved-scale-target), so it is
// withheld until the index is complete; the full set is then published as
// a newer publication of the same version. A document without local
// findings gets no early publication (an empty one would tell the user
// nothing an editor does not already show).
//
// A document is linted early only when the walk shows that nothing unread
// can change how it is read:
//
//   - every configuration file the walk met is loaded already (one met
//     only now could change a rule's severity, turn it off, or exclude the
//     file), and none fails to parse;
//   - it is not read by a render: not in a chart's directory, nor below a
//     kustomization's (a kustomization reads only below its directory),
//     as the walk's paths and the open documents' place them;
//   - the client takes pushed diagnostics (a client that pulls asks for
//     them, and the answer waits for the index);
//   - nothing was published from a complete index yet: a workspace
//     indexed again (a configuration change) keeps its complete findings
//     until the new index is done, rather than showing fewer.

// testHookEarlyLint is the method name testHook gets for an early lint.
const testHookEarlyLint = "scalelint/early-lint"

// earlyPlan is what an index run's walk tells about the files not yet
// read: where renders read, so that an open document outside them can be
// linted early.
type earlyPlan struct {
	plan     lint.Plan
	kustDirs map[string]bool // the kustomizations' directories
}

// newEarlyPlan returns the plan of the walked paths.
func newEarlyPlan(paths []string) *earlyPlan {
	sorted := slices.Clone(paths)
	sort.Strings(sorted)
	e := &earlyPlan{plan: lint.Discover(sorted), kustDirs: map[string]bool{}}
	for _, k := range e.plan.Kustomizations {
		e.kustDirs[filepath.Dir(k)] = true
	}
	return e
}

// rendered reports whether a render may read a path: it is in a chart
// (of the walk, or of the open documents: open, a chart's Chart.yaml
// makes one), or below a kustomization's directory, or is a
// kustomization.
func (e *earlyPlan) rendered(p string, open lint.Plan) bool {
	if e.plan.InChart(p) || open.InChart(p) || belowAny(e.kustDirs, p) || kustomize.IsKustomizationName(p) {
		return true
	}
	for _, k := range open.Kustomizations {
		if belowAny(map[string]bool{filepath.Dir(k): true}, p) {
			return true
		}
	}
	return false
}

// earlyOpenPlan returns the charts and kustomizations among the open
// documents' paths (one not saved yet is not among the walk's).
func earlyOpenPlan(open map[string]bool) lint.Plan {
	return lint.Discover(slices.Sorted(maps.Keys(open)))
}

// planEarlyLocked records the walk's plan on the index run when the
// configuration files it met are all loaded, and reports whether it did.
func (s *Server) planEarlyLocked(run *indexRun, paths []string, e *earlyPlan) bool {
	if s.index != run || s.fileCfg.err != nil || s.caps.pull {
		return false
	}
	for _, p := range paths {
		if isConfigPath(p) && !slices.Contains(s.fileCfg.paths, p) {
			return false
		}
	}
	run.early.Store(e)
	return true
}

// scheduleEarlyLint lints the open documents of a snapshot made while the
// index is built, after the debounce delay, through the same debounced,
// cancellable lint as a complete snapshot's: a newer snapshot, early or
// complete, supersedes it.
func (s *Server) scheduleEarlyLint(snap *Snapshot, e *earlyPlan, delay time.Duration) {
	s.scheduleRun(snap, delay, func(ctx context.Context) { s.runEarlyLint(ctx, snap, e) })
}

// runEarlyLint publishes the local findings of the snapshot's open
// documents that no unread file can change (see above).
func (s *Server) runEarlyLint(ctx context.Context, snap *Snapshot, e *earlyPlan) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("early lint panicked", "panic", r)
		}
	}()
	if s.testHook != nil {
		s.testHook(ctx, testHookEarlyLint)
	}
	open := map[string]bool{}
	for p, h := range snap.files.over {
		if h != nil && h.open {
			open[p] = true
		}
	}
	plan := earlyOpenPlan(open)
	over := map[string]*fileHandle{}
	for p := range open {
		if h := snap.files.get(p); h.linted() && !e.rendered(p, plan) {
			over[p] = h
		}
	}
	if len(over) == 0 {
		return
	}
	// The open documents alone: the local rules read nothing else, and
	// every rule runs, so that a suppression naming any rule is known.
	alone := &Snapshot{id: snap.id, files: fileSet{over: over}, cfg: snap.cfg, folders: snap.folders, root: snap.root}
	all, err := alone.fileDiagnostics(ctx)
	if err != nil {
		return
	}
	local := map[string]*fileDiags{}
	all.each(func(p string, fd *fileDiags) {
		var keep []analyzer.Diagnostic
		for _, d := range fd.diags {
			if a, ok := rules.ByName(d.Rule); ok && a.Local {
				keep = append(keep, d)
			}
		}
		local[p] = &fileDiags{diags: keep}
	})
	s.pub.mu.Lock()
	defer s.pub.mu.Unlock()
	if ctx.Err() != nil || s.pub.lastID != 0 {
		return // superseded, or a complete index was published
	}
	published := 0
	for _, p := range slices.Sorted(maps.Keys(over)) {
		h := over[p]
		items := protocolFor(alone, newDiagMap(local), p)
		prev := s.pub.published[p]
		if len(items) == 0 && prev.key == "" {
			// Nothing to show, nor to clear: a publication of no findings
			// would say no more than none, and an editor shows both alike.
			continue
		}
		next := prev.next(p, h, items, false)
		v := next.version
		next.key = diagKey(items, v, true)
		next.pushed = len(items) > 0
		if next.key == prev.key && prev.uri == next.uri {
			s.pub.published[p] = next
			continue
		}
		s.push(next.uri, &v, items)
		s.pub.published[p] = next
		published++
	}
	s.log.Debug("early lint", "snapshot", snap.id, "open", len(over), "published", published)
}
