package rules

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
)

// ReplicaBounds reports replica bounds and KEDA settings the API server or
// KEDA's admission webhook would refuse.
var ReplicaBounds = &analyzer.Analyzer{
	Name:     "replica-bounds",
	Severity: analyzer.Error,
	Doc:      doc("replica-bounds"),
	URL:      analyzer.RulesReferenceURL + "#replica-bounds",
	Local:    true,
	Run: func(pass *analyzer.Pass) error {
		for _, a := range pass.Workspace.Autoscalers().All() {
			switch a.Kind {
			case scaling.HPA:
				checkHPABounds(pass, a)
			case scaling.ScaledObject:
				for _, f := range a.KEDAFindings {
					reportAt(pass, a.Object, f.Field, "KEDA would refuse this ScaledObject: "+lowerFirst(f.Message))
				}
				checkCPUOnlyToZero(pass, a)
			case scaling.ScaledJob:
				for _, f := range a.KEDAFindings {
					reportAt(pass, a.Object, f.Field, "KEDA would refuse this ScaledJob: "+lowerFirst(f.Message))
				}
			}
		}
		return nil
	},
}

// reportAt reports at a field path of an object, or at its nearest
// existing parent.
func reportAt(pass *analyzer.Pass, o *manifest.Object, field, msg string) {
	p := manifest.ParsePath(field)
	n := o.Nearest(p)
	if k := o.GetKey(p); k != nil && n != nil && n.Kind != yaml.ScalarNode {
		n = k // a block's key line, not the whole block
	}
	r := analyzer.NodeRange(o, n)
	pass.Report(analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: o, Field: field, Message: msg})
}

func checkHPABounds(pass *analyzer.Pass, a *scaling.Autoscaler) {
	o := a.Object
	if a.Min.Invalid || a.Max.Invalid {
		return // invalid-field reports the value
	}
	switch {
	case !a.Max.Set && a.Max.At.IsNull():
		reportAt(pass, o, "spec.maxReplicas", "maxReplicas is null, which is no value: the API server refuses an HPA without it")
	case !a.Max.Set:
		reportAt(pass, o, "spec.maxReplicas", "maxReplicas is required: the API server refuses an HPA without it")
	case a.Max.V < 1:
		reportAt(pass, o, "spec.maxReplicas", fmt.Sprintf("maxReplicas %g must be at least 1", a.Max.V))
	case a.Min.V > a.Max.V:
		reportAt(pass, o, "spec.minReplicas", fmt.Sprintf("minReplicas %g is above maxReplicas %g", a.Min.V, a.Max.V))
	}
	// The API server's validation of a metric target: "must be greater
	// than 0" (validateMetricTarget, pkg/apis/autoscaling/validation).
	for _, m := range a.Metrics {
		if u := m.Utilization; u.Set && !u.Invalid && u.V < 1 && u.At.IsValid() {
			pass.Report(analyzer.Diagnostic{Pos: u.At.Pos, End: u.At.End, Object: o,
				Message: fmt.Sprintf("utilization target %g must be at least 1: the API server refuses a target of 0 or less", u.V)})
		}
	}
	if a.Min.Set && a.Min.V < 1 {
		objectOrExternal := false
		for _, m := range a.Metrics {
			objectOrExternal = objectOrExternal || m.Type == "Object" || m.Type == "External"
		}
		if a.Min.V < 0 || !objectOrExternal {
			reportAt(pass, o, "spec.minReplicas", fmt.Sprintf("minReplicas %g must be at least 1 (0 needs the HPAScaleToZero feature gate and an Object or External metric)", a.Min.V))
		}
	}
}

// checkCPUOnlyToZero re-implements the webhook's check that a ScaledObject
// with only cpu and memory triggers cannot scale to zero.
func checkCPUOnlyToZero(pass *analyzer.Pass, a *scaling.Autoscaler) {
	if len(a.Metrics) == 0 || a.Min.V > 0 {
		return
	}
	// The webhook checks it only for the targets whose pods it reads.
	if t := a.Target; t.Group != "apps" || (t.Kind != "Deployment" && t.Kind != "StatefulSet") {
		return
	}
	for _, m := range a.Metrics {
		if t := strings.ToLower(m.Type); t != "cpu" && t != "memory" {
			return
		}
	}
	reportAt(pass, a.Object, "spec.minReplicaCount", fmt.Sprintf("KEDA would refuse this ScaledObject: with only cpu or memory triggers, minReplicaCount must be at least 1, not %g", a.Min.V))
}
