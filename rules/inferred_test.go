package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/analyzertest"
)

// lawRules are the rules that report the laws: every one of their
// findings in an inference fixture must be expected.
var lawRules = []*analyzer.Analyzer{ToleranceTrap, ScaleUpRounds, LatencyFloor, LatencyTarget, RetryTrap,
	CeilingTrap, EmptyCeilingBand, CeilingOverPeak, BoundExceedsTimeout}

// TestInferredFixtures runs rules/testdata/inferred/*.txtar: for each
// source of an inferred input (rules/laws/README.md §10), manifests on
// which a law rule fires from the bound it gives, and manifests on which
// it must stay silent because the bound is not sound in that direction or
// the source is not read at all. Every finding of a law rule must be
// expected, so a silent case fails the test if the rule fires.
func TestInferredFixtures(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "inferred", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			analyzertest.Run(t, p, All(), lawRules...)
		})
	}
}

// TestSeverityByClaim: a finding is an error only where the claim is
// certain. A trapped CPU target beside another metric that may scale up,
// a backlog loop beside another trigger, and any loop without a pod rate
// are warnings; the same findings alone are errors (the fixtures
// tolerance-trap.txtar and latency-floor.txtar say why).
func TestSeverityByClaim(t *testing.T) {
	want := map[string]analyzer.Severity{
		// tolerance-trap.txtar
		"api": analyzer.Error, "cpu-and-queue": analyzer.Warning, "cpu-and-memory": analyzer.Warning,
		"two-trapped": analyzer.Error, "one-escapes": analyzer.Warning, "cpu-and-kafka": analyzer.Warning,
		// latency-floor.txtar
		"orders": analyzer.Error, "kafka-default": analyzer.Warning, "probed": analyzer.Warning,
		"two-triggers": analyzer.Warning, "drain-time": analyzer.Error, "drain-time-and-cpu": analyzer.Warning,
	}
	seen := map[string]bool{}
	for _, c := range []struct {
		fixture string
		rule    *analyzer.Analyzer
	}{{"tolerance-trap", ToleranceTrap}, {"latency-floor", LatencyFloor}} {
		res := analyzertest.Run(t, filepath.Join("testdata", c.fixture+".txtar"), All(), c.rule)
		for _, d := range res.Diagnostics {
			name := d.Object.Name
			w, ok := want[name]
			if !ok {
				continue
			}
			seen[name] = true
			if d.Severity != w {
				t.Errorf("%s on %s: %s, want %s: %s", c.rule.Name, name, d.Severity, w, d.Message)
			}
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("no finding on %s", name)
		}
	}
}
