package scaling

import (
	"strings"
)

// Signal classifies what a metric or trigger measures, which decides the
// laws that apply to it.
type Signal int

const (
	SignalOther   Signal = iota // none of the laws' signals (memory, cron, a Value target, ...)
	SignalCPU                   // CPU utilization against the request: saturates (tolerance trap, rounds)
	SignalBacklog               // waiting work per pod: an integrator (latency floor)
	SignalRate                  // first attempts or requests per second: debt-blind (retry trap)
)

func (s Signal) String() string {
	return [...]string{"other", "cpu", "backlog", "rate"}[s]
}

// backlogTrigger is a KEDA trigger whose per-pod threshold is a backlog.
type backlogTrigger struct {
	key string  // metadata key of the per-pod threshold
	def float64 // KEDA's default when the key is absent; 0 when required
}

// backlogTriggers lists KEDA's queue scalers and their per-pod threshold
// keys with defaults, read in the typed-config tags of KEDA's
// pkg/scalers/*_scaler.go (the table and links: rules/laws/README.md §8.3).
// rabbitmq, gcp-pubsub, redis-streams and solace depend on their mode and
// are handled in ClassifyTrigger.
var backlogTriggers = map[string]backlogTrigger{
	"kafka":                  {"lagThreshold", 10},
	"apache-kafka":           {"lagThreshold", 10},
	"aws-sqs-queue":          {"queueLength", 5},
	"redis":                  {"listLength", 5},
	"redis-cluster":          {"listLength", 5},
	"redis-sentinel":         {"listLength", 5},
	"azure-servicebus":       {"messageCount", 5},
	"azure-queue":            {"queueLength", 5},
	"azure-eventhub":         {"unprocessedEventThreshold", 64},
	"nats-jetstream":         {"lagThreshold", 10},
	"activemq":               {"targetQueueSize", 10},
	"artemis-queue":          {"queueLength", 10},
	"nsq":                    {"depthThreshold", 10},
	"pulsar":                 {"msgBacklogThreshold", 10},
	"liiklus":                {"lagThreshold", 10},
	"ibmmq":                  {"queueDepth", 20},
	"azure-blob":             {"blobCount", 5},
	"gcp-cloudtasks":         {"value", 100},
	"beanstalkd":             {"value", 0},
	"azure-pipelines":        {"targetPipelinesQueueLength", 1},
	"github-runner":          {"targetWorkflowQueueLength", 1},
	"temporal":               {"targetQueueSize", 5},
	"redis-streams":          {"pendingEntriesCount", 5},
	"redis-cluster-streams":  {"pendingEntriesCount", 5},
	"redis-sentinel-streams": {"pendingEntriesCount", 5},
}

// markableTriggers are generic triggers whose meaning depends on the user's
// query; the scalelint.dev/signal annotation says what they measure. The
// value is the threshold key.
var markableTriggers = map[string]string{
	"prometheus":      "threshold",
	"metrics-api":     "targetValue",
	"datadog":         "queryValue",
	"new-relic":       "threshold",
	"influxdb":        "thresholdValue",
	"graphite":        "threshold",
	"loki":            "threshold",
	"elasticsearch":   "targetValue",
	"postgresql":      "targetQueryValue",
	"mysql":           "queryValue",
	"mongodb":         "queryValue",
	"mssql":           "targetValue",
	"dynatrace":       "threshold",
	"splunk":          "targetValue",
	"gcp-stackdriver": "targetValue",
	"aws-cloudwatch":  "targetMetricValue",
}

// TriggerClass is what scalelint reads from one KEDA trigger.
type TriggerClass struct {
	Signal    Signal
	Key       string  // metadata key of the per-pod threshold ("" when none)
	Threshold float64 // the threshold, KEDA's default when the key is absent
	Defaulted bool    // the key is absent and KEDA's default applies
	Mode      string  // the scaler's mode, when it has one
	Known     bool    // the threshold could be read
}

// ClassifyTrigger reads a KEDA trigger's signal class and per-pod
// threshold. marked is the scalelint.dev/signal annotation ("" if none).
func ClassifyTrigger(typ string, metadata map[string]string, metricType string, marked string) TriggerClass {
	typ = strings.ToLower(typ)
	get := func(k string) (string, bool) { v, ok := metadata[k]; return strings.TrimSpace(v), ok }
	threshold := func(key string, def float64) TriggerClass {
		c := TriggerClass{Key: key, Threshold: def, Known: def > 0}
		if v, ok := get(key); ok {
			c.Threshold, c.Known = parseNumber(v)
		} else {
			c.Defaulted = true
		}
		return c
	}
	var c TriggerClass
	switch typ {
	case "cpu":
		c = TriggerClass{Signal: SignalCPU, Key: "value"}
		if v, ok := get("value"); ok {
			c.Threshold, c.Known = parseNumber(v)
		}
		if !strings.EqualFold(metricType, "Utilization") {
			c.Signal = SignalOther // AverageValue of CPU is not a utilization target
		}
		return c
	case "rabbitmq":
		mode, _ := get("mode")
		if _, old := get("queueLength"); old && mode == "" {
			c = threshold("queueLength", 20)
			c.Signal, c.Mode = SignalBacklog, "QueueLength"
			break
		}
		if mode == "" {
			mode = "QueueLength"
		}
		c = threshold("value", map[bool]float64{true: 20, false: 0}[strings.EqualFold(mode, "QueueLength")])
		c.Mode = mode
		switch strings.ToLower(mode) {
		case "queuelength":
			c.Signal = SignalBacklog
		case "messagerate", "delivergetrate":
			c.Signal = SignalRate
		}
	case "gcp-pubsub":
		mode, _ := get("mode")
		if mode == "" {
			mode = "SubscriptionSize"
		}
		c = threshold("value", 10)
		c.Mode = mode
		if strings.EqualFold(mode, "SubscriptionSize") {
			c.Signal = SignalBacklog
		}
	case "redis-streams", "redis-cluster-streams", "redis-sentinel-streams":
		_, lag := get("lagCount")
		_, group := get("consumerGroup")
		switch {
		case lag:
			c = threshold("lagCount", 5)
		case group:
			c = threshold("pendingEntriesCount", 5)
		default:
			c = threshold("streamLength", 5)
		}
		c.Signal = SignalBacklog
	case "solace-event-queue":
		if _, ok := get("messageReceiveRateTarget"); ok {
			c = threshold("messageReceiveRateTarget", 0)
			c.Signal = SignalRate
		} else {
			c = threshold("messageCountTarget", 0)
			c.Signal = SignalBacklog
		}
	default:
		if b, ok := backlogTriggers[typ]; ok {
			c = threshold(b.key, b.def)
			c.Signal = SignalBacklog
		} else if key, ok := markableTriggers[typ]; ok {
			c = threshold(key, 0)
			switch marked {
			case "backlog":
				c.Signal = SignalBacklog
			case "rate":
				c.Signal = SignalRate
			}
		}
	}
	// A Value target is compared whole, not per pod: the laws of per-pod
	// targets do not apply (rules/laws/README.md §2.3).
	if strings.EqualFold(metricType, "Value") {
		c.Signal = SignalOther
	}
	return c
}

func parseNumber(s string) (float64, bool) {
	f, err := ParseQuantity(s)
	if err != nil || f <= 0 {
		return 0, false
	}
	return f, true
}
