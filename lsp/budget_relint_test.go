package lsp

import (
	"context"
	"io"
	"strings"
	"testing"

	"go.lsp.dev/uri"
)

// TestBudgetPeerEditRelintsAutoscaler: pdb-blocks-eviction judges a
// PodDisruptionBudget against an autoscaler's floor only while the budget
// selects the pods of that autoscaler's target alone. Giving another
// Deployment (other.yaml, no autoscaler of its own) the label the budget
// selects by makes it count the pods of both, so the finding on hpa.yaml,
// a file the edit did not touch, goes: the snapshot derived from the
// previous one must lint hpa.yaml again (rules.BudgetPeers). The budget
// asks minAvailable 1 and the HPA's floor is 1 (the default): 1 − 1 = 0
// evictions allowed (the disruption controller's count, rules doc).
func TestBudgetPeerEditRelintsAutoscaler(t *testing.T) {
	deploy := func(name, labels string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ` + name + `}
spec:
  template:
    metadata: {labels: ` + labels + `}
    spec:
      containers: [{name: app, image: x}]
`
	}
	files := map[string]string{
		"/ws/app/web.yaml":   deploy("web", "{app: web, team: t}"),
		"/ws/app/other.yaml": deploy("other", "{app: other}"),
		"/ws/app/hpa.yaml": `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 10
`,
		"/ws/app/pdb.yaml": `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: team}
spec:
  minAvailable: 1
  selector:
    matchLabels: {team: t}
`,
	}
	s, prev := snapshotOfFiles(files)
	before := fileDiagnosticsOf(t, prev)
	s.runLint(context.Background(), prev)
	if !strings.Contains(protocolJSON(t, before["/ws/app/hpa.yaml"]), "pdb-blocks-eviction") {
		t.Fatalf("no pdb-blocks-eviction before the edit (floor 1, minAvailable 1): %s", protocolJSON(t, before["/ws/app/hpa.yaml"]))
	}

	files["/ws/app/other.yaml"] = deploy("other", "{app: other, team: t}")
	snap := setDiskFile(s, "/ws/app/other.yaml", files["/ws/app/other.yaml"])
	got := fileDiagnosticsOf(t, snap)
	if !snap.incremental || snap.relinted == nil {
		t.Fatal("the snapshot was not derived from the previous one, linting part of the files: the test tests nothing")
	}
	_, full := snapshotOfFiles(files)
	want := fileDiagnosticsOf(t, full)
	if w := protocolJSON(t, want["/ws/app/hpa.yaml"]); strings.Contains(w, "pdb-blocks-eviction") {
		t.Fatalf("a full lint still finds pdb-blocks-eviction with the budget on two workloads: %s", w)
	}
	for p := range files {
		if g, w := protocolJSON(t, got[p]), protocolJSON(t, want[p]); g != w {
			t.Errorf("%s after the edit of other.yaml:\nincremental: %s\nfull:        %s", p, g, w)
		}
	}
}

// snapshotOfFiles returns a snapshot of a new server holding files on
// disk, and the server.
func snapshotOfFiles(files map[string]string) (*Server, *Snapshot) {
	s := NewServer(Options{Debounce: -1, Log: io.Discard})
	for p, text := range files {
		s.setDiskLocked(p, s.cache.newHandle(p, uri.File(p), 0, false, []byte(text)))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s, s.newSnapshotLocked()
}

// setDiskFile replaces one file on a server's disk and returns the
// snapshot that follows.
func setDiskFile(s *Server, p, text string) *Snapshot {
	s.setDiskLocked(p, s.cache.newHandle(p, uri.File(p), 0, false, []byte(text)))
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newSnapshotLocked()
}
