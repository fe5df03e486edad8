package workspace

import (
	"sync"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/traffic"
)

// derivedTable memoizes what is derived from a whole workspace.
type derivedTable struct {
	mu sync.Mutex
	m  map[any]*derivedEntry
}

type derivedEntry struct {
	once sync.Once
	v    any
}

// Derive returns the value build makes from the workspace, building it
// once per workspace (and its Focus views): the workspace never changes,
// so an index over it (the traffic links of package infer) is built once
// however many rules and requests read it. A caller waits for a build
// another started.
func (ws *Workspace) Derive(key any, build func() any) any {
	t := ws.derived
	if t == nil {
		return build()
	}
	t.mu.Lock()
	if t.m == nil {
		t.m = map[any]*derivedEntry{}
	}
	e := t.m[key]
	if e == nil {
		e = &derivedEntry{}
		t.m[key] = e
	}
	t.mu.Unlock()
	e.once.Do(func() { e.v = build() })
	return e.v
}

// AllObjects returns every indexed object, in file order, of the whole
// workspace (also for a view made by Focus).
func (ws *Workspace) AllObjects() []*manifest.Object { return ws.objects }

// routesToServices reports whether an indexed object may route to
// Services by name, so that the Services the parser skipped are needed.
func (ws *Workspace) routesToServices() bool {
	for _, o := range ws.objects {
		if traffic.RoutesToServices(o) {
			return true
		}
	}
	return false
}

// Linkable reports whether traffic configuration may refer to an object
// by name: they can share a namespace, and they are related (Near). Names
// do not link objects across unrelated parts of a repository.
func (ws *Workspace) Linkable(from, to *manifest.Object) bool {
	return ws.namespaceCompatible(from, to) && ws.Near(from, to)
}

// Near reports whether two objects are deployed together: by a common
// kustomization, or (outside every kustomization) from one directory or a
// directory and its subdirectories at most TargetDistance levels apart.
// Sibling trees (kustomize/app and examples/istio) are alternatives as
// often as parts of one deployment, so they are not near; this is
// stricter than a scale target's search, as a bound read from another
// object must be one that object really puts on the workload.
func (ws *Workspace) Near(from, to *manifest.Object) bool {
	if ws.sharesRoot(from, to) {
		return true
	}
	if len(ws.Roots(from)) > 0 && len(ws.Roots(to)) > 0 {
		return false // both deployed, by different roots
	}
	a, b := from.Doc.File.DirParts(), to.Doc.File.DirParts()
	if len(a) > len(b) {
		a, b = b, a
	}
	d := ws.opts.TargetDistance
	return commonDirDepth(from.Doc.File, to.Doc.File) == len(a) && (d < 0 || len(b)-len(a) <= d)
}

// Named returns the indexed objects of a kind (any group) and name.
func (ws *Workspace) Named(kind, name string) []*manifest.Object {
	objs, _ := ws.byName.get(nameKey{kind, name})
	return objs
}
