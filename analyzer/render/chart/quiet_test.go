package chart

import (
	"io"
	"log"
	"os"
	"testing"
)

// Helm logs a value it cannot merge through the standard logger
// (pkg/chart/common/util/coalesce.go: "warning: skipped value for
// app.sub.tls: Not a table." here): bitnami/charts printed such
// lines between scalelint's messages. A render writes nothing to standard
// error nor to the standard logger, and leaves both as it found them.
func TestRenderWritesNothingToStderr(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"Chart.yaml":                   "apiVersion: v2\nname: app\nversion: 1.0.0\ndependencies:\n- name: sub\n  version: 1.0.0\n",
		"values.yaml":                  "sub:\n  tls:\n    enabled: true\n",
		"templates/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\n",
		"charts/sub/Chart.yaml":        "apiVersion: v2\nname: sub\nversion: 1.0.0\n",
		"charts/sub/values.yaml":       "tls: false\n",
		"charts/sub/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: sub}\n",
	})
	c, problems := Load(dir, LoadOptions{})
	if c == nil || len(problems) > 0 {
		t.Fatalf("Load: %v", problems)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, logw := os.Stderr, log.Writer()
	os.Stderr = w
	log.SetOutput(w)
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
