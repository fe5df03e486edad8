package workspace

import (
	"sync"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace/chunked"
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
func (ws *Workspace) AllObjects() chunked.List[*manifest.Object] { return ws.objects }

// routesToServices reports whether an indexed object may route to
// Services by name, so that the Services the parser skipped are needed.
// A count kept as objects are added (add) and dropped (With), not a pass
// over every object on each edit.
func (ws *Workspace) routesToServices() bool { return ws.routing > 0 }

// Linkable reports whether traffic configuration may refer to an object
// by name: they can share a namespace, and they are deployed together
// (DeployedTogether, the one notion every link by name uses). Names do
// not link objects across unrelated parts of a repository.
func (ws *Workspace) Linkable(from, to *manifest.Object) bool {
	return ws.NamespaceCompatible(from, to) && ws.DeployedTogether(from, to)
}

// Named returns the indexed objects of a kind (any group) and name.
func (ws *Workspace) Named(kind, name string) []*manifest.Object {
	objs, _ := ws.byName.get(nameKey{kind, name})
	return objs
}
