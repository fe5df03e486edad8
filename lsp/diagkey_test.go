package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

// TestDiagKey: the publication key is the same for equal diagnostics and
// differs when anything a client shows differs (range, severity, code,
// message, related information, tags) or the version of an open document.
func TestDiagKey(t *testing.T) {
	base := func() []protocol.Diagnostic {
		return []protocol.Diagnostic{{
			Range:    protocol.Range{Start: protocol.Position{Line: 3, Character: 4}, End: protocol.Position{Line: 3, Character: 9}},
			Severity: protocol.DiagnosticSeverityError, Code: protocol.String("latency-floor"), Message: protocol.String("hunts"),
			RelatedInformation: []protocol.DiagnosticRelatedInformation{{Location: protocol.Location{URI: "file:///a.yaml"}, Message: "the dead time"}},
		}}
	}
	k := diagKey(base(), 1, true)
	if diagKey(base(), 1, true) != k {
		t.Fatal("equal diagnostics, different keys")
	}
	changes := map[string]func(d *protocol.Diagnostic){
		"range":    func(d *protocol.Diagnostic) { d.Range.End.Character++ },
		"severity": func(d *protocol.Diagnostic) { d.Severity = protocol.DiagnosticSeverityWarning },
		"code":     func(d *protocol.Diagnostic) { d.Code = protocol.String("retry-trap") },
		"message":  func(d *protocol.Diagnostic) { d.Message = protocol.String("rests") },
		"related":  func(d *protocol.Diagnostic) { d.RelatedInformation[0].Message = "the pod rate" },
		"tags":     func(d *protocol.Diagnostic) { d.Tags = protocol.NewDiagnosticTags(protocol.DiagnosticTagUnnecessary) },
	}
	for name, change := range changes {
		items := base()
		change(&items[0])
		if diagKey(items, 1, true) == k {
			t.Errorf("a change of %s keeps the key", name)
		}
	}
	if diagKey(base(), 2, true) == k || diagKey(base(), 1, false) == k {
		t.Error("the version of an open document is not in the key")
	}
	if diagKey(nil, 0, false) == diagKey(base(), 0, false) {
		t.Error("no diagnostics and one share a key")
	}
}
