package audit_test

import (
	"strings"
	"testing"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit/audittest"
)

// One row per autoscaler, worst first, with the verdicts check's findings
// give.
func TestAuditRowsAndOrder(t *testing.T) {
	a := audittest.Fixture(t, false)
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
	checkout := audittest.RowNamed(t, a, "checkout-api")
	if checkout.Laws[audit.Growth] != audit.Fail || checkout.Laws[audit.Retry] != audit.Warn || checkout.Laws[audit.Ceiling] != audit.Unknown || checkout.Laws[audit.Latency] != audit.NA {
		t.Errorf("checkout-api laws: %v", checkout.Laws)
	}
	if r := checkout.Rules(); strings.Join(r, ",") != "retry-trap,tolerance-trap" {
		t.Errorf("checkout-api rules: %v", r)
	}
	// A row passes only when every law that applies holds (issue 16): the
	// invoice consumer's floor rests with a margin, its ceiling laws lack
	// inputs, so it is partial, and its margin is the floor's alone.
	inv := audittest.RowNamed(t, a, "invoice-consumer")
	if inv.Laws[audit.Latency] != audit.Pass || inv.Laws[audit.Ceiling] != audit.Unknown || inv.MarginPercent == nil {
		t.Errorf("invoice-consumer: %v, margin %v", inv.Laws, inv.MarginPercent)
	}
	acc := audittest.RowNamed(t, a, "audit-log-consumer")
	if l := acc.Latency[0]; l.Verdict != audit.Accepted || !strings.Contains(l.Note, "batch archive") {
		t.Errorf("the suppressed floor: %v %q", l.Verdict, l.Note)
	}
}
