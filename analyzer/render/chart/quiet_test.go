package chart

import (
	"io"
	"log"
	"os"
	"testing"
)

// Helm logs through the standard logger a value it cannot merge
// (pkg/chart/common/util/coalesce.go: "warning: skipped value for
// app.sub.tls: Not a table." here) and a v2 chart's requirements.yaml
// (pkg/chart/v2/loader/load.go): bitnami/charts and argo-cd's repository
// printed such lines between scalelint's messages. A load and a render
// write nothing to standard error nor to the standard logger, and leave
// both as they found them.
func TestRenderWritesNothingToStderr(t *testing.T) {
	dir := writeTree(t, map[string]string{
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
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, logw := os.Stderr, log.Writer()
	os.Stderr = w
	log.SetOutput(w)
	c, problems := Load(dir, LoadOptions{})
	if c == nil || len(problems) > 0 {
		os.Stderr = stderr
		log.SetOutput(logw)
		t.Fatalf("Load: %v", problems)
	}
	renderSet(t, c, c.ValueSets()[0])
	restoredStderr, restoredLog := os.Stderr == w, log.Writer() == w
	os.Stderr = stderr
	log.SetOutput(logw)
	w.Close()
	out, _ := io.ReadAll(r)
	if len(out) > 0 {
		t.Errorf("the render wrote to standard error:\n%s", out)
	}
	if !restoredStderr || !restoredLog {
		t.Errorf("after the render: os.Stderr restored %v, the standard logger's output restored %v", restoredStderr, restoredLog)
	}
}
