package rules

import (
	"context"
	"fmt"
	"go/token"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// lintOne runs every rule over one file and returns "rule line: message"
// per finding.
func lintOne(t *testing.T, src string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f := manifest.Parse(fset, "f.yaml", []byte(src), manifest.Options{Eager: manifest.IsReadKind})
	ws := workspace.New(fset, []*manifest.File{f}, workspace.Options{})
	var out []string
	for _, d := range analyzer.Run(context.Background(), ws, All(), nil) {
		line, _ := f.Position(d.Pos)
		out = append(out, fmt.Sprintf("%s %d: %s", d.Rule, line, d.Message))
	}
	return out
}

// TestNumbersAsKubectlReadsThem: the integer fields the rules read are
// read as kubectl reads them, never skipped in silence. kubectl turns YAML
// into JSON with sigs.k8s.io/yaml, which parses with go-yaml v2: a plain
// integer goes through strconv.ParseInt(s, 0, 64) with underscores
// removed (go-yaml v2's resolve.go), so 0x28, 0o50, 050, 0b101000 and 4_0
// are 40; null is JSON null, which leaves the field unset. Each written
// value must either be read as that number (here minReplicas 40 above
// maxReplicas 10: replica-bounds) or its default (null: none), or be
// reported where it is written (invalid-field: a quoted "40" is a string,
// 40.5 no integer).
func TestNumbersAsKubectlReadsThem(t *testing.T) {
	hpa := func(min, max string) string {
		return "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: w\nspec:\n" +
			"  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: w}\n" +
			"  minReplicas: " + min + "\n  maxReplicas: " + max + "\n"
	}
	for _, c := range []struct {
		min, max string
		want     string // a finding, "rule line: message"
	}{
		{"40", "10", "replica-bounds 7: minReplicas 40 is above maxReplicas 10"},
		{"0x28", "10", "replica-bounds 7: minReplicas 40 is above maxReplicas 10"},
		{"0o50", "10", "replica-bounds 7: minReplicas 40 is above maxReplicas 10"},
		{"050", "10", "replica-bounds 7: minReplicas 40 is above maxReplicas 10"},
		{"0b101000", "10", "replica-bounds 7: minReplicas 40 is above maxReplicas 10"},
		{"4_0", "10", "replica-bounds 7: minReplicas 40 is above maxReplicas 10"},
		{"+40", "10", "replica-bounds 7: minReplicas 40 is above maxReplicas 10"},
		{"40.0", "10", "replica-bounds 7: minReplicas 40 is above maxReplicas 10"},
		{"2", "0x0", "replica-bounds 8: maxReplicas 0 must be at least 1"},
		{"2", "~", "replica-bounds 8: maxReplicas is null"},
		{"2", "null", "replica-bounds 8: maxReplicas is null"},
		{`"40"`, "10", `invalid-field 7: spec.minReplicas: expected an integer, found string "40"`},
		{"40.5", "10", "invalid-field 7: spec.minReplicas: 40.5 is not a whole number"},
		{"2", `"0x28"`, `invalid-field 8: spec.maxReplicas: expected an integer, found string "0x28"`},
	} {
		got := lintOne(t, hpa(c.min, c.max))
		found := false
		for _, g := range got {
			found = found || strings.HasPrefix(g, c.want)
			if strings.Contains(g, "minReplicas 0 ") || strings.Contains(g, "maxReplicas 0 ") && !strings.Contains(c.want, "maxReplicas 0 ") {
				t.Errorf("min %s max %s: a bound read as 0: %s", c.min, c.max, g)
			}
		}
		if !found {
			t.Errorf("min %s max %s: no %q in\n%s", c.min, c.max, c.want, strings.Join(got, "\n"))
		}
	}
	// null for minReplicas: unset, the default 1 applies; nothing to say.
	for _, min := range []string{"~", "null"} {
		for _, g := range lintOne(t, hpa(min, "10")) {
			if !strings.HasPrefix(g, "unresolved-scale-target") {
				t.Errorf("min %s: %s", min, g)
			}
		}
	}
}

// TestUtilizationBounds: an averageUtilization the API server refuses (0
// or below) is reported, in any spelling of the number.
func TestUtilizationBounds(t *testing.T) {
	for _, c := range []struct{ written, read string }{{"0", "0"}, {"-5", "-5"}, {"0x0", "0"}, {"-0b1", "-1"}} {
		src := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: w\nspec:\n" +
			"  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: w}\n  maxReplicas: 5\n" +
			"  metrics:\n  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: " + c.written + "}}\n"
		want := "replica-bounds 10: utilization target " + c.read + " must be at least 1"
		got := lintOne(t, src)
		found := false
		for _, g := range got {
			found = found || strings.HasPrefix(g, want)
		}
		if !found {
			t.Errorf("averageUtilization %s: no %q in %v", c.written, want, got)
		}
	}
}

// TestQuoteFixAsRead: the safe fix that quotes a number KEDA wants as a
// string quotes it as YAML reads it, in decimal: KEDA reads "0x10" with
// strconv.ParseInt(s, 10, 64) and refuses it, so "0x10" quoted as written
// would turn a value kubectl applies (16) into one KEDA refuses.
func TestQuoteFixAsRead(t *testing.T) {
	so := func(v string) string {
		return "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata:\n  name: s\nspec:\n  scaleTargetRef: {name: w}\n" +
			"  triggers:\n  - type: kafka\n    metadata: {topic: t, lagThreshold: \"10\", activationLagThreshold: " + v + "}\n"
	}
	for v, want := range map[string]string{"0x10": `"16"`, "1_000": `"1000"`, "1e3": `"1000"`, "16": `"16"`, "0.5": `"0.5"`, "true": `"true"`} {
		found := false
		for _, g := range lintOne(t, so(v)) {
			found = found || strings.HasPrefix(g, "invalid-field 9: ") && strings.HasSuffix(g, "(quote it: "+want+")")
		}
		if !found {
			t.Errorf("activationLagThreshold: %s: no fix quoting it as %s: %v", v, want, lintOne(t, so(v)))
		}
	}
}
