package lint_test

import (
	"path/filepath"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/analyzertest"
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
