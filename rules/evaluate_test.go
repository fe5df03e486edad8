package rules

import (
	"context"
	"go/token"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// TestEvaluatorKeepsOneEvaluationPerRun: the evaluations the rules of a run
// made are those the driver reads after it (analyzer.RunWith with the
// driver's Shared), and a workspace that resolves the target otherwise is
// evaluated again rather than served another's evaluation.
func TestEvaluatorKeepsOneEvaluationPerRun(t *testing.T) {
	src := []byte(`apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: orders
  annotations: {scalelint.dev/dead-time: "90s", scalelint.dev/pod-rate: "10"}
spec:
  scaleTargetRef: {name: orders}
  triggers:
  - type: kafka
    metadata: {topic: orders}
`)
	fset := token.NewFileSet()
	f := manifest.Parse(fset, "orders.yaml", src, manifest.Options{})
	ws := workspace.New(fset, []*manifest.File{f}, workspace.Options{})
	a := ws.Autoscalers().At(0)
	cfg := analyzer.DefaultConfig()
	shared := analyzer.NewShared()
	if diags := analyzer.RunWith(context.Background(), ws, All(), cfg, shared); len(diags) == 0 {
		t.Fatal("no findings")
	}
	ev := Evaluations(shared, cfg)
	ev.mu.Lock()
	kept := ev.evals[a]
	ev.mu.Unlock()
	if kept == nil {
		t.Fatal("the run's rules did not evaluate through the driver's Shared")
	}
	if e := ev.Evaluate(ws, a); e != kept {
		t.Errorf("evaluated again after the run")
	}
	// Another workspace of the same parsed file resolves the target anew.
	other := workspace.New(fset, []*manifest.File{f}, workspace.Options{})
	if e := ev.Evaluate(other, a); e == kept || e.Target != other.Target(a) {
		t.Errorf("served an evaluation made with another workspace's resolution")
	}
	if len(kept.Backlog) != 1 || kept.Backlog[0].Required == 0 {
		t.Errorf("evaluation %+v", kept)
	}
}
