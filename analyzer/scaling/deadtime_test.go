package scaling

import (
	"go/token"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

func parseWorkload(t *testing.T, src string) *Workload {
	t.Helper()
	f := manifest.Parse(token.NewFileSet(), "w.yaml", []byte(src), manifest.Options{})
	var objs []*manifest.Object
	for _, d := range f.Docs {
		objs = append(objs, d.Objects()...)
	}
	if len(objs) != 1 {
		t.Fatalf("%d objects", len(objs))
	}
	w := WorkloadFromObject(objs[0])
	if w == nil {
		t.Fatal("not a workload")
	}
	return w
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  template:
    metadata:
      labels: {app: api, tier: web}
    spec:
      initContainers:
      - name: sidecar
        restartPolicy: Always
        startupProbe:
          initialDelaySeconds: SIDECAR
      containers:
      - name: api
        readinessProbe:
          httpGet: {path: /ready, port: 8080}
          initialDelaySeconds: READY
          periodSeconds: 5
          successThreshold: 3
`

// The floor is the probe arithmetic of the Kubernetes Probe fields: the
// first readiness probe runs initialDelaySeconds after the start and the
// container is Ready after successThreshold successes periodSeconds apart:
// 20 + (3 − 1) × 5 = 30 s. A sidecar's startup probe counts too (the pod
// is Ready only when its sidecars are).
func TestDeadTimeFloor(t *testing.T) {
	for _, c := range []struct {
		ready, sidecar string
		want           float64
		source         string
		line           int
	}{
		{"20", "0", 30, "readinessProbe of container api: readinessProbe initialDelaySeconds 20 + (successThreshold 3 − 1) × periodSeconds 5", 17},
		{"20", "45", 45, "startupProbe of container sidecar: startupProbe initialDelaySeconds 45", 13},
		{"x", "0", 0, "startupProbe of container sidecar: startupProbe initialDelaySeconds 0", 13},
	} {
		src := strings.NewReplacer("READY", c.ready, "SIDECAR", c.sidecar).Replace(deployment)
		w := parseWorkload(t, src)
		d := w.DeadTimeFloor()
		if d.Value != c.want || d.Bound != AtLeast || d.Origin != FromInference || d.Source != c.source {
			t.Errorf("ready %s sidecar %s: %+v", c.ready, c.sidecar, d)
		}
		if line := d.Object.File().Lines().Line(d.At.Start()); line != c.line {
			t.Errorf("ready %s: at line %d, want %d", c.ready, line, c.line)
		}
		if l := w.Labels(); len(l) != 2 || l["app"] != "api" || l["tier"] != "web" {
			t.Errorf("labels %v", l)
		}
		if !w.HasLabels(map[string]string{"app": "api"}) || w.HasLabels(map[string]string{"app": "ap"}) || w.HasLabels(map[string]string{"app": "api", "x": "y"}) || w.HasLabels(nil) {
			t.Errorf("HasLabels is not selector matching over %v", w.Labels())
		}
		if v, ok := w.Label("tier"); !ok || v != "web" {
			t.Errorf("Label(tier) = %q, %v; want web", v, ok)
		}
		if v, ok := w.Label("ap"); ok {
			t.Errorf("Label(ap) = %q: a prefix of a key is no key", v)
		}
		each := map[string]string{}
		w.EachLabel(func(k, v string) { each[k] = v })
		if len(each) != 2 || each["app"] != "api" || each["tier"] != "web" {
			t.Errorf("EachLabel gave %v", each)
		}
	}
	// No probe: the dead time is still at least 0.
	w := parseWorkload(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec:\n  template:\n    spec:\n      containers: [{name: a}]\n")
	if d := w.DeadTimeFloor(); d.Value != 0 || d.Bound != AtLeast || !strings.HasPrefix(d.Source, "no readiness or startup probe") {
		t.Errorf("no probe: %+v", d)
	}
}

// Labels returns the pod template's labels (for tests: production code
// asks HasLabels).
func (w *Workload) Labels() map[string]string {
	if w.podLabels == "" {
		return nil
	}
	out := map[string]string{}
	for _, kv := range strings.Split(strings.Trim(w.podLabels, "\x00"), "\x00") {
		k, v, _ := strings.Cut(kv, "\x01")
		out[k] = v
	}
	return out
}
