package scaling

import (
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

func TestParseDuration(t *testing.T) {
	// Durations accept Go/Kubernetes forms and bare seconds (the repository
	// README, "Annotations").
	for in, want := range map[string]float64{"90s": 90, "1m30s": 90, "1.5m": 90, "90": 90, "500ms": 0.5, "1h": 3600, "0": 0} {
		got, err := ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %g, %v; want %g", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "soon", "-5s", "-1", "NaN", "Inf", "1y"} {
		if _, err := ParseDuration(bad); err == nil {
			t.Errorf("ParseDuration(%q) accepted", bad)
		}
	}
}

func TestParseValue(t *testing.T) {
	retries, _ := SpecOf("retries")
	for in, want := range map[string]float64{"2": 3, "2,2": 9, "2, 2": 9, "0": 1, "1,2,3": 24} {
		v, err := ParseValue(retries, in)
		if err != nil || v.Value != want {
			t.Errorf("retries %q: A = %g, %v; want %g (rules/laws/README.md §3.1: A = Π(1+rᵢ))", in, v.Value, err, want)
		}
	}
	for _, bad := range []string{"", "x", "-1", "2,,2", "1.5"} {
		if _, err := ParseValue(retries, bad); err == nil {
			t.Errorf("retries %q accepted", bad)
		}
	}
	rate, _ := SpecOf("pod-rate")
	for _, bad := range []string{"0", "-3", "fast", "NaN"} {
		if _, err := ParseValue(rate, bad); err == nil {
			t.Errorf("pod-rate %q accepted", bad)
		}
	}
	amp, _ := SpecOf("retry-amplification")
	if _, err := ParseValue(amp, "0.5"); err == nil {
		t.Errorf("retry-amplification below 1 accepted")
	}
	sig, _ := SpecOf("signal")
	if v, err := ParseValue(sig, "Backlog"); err != nil || v.Text != "backlog" {
		t.Errorf("signal Backlog: %+v %v", v, err)
	}
}

func TestClassifyTrigger(t *testing.T) {
	// KEDA's thresholds and defaults, read in each scaler's typed-config tag
	// (rules/laws/README.md §8.3).
	for _, c := range []struct {
		typ      string
		md       map[string]string
		mt, mark string
		signal   Signal
		key      string
		th       float64
		def      bool
	}{
		{"kafka", nil, "", "", SignalBacklog, "lagThreshold", 10, true},
		{"kafka", map[string]string{"lagThreshold": "50"}, "", "", SignalBacklog, "lagThreshold", 50, false},
		{"aws-sqs-queue", nil, "", "", SignalBacklog, "queueLength", 5, true},
		{"rabbitmq", nil, "", "", SignalBacklog, "value", 20, true},
		{"rabbitmq", map[string]string{"mode": "MessageRate", "value": "3"}, "", "", SignalRate, "value", 3, false},
		{"rabbitmq", map[string]string{"queueLength": "7"}, "", "", SignalBacklog, "queueLength", 7, false},
		{"azure-eventhub", nil, "", "", SignalBacklog, "unprocessedEventThreshold", 64, true},
		{"gcp-pubsub", nil, "", "", SignalBacklog, "value", 10, true},
		{"gcp-pubsub", map[string]string{"mode": "OldestUnackedMessageAge"}, "", "", SignalOther, "value", 10, true},
		{"redis-streams", map[string]string{"consumerGroup": "g"}, "", "", SignalBacklog, "pendingEntriesCount", 5, true},
		{"redis-streams", nil, "", "", SignalBacklog, "streamLength", 5, true},
		{"ibmmq", nil, "", "", SignalBacklog, "queueDepth", 20, true},
		{"prometheus", map[string]string{"threshold": "100"}, "", "", SignalOther, "threshold", 100, false},
		{"prometheus", map[string]string{"threshold": "100"}, "", "backlog", SignalBacklog, "threshold", 100, false},
		{"kafka", nil, "Value", "", SignalOther, "lagThreshold", 10, true},
		{"cpu", map[string]string{"value": "60"}, "Utilization", "", SignalCPU, "value", 60, false},
		{"cpu", map[string]string{"value": "600m"}, "AverageValue", "", SignalOther, "value", 0.6, false},
	} {
		got := ClassifyTrigger(c.typ, c.md, c.mt, c.mark)
		if got.Signal != c.signal || got.Key != c.key || got.Threshold != c.th || got.Defaulted != c.def {
			t.Errorf("%s %v %s %s: %+v", c.typ, c.md, c.mt, c.mark, got)
		}
	}
}

func TestParseQuantity(t *testing.T) {
	// Values from resource.ParseQuantity's grammar (k8s.io/apimachinery):
	// m is 10^-3, k 10^3, Ki 2^10.
	for in, want := range map[string]float64{"500m": 0.5, "1.5": 1.5, "2k": 2000, "1Ki": 1024, " 10 ": 10} {
		got, err := ParseQuantity(in)
		if err != nil || got != want {
			t.Errorf("ParseQuantity(%q) = %g, %v; want %g", in, got, err, want)
		}
	}
	// Found by FuzzClassifyTrigger: resource.ParseQuantity accepts "E700"
	// (a zero mantissa times 10^700) and AsApproximateFloat64 makes it NaN;
	// 1E400 is a valid quantity past any float64.
	// Also found by it: 300 digits then "E000000010000000000" made
	// resource.ParseQuantity compute 10^1410065417 (the exponent wrapped
	// past int32) and never return; any value over manifest.MaxQuantityLen is
	// refused before it gets there.
	hang := "1" + strings.Repeat("0", 300) + "E000000010000000000"
	long := "1" + strings.Repeat("0", manifest.MaxQuantityLen) + "Ki"
	for _, bad := range []string{"E700", "1E400", "NaN", "Inf", "ten", hang, long} {
		if got, err := ParseQuantity(bad); err == nil {
			t.Errorf("ParseQuantity(%q) = %g, accepted", bad, got)
		}
	}
}
