package rules

import (
	"fmt"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/rules/format"
)

// BoundExceedsTimeout reports admission bounds not shorter than the client
// timeout.
var BoundExceedsTimeout = &analyzer.Analyzer{
	Name:     "bound-exceeds-timeout",
	Severity: analyzer.Error,
	Doc:      doc("bound-exceeds-timeout"),
	URL:      analyzer.RulesReferenceURL + "#bound-exceeds-timeout",
	Run: func(pass *analyzer.Pass) error {
		for _, e := range evaluations(pass) {
			b := e.Bound
			if b == nil || b.Shorter {
				continue
			}
			a := e.Autoscaler
			in := e.Inputs["admission-bound"]
			r := analyzer.FieldSpan(a.Object, a.Object.KindAt)
			if in.Object != nil && in.At.IsValid() {
				r = analyzer.FieldSpan(in.Object, in.At)
			}
			timeout := format.Secs(b.Timeout)
			if b.Bounded {
				// Sound: τ_out ≤ the route's timeout ≤ b (rules/docs/bound-exceeds-timeout.md).
				timeout = InputText(e.Inputs["client-timeout"], a.Object.File())
			}
			pass.Report(analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "metadata.annotations.admission-bound",
				Message: fmt.Sprintf("admission bound %s is not shorter than the client timeout %s: admitted work can wait past its client, so retry debt still forms; bound the queue below %s",
					format.Secs(b.Bound), timeout, format.Secs(b.Timeout)),
				Facts:   map[string]float64{"admissionBound": b.Bound, "clientTimeout": b.Timeout},
				Sources: factSources(e, "admissionBound", "admission-bound", "clientTimeout", "client-timeout"),
				Related: inputRelated(e.Inputs["client-timeout"], "the client timeout")})
		}
		return nil
	},
}
