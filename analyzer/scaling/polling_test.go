package scaling

import (
	"go/token"
	"testing"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// pollingInterval is an int32 of KEDA's ScaledObjectSpec
// (https://github.com/kedacore/keda/blob/main/apis/keda/v1alpha1/scaledobject_types.go,
// `PollingInterval *int32`; its CRD says type integer, format int32), so
// only a number YAML reads as one and that decodes into an int32 is read,
// as the API server reads it: 30.5 and "30" are refused there, and here
// marked Invalid (invalid-field reports them; the laws leave the value
// alone) rather than read as a float or a quantity. Unset or null is
// KEDA's default, GetPollingInterval's 30 s.
func TestPollingIntervalIsAnInteger(t *testing.T) {
	for _, c := range []struct {
		written string
		v       float64
		set     bool
		invalid bool
	}{
		{"30", 30, true, false},
		{"0x1e", 30, true, false}, // YAML reads 0x1e as the integer 30, as kubectl does
		{"30.0", 30, true, false}, // a whole float decodes into an int32
		{"5", 5, true, false},
		{"30.5", 0, true, true},
		{`"30"`, 0, true, true},
		{`"30s"`, 0, true, true},
		{"500m", 0, true, true}, // a quantity is not an integer
		{"1e12", 0, true, true}, // past int32
		{"~", 30, false, false},
		{"", 30, false, false},
	} {
		src := "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: app}\nspec:\n  scaleTargetRef: {name: app}\n"
		if c.written != "" {
			src += "  pollingInterval: " + c.written + "\n"
		}
		src += "  triggers: [{type: cpu, metricType: Utilization, metadata: {value: \"60\"}}]\n"
		f := manifest.Parse(token.NewFileSet(), "so.yaml", []byte(src), manifest.Options{})
		objs := f.Docs[0].Objects()
		a := FromObject(objs[0])
		if a == nil {
			t.Fatalf("%s: not an autoscaler", c.written)
		}
		p := a.PollingInterval
		if p.Set != c.set || p.Invalid != c.invalid || (!c.invalid && p.V != c.v) {
			t.Errorf("pollingInterval: %s read as %+v; want V %g, Set %v, Invalid %v", c.written, p, c.v, c.set, c.invalid)
		}
		if c.written != "" && !p.At.IsValid() {
			t.Errorf("pollingInterval: %s: no position", c.written)
		}
	}
}
