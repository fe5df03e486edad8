package lsp

import (
	"maps"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/scalelint/scalelint/analyzer/infer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
)

// An edit changes one file; linting the workspace again costs the
// workspace. A snapshot therefore derives what it computes from its base
// (the latest earlier snapshot whose diagnostics were complete):
//
//	changed paths   the paths whose handle differs from the base's (edited,
//	                added, removed): changedPaths
//	index           the base's workspace with those paths' files replaced
//	                (workspace.With: only their objects are indexed, and
//	                only the autoscalers whose target they may hold are
//	                resolved again)
//	relint paths    the files whose findings the change can reach
//	                (relintPaths), linted again through a view of the
//	                workspace that lists what bears on them
//	                (workspace.Focus); every other file keeps the base's
//	                findings, and their protocol form
//
// The result is what a lint from scratch gives: the test
// TestIncrementalMatchesFullLint edits a workspace at random and compares.
// Anything whose reach is not tracked here (a configuration change, a
// kustomization, a kind rules read across the workspace such as a
// LimitRange) lints everything again.

// changedPaths returns the paths whose file differs between base and s.
func changedPaths(base, s *Snapshot) []string { return changedFileSetPaths(base.files, s.files) }

// chunkFiles returns the parsed documents of a snapshot's file: none for
// no file, or one neither linted nor read by a render (a chart's
// values.yaml is not a manifest, but findings are reported on its lines
// and its comments suppress them: the workspace holds it, rendered).
func (s *Snapshot) chunkFiles(p string) []*manifest.File {
	h := s.files.get(p)
	if h == nil || !h.linted() && s.rendering[p] == workspace.NotRendered {
		return nil
	}
	out := make([]*manifest.File, len(h.chunks))
	for i, ch := range h.chunks {
		out[i] = ch.file
	}
	return out
}

// deriveWorkspace builds the snapshot's workspace from its base's.
func (s *Snapshot) deriveWorkspace(b *Snapshot) {
	replace := map[string][]*manifest.File{}
	s.changedFiles = map[*manifest.File]bool{}
	for _, p := range changedPaths(b, s) {
		replace[p] = s.chunkFiles(p)
		for _, f := range append(b.chunkFiles(p), replace[p]...) {
			s.changedFiles[f] = true
		}
	}
	s.ws, s.incremental = b.ws.With(replace)
	s.changed = replace
}

// relintPaths returns the paths whose findings may differ from the
// base's: the changed ones; those of every autoscaler the change reaches
// (it is in a changed file, or its target is, before or after, or its
// target changed, or its target's inferred inputs read a changed traffic
// object: infer.Readers, or a disruption budget selects its target and a
// changed workload: rules.BudgetPeers) and of its targets before and after; those of
// every other autoscaler of those targets, before and after (a conflict
// names both autoscalers, and replicas-managed-by-autoscaler the first);
// and those of the autoscalers whose findings propose a workload their ref
// meant (rules.ProposalPeers).
// The second result is false when everything must be linted again: a
// changed file holds a kind rules read across the workspace.
func (s *Snapshot) relintPaths(b *Snapshot) (map[string]bool, bool) {
	for _, snap := range []*Snapshot{b, s} {
		for p := range s.changed {
			for _, f := range snap.chunkFiles(p) {
				for _, d := range f.Docs {
					if slices.Contains(ruleKinds, d.Kind) {
						return nil, false
					}
				}
			}
		}
	}
	oldWS, newWS := b.ws, s.ws
	// An object is changed when its path is, even if its document is
	// not: the documents before it may have moved it in the file.
	changed := func(o *manifest.Object) bool { return s.changedFiles[o.Doc.File] }
	relint := map[string]bool{}
	for p := range s.changed {
		relint[p] = true
	}
	// The autoscalers the change reaches, and their targets before and
	// after; then every autoscaler of those targets.
	// An unresolved target's finding names the definitions found apart,
	// in other namespaces, or in files that do not parse: it changes
	// with those.
	broken := false
	for f := range s.changedFiles {
		broken = broken || f.Template || hasSyntaxProblem(f)
	}
	targets := map[*manifest.Object]bool{}
	// Only an autoscaler With resolved again can have a target other
	// than the base's (the same Resolution otherwise: its target, and the
	// definitions it names, are in no changed file); but an unresolved
	// one's finding also names files that do not parse, so a broken
	// change looks at every autoscaler.
	reresolved, ok := newWS.Reresolved()
	cands := slices.All(reresolved)
	if !ok || broken {
		cands = newWS.Autoscalers().All()
	}
	for _, a := range cands {
		nr := newWS.Target(a)
		t := nr.Object
		if !changed(a.Object) {
			// Unchanged, so in the base too (the same parsed object).
			or := oldWS.Target(a)
			old := or.Object
			// The object whose pod template the target runs (a Rollout's
			// workloadRef) counts as the target does.
			samePods := or.PodsObject == nr.PodsObject && (nr.PodsObject == nil || !changed(nr.PodsObject))
			if old == t && (t == nil || !changed(t)) && samePods {
				named := append(append([]*manifest.Object(nil), nr.Apart...), nr.OtherNamespace...)
				if t != nil || (!broken && slices.Equal(or.Apart, nr.Apart) && slices.Equal(or.OtherNamespace, nr.OtherNamespace) &&
					!slices.ContainsFunc(named, changed)) {
					continue
				}
			}
			targets[old] = true
			targets[or.PodsObject] = true
		}
		relint[a.Object.Doc.File.Path] = true
		targets[t] = true
		targets[nr.PodsObject] = true
	}
	for p := range s.changed {
		for _, a := range oldWS.AutoscalersIn(p) {
			if changed(a.Object) {
				r := oldWS.Target(a)
				targets[r.Object], targets[r.PodsObject] = true, true
			}
		}
	}
	// The workloads whose inferred inputs read a changed traffic object
	// (a route's retries, a Service's selector), before and after: their
	// autoscalers' findings may change although no file of theirs did.
	var objs []*manifest.Object
	for f := range s.changedFiles {
		for _, d := range f.Docs {
			if d.Parsed() {
				objs = append(objs, d.Objects()...)
			}
		}
	}
	for _, ws := range []*workspace.Workspace{oldWS, newWS} {
		for _, w := range infer.Readers(ws, s.cfg.Infer, objs) {
			targets[w] = true
		}
		// The workloads a disruption budget selects with a changed one:
		// a budget's finding on an autoscaler asks that it select that
		// autoscaler's target alone.
		for _, w := range rules.BudgetPeers(ws, objs) {
			targets[w] = true
		}
	}
	delete(targets, nil)
	for t := range targets {
		relint[t.Doc.File.Path] = true
	}
	// The autoscalers whose findings propose a workload their ref meant:
	// those named as a changed object or a target the edit reaches, and
	// the unresolved ones of the kind of an object that came, went or
	// was renamed.
	peers := append(slices.Clone(objs), slices.Collect(maps.Keys(targets))...)
	moved := s.movedObjects(b)
	for _, ws := range []*workspace.Workspace{oldWS, newWS} {
		for _, a := range rules.ProposalPeers(ws, peers, moved) {
			relint[a.Object.Doc.File.Path] = true
		}
	}
	for _, ws := range []*workspace.Workspace{oldWS, newWS} {
		for t := range targets {
			for _, a := range ws.AutoscalersOf(t) {
				relint[a.Object.Doc.File.Path] = true
			}
		}
	}
	return relint, true
}

// movedObjects returns the objects of the changed files, before and after
// the edit, whose kind, name and namespace are not among the other side's
// (as many times): those that came, went or were renamed. An edit of a
// field moves none.
func (s *Snapshot) movedObjects(b *Snapshot) []*manifest.Object {
	type id struct{ kind, name, namespace string }
	count := map[id]int{}
	var before, after []*manifest.Object
	for p := range s.changed {
		for side, snap := range []*Snapshot{b, s} {
			for _, f := range snap.chunkFiles(p) {
				for _, d := range f.Docs {
					if !d.Parsed() {
						continue
					}
					for _, o := range d.Objects() {
						if side == 0 {
							count[id{o.Kind, o.Name, o.Namespace}]++
							before = append(before, o)
						} else {
							count[id{o.Kind, o.Name, o.Namespace}]--
							after = append(after, o)
						}
					}
				}
			}
		}
	}
	var moved []*manifest.Object
	for _, o := range append(before, after...) {
		if count[id{o.Kind, o.Name, o.Namespace}] != 0 {
			moved = append(moved, o)
		}
	}
	return moved
}

// protocol returns a file's findings in the protocol's form, converted
// once, ordered by position (a file's documents are parsed apart, so
// token positions do not follow the text across documents).
func (fd *fileDiags) protocol(snap *Snapshot) []protocol.Diagnostic {
	fd.protoOnce.Do(func() {
		for i := range fd.diags {
			if _, pd, ok := toProtocol(snap, &fd.diags[i]); ok {
				fd.proto = append(fd.proto, pd)
			}
		}
		sortByPosition(fd.proto)
	})
	return fd.proto
}

// hasSyntaxProblem reports whether a file has a YAML syntax error.
func hasSyntaxProblem(f *manifest.File) bool {
	for _, p := range f.Problems() {
		if p.Rule == "yaml-syntax" {
			return true
		}
	}
	return false
}
