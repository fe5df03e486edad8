package scaling

import (
	"slices"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// DeprecatedParam is a KEDA trigger parameter (or a whole scaler) that
// KEDA deprecated or removed, with what replaces it. The entries come
// from KEDA's scaler pages (https://github.com/kedacore/keda-docs, content/docs/2.21/scalers),
// its CHANGELOG's deprecations and breaking changes
// (https://github.com/kedacore/keda/blob/main/CHANGELOG.md) and the
// scalers' code (a "deprecated" tag makes KEDA refuse the parameter:
// https://github.com/kedacore/keda/blob/main/pkg/scalers/scalersconfig/typed_config.go).
type DeprecatedParam struct {
	Types []string // the trigger types it applies to
	// Key is the metadata key; "" when the scaler itself is deprecated.
	Key string
	// Status says what KEDA does with it today: "deprecated (...)",
	// "removed in KEDA 2.18: KEDA refuses the trigger", "removed ...:
	// KEDA ignores it".
	Status      string
	Replacement string
	Source      string // a public URL
}

const (
	kedaChangelog = "https://github.com/kedacore/keda/blob/main/CHANGELOG.md"
	kedaDocs      = "https://keda.sh/docs/2.21/scalers/"
)

var awsScalers = []string{"aws-sqs-queue", "aws-kinesis-stream", "aws-dynamodb", "aws-dynamodb-streams", "aws-cloudwatch"}

// DeprecatedParams are the KEDA deprecations scalelint knows. KEDA's
// removal of metricName from trigger metadata (2.12) is left out on
// purpose: several scalers still read a metricName of their own, and
// where KEDA ignores it nothing changes.
var DeprecatedParams = []DeprecatedParam{
	{Types: []string{"rabbitmq"}, Key: "queueLength", Status: "deprecated: KEDA reads it alone and refuses it beside mode or value",
		Replacement: "mode: QueueLength and value", Source: kedaDocs + "rabbitmq-queue/"},
	{Types: []string{"cpu", "memory"}, Key: "type", Status: "removed in KEDA 2.18: KEDA refuses the trigger",
		Replacement: "the trigger's metricType", Source: kedaChangelog + "#v2180"},
	{Types: []string{"datadog"}, Key: "type", Status: "deprecated: to be removed in a later KEDA release",
		Replacement: "the trigger's metricType", Source: kedaDocs + "datadog/"},
	{Types: []string{"gcp-pubsub"}, Key: "subscriptionSize", Status: "removed in KEDA 2.20: KEDA refuses the trigger",
		Replacement: "mode: SubscriptionSize and value", Source: kedaChangelog + "#v2200"},
	{Types: []string{"huawei-cloudeye"}, Key: "minMetricValue", Status: "removed in KEDA 2.20: KEDA refuses the trigger",
		Replacement: "activationTargetMetricValue", Source: kedaChangelog + "#v2200"},
	{Types: []string{"influxdb"}, Key: "authToken", Status: "removed from metadata in KEDA 2.20: KEDA refuses the trigger",
		Replacement: "authTokenFromEnv, or authToken in a TriggerAuthentication", Source: kedaChangelog + "#v2200"},
	{Types: []string{"ibmmq"}, Key: "tlsDisabled", Status: "removed in KEDA 2.18: KEDA ignores it",
		Replacement: "unsafeSsl", Source: kedaChangelog + "#v2180"},
	{Types: []string{"prometheus"}, Key: "cortexOrgID", Status: "removed in KEDA 2.15: KEDA ignores it, and queries go without the tenant header",
		Replacement: "customHeaders: X-Scope-OrgID=...", Source: kedaChangelog + "#v2150"},
	{Types: []string{"external", "external-push"}, Key: "tlsCertFile", Status: "removed in KEDA 2.17: KEDA ignores it",
		Replacement: "caCert (with tlsClientCert and tlsClientKey for mutual TLS)", Source: kedaChangelog + "#v2170"},
	{Types: awsScalers, Key: "identityOwner", Status: "deprecated since KEDA 2.13: to be removed in KEDA 3",
		Replacement: "a TriggerAuthentication with podIdentity provider aws", Source: kedaDocs + "aws-sqs/"},
	{Types: []string{"temporal"}, Key: "buildId", Status: "deprecated: removed in KEDA 2.21",
		Replacement: "workerDeploymentName and workerDeploymentBuildId", Source: kedaDocs + "temporal/"},
	{Types: []string{"temporal"}, Key: "selectAllActive", Status: "deprecated: removed in KEDA 2.21",
		Replacement: "workerDeploymentName and workerDeploymentBuildId", Source: kedaDocs + "temporal/"},
	{Types: []string{"temporal"}, Key: "selectUnversioned", Status: "deprecated: removed in KEDA 2.21",
		Replacement: "workerDeploymentName and workerDeploymentBuildId", Source: kedaDocs + "temporal/"},
	{Types: []string{"kafka"}, Key: "brokerList", Status: "removed in KEDA 2.0: KEDA ignores it",
		Replacement: "bootstrapServers", Source: kedaChangelog + "#v13"},
	{Types: []string{"azure-data-explorer"}, Key: "clientSecret", Status: "removed from metadata in KEDA 2.13: KEDA ignores it",
		Replacement: "clientSecretFromEnv, or clientSecret in a TriggerAuthentication", Source: kedaChangelog + "#v2130"},
	{Types: []string{"stan"}, Status: "removed in KEDA 2.19: KEDA refuses the trigger",
		Replacement: "the nats-jetstream scaler", Source: kedaDocs + "nats-streaming/"},
	{Types: []string{"liiklus"}, Status: "deprecated: to be removed in KEDA 2.24 (Liiklus is no longer maintained)",
		Replacement: "a scaler for the broker behind it", Source: kedaDocs + "liiklus-topic/"},
	{Types: []string{"gcp-pubsub", "gcp-stackdriver", "gcp-cloudtasks"}, Status: "deprecated: KEDA no longer changes it (it reads Google's deprecated MQL)",
		Replacement: "the prometheus scaler on Google Cloud's PromQL endpoint", Source: "https://keda.sh/blog/2025-09-15-gcp-deprecations/"},
}

// DeprecatedUse is a deprecated parameter (or scaler) a trigger uses.
type DeprecatedUse struct {
	Param *DeprecatedParam
	At    manifest.Field // the key (or the trigger's type)
}

// deprecatedUses finds the deprecated parameters and scalers a trigger
// uses, while its tree is at hand: metadata is the trigger's metadata
// mapping (nil when it has none).
func deprecatedUses(o *manifest.Object, metadata *yaml.Node, typ string, typeAt manifest.Field) []DeprecatedUse {
	var out []DeprecatedUse
	for i := range DeprecatedParams {
		p := &DeprecatedParams[i]
		if !slices.Contains(p.Types, typ) {
			continue
		}
		if p.Key == "" {
			out = append(out, DeprecatedUse{Param: p, At: typeAt})
			continue
		}
		if metadata == nil || metadata.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j+1 < len(metadata.Content); j += 2 {
			if k := metadata.Content[j]; k.Kind == yaml.ScalarNode && k.Value == p.Key {
				out = append(out, DeprecatedUse{Param: p, At: o.FieldOf(k, metadata.Content[j+1])})
				break
			}
		}
	}
	return out
}
