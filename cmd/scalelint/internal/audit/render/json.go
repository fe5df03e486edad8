package render

import (
	"fmt"
	"io"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/output"
)

// jsonSummary counts the autoscalers as check does (once per place in
// the sources) and the rows they take (more where a chart's value sets or
// kustomize builds give one different numbers); the verdicts count rows.
type jsonSummary struct {
	Files         int `json:"files"`
	Autoscalers   int `json:"autoscalers"`
	Rows          int `json:"rows"`
	Fail          int `json:"fail"`
	Warn          int `json:"warn"`
	Accepted      int `json:"accepted"`
	Pass          int `json:"pass"`
	Partial       int `json:"partial"`
	Unknown       int `json:"unknown"`
	NotApplicable int `json:"notApplicable"`
}

// jsonRow is a row with the rules it is listed under.
type jsonRow struct {
	*audit.Row
	Rules []string `json:"rules,omitempty"`
}

func summaryOf(a *audit.Audit) jsonSummary {
	c := a.Counts()
	return jsonSummary{Files: a.Files, Autoscalers: a.Autoscalers, Rows: len(a.Rows), Fail: c[audit.Fail], Warn: c[audit.Warn], Accepted: c[audit.Accepted],
		Pass: c[audit.Pass], Partial: c[audit.Partial], Unknown: c[audit.Unknown], NotApplicable: c[audit.NA]}
}

// writeJSON writes the document {"version": 1, "summary": jsonSummary,
// "autoscalers": [jsonRow...]} as json.Encoder with a two-space indent
// would, one row at a time (output.JSONStream): 10,000 rows encoded at
// once held their whole output twice.
func writeJSON(w io.Writer, a *audit.Audit, _ Options) error {
	s := output.NewJSONStream(w)
	summary, err := s.Value(summaryOf(a), "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(s.W, "{\n  \"version\": %d,\n  \"summary\": %s,\n  \"autoscalers\": [", 1, summary)
	for _, r := range a.Rows {
		if err := s.Element(jsonRow{Row: r, Rules: r.Rules()}, "    "); err != nil {
			return err
		}
	}
	s.EndList("    ")
	s.W.WriteString("]\n}\n")
	return s.Flush()
}
