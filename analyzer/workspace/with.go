package workspace

import (
	"maps"
	"slices"
	"sort"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/traffic"
)

// With returns the workspace whose files are the base's, with the files
// of each path in replace replaced by the ones it maps to (none removes
// the path; a path the base lacks is added). It is what New would build
// from those files, for a language server that makes a workspace per
// edit: the work is that of the changed files, not of the workspace.
//
// The base is not changed and stays valid; the two share every structure
// the edit does not touch (maps are copied, slices copied before they are
// written). The base must not be parsing a kind (ObjectsOfKind) meanwhile:
// a workspace whose Options.Kinds lists the kinds rules ask for never does
// once built.
//
// The second result is false when With built the workspace from scratch
// (New) instead: when the change may move files between deployment roots
// (a kustomization or a GitOps object changed, or a file came or went
// while roots place files), or when a new file holds a skipped
// document of a kind the base parsed for a scale target that no
// autoscaler names any more (New would leave it unparsed). The caller
// then cannot assume that unchanged files resolve as before.
//
// With is for workspaces without Options.Release, whose node trees are
// kept.
func (ws *Workspace) With(replace map[string][]*manifest.File) (*Workspace, bool) {
	ws.lazyMu.Lock()
	defer ws.lazyMu.Unlock()
	paths := slices.Sorted(maps.Keys(replace))
	files, gone, kept := spliceFiles(ws.Files, paths, replace, ws.kustomized)
	// changed reports whether a file of the base is one replaced: an edit
	// replaces a few, and comparing with each is cheaper than hashing,
	// once for every object of the workspace.
	goneList := slices.Collect(maps.Keys(gone))
	changed := func(f *manifest.File) bool { return gone[f] }
	if len(goneList) <= 8 {
		changed = func(f *manifest.File) bool { return slices.Contains(goneList, f) }
	}
	if !kept {
		// A kustomization among the changes, or a file count change
		// where kustomizations place files: the scopes may differ.
		return New(ws.Fset, files, ws.opts), false
	}
	for _, p := range paths {
		if IsKustomizationName(p) {
			return New(ws.Fset, files, ws.opts), false
		}
		// A GitOps object (a Flux Kustomization, an Argo CD Application)
		// that comes, goes or changes may move every file's roots.
		for _, f := range replace[p] {
			if HoldsGitOps(f) {
				return New(ws.Fset, files, ws.opts), false
			}
		}
	}
	for f := range gone {
		if HoldsGitOps(f) {
			return New(ws.Fset, files, ws.opts), false
		}
	}

	nw := &Workspace{
		Fset: ws.Fset, Files: files, opts: ws.opts, scopes: ws.scopes, kustomized: ws.kustomized,
		routing:       ws.routing,
		byName:        ws.byName.derive(),
		workloads:     ws.workloads.derive(),
		resolved:      ws.resolved.derive(),
		byTarget:      ws.byTarget.derive(),
		byTargetName:  ws.byTargetName.derive(),
		derivedByWith: true,
		lazyKinds:     make(map[string][]*manifest.Document, len(ws.lazyKinds)),
		kinds:         maps.Clone(ws.kinds),
		shared:        true,
		derived:       &derivedTable{},
	}
	// Only the kinds of the replaced files' documents can lose one.
	goneKinds := map[string]bool{}
	for f := range gone {
		for _, d := range f.Docs {
			goneKinds[d.Kind] = true
		}
	}
	for k, docs := range ws.lazyKinds {
		if goneKinds[k] && slices.ContainsFunc(docs, func(d *manifest.Document) bool { return changed(d.File) }) {
			docs = slices.DeleteFunc(slices.Clone(docs), func(d *manifest.Document) bool { return changed(d.File) })
		}
		if len(docs) > 0 {
			nw.lazyKinds[k] = docs
		}
	}

	// Drop what the changed paths held. names collects the keys scale
	// targets are looked up by whose candidates changed.
	names := map[nameKey]bool{}
	// (objects is not sorted by path: parseKind appends what it parses.)
	// Every indexed object is one of its parsed document's Objects (index
	// and parseKind add no other): those of the replaced files are found
	// by comparing pointers, without reading each object of the
	// workspace (o.Doc.File is two loads that miss the cache, once for
	// every object, the most of an edit's cost in a large workspace).
	var goneObjs []*manifest.Object
	for f := range gone {
		for _, d := range f.Docs {
			if d.Parsed() {
				goneObjs = append(goneObjs, d.Objects()...)
			}
		}
	}
	isGone := member(goneObjs)
	// The objects kept are copied once, with the new ones, below
	// (spliceByPath).
	dropped := 0
	for _, o := range ws.objects {
		if !isGone(o) {
			continue
		}
		dropped++
		if traffic.RoutesToServices(o) {
			nw.routing--
		}
		k := nameKey{o.Kind, o.Name}
		names[k] = true
		objs, _ := nw.byName.get(k)
		if objs = slices.DeleteFunc(slices.Clone(objs), func(x *manifest.Object) bool { return x == o }); len(objs) > 0 {
			nw.byName.set(k, objs)
		} else {
			nw.byName.delete(k)
		}
		nw.workloads.delete(o)
	}
	// Autoscalers are sorted by path: the changed paths' are found by
	// binary search, not by a pass over the workspace.
	// They are copied once, with the new ones, below (spliceByPath).
	asPath := func(a *scaling.Autoscaler) string { return a.Object.Doc.File.Path }
	goneAs := atPaths(ws.autoscalers, paths, asPath)
	for _, a := range goneAs {
		if changed(a.Object.Doc.File) {
			nw.unindexTarget(a, ws.Target(a))
			nw.resolved.delete(a)
			k := nameKey{a.Target.Kind, a.Target.Name}
			as, _ := nw.byTargetName.get(k)
			if as = slices.DeleteFunc(slices.Clone(as), func(x *scaling.Autoscaler) bool { return x == a }); len(as) > 0 {
				nw.byTargetName.set(k, as)
			} else {
				nw.byTargetName.delete(k)
			}
		}
	}

	// Index the new files, then put what they hold where their paths
	// sort, as New would have. skipped are the kinds of their documents
	// the parser skipped.
	skipped := map[string]bool{}
	for _, p := range paths {
		for _, f := range replace[p] {
			for _, d := range f.Docs {
				if !d.Parsed() && d.Kind != "" {
					skipped[d.Kind] = true
				}
			}
		}
	}
	for _, p := range paths {
		for _, f := range replace[p] {
			nw.index(f)
		}
	}
	added, addedAs := nw.objects, nw.autoscalers
	nw.objects = spliceByPath(ws.objects, dropped, isGone, added, func(o *manifest.Object) string { return o.Doc.File.Path })
	nw.autoscalers = spliceByPath(ws.autoscalers, len(goneAs), member(goneAs), addedAs, asPath)
	before := len(nw.objects)
	for _, a := range addedAs {
		nw.parseKind(a.Target.Kind) // appends what it parses, as New does
	}
	needServices := nw.routesToServices()
	if needServices {
		nw.parseKind("Service")
	}
	for _, o := range append(added, nw.objects[before:]...) {
		names[nameKey{o.Kind, o.Name}] = true
	}

	// New parses a skipped kind only for the rules (Options.Kinds) and
	// for scale targets: if a kind the base parsed lost its last target,
	// New would leave the new files' skipped documents of it unparsed.
	if len(skipped) > 0 {
		needed := map[string]bool{}
		for _, k := range ws.opts.Kinds {
			needed[k] = true
		}
		for _, a := range nw.autoscalers {
			needed[a.Target.Kind] = true
		}
		needed["Service"] = needed["Service"] || needServices
		for k := range skipped {
			if nw.kinds[k] && !needed[k] {
				return New(ws.Fset, files, ws.opts), false
			}
		}
	}

	var add []*manifest.File
	for _, p := range paths {
		add = append(add, replace[p]...)
	}
	nw.byBase = ws.byBase.with(gone, add)
	// Resolve the new autoscalers, and the others whose candidates
	// changed; every other resolution is the base's.
	// The autoscalers to resolve: the new ones, and those that name a
	// key in names (byTargetName), not a pass over every autoscaler.
	for _, a := range addedAs {
		k := nameKey{a.Target.Kind, a.Target.Name}
		as, _ := nw.byTargetName.get(k)
		nw.byTargetName.set(k, append(slices.Clone(as), a))
	}
	seen := map[*scaling.Autoscaler]bool{}
	var again []*scaling.Autoscaler
	for _, a := range addedAs {
		seen[a] = true
		again = append(again, a)
	}
	for k := range names {
		as, _ := nw.byTargetName.get(k)
		for _, a := range as {
			if !seen[a] {
				seen[a] = true
				again = append(again, a)
			}
		}
	}
	for _, a := range nw.inOrder(again) {
		prev, ok := nw.resolved.get(a)
		if !ok || names[nameKey{a.Target.Kind, a.Target.Name}] {
			r := nw.resolve(a)
			nw.unindexTarget(a, prev)
			nw.resolved.set(a, r)
			nw.indexTarget(a, r)
			nw.reresolved = append(nw.reresolved, a)
		}
	}
	return nw, true
}

// spliceFiles returns files (sorted by path) with the files of each of
// paths (sorted) replaced, and the files replaced. kept is false when the
// set of paths changed and a kustomization may include the path that came
// or went.
func spliceFiles(files []*manifest.File, paths []string, replace map[string][]*manifest.File, kustomized bool) (out []*manifest.File, gone map[*manifest.File]bool, kept bool) {
	kept = true
	gone = map[*manifest.File]bool{}
	out = make([]*manifest.File, 0, len(files)+len(paths))
	i := 0
	for _, p := range paths {
		j := i + sort.Search(len(files)-i, func(k int) bool { return files[i+k].Path >= p })
		out = append(out, files[i:j]...)
		had := false
		for j < len(files) && files[j].Path == p {
			had = true
			gone[files[j]] = true
			j++
		}
		if kustomized && had != (len(replace[p]) > 0) {
			kept = false
		}
		out = append(out, replace[p]...)
		i = j
	}
	return append(out, files[i:]...), gone, kept
}

// spliceByPath returns list less the elements drop reports (there are
// dropped of them), with add (grouped by path, in path order) inserted,
// each group before the first kept element of a greater path, as New
// places what it indexes: in one copy, so that a workspace's objects and
// autoscalers, tens of thousands, are copied once per edit. With nothing
// dropped or added it returns list itself, clipped (an append copies).
func spliceByPath[T any](list []T, dropped int, drop func(T) bool, add []T, path func(T) string) []T {
	if dropped == 0 && len(add) == 0 {
		return slices.Clip(list)
	}
	out := make([]T, 0, len(list)-dropped+len(add))
	i := 0
	for j := 0; j < len(add); {
		p := path(add[j])
		k := j
		for k < len(add) && path(add[k]) == p {
			k++
		}
		for i < len(list) && (drop(list[i]) || path(list[i]) <= p) {
			if !drop(list[i]) {
				out = append(out, list[i])
			}
			i++
		}
		out = append(out, add[j:k]...)
		j = k
	}
	for ; i < len(list); i++ {
		if !drop(list[i]) {
			out = append(out, list[i])
		}
	}
	return out
}

// member returns the test of membership in list: a scan for a few
// elements (an edit's), a set for more.
func member[T comparable](list []T) func(T) bool {
	if len(list) <= 16 {
		return func(x T) bool { return slices.Contains(list, x) }
	}
	set := make(map[T]bool, len(list))
	for _, x := range list {
		set[x] = true
	}
	return func(x T) bool { return set[x] }
}

// atPaths returns the elements of list (sorted by path) at each of paths
// (sorted), found by binary search: the cost is that of the changed paths.
func atPaths[T any](list []T, paths []string, path func(T) string) []T {
	var out []T
	for _, p := range paths {
		i := sort.Search(len(list), func(k int) bool { return path(list[k]) >= p })
		for ; i < len(list) && path(list[i]) == p; i++ {
			out = append(out, list[i])
		}
	}
	return out
}
