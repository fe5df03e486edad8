package rules

import (
	"fmt"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// MissingMemoryRequest reports memory utilization targets on pods without
// memory requests.
//
// The HPA divides a Resource metric's usage by the counted containers'
// requests (replica_calculator.go, calculateRequests), for memory as for
// CPU: with a request missing the metric cannot be computed. What follows
// depends on the other metrics (requests.effect).
var MissingMemoryRequest = &analyzer.Analyzer{
	Name:     "missing-memory-request",
	Severity: analyzer.Error,
	Kinds:    []string{"LimitRange", "VerticalPodAutoscaler"},
	Doc:      doc("missing-memory-request"),
	URL:      analyzer.RulesReferenceURL + "#missing-memory-request",
	Run: func(pass *analyzer.Pass) error {
		q := newRequests(pass.Workspace)
		q.each(memoryUtilization, func(a *scaling.Autoscaler, m *scaling.Metric, r *workspace.Resolution, c scaling.Container) {
			reportMissingMemory(pass, q, a, m, r, c)
		})
		return nil
	},
}

func reportMissingMemory(pass *analyzer.Pass, q *requests, a *scaling.Autoscaler, m *scaling.Metric, r *workspace.Resolution, c scaling.Container) {
	pods := r.PodsObject
	at := memoryRequestField(pods, c)
	rng := analyzer.FieldSpan(pods, at)
	rel := analyzer.FieldSpan(a.Object, metricField(a, m))
	what := "a memory utilization target"
	if m.Utilization.Set {
		what = percentPhrase(m.Utilization.V) + " memory utilization target"
	}
	pass.Report(analyzer.Diagnostic{
		Pos: rng.Pos(), End: rng.End(), Object: pods, Field: "containers." + c.Name + ".resources.requests.memory",
		Message: fmt.Sprintf("container %q has no memory request, so %s %q cannot compute %s: %s",
			c.Name, a.Object.Kind, a.Object.Name, what, q.effect(a, r)),
		Related: []analyzer.Related{{Pos: rel.Pos(), End: rel.End(), Message: fmt.Sprintf("%s %q sets %s here", a.Object.Kind, a.Object.Name, what)}},
	})
}

// memoryRequestField is where a container's memory request would be
// written: the nearest field of resources.requests.memory written, or the
// container's name when nothing of its resources is.
func memoryRequestField(pods *manifest.Object, c scaling.Container) manifest.Field {
	t, ok := pods.Typed().(*manifest.Workload)
	if !ok || t == nil || c.Index < 0 { // nil: a released file that no longer decodes
		return c.NameAt
	}
	list := "containers"
	if c.Sidecar {
		list = "initContainers"
	}
	p := t.TemplatePath.Append(manifest.Key("spec"), manifest.Key(list), manifest.Index(int(c.Index)),
		manifest.Key("resources"), manifest.Key("requests"), manifest.Key("memory"))
	at := pods.NearestField(p)
	if !at.IsValid() || (at.Pos == c.At.Pos && at.End == c.At.End) {
		return c.NameAt
	}
	return at
}
