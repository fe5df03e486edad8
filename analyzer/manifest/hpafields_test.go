package manifest

import (
	"strings"
	"testing"
)

// TestV2beta1FieldsInV2: an autoscaling/v2 HPA written with
// autoscaling/v2beta1's metric fields gets, with each unknown field, how
// autoscaling/v2 writes it, with the value written (the field pairs of
// k8s.io/api's autoscaling/v2beta1 and autoscaling/v2 types.go); the same
// fields in an autoscaling/v2beta1 HPA are known, and another unknown
// field of a v2 metric gets no hint.
func TestV2beta1FieldsInV2(t *testing.T) {
	head := "kind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 4\n  metrics:\n"
	metrics := "  - type: Resource\n    resource: {name: cpu, targetAverageUtilization: 80}\n" +
		"  - type: Pods\n    pods: {metricName: rps, targetAverageValue: 10}\n" +
		"  - type: Object\n    object: {metricName: hits, targetValue: 5, averageValue: 2, target: {kind: Service, name: web}}\n" +
		"  - type: External\n    external: {metricName: queue, metricSelector: {matchLabels: {q: a}}, targetAverageValue: \"30\"}\n"
	f := parse(t, "apiVersion: autoscaling/v2\n"+head+metrics)
	var got []string
	for _, p := range f.Problems() {
		if strings.HasPrefix(p.Message, "unknown field") {
			got = append(got, p.Message)
		}
	}
	want := []string{
		`unknown field "spec.metrics[0].resource.targetAverageUtilization" (autoscaling/v2beta1's field: autoscaling/v2 writes target: {type: Utilization, averageUtilization: 80})`,
		`unknown field "spec.metrics[1].pods.metricName" (autoscaling/v2beta1's field: autoscaling/v2 writes metric: {name: rps})`,
		`unknown field "spec.metrics[1].pods.targetAverageValue" (autoscaling/v2beta1's field: autoscaling/v2 writes target: {type: AverageValue, averageValue: 10})`,
		`unknown field "spec.metrics[2].object.metricName" (autoscaling/v2beta1's field: autoscaling/v2 writes metric: {name: hits})`,
		`unknown field "spec.metrics[2].object.targetValue" (autoscaling/v2beta1's field: autoscaling/v2 writes target: {type: Value, value: 5})`,
		`unknown field "spec.metrics[2].object.averageValue" (autoscaling/v2beta1's field: autoscaling/v2 writes target: {type: AverageValue, averageValue: 2})`,
		`unknown field "spec.metrics[2].object.target.kind" (autoscaling/v2beta1's object.target names the object: autoscaling/v2 writes it as describedObject)`,
		`unknown field "spec.metrics[2].object.target.name" (autoscaling/v2beta1's object.target names the object: autoscaling/v2 writes it as describedObject)`,
		`unknown field "spec.metrics[3].external.metricName" (autoscaling/v2beta1's field: autoscaling/v2 writes metric: {name: queue})`,
		`unknown field "spec.metrics[3].external.metricSelector" (autoscaling/v2beta1's field: autoscaling/v2 writes metric: {selector: …})`,
		`unknown field "spec.metrics[3].external.targetAverageValue" (autoscaling/v2beta1's field: autoscaling/v2 writes target: {type: AverageValue, averageValue: 30})`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	if ps := parse(t, "apiVersion: autoscaling/v2beta1\n"+head+metrics).Problems(); len(ps) > 0 {
		t.Errorf("autoscaling/v2beta1 with its own fields: %+v", ps)
	}
	other := parse(t, "apiVersion: autoscaling/v2\n"+head+"  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}, tolerance: 1}\n")
	for _, p := range other.Problems() {
		if strings.Contains(p.Message, "v2beta1") {
			t.Errorf("a hint for a field v2beta1 never had: %s", p.Message)
		}
	}
	if len(other.Problems()) == 0 {
		t.Error("no problem for the unknown field tolerance: the case tests nothing")
	}
}
