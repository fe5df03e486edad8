package kustomize

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/openapi"

	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
)

// patchedApp is a kustomization whose strategic-merge patch makes
// kustomize read its OpenAPI schema (the patch's merge keys).
func patchedApp(dir string) map[string]string {
	return map[string]string{
		dir + "/kustomization.yaml": "resources: [deploy.yaml, widget.yaml]\npatches:\n- path: patch.yaml\n",
		// A kind kustomize knows no scope of beforehand: it looks in the
		// parsed schema.
		dir + "/widget.yaml": "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n",
		dir + "/deploy.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers: [{name: web, image: a}]\n",
		dir + "/patch.yaml":  "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers: [{name: web, image: b}]\n",
	}
}

// TestBuildsShareSchema: builds that start together, with kustomize's
// schema not parsed yet (as in a new process), do not race on its first
// parse, and each builds as it does alone. Under -race (.ci/run runs it
// so) it found the race in one run of three without the shared parse:
// timing decides whether the parse and a read overlap.
func TestBuildsShareSchema(t *testing.T) {
	files := map[string]string{}
	var dirs []string
	for i := 0; i < 8; i++ {
		d := fmt.Sprintf("app%d", i)
		dirs = append(dirs, d)
		for k, v := range patchedApp(d) {
			files[k] = v
		}
	}
	tree := readTree(rendertest.WriteTree(t, "", files), render.Limits{})
	openapi.ResetOpenAPI() // as in a new process: nothing parsed
	schema.once = sync.Once{}
	var wg sync.WaitGroup
	outs := make([]string, len(dirs))
	for i, d := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out, problems := tree.Build(context.Background(), d); out != nil && len(problems) == 0 {
				outs[i] = string(out.Files[0].Text)
			}
		}()
	}
	wg.Wait()
	for i, out := range outs {
		if out == "" || out != outs[0] {
			t.Errorf("build %d: %q; want what build 0 gave, %q", i, out, outs[0])
		}
	}
}

// TestCustomSchemaRestored: a kustomization's `openapi` field replaces
// kustomize's schema for the whole process; after its build the built-in
// schema is back, for the builds of other trees.
func TestCustomSchemaRestored(t *testing.T) {
	files := patchedApp("app")
	files["app/kustomization.yaml"] += "openapi:\n  path: schema.json\n"
	files["app/schema.json"] = `{"definitions": {}}`
	tree := readTree(rendertest.WriteTree(t, "", files), render.Limits{})
	if !tree.customSchema() {
		t.Fatal("the tree's openapi field is not seen")
	}
	want := openapi.GetSchemaVersion()
	tree.Build(context.Background(), "app")
	if got := openapi.GetSchemaVersion(); got != want {
		t.Errorf("after a build with a custom schema, kustomize's schema is %q; want %q as before", got, want)
	}
}
