package workspace

import (
	"slices"
	"sort"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace/chunked"
)

// The reverse of Target, and the autoscalers of a path: what the language
// server needs to find the reach of an edit (and Focus, the view it lints)
// without a pass over every autoscaler of the workspace.

// AutoscalersOf returns the autoscalers whose scale target resolved to
// an object, or whose target runs the object's pod template (an Argo
// Rollout's workloadRef: Resolution.PodsObject), in file order.
func (ws *Workspace) AutoscalersOf(t *manifest.Object) []*scaling.Autoscaler {
	as, _ := ws.byTarget.get(t)
	return as
}

// AutoscalersNamed returns the autoscalers of any kind with this name,
// through the index of names (no pass over every autoscaler).
func (ws *Workspace) AutoscalersNamed(name string) []*scaling.Autoscaler {
	var out []*scaling.Autoscaler
	for _, kind := range []string{"HorizontalPodAutoscaler", "ScaledObject", "ScaledJob"} {
		objs, _ := ws.byName.get(nameKey{kind, name})
		for _, o := range objs {
			for _, a := range ws.AutoscalersIn(o.Doc.File.Path) {
				if a.Object == o && !slices.Contains(out, a) {
					out = append(out, a)
				}
			}
		}
	}
	return out
}

// AutoscalersIn returns the autoscalers of the files of a path, in file
// order (of a view made by Focus, those it lists).
func (ws *Workspace) AutoscalersIn(path string) []*scaling.Autoscaler {
	lo, hi := atPath(ws.autoscalers, path, autoscalerPath)
	return ws.autoscalers.Slice(lo, hi)
}

// Reresolved returns, for a workspace made by With, the autoscalers whose
// scale target was resolved again: those of the changed files, and those
// whose candidates the change touched. Every other autoscaler has the
// base's resolution. ok is false for a workspace not made by With.
func (ws *Workspace) Reresolved() (as []*scaling.Autoscaler, ok bool) {
	return ws.reresolved, ws.derivedByWith
}

// objects returns the objects a resolution indexes its autoscaler under
// (AutoscalersOf): the target, and the object whose pod template it runs
// when that is another.
func (r *Resolution) objects() []*manifest.Object {
	if r.PodsObject != nil && r.PodsObject != r.Object {
		return []*manifest.Object{r.Object, r.PodsObject}
	}
	return []*manifest.Object{r.Object}
}

// indexTarget adds an autoscaler to the reverse index of its target.
func (ws *Workspace) indexTarget(a *scaling.Autoscaler, r *Resolution) {
	if r == nil || r.Object == nil {
		return
	}
	for _, t := range r.objects() {
		addTo(ws, &ws.byTarget, t, a)
	}
	if k := r.templateRef(); k != (nameKey{}) {
		addTo(ws, &ws.byTemplateRef, k, a)
	}
}

// unindexTarget removes an autoscaler from the reverse index of its
// target.
func (ws *Workspace) unindexTarget(a *scaling.Autoscaler, r *Resolution) {
	if r == nil || r.Object == nil {
		return
	}
	for _, t := range r.objects() {
		removeFrom(&ws.byTarget, t, a)
	}
	if k := r.templateRef(); k != (nameKey{}) {
		removeFrom(&ws.byTemplateRef, k, a)
	}
}

// addTo adds an autoscaler to the list an index holds at k, in the
// workspace's order, on a copy (the list may be a base's).
func addTo[K comparable](ws *Workspace, l *layered[K, []*scaling.Autoscaler], k K, a *scaling.Autoscaler) {
	as, _ := l.get(k)
	l.set(k, ws.inOrder(append(slices.Clone(as), a)))
}

// removeFrom removes an autoscaler from the list an index holds at k, on
// a copy, and the key with its last one.
func removeFrom[K comparable](l *layered[K, []*scaling.Autoscaler], k K, a *scaling.Autoscaler) {
	as, _ := l.get(k)
	if as = slices.DeleteFunc(slices.Clone(as), func(x *scaling.Autoscaler) bool { return x == a }); len(as) > 0 {
		l.set(k, as)
	} else {
		l.delete(k)
	}
}

// autoscalerPath is the path autoscalers are sorted by.
func autoscalerPath(a *scaling.Autoscaler) string { return a.Object.Doc.File.Path }

// atPath returns the indexes lo to hi (excluded) of the elements of
// list, sorted by path, at a path: found by binary search.
func atPath[T any](list chunked.List[T], p string, path func(T) string) (lo, hi int) {
	lo = list.Search(func(x T) bool { return path(x) >= p })
	hi = lo
	for _, x := range list.Range(lo, list.Len()) {
		if path(x) != p {
			break
		}
		hi++
	}
	return lo, hi
}

// inOrder sorts autoscalers of the workspace in its order (Autoscalers).
func (ws *Workspace) inOrder(as []*scaling.Autoscaler) []*scaling.Autoscaler {
	if len(as) < 2 {
		return as
	}
	pos := make(map[*scaling.Autoscaler]int, len(as))
	for _, a := range as {
		pos[a] = ws.position(a)
	}
	sort.SliceStable(as, func(i, j int) bool { return pos[as[i]] < pos[as[j]] })
	return as
}

// position returns an autoscaler's index in Autoscalers (binary search
// by path, then a scan of that path's), or len(Autoscalers) when it is
// not there.
func (ws *Workspace) position(a *scaling.Autoscaler) int {
	lo, hi := atPath(ws.autoscalers, a.Object.Doc.File.Path, autoscalerPath)
	for i, x := range ws.autoscalers.Range(lo, hi) {
		if x == a {
			return i
		}
	}
	return ws.autoscalers.Len()
}
