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
