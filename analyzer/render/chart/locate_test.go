package chart

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
)

// TestLocateEmptyValue: a value that renders as nothing
// ("maxReplicas: {{ .Values.autoscaling.maxReplicas }}" with
// maxReplicas: "", as 54 of bitnami's charts render their HPAs when
// autoscaling is switched on without a value) is a null whose node
// starts at the blank before the action. It is located at the values
// file's scalar, with the template line related, as a value the action
// writes out is; it was located at the template's blank.
func TestLocateEmptyValue(t *testing.T) {
	dir := rendertest.WriteTree(t, "", map[string]string{
		"web/Chart.yaml":  "apiVersion: v2\nname: web\nversion: 0.1.0\n",
		"web/values.yaml": "autoscaling:\n  maxReplicas: \"\"\n  minReplicas: 2\n",
		"web/templates/hpa.yaml": "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n" +
			"  minReplicas: {{ .Values.autoscaling.minReplicas }}\n  maxReplicas: {{ .Values.autoscaling.maxReplicas }}\n",
	})
	c, problems := Load(filepath.Join(dir, "web"), LoadOptions{})
	if c == nil {
		t.Fatalf("Load: %s", messages(problems))
	}
	hpa := fileOf(renderSet(t, c, ValueSet{Name: DefaultsName}), "templates/hpa.yaml")
	values, _ := c.Data("values.yaml")
	tpl, _ := c.Data("templates/hpa.yaml")
	at := bytes.Index(hpa.Text, []byte("maxReplicas:")) + len("maxReplicas:")
	loc := hpa.Locator.Locate(at, at)
	if filepath.Base(loc.Path) != "values.yaml" || string(values[loc.Start:loc.End]) != `""` {
		t.Fatalf("Locate(null maxReplicas) = %+v; want values.yaml's \"\"", loc)
	}
	if len(loc.Related) != 1 || !bytes.HasPrefix(tpl[loc.Related[0].Start:], []byte("{{ .Values.autoscaling.maxReplicas }}")) {
		t.Errorf("Related = %+v; want the template's action", loc.Related)
	}
	// A value written out is located as before (the independent check of
	// the same path: minReplicas' 2).
	at = bytes.Index(hpa.Text, []byte("minReplicas: ")) + len("minReplicas: ")
	if loc := hpa.Locator.Locate(at, at+1); filepath.Base(loc.Path) != "values.yaml" || string(values[loc.Start:loc.End]) != "2" {
		t.Errorf("Locate(minReplicas) = %+v; want values.yaml's 2", loc)
	}
}
