// Package audittest holds what the audit's tests and its renderers'
// tests share: an audit run in process on the fixture repository
// (testdata/audit/repo) or on any paths, and a row found by name.
package audittest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/load"
)

// RepoRoot is the module root, found from the working directory up.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Of audits the given paths in process, as `scalelint audit` does with
// the built-in configuration (sim: with the simulations the HTML report
// draws).
func Of(t testing.TB, sim bool, paths ...string) *audit.Audit {
	t.Helper()
	cfg := analyzer.DefaultConfig()
	in, _ := load.Read(paths, strings.NewReader(""), load.Options{Config: cfg})
	if len(in.Errs) > 0 || in.Files == 0 {
		t.Fatalf("loading %v: %d files, %v", paths, in.Files, in.Errs)
	}
	return audit.Run(in, audit.Options{Simulate: sim})
}

// Fixture audits the fixture repository, testdata/audit/repo.
func Fixture(t testing.TB, sim bool) *audit.Audit {
	t.Helper()
	return Of(t, sim, filepath.Join(RepoRoot(t), "testdata", "audit", "repo"))
}

// RowNamed returns the row of the autoscaler of that name, failing the
// test when there is none.
func RowNamed(t testing.TB, a *audit.Audit, name string) *audit.Row {
	t.Helper()
	for _, r := range a.Rows {
		if r.Object.Name == name {
			return r
		}
	}
	t.Fatalf("no autoscaler %q", name)
	return nil
}
