package chart

import "testing"

// TestValuesBeside: which files beside a chart's values.yaml are value
// sets of their own: a name that starts with "values" and a separator, a
// YAML mapping, not a template of values for a build step to fill.
func TestValuesBeside(t *testing.T) {
	names := map[string]bool{
		"values-prod.yaml":    true,
		"values.lint.yaml":    true,
		"values_ha.yml":       true,
		"values.yaml":         false, // the defaults
		"values.yml":          false, // no name after the separator
		"valuesprod.yaml":     false,
		"values.schema.json":  false,
		"ci/values-prod.yaml": false, // below the chart: not beside values.yaml
		"my-values.yaml":      false,
	}
	for name, want := range names {
		if got := isSiblingValues(name); got != want {
			t.Errorf("isSiblingValues(%q) = %v, want %v", name, got, want)
		}
	}
	texts := map[string]bool{
		"autoscaling:\n  enabled: true\n":       true,
		"autoscaling:\n  enabled: ${ENABLED}\n": false, // envsubst
		"image: {{ .Version }}\n":               false, // a Go template
		"- a list\n":                            false, // no mapping of values
	}
	for text, want := range texts {
		if got := siblingValues([]byte(text)); got != want {
			t.Errorf("siblingValues(%q) = %v, want %v", text, got, want)
		}
	}
}
