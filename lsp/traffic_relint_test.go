package lsp

import (
	"context"
	"strings"
	"testing"
)

// TestTrafficEditRelintsAutoscalers: an edit to a traffic object (here an
// Istio VirtualService's retries) changes what is inferred for the
// autoscalers of the workloads it routes to, which live in other files:
// the snapshot derived from the previous one must lint those again. A
// VirtualService with 1 retry after a per-try timeout bounds A ≥ 2
// (1/A ≤ 50%); 3 retries bound A ≥ 4 (1/A ≤ 25%), and the HPA's 40% CPU
// target is then at or above it: retry-trap (rules/laws/README.md §3,
// §10.3) appears in hpa.yaml, which the edit did not touch.
func TestTrafficEditRelintsAutoscalers(t *testing.T) {
	deploy := `apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
      - name: api
        image: x
        resources: {requests: {cpu: 500m}, limits: {cpu: "1"}}
---
apiVersion: v1
kind: Service
metadata: {name: api}
spec:
  selector: {app: api}
  ports: [{port: 80}]
`
	hpa := `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: api}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 40}}
`
	vs := func(attempts string) string {
		return `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: api}
spec:
  hosts: [api]
  http:
  - route:
    - destination: {host: api}
    retries: {attempts: ` + attempts + `, perTryTimeout: 2s, retryOn: "5xx"}
`
	}
	files := map[string]string{"/ws/app/deploy.yaml": deploy, "/ws/app/hpa.yaml": hpa, "/ws/app/vs.yaml": vs("1")}
	s, prev := snapshotOfFiles(files)
	before := fileDiagnosticsOf(t, prev)
	s.runLint(context.Background(), prev)
	if strings.Contains(protocolJSON(t, before["/ws/app/hpa.yaml"]), "retry-trap") {
		t.Fatalf("retry-trap before the edit (A ≥ 2, 1/A ≤ 50%% > 40%%): %s", protocolJSON(t, before["/ws/app/hpa.yaml"]))
	}

	files["/ws/app/vs.yaml"] = vs("3")
	snap := setDiskFile(s, "/ws/app/vs.yaml", files["/ws/app/vs.yaml"])
	got := fileDiagnosticsOf(t, snap)
	if !snap.incremental {
		t.Fatal("the snapshot was not derived from the previous one: the test tests nothing")
	}
	_, full := snapshotOfFiles(files)
	want := fileDiagnosticsOf(t, full)
	if w := protocolJSON(t, want["/ws/app/hpa.yaml"]); !strings.Contains(w, "retry-trap") {
		t.Fatalf("a full lint finds no retry-trap after the edit: %s", w)
	}
	for p := range files {
		if g, w := protocolJSON(t, got[p]), protocolJSON(t, want[p]); g != w {
			t.Errorf("%s after the edit of vs.yaml:\nincremental: %s\nfull:        %s", p, g, w)
		}
	}
}
