package workspace

import (
	"slices"
	"sort"

	"github.com/scalelint/scalelint/analyzer/manifest"
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
		resolved: ws.resolved, lazyKinds: ws.lazyKinds, kinds: ws.kinds, focused: true, shared: true, derived: ws.derived,
	}
	in := map[*manifest.File]bool{}
	for _, p := range slices.Compact(slices.Sorted(slices.Values(paths))) {
		i := sort.Search(len(ws.Files), func(i int) bool { return ws.Files[i].Path >= p })
		for ; i < len(ws.Files) && ws.Files[i].Path == p; i++ {
			in[ws.Files[i]] = true
			v.Files = append(v.Files, ws.Files[i])
		}
	}
	for _, f := range v.Files {
		// The file's indexed objects: those of its parsed documents
		// that the index holds (a skipped kind's are not indexed).
		for _, d := range f.Docs {
			if !d.Parsed() {
				continue
			}
			for _, o := range d.Objects() {
				if objs, _ := ws.byName.get(nameKey{o.Kind, o.Name}); slices.Contains(objs, o) {
					v.listed = append(v.listed, o)
				}
			}
		}
	}
	// The targets the view's files hold or point at, then every
	// autoscaler of those targets.
	targets := map[*manifest.Object]bool{}
	for _, a := range ws.autoscalers {
		if t := ws.Target(a).Object; t != nil && (in[a.Object.Doc.File] || in[t.Doc.File]) {
			targets[t] = true
		}
	}
	for _, a := range ws.autoscalers {
		if in[a.Object.Doc.File] || targets[ws.Target(a).Object] {
			v.autoscalers = append(v.autoscalers, a)
		}
	}
	return v
}
