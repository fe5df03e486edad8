package manifest

import (
	"fmt"
	"reflect"

	yaml "go.yaml.in/yaml/v3"
)

// A common mistake in real charts (mattermost/mattermost-helm's
// calls-offloader and enterprise-edition HPAs, argo-rollouts' test
// kustomization): an autoscaling/v2 HorizontalPodAutoscaler whose metrics
// keep autoscaling/v2beta1's field names. The API server does not know
// them (strict field validation refuses the object; without it they are
// dropped, and the metric has no target, which validation refuses), so
// the unknown-field message says how autoscaling/v2 writes the same thing
// (k8s.io/api autoscaling/v2beta1 types.go: ResourceMetricSource's
// TargetAverageUtilization and TargetAverageValue, PodsMetricSource's
// MetricName and TargetAverageValue, ObjectMetricSource's MetricName,
// TargetValue and AverageValue, ExternalMetricSource's MetricName,
// MetricSelector, TargetValue and TargetAverageValue, and ObjectMetricSource's
// Target, the object described; autoscaling/v2 types.go: MetricTarget,
// MetricIdentifier and DescribedObject).

// v2beta1Fields maps, by metric source, a v2beta1 field name to how
// autoscaling/v2 writes it (%s: the value written).
var v2beta1Fields = map[string]map[string]string{
	"resource":          {"targetAverageUtilization": "target: {type: Utilization, averageUtilization: %s}", "targetAverageValue": "target: {type: AverageValue, averageValue: %s}"},
	"containerResource": {"targetAverageUtilization": "target: {type: Utilization, averageUtilization: %s}", "targetAverageValue": "target: {type: AverageValue, averageValue: %s}"},
	"pods":              {"metricName": "metric: {name: %s}", "targetAverageValue": "target: {type: AverageValue, averageValue: %s}"},
	"object":            {"metricName": "metric: {name: %s}", "targetValue": "target: {type: Value, value: %s}", "averageValue": "target: {type: AverageValue, averageValue: %s}"},
	"external":          {"metricName": "metric: {name: %s}", "metricSelector": "metric: {selector: %s}", "targetValue": "target: {type: Value, value: %s}", "targetAverageValue": "target: {type: AverageValue, averageValue: %s}"},
}

var hpaType = reflect.TypeFor[*HPA]()

// v2beta1Hint returns, for an unknown field of an autoscaling/v2 (or
// v2beta2) HPA that is one of v2beta1's metric fields, how autoscaling/v2
// writes it; "" otherwise. val is the field's value node, when written.
func v2beta1Hint(t reflect.Type, p Path, val *yaml.Node) string {
	if t != hpaType || len(p) < 5 || p[0].Key != "spec" || p[1].Key != "metrics" || !p[2].IsIdx || p[3].IsIdx || p[4].IsIdx {
		return ""
	}
	if len(p) == 6 && p[3].Key == "object" && p[4].Key == "target" && !p[5].IsIdx &&
		(p[5].Key == "kind" || p[5].Key == "name" || p[5].Key == "apiVersion") {
		// v2beta1's object.target is the object described, v2's the
		// value to reach.
		return " (autoscaling/v2beta1's object.target names the object: autoscaling/v2 writes it as describedObject)"
	}
	if len(p) != 5 {
		return ""
	}
	form, ok := v2beta1Fields[p[3].Key][p[4].Key]
	if !ok {
		return ""
	}
	v := "…" // a mapping (a selector) or nothing written
	if val = deref(val); val != nil && val.Kind == yaml.ScalarNode && val.Value != "" {
		v = val.Value
	}
	return fmt.Sprintf(" (autoscaling/v2beta1's field: autoscaling/v2 writes "+form+")", v)
}
