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

// Every scaler's threshold below is read as KEDA v2 reads it: its metadata
// key, its default and its Go type are the typed-config tags of
// https://github.com/kedacore/keda/tree/main/pkg/scalers (<type>_scaler.go),
// and ownCheck is the scaler's Validate when it refuses a value ≤ 0.

func intT(key string, def float64) thresholdSpec {
	return thresholdSpec{keys: []string{key}, def: def, hasDefault: true, kind: kedaInt}
}

func floatT(key string, def float64) thresholdSpec {
	return thresholdSpec{keys: []string{key}, def: def, hasDefault: true, kind: kedaFloat}
}

func required(kind numberKind, keys ...string) thresholdSpec {
	return thresholdSpec{keys: keys, kind: kind}
}

func checked(s thresholdSpec, why string) thresholdSpec {
	s.ownCheck = why
	return s
}

// backlogTriggers are KEDA's queue scalers and their per-pod thresholds
// (the table and links: rules/laws/README.md §8.3). rabbitmq, gcp-pubsub,
// redis-streams and solace depend on their mode and are read in
// ClassifyTrigger.
var backlogTriggers = map[string]thresholdSpec{
	"kafka":            checked(intT("lagThreshold", 10), `"lagThreshold" must be positive number`),
	"apache-kafka":     checked(intT("lagThreshold", 10), "lagThreshold must be a positive number"),
	"aws-sqs-queue":    intT("queueLength", 5),
	"redis":            intT("listLength", 5),
	"redis-cluster":    intT("listLength", 5),
	"redis-sentinel":   intT("listLength", 5),
	"azure-servicebus": intT("messageCount", 5),
	"azure-queue":      intT("queueLength", 5),
	"azure-eventhub":   checked(intT("unprocessedEventThreshold", 64), `"unprocessedEventThreshold" must be a positive number`),
	"nats-jetstream":   intT("lagThreshold", 10),
	"activemq":         intT("targetQueueSize", 10),
	"artemis-queue":    intT("queueLength", 10),
	"nsq":              checked(intT("depthThreshold", 10), "depthThreshold must be a positive integer"),
	"pulsar":           intT("msgBacklogThreshold", 10),
	"liiklus":          intT("lagThreshold", 10),
	"ibmmq":            intT("queueDepth", 20),
	"azure-blob":       intT("blobCount", 5),
	"gcp-cloudtasks":   floatT("value", 100),
	"beanstalkd":       required(kedaFloat, "value"),
	"azure-pipelines":  intT("targetPipelinesQueueLength", 1),
	"github-runner":    intT("targetWorkflowQueueLength", 1),
	"temporal":         intT("targetQueueSize", 5),
}

// markableTriggers are generic triggers whose meaning depends on the
// user's query; the scalelint.dev/signal annotation says what they
// measure (a Prometheus query is read, see promQLRate).
var markableTriggers = map[string]thresholdSpec{
	"prometheus":      required(kedaFloat, "threshold"),
	"metrics-api":     floatT("targetValue", 0),
	"datadog":         floatT("targetValue", 0),
	"new-relic":       floatT("threshold", 0),
	"influxdb":        floatT("thresholdValue", 0),
	"graphite":        floatT("threshold", 0),
	"loki":            floatT("threshold", 0),
	"elasticsearch":   floatT("targetValue", 0),
	"postgresql":      floatT("targetQueryValue", 0),
	"mysql":           floatT("queryValue", 0),
	"mongodb":         floatT("queryValue", 0),
	"mssql":           floatT("targetValue", 0),
	"dynatrace":       floatT("threshold", 0),
	"splunk":          intT("targetValue", 0),
	"gcp-stackdriver": floatT("targetValue", 0),
	"aws-cloudwatch":  floatT("targetMetricValue", 0),
}

func init() {
	// datadog reads targetValue, or its older name queryValue.
	d := markableTriggers["datadog"]
	d.keys = []string{"targetValue", "queryValue"}
	markableTriggers["datadog"] = d
}

// TriggerClass is what scalelint reads from one KEDA trigger.
type TriggerClass struct {
	Signal Signal
	// SignalFrom says what the signal class was read from: "trigger type
	// kafka", "mode MessageRate", "query: rate(...)", "scalelint.dev/signal".
	SignalFrom string
	Key        string  // metadata key of the per-pod threshold ("" when none)
	Threshold  float64 // the threshold, KEDA's default when the key is absent
	Defaulted  bool    // the key is absent and KEDA's default applies
	Mode       string  // the scaler's mode, when it has one
	Known      bool    // the threshold could be read
	// Refused says why KEDA would refuse the threshold as written (the
	// scaler cannot read it, or the HPA it makes is refused); "" when not.
	Refused string
	// Delay is set when the threshold is itself the standing delay, in
	// seconds (rabbitmq ExpectedQueueConsumptionTime with a Value target).
	Delay bool
	// NotPerPod says why a backlog's law does not apply although the
	// trigger measures waiting work ("" when it does).
	NotPerPod string
}

// ClassifyTrigger reads a KEDA trigger's signal class and per-pod
// threshold. marked is the scalelint.dev/signal annotation ("" if none).
func ClassifyTrigger(typ string, metadata map[string]string, metricType string, marked string) TriggerClass {
	typ = strings.ToLower(typ)
	get := func(k string) string { return strings.TrimSpace(metadata[k]) }
	read := func(spec thresholdSpec) TriggerClass {
		key, v, def, refused := readThreshold(typ, spec, metadata)
		c := TriggerClass{Key: key, Threshold: v, Defaulted: def, Refused: refused, Known: refused == "" && v > 0}
		if def && !spec.hasDefault {
			c.Defaulted = false
		}
		return c
	}
	var c TriggerClass
	switch typ {
	case "cpu":
		// The cpu scaler's value is a string read by the HPA (a percent
		// for Utilization, a quantity for AverageValue).
		c = TriggerClass{Signal: SignalCPU, Key: "value", SignalFrom: "trigger type cpu"}
		if v := get("value"); v != "" {
			c.Threshold, c.Known = parseQuantityPositive(v)
		}
		if !strings.EqualFold(metricType, "Utilization") {
			c.Signal = SignalOther // AverageValue of CPU is not a utilization target
		}
		return c
	case "rabbitmq":
		c = classifyRabbitMQ(metadata, metricType)
	case "gcp-pubsub":
		mode := get("mode")
		if mode == "" {
			mode = "SubscriptionSize"
		}
		c = read(floatT("value", 10))
		c.Mode = mode
		if strings.EqualFold(mode, "SubscriptionSize") {
			c.Signal, c.SignalFrom = SignalBacklog, "mode SubscriptionSize"
		}
	case "redis-streams", "redis-cluster-streams", "redis-sentinel-streams":
		// redis_streams_scaler.go (Validate): with a consumer group,
		// lagCount when it is not 0, else pendingEntriesCount; without
		// one, streamLength (lagCount is then ignored, but still parsed).
		group, lag := get("consumerGroup") != "", get("lagCount")
		lagV, lagOK := parseKEDANumber(lag, kedaInt)
		switch {
		case lag != "" && !lagOK:
			c = read(required(kedaInt, "lagCount")) // parsed (and refused) whatever the mode
		case group && lag != "" && lagV != 0:
			c = read(required(kedaInt, "lagCount"))
		case group:
			c = read(intT("pendingEntriesCount", 5))
		default:
			c = read(intT("streamLength", 5))
		}
		c.Signal, c.SignalFrom = SignalBacklog, "trigger type "+typ
	case "solace-event-queue":
		// solace_scaler.go: one metric per target set; the rate target
		// is messages received per second per consumer.
		if get("messageReceiveRateTarget") != "" {
			c = read(required(kedaInt, "messageReceiveRateTarget"))
			c.Signal, c.SignalFrom = SignalRate, "messageReceiveRateTarget"
		} else {
			c = read(required(kedaInt, "messageCountTarget"))
			c.Signal, c.SignalFrom = SignalBacklog, "messageCountTarget"
		}
	case "kedify-http":
		// Kedify's HTTP scaler: requestRate is requests per second per
		// pod (a rate); concurrency is requests in flight (neither).
		c = read(floatT("targetValue", 0))
		c.Mode = get("scalingMetric")
		if strings.EqualFold(c.Mode, "requestRate") {
			c.Signal, c.SignalFrom = SignalRate, "scalingMetric requestRate"
		}
	default:
		if spec, ok := backlogTriggers[typ]; ok {
			c = read(spec)
			c.Signal, c.SignalFrom = SignalBacklog, "trigger type "+typ
		} else if spec, ok := markableTriggers[typ]; ok {
			c = read(spec)
			if typ == "prometheus" && marked == "" {
				if promQLRate(get("query")) {
					c.Signal, c.SignalFrom = SignalRate, "query is a rate: "+get("query")
				}
			}
		}
	}
	switch marked {
	case "backlog", "rate":
		if _, ok := markableTriggers[typ]; ok {
			c.Signal, c.SignalFrom = map[string]Signal{"backlog": SignalBacklog, "rate": SignalRate}[marked], "scalelint.dev/signal"
		}
	}
	// A Value target is compared whole, not per pod: the laws of per-pod
	// targets do not apply (rules/laws/README.md §2.3), except for a
	// threshold that is itself the drain time.
	if strings.EqualFold(metricType, "Value") && !c.Delay {
		c.Signal = SignalOther
	}
	return c
}

// classifyRabbitMQ reads rabbitmq's mode and value as rabbitmq_scaler.go
// does (validateTrigger): with nothing set, QueueLength 20; the deprecated
// queueLength key alone means QueueLength; otherwise mode and value are
// both required.
func classifyRabbitMQ(md map[string]string, metricType string) TriggerClass {
	mode := strings.TrimSpace(md["mode"])
	var c TriggerClass
	switch {
	case strings.TrimSpace(md["queueLength"]) != "" && mode == "" && !zero(md["queueLength"]):
		_, v, _, refused := readThreshold("rabbitmq", floatT("queueLength", 0), md)
		c = TriggerClass{Key: "queueLength", Threshold: v, Refused: refused, Known: refused == "" && v > 0, Mode: "QueueLength"}
	case mode == "" && (strings.TrimSpace(md["value"]) == "" || zero(md["value"])):
		// KEDA reads a queueLength or value of 0 as absent.
		c = TriggerClass{Key: "value", Threshold: 20, Defaulted: true, Known: true, Mode: "QueueLength"}
	case mode == "":
		c = TriggerClass{Key: "value", Refused: "the rabbitmq trigger sets value without mode: KEDA's rabbitmq scaler refuses it (mode must be specified)"}
	default:
		spec := checked(required(kedaFloat, "value"), "value must be specified: KEDA reads 0 as absent")
		_, v, _, refused := readThreshold("rabbitmq", spec, md)
		c = TriggerClass{Key: "value", Threshold: v, Refused: refused, Known: refused == "" && v > 0, Mode: mode}
	}
	switch strings.ToLower(c.Mode) {
	case "queuelength":
		c.Signal, c.SignalFrom = SignalBacklog, "mode QueueLength"
	case "messagerate", "delivergetrate":
		c.Signal, c.SignalFrom = SignalRate, "mode "+c.Mode
	case "expectedqueueconsumptiontime":
		// The metric is the queue's drain time in seconds, over every
		// consumer's deliver rate. With a Value target the HPA holds it at
		// the threshold, which is then the standing delay itself; with an
		// AverageValue target (KEDA's default) it holds the drain time at
		// the threshold times the pod count, a loop the latency floor does
		// not describe (KEDA's rabbitmq docs advise metricType: Value).
		c.SignalFrom = "mode ExpectedQueueConsumptionTime"
		if strings.EqualFold(metricType, "Value") {
			c.Signal, c.Delay = SignalBacklog, true
		} else {
			c.NotPerPod = "with an AverageValue target the HPA holds rabbitmq's drain time at the threshold times the pod count, a loop the latency floor does not describe (set metricType: Value)"
		}
	}
	return c
}

func parseQuantityPositive(s string) (float64, bool) {
	f, err := ParseQuantity(s)
	if err != nil || f <= 0 {
		return 0, false
	}
	return f, true
}

// zero reports a value KEDA's rabbitmq scaler reads as 0, which it treats
// as absent.
func zero(s string) bool {
	v, ok := parseKEDANumber(strings.TrimSpace(s), kedaFloat)
	return ok && v == 0
}
