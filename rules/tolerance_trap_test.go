package rules

import (
	"context"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// toleranceTrapOf runs tolerance-trap over a Deployment whose one
// container has the given CPU request and limit, scaled by an HPA with
// the given CPU target (and scale-up tolerance, "" for the default 0.1),
// and returns its message and the titles of its fixes.
func toleranceTrapOf(t *testing.T, request, limit, target, tolerance string) (string, []string) {
	t.Helper()
	src := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  template:\n    spec:\n" +
		"      containers: [{name: api, image: api:1, resources: {requests: {cpu: " + request + "}, limits: {cpu: " + limit + "}}}]\n" +
		"---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: api}\nspec:\n" +
		"  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}\n  maxReplicas: 10\n"
	if tolerance != "" {
		src += "  behavior: {scaleUp: {tolerance: " + tolerance + "}}\n"
	}
	src += "  metrics:\n  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: " + target + "}}\n"
	fset := token.NewFileSet()
	f := manifest.Parse(fset, "f.yaml", []byte(src), manifest.Options{Eager: manifest.IsReadKind})
	ws := workspace.New(fset, []*manifest.File{f}, workspace.Options{})
	var msg string
	var fixes []string
	for _, d := range analyzer.Run(context.Background(), ws, All(), nil) {
		if d.Rule != ToleranceTrap.Name {
			continue
		}
		if msg != "" {
			t.Fatalf("two tolerance-trap findings: %q, %q", msg, d.Message)
		}
		msg = d.Message
		for _, fx := range d.SuggestedFixes {
			fixes = append(fixes, fx.Message)
		}
	}
	return msg, fixes
}

// TestToleranceTrapFixes: each fix satisfies the law and its verb, or is
// not offered (rules/laws/README.md §1.2, §1.5). With U = ⌊100·ℓ/r⌋ (ℓ, r
// in millicores), the controller's g at a target p is U/p, trapped when
// g ≤ 1 + tol (+1e-9, rules/laws: ToleranceTrapped). The target fix is
// the largest p below the target with U/p > 1 + tol; the limit fix the
// least ℓ above the limit with ⌊100·ℓ/r⌋/p > 1 + tol and ⌊100·ℓ/r⌋ ≤
// 2³¹ − 1, the most the controller's int32 utilization holds
// (pkg/controller/podautoscaler/metrics/utilization.go). The expected
// values below are worked by hand from those formulas.
func TestToleranceTrapFixes(t *testing.T) {
	for _, c := range []struct {
		name                        string
		request, limit, target, tol string
		fixes                       []string
	}{
		// §1.4: ℓ = r = 1 core at 95%: U = 100, 100/90 = 1.111 escapes,
		// 100/91 = 1.0989 does not; at 95, 105/95 = 1.105 escapes, 104/95
		// = 1.0947 does not: 1050m.
		{"worked example", "\"1\"", "\"1\"", "95", "", []string{"Lower the target to 90%", "Raise the CPU limit of api to 1050m"}},
		// The first trapped target, 91: U must exceed 91 × 1.1 = 100.1, so
		// 101: 1010m (101/91 = 1.1099; 100/91 = 1.0989).
		{"boundary", "\"1\"", "\"1\"", "91", "", []string{"Lower the target to 90%", "Raise the CPU limit of api to 1010m"}},
		// An absurd target, 2,000,000,000%, with ℓ = 2r: U = 200, so the
		// largest p with 200/p > 1.1 is 181 (200/181 = 1.105, 200/182 =
		// 1.0989). Escaping at 2e9% needs U > 2.2e9 > 2³¹ − 1: no limit
		// (was "Raise the CPU limit of api to 11000000005m").
		{"absurd target", "500m", "\"1\"", "2000000000", "", []string{"Lower the target to 181%"}},
		// U = 2,090,000,001 (ℓ = 2090000001m, r = 100m) at 1,900,000,000%:
		// g = 1.10000000053 is within 1e-9 of 1.1, trapped. The largest
		// escaping p is 1,899,999,999 (2090000001/1899999999 = 1.1000000011
		// > 1.100000001); the least escaping U is 2,090,000,002
		// (2090000002/1.9e9 = 1.10000000105), ℓ = 2090000002m. (The old
		// arithmetic offered "Lower the target to 1900000000%", the
		// target itself.)
		{"within eps of the bound", "100m", "2090000001m", "1900000000", "", []string{"Lower the target to 1899999999%", "Raise the CPU limit of api to 2090000002m"}},
		// U = 2,200,000,001 is past 2³¹ − 1: the controller's int32 wraps,
		// and no fix is sound (was "Lower the target to 2000000000%", the
		// target itself, and a limit of 2200000002m).
		{"past the controller's int32", "100m", "2200000001m", "2000000000", "", nil},
		// ℓ = 1m, r = 500m: U = ⌊0.2⌋ = 0, so no target escapes; at 80%
		// U must exceed 88: 89, ℓ = ⌈89 × 500 / 100⌉ = 445m (⌊100·444/500⌋
		// = 88 does not).
		{"no target escapes", "500m", "1m", "80", "", []string{"Raise the CPU limit of api to 445m"}},
		// A tolerance of 1,000,000 at 50% with ℓ = r: U = 100 needs p <
		// 100/1000001, none; U must exceed 50 × 1000001 = 50,000,050:
		// 50,000,051, ℓ = 500000510m.
		{"huge tolerance", "\"1\"", "\"1\"", "50", "1000000", []string{"Raise the CPU limit of api to 500000510m"}},
	} {
		msg, fixes := toleranceTrapOf(t, c.request, c.limit, c.target, c.tol)
		if msg == "" {
			t.Errorf("%s: no tolerance-trap", c.name)
			continue
		}
		if !slices.Equal(fixes, c.fixes) {
			t.Errorf("%s: fixes %q, want %q (%s)", c.name, fixes, c.fixes, msg)
		}
	}
}

// TestGrowthFactorBesideTolerance: g is written with the digits it takes
// not to round onto or across 1 + tolerance (rules/format: Apart). With a
// tolerance of 0, a target of 1,000,000,000% and U = 999,999,900
// (ℓ = 9999999m, r = 1m), g = 0.9999999: Num(g, 4) wrote "1", which reads
// as the bound itself.
func TestGrowthFactorBesideTolerance(t *testing.T) {
	for _, c := range []struct {
		request, limit, target, tol string
		want                        string
	}{
		{"1m", "9999999m", "1000000000", "0", "gives g = 0.9999999 ≤ 1 + tolerance 0:"},
		// g = 104/95 = 1.0947 against 1.1: four decimals suffice.
		{"\"1\"", "1040m", "95", "", "gives g = 1.0947 ≤ 1 + tolerance 0.1:"},
		// U = 100 × 1099999 / 10 = 10,999,990 at 10,000,000%: g = 1.099999,
		// written "1.1" before.
		{"10m", "1099999m", "10000000", "", "gives g = 1.099999 ≤ 1 + tolerance 0.1:"},
	} {
		msg, _ := toleranceTrapOf(t, c.request, c.limit, c.target, c.tol)
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s/%s at %s%% (tolerance %q): %q does not contain %q", c.limit, c.request, c.target, c.tol, msg, c.want)
		}
	}
}
