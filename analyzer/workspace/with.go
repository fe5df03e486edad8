package workspace

import (
	"maps"
	"slices"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/traffic"
	"github.com/scalelint/scalelint/analyzer/workspace/chunked"
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
	files, gone, kept := spliceFiles(ws.files, paths, replace, ws.kustomized)
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
		return New(ws.Fset, files.Slice(0, files.Len()), ws.opts), false
	}
	for _, p := range paths {
		// A kustomization, or a test that says which files are its
		// assertions (or is one by its name): what is indexed may change.
		if IsKustomizationName(p) || IsTestDefinition(p) {
			return New(ws.Fset, files.Slice(0, files.Len()), ws.opts), false
		}
		// A GitOps object (a Flux Kustomization, an Argo CD Application)
		// that comes, goes or changes may move every file's roots.
		for _, f := range replace[p] {
			if HoldsGitOps(f) {
				return New(ws.Fset, files.Slice(0, files.Len()), ws.opts), false
			}
		}
	}
	for f := range gone {
		if HoldsGitOps(f) {
			return New(ws.Fset, files.Slice(0, files.Len()), ws.opts), false
		}
	}

	// The new workspace shares the base's kinds until either parses a
	// kind more (parseKind copies the map first; lazyMu, held here,
	// guards the flag).
	ws.kindsShared = true
	nw := &Workspace{
		Fset: ws.Fset, files: files, opts: ws.opts, scopes: ws.scopes, kustomized: ws.kustomized,
		routing:       ws.routing,
		labels:        ws.labels.derive(),
		budgets:       slices.Clip(ws.budgets),
		byName:        ws.byName.derive(),
		workloads:     ws.workloads.derive(),
		resolved:      ws.resolved.derive(),
		byTarget:      ws.byTarget.derive(),
		byTargetName:  ws.byTargetName.derive(),
		byTemplateRef: ws.byTemplateRef.derive(),
		assertions:    ws.assertions,
		derivedByWith: true,
		lazyKinds:     make(map[string][]*manifest.Document, len(ws.lazyKinds)),
		kinds:         ws.kinds,
		kindsShared:   true,
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
	// The objects kept are shared with the base's list, but for the
	// chunks that change (spliceByPath).
	var dropped []int
	for i, o := range ws.objects.All() {
		if !isGone(o) {
			continue
		}
		dropped = append(dropped, i)
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
		if nw.labels.built {
			nw.labels.remove(o)
		}
		if scaling.IsBudget(o) {
			nw.budgets = slices.DeleteFunc(slices.Clone(nw.budgets), func(x *manifest.Object) bool { return x == o })
		}
	}
	// Autoscalers are sorted by path: the changed paths' are found by
	// binary search, not by a pass over the workspace.
	// They are shared with the base's list, but for the chunks that
	// change (spliceByPath).
	var goneAs []*scaling.Autoscaler
	var droppedAs []int
	for _, p := range paths {
		lo, hi := atPath(ws.autoscalers, p, autoscalerPath)
		for i, a := range ws.autoscalers.Range(lo, hi) {
			goneAs = append(goneAs, a)
			droppedAs = append(droppedAs, i)
		}
	}
	for _, a := range goneAs {
		if changed(a.Object.Doc.File) {
			nw.unindexTarget(a, ws.Target(a))
			nw.resolved.delete(a)
			removeFrom(&nw.byTargetName, nameKey{a.Target.Kind, a.Target.Name}, a)
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
	added, addedAs := nw.adding, nw.addingAs
	nw.adding, nw.addingAs = nil, nil
	nw.objects = spliceByPath(ws.objects, dropped, added, objectPath)
	nw.autoscalers = spliceByPath(ws.autoscalers, droppedAs, addedAs, autoscalerPath)
	before := nw.objects.Len()
	for _, a := range addedAs {
		nw.parseKind(a.Target.Kind) // appends what it parses, as New does
	}
	needServices := nw.routesToServices()
	if needServices {
		nw.parseKind("Service")
	}
	for _, o := range added {
		names[nameKey{o.Kind, o.Name}] = true
	}
	for _, o := range nw.objects.Range(before, nw.objects.Len()) {
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
		for _, a := range nw.autoscalers.All() {
			needed[a.Target.Kind] = true
		}
		needed["Service"] = needed["Service"] || needServices
		for k := range skipped {
			if nw.kinds[k] && !needed[k] {
				return New(ws.Fset, files.Slice(0, files.Len()), ws.opts), false
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
		// And those whose target takes its pod template from an object
		// of that key (an Argo Rollout's workloadRef).
		refs, _ := nw.byTemplateRef.get(k)
		for _, a := range append(slices.Clip(as), refs...) {
			if !seen[a] {
				seen[a] = true
				again = append(again, a)
			}
		}
	}
	for _, a := range nw.inOrder(again) {
		prev, ok := nw.resolved.get(a)
		if !ok || names[nameKey{a.Target.Kind, a.Target.Name}] || names[prev.templateRef()] {
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
// or went. The result shares the chunks of files the change does not
// touch.
func spliceFiles(files chunked.List[*manifest.File], paths []string, replace map[string][]*manifest.File, kustomized bool) (out chunked.List[*manifest.File], gone map[*manifest.File]bool, kept bool) {
	kept = true
	gone = map[*manifest.File]bool{}
	edits := make([]chunked.Edit[*manifest.File], 0, len(paths))
	for _, p := range paths {
		lo, hi := atPath(files, p, filePath)
		for _, f := range files.Range(lo, hi) {
			gone[f] = true
		}
		if kustomized && (hi > lo) != (len(replace[p]) > 0) {
			kept = false
		}
		edits = append(edits, chunked.Edit[*manifest.File]{Lo: lo, Hi: hi, With: replace[p]})
	}
	return files.Splice(edits...), gone, kept
}

// filePath and objectPath are the paths files and objects are ordered
// by.
func filePath(f *manifest.File) string     { return f.Path }
func objectPath(o *manifest.Object) string { return o.Doc.File.Path }

// spliceByPath returns list less the elements at the indexes of dropped
// (in order), with add (grouped by path, in path order) inserted, each
// group before the first kept element of a greater path after the group
// before, as New places what it indexes. The result shares the chunks
// of list that no change touches: a workspace's objects and
// autoscalers, tens of thousands, are not copied per edit.
func spliceByPath[T any](list chunked.List[T], dropped []int, add []T, path func(T) string) chunked.List[T] {
	if len(dropped) == 0 && len(add) == 0 {
		return list
	}
	var edits []chunked.Edit[T]
	d := 0 // dropped[:d] are in edits
	drop := func(upTo int) {
		for ; d < len(dropped) && dropped[d] < upTo; d++ {
			edits = append(edits, chunked.Edit[T]{Lo: dropped[d], Hi: dropped[d] + 1})
		}
	}
	i := 0
	for j := 0; j < len(add); {
		p := path(add[j])
		k := j
		for k < len(add) && path(add[k]) == p {
			k++
		}
		// The first kept element from i on of a greater path.
		at := list.Len()
		dd := d
		for x, e := range list.Range(i, list.Len()) {
			for dd < len(dropped) && dropped[dd] < x {
				dd++
			}
			if dd < len(dropped) && dropped[dd] == x {
				continue
			}
			if path(e) > p {
				at = x
				break
			}
		}
		drop(at)
		edits = append(edits, chunked.Edit[T]{Lo: at, Hi: at, With: add[j:k]})
		i, j = at, k
	}
	drop(list.Len())
	return list.Splice(edits...)
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
