package chart

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
)

// Helm logs through the standard logger a value it cannot merge
// (pkg/chart/common/util/coalesce.go: "warning: skipped value for
// app.sub.tls: Not a table." here) and a v2 chart's requirements.yaml
// (pkg/chart/v2/loader/load.go): bitnami/charts and argo-cd's repository
// printed such lines between scalelint's messages. A load and a render
// write nothing to standard error nor to the standard logger, and leave
// both as they found them.
func TestRenderWritesNothingToStderr(t *testing.T) {
	dir := rendertest.WriteTree(t, "", map[string]string{
		"Chart.yaml":            "apiVersion: v2\nname: app\nversion: 1.0.0\ndependencies:\n- name: sub\n  version: 1.0.0\n",
		"values.yaml":           "sub:\n  tls:\n    enabled: true\n",
		"templates/cm.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\n",
		"charts/sub/Chart.yaml": "apiVersion: v2\nname: sub\nversion: 1.0.0\n",
		// A requirements.yaml beside a v2 Chart.yaml: Helm's loader logs
		// "Warning: Dependencies are handled in Chart.yaml since apiVersion
		// \"v2\"" as the chart is loaded (argo-cd's repository: four lines).
		"charts/sub/requirements.yaml": "dependencies: []\n",
		"charts/sub/values.yaml":       "tls: false\n",
		"charts/sub/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: sub}\n",
	})
	out, restored := rendertest.Stderr(t, func() {
		c, problems := Load(dir, LoadOptions{})
		if c == nil || len(problems) > 0 {
			t.Fatalf("Load: %v", problems)
		}
		renderSet(t, c, c.ValueSets()[0])
	})
	if out != "" {
		t.Errorf("the load and render wrote to standard error:\n%s", out)
	}
	if !restored {
		t.Error("the load and render did not leave os.Stderr and the standard logger's output as they found them")
	}
}

// Helm's loader is called outside Load and Render too: DependencyDirs
// reads each chart's Chart.yaml and requirements.yaml through it to find
// the inputs of a chart's renders, and AutoscalingVariants reads the
// defaults through it. Those calls were hushed only when a load or render
// happened to run at the same moment, so argo-cd's repository printed
// Helm's "Dependencies are handled in Chart.yaml" warning in some runs and
// not in others. Neither writes anything, whatever else runs.
func TestLoaderCallsWriteNothingToStderr(t *testing.T) {
	dir := rendertest.WriteTree(t, "", map[string]string{
		"app/Chart.yaml":        "apiVersion: v2\nname: app\nversion: 1.0.0\ndependencies:\n- name: sub\n  version: 1.0.0\n",
		"app/requirements.yaml": "dependencies: []\n",
		"app/values.yaml":       "autoscaling:\n  enabled: false\n",
		"app/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\n",
	})
	read := func(p string) ([]byte, bool) {
		b, err := os.ReadFile(p)
		return b, err == nil
	}
	app := filepath.Join(dir, "app")
	out, restored := rendertest.Stderr(t, func() { DependencyDirs(app, anyChart, read) })
	if out != "" || !restored {
		t.Errorf("DependencyDirs wrote %q to standard error; left the writers as it found them: %v", out, restored)
	}
	c, problems := Load(app, LoadOptions{})
	if c == nil {
		t.Fatal(problems)
	}
	out, restored = rendertest.Stderr(t, func() { c.AutoscalingVariants() })
	if out != "" || !restored {
		t.Errorf("AutoscalingVariants wrote %q to standard error; left the writers as it found them: %v", out, restored)
	}
}
