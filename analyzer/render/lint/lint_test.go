package lint_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/analyzertest"
	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
	"github.com/scalelint/scalelint/analyzer/render/lint"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
)

// The fixtures in testdata are charts and kustomizations linted as the
// command line lints a directory (analyzertest renders them), with the
// findings of every rule expected where they are mapped back.
func TestFixtures(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			analyzertest.Run(t, p, rules.All(), rules.All()...)
		})
	}
}

// TestVariantsWarn: the finding only an autoscaling variant produces is a
// warning (testdata/variants.txtar), and names the variant.
func TestVariantsWarn(t *testing.T) {
	res := analyzertest.Run(t, filepath.Join("testdata", "variants.txtar"), rules.All(), rules.All()...)
	if len(res.Diagnostics) != 1 {
		t.Fatalf("findings: %v", res.Diagnostics)
	}
	d := res.Diagnostics[0]
	if d.Severity != analyzer.Warning || len(d.Rendered.Sets) != 1 || d.Rendered.Sets[0] != "values.yaml with worker.autoscaling.hpa.enabled=true" {
		t.Errorf("%s %s %v; want a warning of the HPA variant", d.Rule, d.Severity, d.Rendered.Sets)
	}
}

// TestDependencyLinkOut: a dependency's sibling directory that is a
// symbolic link to a chart outside the tree checked is not taken: the walk
// does not follow it, so it is no chart of the tree (Plan.Sources), and
// the chart renders without it. The same chart inside the tree is taken.
func TestDependencyLinkOut(t *testing.T) {
	outside, tree := t.TempDir(), t.TempDir()
	write := func(p, text string) {
		rendertest.WriteTree(t, filepath.Dir(p), map[string]string{filepath.Base(p): text})
	}
	common := "apiVersion: v2\nname: common\nversion: 2.0.0\ntype: library\n"
	write(filepath.Join(outside, "common", "Chart.yaml"), common)
	write(filepath.Join(tree, "web", "Chart.yaml"), "apiVersion: v2\nname: web\nversion: 1.0.0\ndependencies:\n- name: common\n  version: 2.x.x\n  repository: oci://registry.example/charts\n")
	write(filepath.Join(tree, "web", "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n")
	if err := os.Symlink(filepath.Join(outside, "common"), filepath.Join(tree, "common")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	taken := func() string {
		t.Helper()
		paths, errs := workspace.Walk([]string{tree}, nil)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		res := lint.Render(context.Background(), lint.Discover(paths), lint.Options{Analyzers: rules.All()})
		for _, p := range res.Problems {
			if strings.Contains(p.Message, `dependency "common"`) {
				return p.Message
			}
		}
		t.Fatalf("no problem about common: %v", res.Problems)
		return ""
	}
	if msg := taken(); !strings.Contains(msg, "the chart is rendered without it") {
		t.Errorf("the linked chart outside the tree was taken: %s", msg)
	}
	if err := os.Remove(filepath.Join(tree, "common")); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(tree, "common", "Chart.yaml"), common)
	if msg := taken(); !strings.Contains(msg, "rendered with "+filepath.Join(tree, "common")) {
		t.Errorf("the chart inside the tree was not taken: %s", msg)
	}
}
