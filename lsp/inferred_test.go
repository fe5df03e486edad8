package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestInferredInputsShown: a dead time bounded by the target's readiness
// probe (initialDelaySeconds 90: τ ≥ 90, rules/laws/README.md §10.1) and no
// pod rate. The hover's law table shows the bound with its source and the
// pod-rate ceiling; the inlay hint shows the ceiling; the finding offers to
// annotate the pod rate. c* = 10 / (100 × Φ(3.1)) = 10/89.49 = 0.112,
// written rounded up, 0.12 (§2.4: 89.5 s at τ = 90 s).
func TestInferredInputsShown(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(t.TempDir(), "")
	text := `apiVersion: apps/v1
kind: Deployment
metadata: {name: orders}
spec:
  template:
    spec:
      containers:
      - name: consumer
        image: orders
        readinessProbe: {httpGet: {path: /ready, port: 8080}, initialDelaySeconds: 90}
---
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: orders
spec:
  scaleTargetRef: {name: orders}
  triggers:
  - type: kafka
    metadata: {topic: orders, lagThreshold: "10"}
`
	u := c.open("orders.yaml", text)
	p := c.waitVersion(u, 1)
	var floor *protocol.Diagnostic
	for i, d := range p.Diagnostics {
		if d.Code == protocol.String("latency-floor") {
			floor = &p.Diagnostics[i]
		}
	}
	if floor == nil {
		t.Fatalf("no latency-floor among %v", p.rules())
	}
	msg, _ := floor.Message.(protocol.String)
	if floor.Severity != protocol.DiagnosticSeverityWarning ||
		!strings.Contains(string(msg), "hunts unless each pod serves fewer than 0.12 messages/s") ||
		!strings.Contains(string(msg), "dead time ≥ 90s (readinessProbe, line 10)") {
		t.Fatalf("latency-floor: %+v", floor)
	}

	var h protocol.Hover
	c.mustCall(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: c.positionOf(u, "kind: ScaledObject", len("kind: "))}}, &h)
	mc, _ := h.Contents.(*protocol.MarkupContent)
	if mc == nil {
		t.Fatalf("no hover")
	}
	for _, want := range []string{"**hunts unless c < 0.12/s**", "τ_eff·Φ ≥ 100s × 0.895 = 89.5s", "Read from the manifests:",
		"τ ≥ 90s (readinessProbe, line 10): readinessProbe of container consumer: readinessProbe initialDelaySeconds 90",
		"`latency-floor` needs `scalelint.dev/pod-rate`"} {
		if !strings.Contains(mc.Value, want) {
			t.Errorf("hover lacks %q:\n%s", want, mc.Value)
		}
	}

	var hints []protocol.InlayHint
	c.mustCall(protocol.MethodTextDocumentInlayHint, &protocol.InlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: protocol.Range{End: protocol.Position{Line: 100}}}, &hints)
	if len(hints) != 1 {
		t.Fatalf("hints = %+v", hints)
	}
	if l, _ := hints[0].Label.(protocol.String); l != "hunts unless c < 0.12/s · needs T/c ≥ 89.5s" {
		t.Errorf("hint %q", hints[0].Label)
	}
	if tip, _ := hints[0].Tooltip.(protocol.String); !strings.Contains(string(tip), "dead time ≥ 90s (readinessProbe, line 10)") {
		t.Errorf("tooltip %q", hints[0].Tooltip)
	}

	var actions []protocol.CodeAction
	c.mustCall(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: floor.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{*floor}}}, &actions)
	found := false
	for _, a := range actions {
		if strings.HasPrefix(a.Title, "Annotate the rate one pod serves") && a.Edit != nil {
			found = true
		}
	}
	if !found {
		t.Errorf("no pod-rate quick fix among %+v", actions)
	}
}
