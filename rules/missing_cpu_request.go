package rules

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// MissingCPURequest reports CPU utilization targets on pods without CPU
// requests.
var MissingCPURequest = &analyzer.Analyzer{
	Name:     "missing-cpu-request",
	Severity: analyzer.Error,
	Kinds:    []string{"LimitRange"},
	Doc:      doc("missing-cpu-request"),
	URL:      analyzer.RulesReferenceURL + "#missing-cpu-request",
	Run: func(pass *analyzer.Pass) error {
		ws := pass.Workspace
		for _, a := range ws.Autoscalers().All() {
			r := ws.Target(a)
			if r.Pods == nil || !r.Pods.HasTemplate {
				continue
			}
			for _, m := range a.Metrics {
				if m.Signal != scaling.SignalCPU {
					continue
				}
				for _, c := range r.Pods.Counted(m.Container) {
					if c.CPURequest.Set || limitRangeDefaultsCPU(ws, r.PodsObject) {
						continue
					}
					at := c.CPURequest.At
					if !at.IsValid() || (at.Pos == c.At.Pos && at.End == c.At.End) {
						at = c.NameAt // nothing of resources is written: the container's name
					}
					rng := analyzer.FieldSpan(r.PodsObject, at)
					rel := analyzer.FieldSpan(a.Object, metricField(a, m))
					what := fmt.Sprintf("a %g%% CPU utilization target", m.Utilization.V)
					if m.Implicit {
						what = fmt.Sprintf("the default %g%% CPU utilization target", m.Utilization.V)
					}
					pass.Report(analyzer.Diagnostic{
						Pos: rng.Pos(), End: rng.End(), Object: r.PodsObject, Field: "containers." + c.Name + ".resources.requests.cpu",
						Message: fmt.Sprintf("container %q has no CPU request, so %s %q cannot compute %s: it never scales on CPU",
							c.Name, a.Object.Kind, a.Object.Name, what),
						Related: []analyzer.Related{{Pos: rel.Pos(), End: rel.End(), Message: fmt.Sprintf("%s %q sets %s here", a.Object.Kind, a.Object.Name, what)}},
					})
				}
			}
		}
		return nil
	},
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

// limitRangeDefaultsCPU reports whether a LimitRange among the inputs, in
// a namespace the workload can be deployed in, gives containers a default
// CPU request (defaultRequest, or default, which sets the limit and so the
// request).
func limitRangeDefaultsCPU(ws *workspace.Workspace, w *manifest.Object) bool {
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
				if _, v := manifest.Lookup(item, manifest.Path{manifest.Key(k), manifest.Key("cpu")}); v != nil {
					return true
				}
			}
		}
	}
	return false
}
