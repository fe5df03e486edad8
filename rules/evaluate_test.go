package rules

import (
	"context"
	"fmt"
	"go/token"
	"reflect"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/analyzer/workspace/chunked"
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

// TestEvaluateAllInOrder: the evaluations made on every core are, in the
// autoscalers' order, those made one by one, on autoscalers of which
// several target one workload (whose views they share); and a panic of an
// evaluation reaches the caller's goroutine.
func TestEvaluateAllInOrder(t *testing.T) {
	var src []byte
	for i := range 40 {
		src = fmt.Appendf(src, `---
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: so-%d
  annotations: {scalelint.dev/dead-time: "%ds", scalelint.dev/pod-rate: "10"}
spec:
  scaleTargetRef: {name: web-%d}
  triggers:
  - type: kafka
    metadata: {topic: orders, lagThreshold: "%d"}
`, i, 10+i, i%5, 5+i)
	}
	for i := range 5 {
		src = fmt.Appendf(src, `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web-%d}
spec:
  template:
    spec:
      containers:
      - name: app
        readinessProbe: {initialDelaySeconds: %d, periodSeconds: 5}
`, i, 3*i)
	}
	fset := token.NewFileSet()
	f := manifest.Parse(fset, "all.yaml", src, manifest.Options{})
	ws := workspace.New(fset, []*manifest.File{f}, workspace.Options{})
	as := ws.Autoscalers()
	if as.Len() != 40 {
		t.Fatalf("%d autoscalers, want 40", as.Len())
	}
	cfg := analyzer.DefaultConfig()
	got := evaluateAll(Evaluations(analyzer.NewShared(), cfg), ws, as)
	serial := Evaluations(analyzer.NewShared(), cfg)
	for i, a := range as.All() {
		want := serial.Evaluate(ws, a)
		if got[i].Autoscaler != a || !reflect.DeepEqual(got[i].Inputs, want.Inputs) || !reflect.DeepEqual(got[i].Backlog, want.Backlog) ||
			!reflect.DeepEqual(got[i].Missing, want.Missing) {
			t.Errorf("autoscaler %d (%s): evaluated on every core\n%+v\none by one\n%+v", i, a.Object.Name, got[i], want)
		}
	}
	defer func() {
		if r := recover(); r == nil {
			t.Error("a panic of an evaluation did not reach the caller")
		}
	}()
	evaluateAll(Evaluations(analyzer.NewShared(), cfg), ws, chunked.From(append(as.Slice(0, 3), nil)))
}

// TestReplicasFixReadsNoText: replicas-managed-by-autoscaler's fix deletes
// the line of spec.replicas as deleteLine reads it from the text, but from
// the line recorded when the workload's view was built: a workspace whose
// texts were dropped after parsing (as the CLI's are) is not read again
// for it. The text breaks lines with "\r\n", which the line's end takes in.
func TestReplicasFixReadsNoText(t *testing.T) {
	src := []byte("apiVersion: apps/v1\r\nkind: Deployment\r\nmetadata: {name: web}\r\nspec:\r\n  replicas: 3\r\n  template: {spec: {containers: [{name: app}]}}\r\n---\r\n" +
		"apiVersion: autoscaling/v2\r\nkind: HorizontalPodAutoscaler\r\nmetadata: {name: web}\r\nspec:\r\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\r\n  maxReplicas: 5\r\n")
	fset := token.NewFileSet()
	f := manifest.Parse(fset, "web.yaml", src, manifest.Options{Eager: manifest.IsReadKind})
	workspace.Prepare(f, true)
	reads := 0
	f.DropText(func() ([]byte, error) { reads++; return src, nil }, true)
	ws := workspace.New(fset, []*manifest.File{f}, workspace.Options{Release: true})
	var fix *analyzer.TextEdit
	for _, d := range analyzer.Run(context.Background(), ws, []*analyzer.Analyzer{ReplicasManagedByAutoscaler}, nil) {
		if d.Rule == ReplicasManagedByAutoscaler.Name && len(d.SuggestedFixes) == 1 {
			fix = &d.SuggestedFixes[0].Edits[0]
		}
	}
	if fix == nil {
		t.Fatal("no finding with a fix")
	}
	if reads != 0 {
		t.Errorf("the file was read %d times for the fix, want 0", reads)
	}
	// The line "  replicas: 3\r\n", as deleteLine reads it from the text.
	want, ok := deleteLine(f, fix.Pos+2)
	start := strings.Index(string(src), "  replicas: 3\r\n")
	if !ok || *fix != want || f.Tok.Offset(fix.Pos) != start || f.Tok.Offset(fix.End) != start+len("  replicas: 3\r\n") {
		t.Errorf("fix deletes [%d, %d), want [%d, %d) (deleteLine: %v)", f.Tok.Offset(fix.Pos), f.Tok.Offset(fix.End), start, start+len("  replicas: 3\r\n"), want)
	}
}
