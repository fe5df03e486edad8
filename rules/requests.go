package rules

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// What missing-cpu-request and missing-memory-request share: whether a
// resource Utilization metric can be computed from the pods' requests,
// and how their messages name a target.

// uncomputable returns the counted containers of r's pods that lack the
// request a CPU or memory Utilization metric m divides by: while there is
// one, the HPA cannot compute m (replica_calculator.go, calculateRequests:
// "missing request for"). It returns none for other metrics and when the
// pods are not known. A pod-level CPU request stands for the containers'
// (the view's PodLevel container); for memory, any pod-level resources
// make the answer uncertain (PodLevelResources), so none is returned.
func uncomputable(ws *workspace.Workspace, r *workspace.Resolution, m *scaling.Metric) []scaling.Container {
	if r.Pods == nil || !r.Pods.HasTemplate || !strings.EqualFold(m.TargetType, "Utilization") {
		return nil
	}
	var out []scaling.Container
	switch m.Resource {
	case "cpu":
		for _, c := range r.Pods.Counted(m.Container) {
			if !c.CPURequest.Set && !limitRangeDefaults(ws, r.PodsObject, "cpu") {
				out = append(out, c)
			}
		}
	case "memory":
		if r.Pods.PodResources {
			return nil
		}
		for _, c := range r.Pods.Counted(m.Container) {
			if !c.MemoryRequest && !limitRangeDefaults(ws, r.PodsObject, "memory") {
				out = append(out, c)
			}
		}
	}
	return out
}

// memoryUtilization reports whether m is a memory Utilization target: an
// HPA Resource or ContainerResource metric, or a KEDA memory trigger
// (which KEDA turns into one).
func memoryUtilization(m *scaling.Metric) bool {
	return m.Resource == "memory" && strings.EqualFold(m.TargetType, "Utilization")
}

// metricField returns where a metric's utilization target is written, or
// the metric itself.
func metricField(a *scaling.Autoscaler, m *scaling.Metric) manifest.Field {
	if m.Utilization.At.IsValid() {
		return m.Utilization.At
	}
	if m.At.IsValid() {
		return m.At
	}
	return a.Object.KindAt
}

// limitRangeDefaults reports whether a LimitRange among the inputs, in a
// namespace the workload can be deployed in, gives containers a default
// request of resource (cpu or memory): defaultRequest, or default, which
// sets the limit and so the request.
func limitRangeDefaults(ws *workspace.Workspace, w *manifest.Object, resource string) bool {
	for _, lr := range ws.ObjectsOfKind("LimitRange") {
		compatible := false
		for _, a := range ws.Namespaces(lr) {
			for _, b := range ws.Namespaces(w) {
				compatible = compatible || a == b
			}
		}
		if !compatible {
			continue
		}
		limits := lr.Get(manifest.ParsePath("spec.limits"))
		if limits == nil || limits.Kind != yaml.SequenceNode {
			continue
		}
		for _, item := range limits.Content {
			_, typ := manifest.Lookup(item, manifest.Path{manifest.Key("type")})
			if typ == nil || typ.Value != "Container" {
				continue
			}
			for _, k := range []string{"defaultRequest", "default"} {
				if _, v := manifest.Lookup(item, manifest.Path{manifest.Key(k), manifest.Key(resource)}); v != nil {
					return true
				}
			}
		}
	}
	return false
}

// percentPhrase is "a 70%" or "an 80%", as the number is said.
func percentPhrase(v float64) string {
	s := fmt.Sprintf("%g%%", v)
	if s[0] == '8' || strings.HasPrefix(s, "11%") || strings.HasPrefix(s, "18%") {
		return "an " + s
	}
	return "a " + s
}
