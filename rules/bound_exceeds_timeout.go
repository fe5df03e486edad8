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
	Doc: analyzer.Doc{
		Title: "Admission bound not shorter than the client timeout",
		What: "Compares the admission bound b (`scalelint.dev/admission-bound`: the queue admits work only while it " +
			"holds at most b seconds of current capacity) with the client timeout τ_out (`scalelint.dev/client-timeout`, " +
			"the shortest among the callers whose abandoned work the service would do), and reports the bound when " +
			"b ≥ τ_out.",
		Why: "A bound shorter than the timeout means every admitted attempt is served before its client gives up: " +
			"no retry debt, the retry trap cannot hold, and all excess becomes visible refusals. A bound at or above " +
			"the timeout still queues work nobody waits for (LAWS.md §5; seed \"The Barrier the Scaler Cannot " +
			"Hold\", Proposition 10).\n\nWorked example: a 20 s bound with a 10 s timeout still served 6,262 s of " +
			"abandoned work and lost 7.5% of demand in the seed's run; a 5 s bound served none and lost 1.2%.",
		Example:    "metadata:\n  annotations:\n    scalelint.dev/client-timeout: \"10s\"\n    scalelint.dev/admission-bound: \"20s\"",
		UseInstead: "metadata:\n  annotations:\n    scalelint.dev/client-timeout: \"10s\"\n    scalelint.dev/admission-bound: \"5s\"",
		Fix:        "None in the manifest: the annotation records the service's bound; shorten the bound in the service's configuration, then the annotation.",
		References: []string{"LAWS.md §5", "seed: The Barrier the Scaler Cannot Hold, Proposition 10 and F3"},
	},
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
			pass.Report(analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "metadata.annotations.admission-bound",
				Message: fmt.Sprintf("admission bound %s is not shorter than the client timeout %s: admitted work can wait past its client, so retry debt still forms; bound the queue below %s",
					format.Secs(b.Bound), format.Secs(b.Timeout), format.Secs(b.Timeout)),
				Facts:   map[string]float64{"admissionBound": b.Bound, "clientTimeout": b.Timeout},
				Related: inputRelated(e.Inputs["client-timeout"], "the client timeout")})
		}
		return nil
	},
}
