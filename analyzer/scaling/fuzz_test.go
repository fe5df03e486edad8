package scaling

import (
	"math"
	"testing"
)

// FuzzParseValue: an annotation value of any text is parsed or refused,
// never panics, and what it accepts is a finite number within the spec's
// bounds (durations zero or more, amplification at least 1).
func FuzzParseValue(f *testing.F) {
	for _, s := range Annotations {
		f.Add(s.Name, s.Example)
		f.Add(s.Name, "-"+s.Example)
	}
	for _, s := range []string{"1e400", "NaN", "0x10", "1m-30s", "2,,2", "99999999999999999999,1", "9223372036854775807", " 90 ", "∞", "1.5h"} {
		f.Add("dead-time", s)
		f.Add("retries", s)
	}
	f.Fuzz(func(t *testing.T, name, text string) {
		spec, ok := SpecOf(name)
		if !ok {
			return
		}
		in, err := ParseValue(spec, text)
		if err != nil {
			return
		}
		if math.IsNaN(in.Value) || math.IsInf(in.Value, 0) {
			t.Fatalf("%s %q accepted as %g", name, text, in.Value)
		}
		if spec.Kind == Duration && in.Value < 0 {
			t.Fatalf("negative duration %q accepted", text)
		}
		if spec.Kind == IntList && in.Value < 1 {
			t.Fatalf("retries %q give A = %g < 1", text, in.Value)
		}
	})
}

// FuzzClassifyTrigger: any trigger metadata is classified without panic.
func FuzzClassifyTrigger(f *testing.F) {
	f.Add("kafka", "lagThreshold", "10", "", "")
	f.Add("rabbitmq", "mode", "MessageRate", "Value", "rate")
	f.Add("cpu", "value", "50", "Utilization", "")
	f.Fuzz(func(t *testing.T, typ, key, value, metricType, mark string) {
		c := ClassifyTrigger(typ, map[string]string{key: value}, metricType, mark)
		if c.Threshold < 0 || math.IsNaN(c.Threshold) {
			t.Fatalf("threshold %g", c.Threshold)
		}
	})
}
