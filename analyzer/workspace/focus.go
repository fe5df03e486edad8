package workspace

import (
	"slices"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace/chunked"
)

// Focus returns a view of the workspace for linting the files of some
// paths again (in the language server, the files an edit may have changed
// the findings of). The view lists only what bears on those files:
//
//   - Files and Objects: the files of the paths, and their objects;
//   - Autoscalers: those in the files, those whose scale target is in
//     them, and every other autoscaler of the same targets (rules that
//     compare autoscalers of one workload, and that name the first of
//     them, see them all).
//
// Every lookup (Target, Workload, Namespaces, ObjectsOfKind, FileOf) still
// sees the whole workspace, and the view parses nothing: build the
// workspace with Options.Kinds. analyzer.Run over the view yields every
// finding a run over the whole workspace yields in the files of the
// paths, and some in other files, which the caller drops. Autoscalers
// keep the workspace's order.
func (ws *Workspace) Focus(paths []string) *Workspace {
	v := &Workspace{
		Fset: ws.Fset, opts: ws.opts, scopes: ws.scopes, kustomized: ws.kustomized,
		byName: ws.byName, byBase: ws.byBase, objects: ws.objects, workloads: ws.workloads,
		resolved: ws.resolved, byTarget: ws.byTarget, lazyKinds: ws.lazyKinds, kinds: ws.kinds, focused: true, shared: true, derived: ws.derived,
		labels: ws.labels, budgets: ws.budgets,
	}
	in := map[*manifest.File]bool{}
	var files []*manifest.File
	var listed []*manifest.Object
	for _, p := range slices.Compact(slices.Sorted(slices.Values(paths))) {
		lo, hi := atPath(ws.files, p, filePath)
		for _, f := range ws.files.Range(lo, hi) {
			in[f] = true
			files = append(files, f)
		}
	}
	for _, f := range files {
		// The file's indexed objects: those of its parsed documents
		// that the index holds (a skipped kind's are not indexed).
		for _, d := range f.Docs {
			if !d.Parsed() {
				continue
			}
			for _, o := range d.Objects() {
				if objs, _ := ws.byName.get(nameKey{o.Kind, o.Name}); slices.Contains(objs, o) {
					listed = append(listed, o)
				}
			}
		}
	}
	// The targets the view's files hold or point at, then every
	// autoscaler of those targets.
	// Found through the reverse index of targets, not by a pass over
	// every autoscaler.
	targets := map[*manifest.Object]bool{}
	listedAs := map[*scaling.Autoscaler]bool{}
	for _, p := range slices.Compact(slices.Sorted(slices.Values(paths))) {
		for _, a := range ws.AutoscalersIn(p) {
			if in[a.Object.Doc.File] {
				listedAs[a] = true
				if t := ws.Target(a).Object; t != nil {
					targets[t] = true
				}
			}
		}
	}
	for _, f := range files {
		for _, d := range f.Docs {
			if !d.Parsed() {
				continue
			}
			for _, o := range d.Objects() {
				if len(ws.AutoscalersOf(o)) > 0 {
					targets[o] = true
				}
			}
		}
	}
	for t := range targets {
		for _, a := range ws.AutoscalersOf(t) {
			listedAs[a] = true
		}
	}
	var as []*scaling.Autoscaler
	for a := range listedAs {
		as = append(as, a)
	}
	v.files, v.listed, v.autoscalers = chunked.From(files), chunked.From(listed), chunked.From(ws.inOrder(as))
	return v
}
