package rules

import (
	"fmt"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// MissingCPURequest reports CPU utilization targets on pods without CPU
// requests. The HPA divides the pods' CPU usage by the counted containers'
// requests (replica_calculator.go, calculateRequests): with one missing
// the metric cannot be computed, and what follows depends on the other
// metrics (requests.effect).
var MissingCPURequest = &analyzer.Analyzer{
	Name:     "missing-cpu-request",
	Severity: analyzer.Error,
	Kinds:    []string{"LimitRange", "VerticalPodAutoscaler"},
	Doc:      doc("missing-cpu-request"),
	URL:      analyzer.RulesReferenceURL + "#missing-cpu-request",
	Run: func(pass *analyzer.Pass) error {
		q := newRequests(pass.Workspace)
		cpu := func(m *scaling.Metric) bool { return m.Signal == scaling.SignalCPU }
		q.each(cpu, func(a *scaling.Autoscaler, m *scaling.Metric, r *workspace.Resolution, c scaling.Container) {
			at := c.CPURequest.At
			if !at.IsValid() || (at.Pos == c.At.Pos && at.End == c.At.End) {
				at = c.NameAt // nothing of resources is written: the container's name
			}
			rng := analyzer.FieldSpan(r.PodsObject, at)
			rel := analyzer.FieldSpan(a.Object, metricField(a, m))
			what := percentPhrase(m.Utilization.V) + " CPU utilization target"
			if m.Implicit {
				what = fmt.Sprintf("the default %g%% CPU utilization target", m.Utilization.V)
			}
			pass.Report(analyzer.Diagnostic{
				Pos: rng.Pos(), End: rng.End(), Object: r.PodsObject, Field: "containers." + c.Name + ".resources.requests.cpu",
				Message: fmt.Sprintf("container %q has no CPU request, so %s %q cannot compute %s: %s",
					c.Name, a.Object.Kind, a.Object.Name, what, q.effect(a, r)),
				Related: []analyzer.Related{{Pos: rel.Pos(), End: rel.End(), Message: fmt.Sprintf("%s %q sets %s here", a.Object.Kind, a.Object.Name, what)}},
			})
		})
		return nil
	},
}
