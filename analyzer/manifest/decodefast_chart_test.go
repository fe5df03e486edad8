package manifest_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render/chart"
)

// TestFastDecodeMatchesJSONOnCharts: TestFastDecodeMatchesJSON on the
// rendered output of the charts of testdata/charts, with their default
// values and their other values files.
func TestFastDecodeMatchesJSONOnCharts(t *testing.T) {
	sets := map[string][]chart.ValueSet{
		"helm-create": {{Name: chart.DefaultsName}},
		"podinfo":     {{Name: chart.DefaultsName}, {Name: "values-prod.yaml", Files: []string{"values-prod.yaml"}}},
	}
	own, fast := 0, 0
	for name, vss := range sets {
		c, problems := chart.Load(filepath.Join("..", "..", "testdata", "charts", name), chart.LoadOptions{})
		if c == nil {
			t.Fatalf("load %s: %v", name, problems)
		}
		for _, vs := range vss {
			out, problems := c.Render(context.Background(), vs, chart.Options{})
			if out == nil || len(problems) > 0 {
				t.Fatalf("render %s with %s: %v", name, vs.Name, problems)
			}
			for _, f := range out.Files {
				o, fa := manifest.CompareFastDecodes(t, name+":"+vs.Name+":"+f.Source, f.Text)
				own, fast = own+o, fa+fast
			}
		}
	}
	// Each chart renders a Deployment (podinfo's prod values an HPA too),
	// plain objects the fast path decodes.
	if fast == 0 {
		t.Errorf("none of the %d rendered objects of a decoded kind decoded on the fast path", own)
	}
	t.Logf("%d rendered objects of a decoded kind, %d on the fast path", own, fast)
}
