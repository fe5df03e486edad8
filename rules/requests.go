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

// requests tells, for one run of a rule, whether resource Utilization
// metrics can be computed from the pods' requests. The workspace's
// VerticalPodAutoscalers and LimitRanges are listed once, and only when a
// container lacks a request: listing a kind walks every object, which per
// metric was most of a 10,000-service run's rules phase (634 ms instead
// of 185).
type requests struct {
	ws                *workspace.Workspace
	listed            bool
	vpas, limitRanges []*manifest.Object
}

func newRequests(ws *workspace.Workspace) *requests { return &requests{ws: ws} }

// each calls report for every counted container of an autoscaler's pods
// that lacks the request a metric selected by which divides by
// (uncomputable). ScaledJobs are skipped: KEDA makes no HPA for them, so
// nothing divides usage by requests.
func (q *requests) each(which func(*scaling.Metric) bool, report func(*scaling.Autoscaler, *scaling.Metric, *workspace.Resolution, scaling.Container)) {
	for _, a := range q.ws.Autoscalers().All() {
		if a.Kind == scaling.ScaledJob {
			continue
		}
		r := q.ws.Target(a)
		for _, m := range a.Metrics {
			if !which(m) {
				continue
			}
			for _, c := range q.uncomputable(r, m) {
				report(a, m, r, c)
			}
		}
	}
}

func (q *requests) list() {
	if !q.listed {
		q.listed = true
		q.vpas = q.ws.ObjectsOfKind("VerticalPodAutoscaler")
		q.limitRanges = q.ws.ObjectsOfKind("LimitRange")
	}
}

// uncomputable returns the counted containers of r's pods that lack the
// request a CPU or memory Utilization metric m divides by: while there is
// one, the HPA cannot compute m (replica_calculator.go, calculateRequests:
// "missing request for"). It returns none for other metrics, when the
// pods are not known, and when a LimitRange among the inputs defaults the
// request (limitRangeDefaults) or a VerticalPodAutoscaler writes it
// (vpaSetsRequests). A pod-level CPU request stands for the containers'
// (the view's PodLevel container); for memory, any pod-level resources
// make the answer uncertain (PodLevelResources), so none is returned.
func (q *requests) uncomputable(r *workspace.Resolution, m *scaling.Metric) []scaling.Container {
	if r.Pods == nil || !r.Pods.HasTemplate || !strings.EqualFold(m.TargetType, "Utilization") {
		return nil
	}
	var out []scaling.Container
	switch m.Resource {
	case "cpu":
		for _, c := range r.Pods.Counted(m.Container) {
			if !c.CPURequest.Set {
				out = append(out, c)
			}
		}
	case "memory":
		if r.Pods.PodResources {
			return nil
		}
		for _, c := range r.Pods.Counted(m.Container) {
			if !c.MemoryRequest {
				out = append(out, c)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	// A render that left out a template which may define a LimitRange
	// or a VerticalPodAutoscaler may lack the one that sets the request.
	if q.ws.MayLack("LimitRange") || q.ws.MayLack("VerticalPodAutoscaler") {
		return nil
	}
	q.list()
	if limitRangeDefaults(q.ws, q.limitRanges, r.PodsObject, m.Resource) || vpaSetsRequests(q.ws, q.vpas, r, m.Resource) {
		return nil
	}
	return out
}

// effect says what follows for autoscaler a when one of its resource
// Utilization metrics cannot be computed, by what its other metrics are
// (horizontal.go, computeReplicasForMetrics): an HPA whose every metric
// fails never scales (it returns the error and keeps its count), and one
// with any metric failing never scales down (it refuses to scale below the
// current count while a metric is invalid), though the others may still
// scale it up.
func (q *requests) effect(a *scaling.Autoscaler, r *workspace.Resolution) string {
	hpa := "the HPA"
	if a.Kind != scaling.HPA {
		hpa = "the HPA KEDA makes"
	}
	failing := 0
	for _, other := range a.Metrics {
		if len(q.uncomputable(r, other)) > 0 {
			failing++
		}
	}
	switch {
	case len(a.Metrics) == 1:
		return "it is the only metric, so " + hpa + " never scales"
	case failing == len(a.Metrics):
		return "none of its metrics can be computed, so " + hpa + " never scales"
	}
	return "while it fails, " + hpa + " never scales down (it refuses to while any metric is invalid)"
}

// vpaSetsRequests reports whether a VerticalPodAutoscaler of vpas, in a
// namespace the pods can be deployed in, targets the pods' workload (or
// the scale target, an Argo Rollout's) in a mode that applies its
// recommendations (updateMode other than Off; the API's default is
// Recreate, Auto in older releases), with resource among those it
// controls (controlledResources: cpu and memory when a container policy
// leaves it out, or when there is no policy). Its admission controller
// then writes the requests into every pod it admits, whether the template
// writes them or not, so the Utilization metric may well be computed and
// the rules say nothing. A policy whose mode is Off for some containers
// still counts: a missed finding rather than a false one. The VPA need
// not be deployed with the workload (it acts on the cluster's object of
// that name): silence is the sound side.
// (kubernetes/autoscaler, vertical-pod-autoscaler: the v1 API's
// PodUpdatePolicy and ContainerResourcePolicy.)
func vpaSetsRequests(ws *workspace.Workspace, vpas []*manifest.Object, r *workspace.Resolution, resource string) bool {
	for _, vpa := range vpas {
		if vpa.Group != "autoscaling.k8s.io" || !targets(ws, vpa, r) {
			continue
		}
		if mode := scalarAt(vpa, "spec.updatePolicy.updateMode"); mode == "Off" {
			continue
		}
		policies := vpa.Get(manifest.ParsePath("spec.resourcePolicy.containerPolicies"))
		if policies == nil || policies.Kind != yaml.SequenceNode || len(policies.Content) == 0 {
			return true
		}
		for _, p := range policies.Content {
			_, list := manifest.Lookup(p, manifest.Path{manifest.Key("controlledResources")})
			if list == nil || list.Kind != yaml.SequenceNode {
				return true // the default: cpu and memory
			}
			for _, item := range list.Content {
				if item.Value == resource {
					return true
				}
			}
		}
	}
	return false
}

// targets reports whether a VPA's targetRef names r's pods' workload or
// its scale target, in a namespace both can be deployed in.
func targets(ws *workspace.Workspace, vpa *manifest.Object, r *workspace.Resolution) bool {
	kind, name := scalarAt(vpa, "spec.targetRef.kind"), scalarAt(vpa, "spec.targetRef.name")
	for _, o := range []*manifest.Object{r.PodsObject, r.Object} {
		if o != nil && o.Kind == kind && o.Name == name && ws.NamespaceCompatible(vpa, o) {
			return true
		}
	}
	return false
}

// scalarAt returns the scalar value at a path of o, or "".
func scalarAt(o *manifest.Object, path string) string {
	if n := o.Get(manifest.ParsePath(path)); n != nil && n.Kind == yaml.ScalarNode {
		return n.Value
	}
	return ""
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

// limitRangeDefaults reports whether a LimitRange of limitRanges, in a
// namespace the workload can be deployed in, gives containers a default
// request of resource (cpu or memory): defaultRequest, or default, which
// sets the limit and so the request.
func limitRangeDefaults(ws *workspace.Workspace, limitRanges []*manifest.Object, w *manifest.Object, resource string) bool {
	for _, lr := range limitRanges {
		if !ws.NamespaceCompatible(lr, w) {
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
