package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestStreamJSONMatchesEncoder checks the streaming writer against
// encoding/json's own output of the whole report (the independent
// reference), with and without diagnostics and with characters an HTML-
// escaping encoder would change.
func TestStreamJSONMatchesEncoder(t *testing.T) {
	reports := []jsonReport{
		{Version: 1, Diagnostics: []jsonDiagnostic{}, Summary: jsonSummary{Files: 2}},
		{Version: 1, Diagnostics: []jsonDiagnostic{
			{File: "a.yaml", Line: 3, Column: 5, EndLine: 3, EndColumn: 9, Severity: "error", Rule: "r", Message: "x <y> & \"z\" é",
				Object: &objectRef{Kind: "HorizontalPodAutoscaler", Name: "n"}, Facts: map[string]float64{"g": 1.05, "a": 2}},
			{File: "b.yaml", Line: 1, Column: 1, EndLine: 1, EndColumn: 2, Severity: "info", Rule: "s", Message: "m"},
		}, Summary: jsonSummary{Files: 2, Objects: 3, Autoscalers: 1, Errors: 1, Infos: 1,
			Missing: []missingJSON{{File: "a.yaml", Line: 2, Object: &objectRef{Kind: "ScaledObject"}, Laws: []missingLaw{{Law: "latency-floor", Needs: []string{"scalelint.dev/pod-rate"}}}},
				{File: "c.yaml", Line: 9, Laws: []missingLaw{{Law: "retry-trap", Why: "w"}, {Law: "ceiling", Needs: []string{"x", "y"}}}}}}},
	}
	for i, rep := range reports {
		want := encoderJSON(t, rep)
		var got bytes.Buffer
		if err := streamJSON(&got, rep); err != nil {
			t.Fatal(err)
		}
		if got.String() != want {
			t.Errorf("report %d:\nstreamed:\n%s\nencoder:\n%s", i, got.String(), want)
		}
	}
}

// encoderJSON is v as encoding/json writes it with a two-space indent and
// no HTML escaping: the reference the streaming writers must match.
func encoderJSON(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
