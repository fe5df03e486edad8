package audit_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/load"
)

// repoRoot is the module root, found from the working directory up.
func repoRoot(t testing.TB) string {
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

// auditOf audits the given paths in process, as `scalelint audit` does
// with the built-in configuration.
func auditOf(t testing.TB, sim bool, paths ...string) *audit.Audit {
	t.Helper()
	cfg := analyzer.DefaultConfig()
	in, _ := load.Read(paths, strings.NewReader(""), load.Options{Config: cfg})
	if len(in.Errs) > 0 || in.Files == 0 {
		t.Fatalf("loading %v: %d files, %v", paths, in.Files, in.Errs)
	}
	return audit.Run(in, audit.Options{Simulate: sim})
}

func auditFixture(t testing.TB, sim bool) *audit.Audit {
	return auditOf(t, sim, filepath.Join(repoRoot(t), "testdata", "audit", "repo"))
}

func rowNamed(t *testing.T, a *audit.Audit, name string) *audit.Row {
	t.Helper()
	for _, r := range a.Rows {
		if r.Object.Name == name {
			return r
		}
	}
	t.Fatalf("no autoscaler %q", name)
	return nil
}

// One row per autoscaler, worst first, with the verdicts check's findings
// give.
func TestAuditRowsAndOrder(t *testing.T) {
	a := auditFixture(t, false)
	var got []string
	for _, r := range a.Rows {
		got = append(got, r.Verdict.String()+" "+r.Object.Name)
	}
	want := []string{
		"fail checkout-api",           // margin -185% (1/A), and trapped
		"fail orders-consumer",        // -99%
		"fail ledger-api",             // -11%
		"warn storefront",             // 1,800 s against a 600 s deadline
		"accepted audit-log-consumer", // suppressed by its annotation
		"pass catalog-api",            // +25%: every law that applies evaluated
		"partial invoice-consumer",    // +12% on its latency floor; its ceiling needs retries and a peak
		"unknown report-worker",       // nothing could be evaluated
		"n/a thumbnail-job",           // a ScaledJob
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	checkout := rowNamed(t, a, "checkout-api")
	if checkout.Laws[audit.Growth] != audit.Fail || checkout.Laws[audit.Retry] != audit.Warn || checkout.Laws[audit.Ceiling] != audit.Unknown || checkout.Laws[audit.Latency] != audit.NA {
		t.Errorf("checkout-api laws: %v", checkout.Laws)
	}
	if r := checkout.Rules(); strings.Join(r, ",") != "retry-trap,tolerance-trap" {
		t.Errorf("checkout-api rules: %v", r)
	}
	// A row passes only when every law that applies holds (issue 16): the
	// invoice consumer's floor rests with a margin, its ceiling laws lack
	// inputs, so it is partial, and its margin is the floor's alone.
	inv := rowNamed(t, a, "invoice-consumer")
	if inv.Laws[audit.Latency] != audit.Pass || inv.Laws[audit.Ceiling] != audit.Unknown || inv.MarginPercent == nil {
		t.Errorf("invoice-consumer: %v, margin %v", inv.Laws, inv.MarginPercent)
	}
	acc := rowNamed(t, a, "audit-log-consumer")
	if l := acc.Latency[0]; l.Verdict != audit.Accepted || !strings.Contains(l.Note, "batch archive") {
		t.Errorf("the suppressed floor: %v %q", l.Verdict, l.Note)
	}
}
