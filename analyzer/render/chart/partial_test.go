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

// partialChart writes a chart whose two templates read a value no value
// set gives (through one helper: Helm's error names the helper's line for
// both), beside a template that renders, with extra files over it.
func partialChart(t *testing.T, extra map[string]string) *Chart {
	t.Helper()
	files := map[string]string{
		"Chart.yaml":             "apiVersion: v2\nname: shop\nversion: 0.1.0\n",
		"values.yaml":            "replicas: 1\n",
		"templates/_helpers.tpl": "{{- define \"shop.port\" -}}\n{{ .Values.redis.master.port }}\n{{- end }}\n",
		"templates/api.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: api}\n",
		"templates/queue.yaml":   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: queue}\ndata: {port: {{ include \"shop.port\" . | quote }}}\n",
		"templates/worker.yaml":  "{{ include \"shop.port\" . }}\n",
	}
	for k, v := range extra {
		files[k] = v
	}
	dir := rendertest.WriteTree(t, filepath.Join(t.TempDir(), "shop"), files)
	c, problems := Load(dir, LoadOptions{})
	if c == nil || len(problems) > 0 {
		t.Fatalf("Load: %v", problems)
	}
	return c
}

// TestPartialRender: Helm stops at the first template that fails; the
// value set is rendered again without it, and without the next, until the
// rest renders. One problem, at the helper line both stop at, lists both
// in the order Helm meets them (engine.go, sortTemplates: the deepest
// paths first, and names of one depth in reverse order); the output has
// the template that renders, and says what the left-out ones may define:
// queue.yaml names ConfigMap, worker.yaml names no kind (its objects would
// come from the helper), so it may define any.
func TestPartialRender(t *testing.T) {
	c := partialChart(t, nil)
	out, problems := c.Render(context.Background(), c.ValueSets()[0], Options{})
	if out == nil {
		t.Fatalf("nothing rendered: %v", problems)
	}
	if len(out.Files) != 1 || fileOf(out, "templates/api.yaml") == nil {
		t.Errorf("rendered %d files, want templates/api.yaml alone", len(out.Files))
	}
	if len(problems) != 1 {
		t.Fatalf("problems %v, want one, at the helper", problems)
	}
	p := problems[0]
	if filepath.Base(p.Path) != "_helpers.tpl" || p.Line != 2 || p.Rule != render.RuleError {
		t.Errorf("problem at %s:%d [%s], want _helpers.tpl:2 [render-error]", p.Path, p.Line, p.Rule)
	}
	var left []string
	for _, l := range p.LeftOut {
		left = append(left, filepath.Base(l))
	}
	if strings.Join(left, ",") != "worker.yaml,queue.yaml" {
		t.Errorf("left out %v, want worker.yaml then queue.yaml", p.LeftOut)
	}
	if len(out.LeftOut) != 2 || len(out.Skipped) != 2 {
		t.Fatalf("output's left-out templates %v (names %v), want two", out.LeftOut, out.Skipped)
	}
	for _, l := range out.LeftOut {
		switch filepath.Base(l.Path) {
		case "queue.yaml":
			if l.AnyKind || !slices.Equal(l.Kinds, []string{"ConfigMap"}) {
				t.Errorf("queue.yaml may define %v (any: %v), want ConfigMap alone", l.Kinds, l.AnyKind)
			}
		case "worker.yaml":
			if !l.AnyKind {
				t.Errorf("worker.yaml, which names no kind, may define %v only", l.Kinds)
			}
		}
	}

	// A value set built on this one starts without them: no problem of
	// its own, the same output.
	again, problems := c.Render(context.Background(), c.ValueSets()[0], Options{Skip: out.Skipped})
	if again == nil || len(problems) != 0 || len(again.Files) != 1 || len(again.LeftOut) != 2 {
		t.Errorf("render with Skip: output %v, problems %v; want api.yaml, two left out, no problem", again, problems)
	}
}

// TestRenderNotPartial: a value set is not rendered in part when what
// stops it is not one template's error: a value the chart requires
// (Helm's required: the set is refused), a parse error in a helper (every
// template uses the helpers), or when every template stops.
func TestRenderNotPartial(t *testing.T) {
	cases := map[string]map[string]string{
		"required":             {"templates/api.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ required \"name is required\" .Values.name }}\n"},
		"helper parse error":   {"templates/_broken.tpl": "{{ define \"x\" }}{{ if }}{{ end }}\n"},
		"every template stops": {"templates/api.yaml": "{{ include \"shop.port\" . }}\n"},
	}
	for name, extra := range cases {
		t.Run(name, func(t *testing.T) {
			c := partialChart(t, extra)
			out, problems := c.Render(context.Background(), c.ValueSets()[0], Options{})
			if out != nil {
				t.Errorf("rendered %d files; want none", len(out.Files))
			}
			if len(problems) != 1 || len(problems[0].LeftOut) != 0 {
				t.Errorf("problems %v; want one, leaving nothing out", problems)
			}
		})
	}
}

// TestPartialRenderGroupsByCause: templates that each include a helper no
// file defines (one a dependency not vendored would: bitnami's common
// chart's common.names.fullname) stop at their own lines; they are one
// problem, for the one cause, placed where the first stopped, listing
// both.
func TestPartialRenderGroupsByCause(t *testing.T) {
	c := partialChart(t, map[string]string{
		"templates/queue.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: {{ include \"common.names.fullname\" . }}}\n",
		"templates/worker.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ include \"common.names.fullname\" . }}\n",
	})
	out, problems := c.Render(context.Background(), c.ValueSets()[0], Options{})
	if out == nil || len(out.Files) != 1 {
		t.Fatalf("rendered %v, want templates/api.yaml alone (problems %v)", out, problems)
	}
	if len(problems) != 1 || len(problems[0].LeftOut) != 2 {
		t.Fatalf("problems %v; want one, leaving out queue.yaml and worker.yaml", problems)
	}
	if p := problems[0]; filepath.Base(p.Path) != "worker.yaml" || p.Line != 4 {
		t.Errorf("problem at %s:%d, want worker.yaml:4, where the first of them stopped", p.Path, p.Line)
	}
}
