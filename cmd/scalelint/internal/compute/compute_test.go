package compute

import (
	"context"
	"go/token"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
	"github.com/scalelint/scalelint/rules/format"
)

func ptr(v float64) *float64 { return &v }

// TestGrowthFactorAsTheController: compute's g is the controller's, as
// check's: utilization truncated to a whole percent of the request,
// ⌊100·ℓ/r⌋/u* (Kubernetes replica_calculator.go, GetResourceUtilizationRatio;
// rules/laws/README.md §1). With ℓ = 1, r = 0.3 at 70% that is 333/70,
// not ℓ/(r·u*) = 4.7619.
func TestGrowthFactorAsTheController(t *testing.T) {
	res := Compute(Inputs{Limit: ptr(1), Request: ptr(0.3), Target: ptr(0.7)})
	want := math.Floor(100*1/0.3) / 70 // computed here, apart from rules/laws
	if g, ok := res.Values["g"].(format.Float); !ok || math.Abs(float64(g)-want) > 1e-5 {
		t.Errorf("g = %v, want %v", res.Values["g"], want)
	}
}

// TestComputeAgreesWithCheck: the numbers compute prints for raw inputs
// are those check reports for a manifest holding the same numbers: the
// latency-floor finding's facts and its fix.
func TestComputeAgreesWithCheck(t *testing.T) {
	src := []byte(`apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: orders
  annotations: {scalelint.dev/dead-time: "90s", scalelint.dev/pod-rate: "10", scalelint.dev/sampling-delay: "15s"}
spec:
  scaleTargetRef: {name: orders}
  advanced:
    horizontalPodAutoscalerConfig:
      behavior:
        scaleDown: {stabilizationWindowSeconds: 120}
  triggers:
  - type: kafka
    metadata: {topic: orders, lagThreshold: "10"}
`)
	fset := token.NewFileSet()
	ws := workspace.New(fset, []*manifest.File{manifest.Parse(fset, "orders.yaml", src, manifest.Options{})}, workspace.Options{})
	var floor *analyzer.Diagnostic
	for _, d := range analyzer.Run(context.Background(), ws, rules.All(), nil) {
		if d.Rule == "latency-floor" {
			floor = &d
		}
	}
	if floor == nil || len(floor.SuggestedFixes) == 0 {
		t.Fatalf("check reports no latency-floor finding with a fix: %+v", floor)
	}
	res := Compute(Inputs{DeadTime: ptr(90), PodRate: ptr(10), Threshold: ptr(10), Window: ptr(120), Sampling: ptr(15)})
	for _, k := range []string{"requiredStandingDelay", "phi", "w", "standingDelay"} {
		got, ok := res.Values[k].(format.Float)
		if want := floor.Facts[k]; !ok || math.Abs(float64(got)-want) > 1e-5*math.Max(1, want) {
			t.Errorf("%s: compute %v, check %v", k, got, want)
		}
	}
	fix := strings.TrimPrefix(floor.SuggestedFixes[0].Message, "Set lagThreshold to ")
	text := strings.Join(res.Lines, "\n")
	if m := regexp.MustCompile(`smallest resting threshold (\d+)`).FindStringSubmatch(text); m == nil || m[1] != fix {
		t.Errorf("check's fix sets %s; compute says:\n%s", fix, text)
	}
}
