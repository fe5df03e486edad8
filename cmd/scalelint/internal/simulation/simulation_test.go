package simulation

import (
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/scalelint/scalelint/rules/simulate"
)

// TestBehavior: the manifest's behavior converts to the package's
// mirror of it, field by field.
func TestSimBehavior(t *testing.T) {
	if behavior(nil) != nil {
		t.Error("no behavior is the legacy path")
	}
	sel := autoscalingv2.MinChangePolicySelect
	tol := resource.MustParse("50m")
	b := behavior(&autoscalingv2.HorizontalPodAutoscalerBehavior{
		ScaleUp: &autoscalingv2.HPAScalingRules{
			StabilizationWindowSeconds: simPtr32(30),
			SelectPolicy:               &sel,
			Policies:                   []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PodsScalingPolicy, Value: 4, PeriodSeconds: 60}},
			Tolerance:                  &tol,
		},
	})
	if b.ScaleDown != nil {
		t.Error("an unset direction stays nil (the package's defaults)")
	}
	u := b.ScaleUp
	if *u.StabilizationWindowSeconds != 30 || u.SelectPolicy != simulate.MinChange || *u.Tolerance != 0.05 ||
		len(u.Policies) != 1 || u.Policies[0] != (simulate.Policy{Type: simulate.PodsPolicy, Value: 4, PeriodSeconds: 60}) {
		t.Errorf("converted %+v", u)
	}
}

func simPtr32(v int32) *int32 { return &v }

// TestRoundedNeverZero: the law's numbers are rounded halves away from
// zero, and a nonzero one that rounds to zero keeps a significant digit
// (a dead time of 292 years gave "Φ(0) = … × 0 = 625.2s").
func TestRoundedNeverZero(t *testing.T) {
	for _, c := range []struct {
		v         float64
		dec, prec int
		want      string
	}{
		{3.25e-8, 3, 4, "3e-8"},
		{-3.25e-8, 3, 4, "-3e-8"},
		{0.4566, 3, 4, "0.457"},
		{0.0005, 3, 4, "0.001"}, // a half, away from zero
		{0, 3, 4, "0"},
		{89.45, 1, 4, "89.5"},
		{0.04, 1, 4, "0.04"},
	} {
		if got := rounded(c.v, c.dec, c.prec); got != c.want {
			t.Errorf("rounded(%g, %d, %d) = %q, want %q", c.v, c.dec, c.prec, got, c.want)
		}
	}
}
