package lint_test

import (
	"path/filepath"
	"testing"

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
