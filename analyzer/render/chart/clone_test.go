package chart

import (
	"context"
	"strings"
	"testing"
)

// TestRendersDoNotShareChanges: each render starts from the chart as
// loaded, though renders change what they are given (clone.go). A
// template that changes the values it reads (sprig's set) changes them
// for that render alone; one that changes them and then stops the render
// leaves the render without it unchanged (Helm renders z-mutate.yaml
// before a-print.yaml: names of one depth in reverse order, engine.go's
// sortTemplates), and a template left out of one value set's render is in
// the render of another that it does not stop; a subchart a value set
// disables is dropped from that render alone (Helm's
// ProcessDependencies).
func TestRendersDoNotShareChanges(t *testing.T) {
	c := chartOf(t, map[string]string{
		"Chart.yaml":                  "apiVersion: v2\nname: c\nversion: 0.1.0\ndependencies:\n- {name: sub, version: 0.1.0, condition: sub.enabled}\n",
		"values.yaml":                 "image: {tag: \"1.0\"}\nsub: {enabled: false}\n",
		"ci/sub-values.yaml":          "sub: {enabled: true}\n",
		"templates/z-mutate.yaml":     "{{- $_ := set .Values.image \"tag\" (printf \"%s-x\" .Values.image.tag) }}\n",
		"templates/a-print.yaml":      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: print}\ndata: {tag: {{ .Values.image.tag | quote }}}\n",
		"charts/sub/Chart.yaml":       "apiVersion: v2\nname: sub\nversion: 0.1.0\n",
		"charts/sub/templates/s.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: sub}\n",
	})
	sets := map[string]ValueSet{}
	for _, vs := range c.ValueSets() {
		sets[vs.Name] = vs
	}
	render := func(name string) string {
		vs, ok := sets[name]
		if !ok {
			t.Fatalf("no value set %s among %v", name, c.ValueSets())
		}
		out := renderSet(t, c, vs)
		var b strings.Builder
		for _, f := range out.Files {
			b.Write(f.Text)
		}
		return b.String()
	}
	for i, step := range []struct {
		set      string
		sub      bool
		printTag string
	}{
		{DefaultsName, false, `"1.0-x"`},
		{"ci/sub-values.yaml", true, `"1.0-x"`},
		{DefaultsName, false, `"1.0-x"`},
		{"ci/sub-values.yaml", true, `"1.0-x"`},
	} {
		text := render(step.set)
		if !strings.Contains(text, "tag: "+step.printTag) {
			t.Errorf("render %d (%s): tag is not %s:\n%s", i, step.set, step.printTag, text)
		}
		if got := strings.Contains(text, "name: sub"); got != step.sub {
			t.Errorf("render %d (%s): subchart rendered %v, want %v:\n%s", i, step.set, got, step.sub, text)
		}
	}

	// Changed, then stopped: the render without z-stop.yaml reads the
	// values as loaded; and the template left out of the defaults' render
	// is in the render of a value set it does not stop.
	c = chartOf(t, map[string]string{
		"Chart.yaml":             "apiVersion: v2\nname: c\nversion: 0.1.0\n",
		"values.yaml":            "image: {tag: \"1.0\"}\nstop: true\n",
		"ci/go-values.yaml":      "stop: false\n",
		"templates/z-stop.yaml":  "{{- if .Values.stop }}{{ $_ := set .Values.image \"tag\" \"changed\" }}{{ .Values.missing.field }}{{ end }}\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: stop}\n",
		"templates/a-print.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: print}\ndata: {tag: {{ .Values.image.tag | quote }}}\n",
	})
	sets = map[string]ValueSet{}
	for _, vs := range c.ValueSets() {
		sets[vs.Name] = vs
	}
	for i, step := range []struct {
		set  string
		stop bool // z-stop.yaml rendered
	}{{DefaultsName, false}, {"ci/go-values.yaml", true}, {DefaultsName, false}} {
		out, problems := c.Render(context.Background(), sets[step.set], Options{})
		if out == nil {
			t.Fatalf("render %d (%s): %v", i, step.set, problems)
		}
		var b strings.Builder
		for _, f := range out.Files {
			b.Write(f.Text)
		}
		text := b.String()
		if !strings.Contains(text, `tag: "1.0"`) {
			t.Errorf("render %d (%s): the stopped template's change reached the render without it:\n%s", i, step.set, text)
		}
		if got := strings.Contains(text, "name: stop"); got != step.stop {
			t.Errorf("render %d (%s): z-stop.yaml rendered %v, want %v:\n%s", i, step.set, got, step.stop, text)
		}
	}
}
