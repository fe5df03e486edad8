package chart

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
)

// TestTreesShared: two charts of a run take the same sibling dependency
// (a monorepo's common library chart, as bitnami/charts' every chart takes
// bitnami/common). With Trees, it is read once and its bytes are shared;
// each chart loads, renders and reports what it does reading on its own.
// A chart whose input limit leaves too little for the dependency reads it
// on its own, and is cut by its limit as it was without Trees.
func TestTreesShared(t *testing.T) {
	dep := "dependencies:\n- name: common\n  version: 1.x.x\n  repository: oci://registry.example/charts\n"
	root := rendertest.WriteTree(t, "", map[string]string{
		"common/Chart.yaml":       "apiVersion: v2\nname: common\nversion: 1.2.0\ntype: library\n",
		"common/templates/_n.tpl": `{{- define "common.name" -}}{{ .Chart.Name }}-common{{- end -}}` + "\n",
		"a/Chart.yaml":            "apiVersion: v2\nname: a\nversion: 1.0.0\n" + dep,
		"a/templates/cm.yaml":     cm(`{{ include "common.name" . }}`),
		"b/Chart.yaml":            "apiVersion: v2\nname: b\nversion: 1.0.0\n" + dep,
		"b/templates/cm.yaml":     cm(`{{ include "common.name" . }}`),
		"tiny/Chart.yaml":         "apiVersion: v2\nname: tiny\nversion: 1.0.0\n" + dep,
		"tiny/templates/cm.yaml":  cm("tiny"),
	})
	type result struct {
		problems, rendered string
		data               []byte // common's template, as the chart holds it
	}
	load := func(name string, trees *Trees, lim render.Limits) (*Chart, result) {
		c, problems := Load(filepath.Join(root, name), LoadOptions{Charts: anyChart, Trees: trees, Limits: lim})
		if c == nil {
			t.Fatalf("Load(%s): %s", name, messages(problems))
		}
		var r result
		r.problems = messages(problems)
		r.data, _ = c.Data("charts/common/templates/_n.tpl")
		out, ps := c.Render(context.Background(), ValueSet{Name: DefaultsName}, Options{})
		if out == nil {
			t.Fatalf("Render(%s): %s", name, messages(ps))
		}
		for _, f := range out.Files {
			r.rendered += string(f.Text)
		}
		return c, r
	}
	trees := NewTrees()
	for _, name := range []string{"a", "b"} {
		_, alone := load(name, nil, render.Limits{})
		_, shared := load(name, trees, render.Limits{})
		if alone.problems != shared.problems || alone.rendered != shared.rendered || string(alone.data) != string(shared.data) {
			t.Errorf("%s with Trees: %+v; alone: %+v", name, shared, alone)
		}
		if !strings.Contains(shared.rendered, "name: "+name+"-common") {
			t.Errorf("%s renders %q, want the common template's name", name, shared.rendered)
		}
	}
	_, a := load("a", trees, render.Limits{})
	_, b := load("b", trees, render.Limits{})
	if len(a.data) == 0 || &a.data[0] != &b.data[0] {
		t.Error("a and b hold two copies of common's template: read twice")
	}
	// tiny's limit leaves room for its own files but not for common's:
	// it reads common on its own, and its limit cuts it.
	own := len("apiVersion: v2\nname: tiny\nversion: 1.0.0\n"+dep) + len(cm("tiny"))
	lim := render.Limits{MaxInput: own + 10}
	_, alone := load("tiny", nil, lim)
	_, shared := load("tiny", trees, lim)
	if alone.problems != shared.problems || alone.rendered != shared.rendered {
		t.Errorf("tiny with Trees: %+v; alone: %+v", shared, alone)
	}
	if !slices.ContainsFunc(strings.Split(shared.problems, "\n"), func(s string) bool { return strings.Contains(s, "input limit") }) {
		t.Errorf("tiny's problems %q: want common cut by the input limit", shared.problems)
	}
}
