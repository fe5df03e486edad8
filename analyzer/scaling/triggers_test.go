package scaling

import (
	"strings"
	"testing"
)

// The thresholds below are read as KEDA's typed config reads them
// (pkg/scalers/scalersconfig/typed_config.go: trimmed; empty means absent;
// json.Unmarshal into the scaler's int64 or float64 field), with each
// scaler's own Validate (kafka_scaler.go: lagThreshold must be positive).
func TestKEDAThresholds(t *testing.T) {
	for _, c := range []struct {
		typ     string
		md      map[string]string
		key     string
		th      float64
		def     bool
		refused string // a substring of the refusal, "" when accepted
	}{
		{"kafka", map[string]string{"lagThreshold": " 50 "}, "lagThreshold", 50, false, ""},
		{"kafka", map[string]string{"lagThreshold": ""}, "lagThreshold", 10, true, ""},
		{"kafka", map[string]string{"lagThreshold": "0"}, "lagThreshold", 0, false, "must be positive"},
		{"kafka", map[string]string{"lagThreshold": "-5"}, "lagThreshold", 0, false, "must be positive"},
		{"kafka", map[string]string{"lagThreshold": "10.5"}, "lagThreshold", 0, false, "not an integer"},
		{"kafka", map[string]string{"lagThreshold": "1e16"}, "lagThreshold", 0, false, "not an integer"},
		{"kafka", map[string]string{"lagThreshold": "+10"}, "lagThreshold", 0, false, "not an integer"},
		{"kafka", map[string]string{"lagThreshold": "0x10"}, "lagThreshold", 0, false, "not an integer"},
		{"kafka", map[string]string{"lagThreshold": "10Ki"}, "lagThreshold", 0, false, "not an integer"},
		{"kafka", map[string]string{"lagThreshold": "null"}, "lagThreshold", 0, false, "not an integer"},
		// 1e16 written out is an int64, accepted by KEDA, and read as it is
		// (the laws write what it makes unbounded as ∞).
		{"kafka", map[string]string{"lagThreshold": "10000000000000000"}, "lagThreshold", 1e16, false, ""},
		{"aws-sqs-queue", map[string]string{"queueLength": "0"}, "queueLength", 0, false, "HPA KEDA creates"},
		{"gcp-pubsub", map[string]string{"value": "2.5"}, "value", 2.5, false, ""},
		{"gcp-pubsub", map[string]string{"value": "1e3"}, "value", 1000, false, ""},
		{"gcp-pubsub", map[string]string{"value": "NaN"}, "value", 0, false, "not a number"},
		{"gcp-pubsub", map[string]string{"value": "0.0004"}, "value", 0, false, "milli precision"},
		{"prometheus", map[string]string{"query": "up"}, "threshold", 0, false, "scaler requires"},
		{"datadog", map[string]string{"queryValue": "7"}, "queryValue", 7, false, ""},
		{"datadog", map[string]string{"targetValue": "3", "queryValue": "7"}, "targetValue", 3, false, ""},
		// rabbitmq_scaler.go validateTrigger: 0 reads as absent.
		{"rabbitmq", map[string]string{"queueLength": "0"}, "value", 20, true, ""},
		{"rabbitmq", map[string]string{"mode": "QueueLength", "value": "0"}, "value", 0, false, "must be specified"},
		{"rabbitmq", map[string]string{"value": "5"}, "value", 0, false, "without mode"},
		{"rabbitmq", map[string]string{"mode": "QueueLength"}, "value", 0, false, "scaler requires"},
		// redis_streams_scaler.go Validate: lagCount only with a group,
		// and only when not 0; parsed (and refused) whatever the mode.
		{"redis-streams", map[string]string{"consumerGroup": "g", "lagCount": "8"}, "lagCount", 8, false, ""},
		{"redis-streams", map[string]string{"consumerGroup": "g", "lagCount": "0"}, "pendingEntriesCount", 5, true, ""},
		{"redis-streams", map[string]string{"lagCount": "8"}, "streamLength", 5, true, ""},
		{"redis-streams", map[string]string{"lagCount": "x"}, "lagCount", 0, false, "not an integer"},
	} {
		got := ClassifyTrigger(c.typ, c.md, "", "")
		if got.Key != c.key || got.Threshold != c.th || got.Defaulted != c.def {
			t.Errorf("%s %v: key %q threshold %g defaulted %v; want %q %g %v", c.typ, c.md, got.Key, got.Threshold, got.Defaulted, c.key, c.th, c.def)
		}
		if (c.refused == "") != (got.Refused == "") || !strings.Contains(got.Refused, c.refused) {
			t.Errorf("%s %v: refused %q; want %q", c.typ, c.md, got.Refused, c.refused)
		}
		if got.Known != (c.refused == "" && c.th > 0) {
			t.Errorf("%s %v: known %v", c.typ, c.md, got.Known)
		}
	}
}

// Signals read from trigger metadata: rabbitmq's modes (keda-docs
// content/docs/2.21/scalers/rabbitmq-queue.md), the drain time of
// ExpectedQueueConsumptionTime as a delay only with a Value target,
// Kedify's HTTP scalingMetric, and Prometheus queries that are rates.
func TestTriggerSignals(t *testing.T) {
	for _, c := range []struct {
		typ, mt, mark string
		md            map[string]string
		signal        Signal
		delay         bool
		notPerPod     bool
	}{
		{"rabbitmq", "", "", map[string]string{"mode": "DeliverGetRate", "value": "5"}, SignalRate, false, false},
		{"rabbitmq", "Value", "", map[string]string{"mode": "ExpectedQueueConsumptionTime", "value": "30"}, SignalBacklog, true, false},
		{"rabbitmq", "", "", map[string]string{"mode": "ExpectedQueueConsumptionTime", "value": "30"}, SignalOther, false, true},
		{"rabbitmq", "", "", map[string]string{"mode": "PublishedToDeliveredRatio", "value": "1.2"}, SignalOther, false, false},
		{"kedify-http", "", "", map[string]string{"scalingMetric": "requestRate", "targetValue": "100"}, SignalRate, false, false},
		{"kedify-http", "", "", map[string]string{"scalingMetric": "concurrency", "targetValue": "100"}, SignalOther, false, false},
		{"prometheus", "", "", map[string]string{"threshold": "10", "query": "sum(rate(http_requests_total{job=\"a\"}[2m]))"}, SignalRate, false, false},
		{"prometheus", "", "", map[string]string{"threshold": "10", "query": "kafka_consumergroup_lag{topic=\"t\"}"}, SignalOther, false, false},
		{"prometheus", "", "backlog", map[string]string{"threshold": "10", "query": "sum(rate(x[1m]))"}, SignalBacklog, false, false},
		{"prometheus", "Value", "", map[string]string{"threshold": "10", "query": "sum(rate(x[1m]))"}, SignalOther, false, false},
	} {
		got := ClassifyTrigger(c.typ, c.md, c.mt, c.mark)
		if got.Signal != c.signal || got.Delay != c.delay || (got.NotPerPod != "") != c.notPerPod || (got.Signal != SignalOther && got.SignalFrom == "") {
			t.Errorf("%s %s %v: %+v", c.typ, c.mt, c.md, got)
		}
	}
}

// A query is a rate only when every series it reads is inside rate(),
// irate() or increase() and only sum/avg/max/min wrap them (PromQL
// functions, https://prometheus.io/docs/prometheus/latest/querying/functions/):
// a ratio, a quantile of a rate or a comparison is not.
func TestPromQLRate(t *testing.T) {
	rates := []string{
		`rate(http_requests_total[1m])`,
		`sum(rate(http_requests_total{service="api",path=~"/v1/.*"}[2m]))`,
		`sum by (pod) (irate(requests_total[30s]))`,
		`sum(increase(jobs_enqueued_total[5m])) by (queue)`,
		`avg without (instance) (rate(x[1m]))`,
		`max(rate(nginx_ingress_controller_requests{ingress="a]b"}[1m]))`,
	}
	others := []string{
		``,
		`kafka_consumergroup_lag`,
		`sum(kafka_consumergroup_lag{topic="orders"})`,
		`sum(rate(errors_total[1m])) / sum(rate(requests_total[1m]))`,
		`histogram_quantile(0.95, sum(rate(latency_bucket[5m])) by (le))`,
		`count(rate(x[1m]))`,
		`sum(rate(x[1m])) > 10`,
		`sum(rate(x[1m])) or vector(0)`,
		`rate(x[1m]) * 60`,
		`sum(rate(x[1m])) + sum(queue_depth)`,
		`rate(rate(x[1m])[5m:])`,
		`sum(rate(x[1m]`,
		`topk(3, rate(x[1m]))`,
	}
	for _, q := range rates {
		if !promQLRate(q) {
			t.Errorf("%q: not read as a rate", q)
		}
	}
	for _, q := range others {
		if promQLRate(q) {
			t.Errorf("%q: read as a rate", q)
		}
	}
}
