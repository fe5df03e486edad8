package chart

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
)

// anyChart takes every directory holding a Chart.yaml as a chart of the
// tree being checked.
func anyChart(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "Chart.yaml"))
	return err == nil
}

func cm(name string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n"
}

func messages(ps []render.Problem) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return strings.Join(out, "\n")
}

// TestDependencyCycle: a and b name each other by file://. Loading a
// takes b, and b's dependency back on a is cut (a chart is never below
// itself), said at b's entry; the render holds both charts' templates
// once.
func TestDependencyCycle(t *testing.T) {
	root := rendertest.WriteTree(t, "", map[string]string{
		"a/Chart.yaml":          "apiVersion: v2\nname: a\nversion: 1.0.0\ndependencies:\n- name: b\n  version: 1.0.0\n  repository: file://../b\n",
		"a/templates/cm.yaml":   cm("a-{{ .Chart.Name }}"),
		"b/Chart.yaml":          "apiVersion: v2\nname: b\nversion: 1.0.0\ndependencies:\n- name: a\n  version: 1.0.0\n  repository: file://../a\n",
		"b/templates/cm.yaml":   cm("b-{{ .Chart.Name }}"),
		"b/templates/_x.tpl":    "",
		"a/templates/NOTES.txt": "",
	})
	c, problems := Load(filepath.Join(root, "a"), LoadOptions{Charts: anyChart})
	if c == nil {
		t.Fatal(messages(problems))
	}
	var took, cut bool
	for _, p := range problems {
		took = took || p.Path == filepath.Join(root, "a", "Chart.yaml") && strings.Contains(p.Message, `dependency "b" is not vendored in charts/; rendered with `+filepath.Join(root, "b"))
		cut = cut || p.Path == filepath.Join(root, "b", "Chart.yaml") && p.Line == 5 &&
			strings.HasSuffix(p.Message, filepath.Join(root, "a")+" depends on this chart in turn (a cycle)")
	}
	if !took || !cut {
		t.Errorf("problems:\n%s\nwant b taken at a's entry, and a cut at b's (a cycle)", messages(problems))
	}
	if !slices.Equal(c.Missing, []string{"a"}) {
		t.Errorf("Missing %v, want [a]: b renders without it", c.Missing)
	}
	out, ps := c.Render(context.Background(), ValueSet{Name: DefaultsName}, Options{})
	if out == nil {
		t.Fatal(messages(ps))
	}
	var got []string // sorted by source
	for _, f := range out.Files {
		got = append(got, strings.TrimPrefix(f.Source, root+string(filepath.Separator))+": "+strings.TrimSpace(strings.Split(string(f.Text), "name: ")[1]))
	}
	slices.Sort(got)
	want := []string{"a/templates/cm.yaml: a-a", "b/templates/cm.yaml: b-b"}
	if !slices.Equal(got, want) {
		t.Errorf("rendered %q, want %q", got, want)
	}
}

// TestDependencyDepth: a chain of charts each taking the next by file://
// stops maxDepth deep; the chart past it is named, not read.
func TestDependencyDepth(t *testing.T) {
	files := map[string]string{}
	n := maxDepth + 3
	for i := 0; i < n; i++ {
		chart := fmt.Sprintf("apiVersion: v2\nname: c%d\nversion: 1.0.0\n", i)
		if i+1 < n {
			chart += fmt.Sprintf("dependencies:\n- name: c%d\n  version: 1.0.0\n  repository: file://../c%d\n", i+1, i+1)
		}
		files[fmt.Sprintf("c%d/Chart.yaml", i)] = chart
		files[fmt.Sprintf("c%d/templates/cm.yaml", i)] = cm(fmt.Sprintf("c%d", i))
	}
	root := rendertest.WriteTree(t, "", files)
	c, problems := Load(filepath.Join(root, "c0"), LoadOptions{Charts: anyChart})
	if c == nil {
		t.Fatal(messages(problems))
	}
	// c0 is the root; c1 .. c<maxDepth> are taken; c<maxDepth+1> is not.
	deepest := fmt.Sprintf("c%d", maxDepth+1)
	if !slices.Equal(c.Missing, []string{deepest}) {
		t.Errorf("Missing %v, want [%s]:\n%s", c.Missing, deepest, messages(problems))
	}
	if len(c.sources) != maxDepth {
		t.Errorf("%d charts taken, want %d", len(c.sources), maxDepth)
	}
	out, ps := c.Render(context.Background(), ValueSet{Name: DefaultsName}, Options{})
	if out == nil || len(out.Files) != maxDepth+1 {
		t.Fatalf("rendered %v, want %d templates: %s", out, maxDepth+1, messages(ps))
	}
}

// TestDependencyNotInTree: a sibling that is not a chart of the tree
// being checked (LoadOptions.Charts) is not taken; the chart renders
// without it, as before.
func TestDependencyNotInTree(t *testing.T) {
	root := rendertest.WriteTree(t, "", map[string]string{
		"web/Chart.yaml":    "apiVersion: v2\nname: web\nversion: 1.0.0\ndependencies:\n- name: common\n  version: 2.x.x\n  repository: oci://registry.example/charts\n- name: lib\n  version: 1.0.0\n  repository: file://../lib\n",
		"common/Chart.yaml": "apiVersion: v2\nname: common\nversion: 2.0.0\ntype: library\n",
		"lib/Chart.yaml":    "apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\n",
	})
	for _, charts := range []func(string) bool{nil, func(string) bool { return false }} {
		c, problems := Load(filepath.Join(root, "web"), LoadOptions{Charts: charts})
		if c == nil {
			t.Fatal(messages(problems))
		}
		if !slices.Equal(c.Missing, []string{"common", "lib"}) || len(c.sources) != 0 {
			t.Errorf("Missing %v, %d taken; want both missing:\n%s", c.Missing, len(c.sources), messages(problems))
		}
		if want := "its file:// source " + filepath.Join(root, "lib") + " is not a chart among the paths checked"; !strings.Contains(messages(problems), want) {
			t.Errorf("problems:\n%s\nwant %q", messages(problems), want)
		}
	}
}

// TestDependencyInputLimit: the input limit bounds a chart and the
// dependencies it takes together: past it, a dependency is not read (one
// input-limit problem naming it) and the chart renders without it.
func TestDependencyInputLimit(t *testing.T) {
	root := rendertest.WriteTree(t, "", map[string]string{
		"web/Chart.yaml":          "apiVersion: v2\nname: web\nversion: 1.0.0\ndependencies:\n- name: common\n  version: 2.x.x\n  repository: oci://registry.example/charts\n",
		"web/templates/cm.yaml":   cm("web"),
		"common/Chart.yaml":       "apiVersion: v2\nname: common\nversion: 2.0.0\ntype: library\n",
		"common/templates/_n.tpl": "",
		"common/templates/_m.tpl": "",
		"common/templates/_o.tpl": "",
		"common/templates/_p.tpl": "",
	})
	// web's two files fit; common's five do not.
	c, problems := Load(filepath.Join(root, "web"), LoadOptions{Charts: anyChart, Limits: render.Limits{MaxFiles: 4}})
	if c == nil {
		t.Fatal(messages(problems))
	}
	var limit bool
	for _, p := range problems {
		limit = limit || p.Rule == render.RuleLimit
	}
	if !limit || !slices.Equal(c.Missing, []string{"common"}) || len(c.sources) != 0 {
		t.Errorf("problems:\n%s\nMissing %v; want an input-limit problem and common missing", messages(problems), c.Missing)
	}
}
