package kustomize

import (
	"regexp"
	"sync"

	"sigs.k8s.io/kustomize/kyaml/openapi"
)

// kustomize keeps the OpenAPI schema its builds read in process-wide
// state (sigs.k8s.io/kustomize/kyaml/openapi): it parses it on first use
// under a lock but reads it without one (IsNamespaceScoped,
// SchemaForResourceType), so two builds that start together race on the
// first parse (the race detector found it in scalelint's tests); and a
// kustomization's `openapi` field (a custom schema, or a Kubernetes
// version's) replaces the schema for the whole process, every build in
// flight and every later one (krusty.Kustomizer.Run calls
// openapi.SetSchema, and nothing sets it back). scalelint builds many
// kustomizations in one process, several at a time, so:
//
//   - the built-in schema is parsed once, before the first build;
//   - builds of trees without an `openapi` field share the schema, read
//     only (a read lock);
//   - a build of a tree that has one runs alone (the write lock), and the
//     built-in schema is restored after it.
var schema struct {
	sync.RWMutex
	once sync.Once
}

// openAPIField matches a kustomization's top-level `openapi` field.
var openAPIField = regexp.MustCompile(`(?m)^openapi\s*:`)

// withSchema runs a build with kustomize's schema as it must be: shared
// when the tree sets none of its own, else alone.
func withSchema(custom bool, build func()) {
	schema.once.Do(func() { openapi.Schema() }) // parses the built-in schema
	if !custom {
		schema.RLock()
		defer schema.RUnlock()
		build()
		return
	}
	schema.Lock()
	defer schema.Unlock()
	defer func() {
		openapi.ResetOpenAPI()
		openapi.Schema()
	}()
	build()
}

// customSchema reports whether a kustomization of the tree sets kustomize's
// OpenAPI schema (its `openapi` field), looked for once per tree: every
// root's build asks.
func (t *Tree) customSchema() bool {
	t.schemaOnce.Do(func() {
		for _, k := range t.kusts {
			if openAPIField.Match(t.built[k.file]) || openAPIField.Match(t.files[k.file]) {
				t.custom = true
				return
			}
		}
	})
	return t.custom
}
