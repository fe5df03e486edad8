package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
)

// RemovedAPI reports autoscalers, and the workloads they scale, written
// in API versions the clusters no longer serve: kubectl apply fails on
// them.
var RemovedAPI = &analyzer.Analyzer{
	Name:     "removed-api",
	Severity: analyzer.Error,
	Doc:      doc("removed-api"),
	URL:      analyzer.RulesReferenceURL + "#removed-api",
	Kinds:    []string{"TriggerAuthentication"},
	Run:      runRemovedAPI,
}

// removal is a Kubernetes API version a release stopped serving, from
// Kubernetes' deprecation guide
// (https://kubernetes.io/docs/reference/using-api/deprecation-guide/) and
// Fairwinds pluto's table
// (https://github.com/FairwindsOps/pluto/blob/master/versions.yaml).
type removal struct {
	apiVersion  string
	kinds       []string
	removedIn   int // the Kubernetes 1.x minor release that stopped serving it
	replacement string
}

var removals = []removal{
	{"autoscaling/v2beta1", []string{"HorizontalPodAutoscaler"}, 25, "autoscaling/v2"},
	{"autoscaling/v2beta2", []string{"HorizontalPodAutoscaler"}, 26, "autoscaling/v2"},
	{"extensions/v1beta1", []string{"Deployment", "ReplicaSet", "DaemonSet"}, 16, "apps/v1"},
	{"apps/v1beta1", []string{"Deployment", "StatefulSet", "ReplicaSet"}, 16, "apps/v1"},
	{"apps/v1beta2", []string{"Deployment", "StatefulSet", "ReplicaSet", "DaemonSet"}, 16, "apps/v1"},
}

// removalOf returns the removal of an apiVersion and kind, if any ("" kind
// matches any of the version's kinds: a scaleTargetRef).
func removalOf(apiVersion, kind string) (removal, bool) {
	for _, r := range removals {
		if r.apiVersion != apiVersion {
			continue
		}
		for _, k := range r.kinds {
			if kind == "" || k == kind {
				return r, true
			}
		}
	}
	return removal{}, false
}

// kedaV1 is KEDA 1's API group: KEDA 2 serves keda.sh instead
// (https://keda.sh/docs/2.0/migration/).
const kedaV1 = "keda.k8s.io"

func runRemovedAPI(pass *analyzer.Pass) error {
	ws := pass.Workspace
	reported := map[*manifest.Object]bool{}
	for _, a := range ws.Autoscalers().All() {
		o := a.Object
		kv := pass.KubernetesVersion(o.File())
		if r, ok := removalOf(o.APIVersion, o.Kind); ok && kv.AtLeast(1, r.removedIn) {
			pass.Report(removedDiagnostic(o, r, kv, hpaFix(o, r)))
		}
		if o.Group == kedaV1 {
			pass.Report(kedaV1Diagnostic(o))
		}
		// A scaleTargetRef in a removed version. The HPA controller looks
		// the target up by its group and kind, in whatever version the
		// group serves (pkg/controller/podautoscaler/horizontal.go:
		// RESTMappings of the GroupKind), and so does KEDA's scale client
		// (by GroupResource): only a group that no longer serves the kind
		// at all (extensions) leaves it without a target (FailedGetScale).
		if r, ok := removalOf(a.Target.APIVersion, ""); ok && kv.AtLeast(1, r.removedIn) && !a.Target.Defaulted {
			if d, ok := targetRefDiagnostic(a, r, kv); ok {
				pass.Report(d)
			}
		}
		// The workload it scales, once.
		t := ws.Target(a).Object
		if t == nil || reported[t] {
			continue
		}
		tkv := pass.KubernetesVersion(t.File())
		if r, ok := removalOf(t.APIVersion, t.Kind); ok && tkv.AtLeast(1, r.removedIn) {
			reported[t] = true
			d := removedDiagnostic(t, r, tkv, nil)
			d.Message += fmt.Sprintf(", and %s %q scales it", o.Kind, o.Name)
			if fix, ok := replaceAPIVersion(t, r.replacement, false); ok {
				// apps/v1 requires spec.selector, which the beta versions
				// defaulted from the pod template's labels.
				d.SuggestedFixes = []analyzer.SuggestedFix{fix}
			}
			pass.Report(d)
		}
	}
	// The workspace's objects (of a language server's view, those of the
	// files it lints again), not ObjectsOfKind, which lists the whole
	// workspace's: an edit at 10,000 services listed thousands of
	// TriggerAuthentications to report none outside the edited file.
	ws.ParseKind("TriggerAuthentication")
	for _, o := range ws.Objects().All() {
		if o.Kind == "TriggerAuthentication" && o.Group == kedaV1 {
			pass.Report(kedaV1Diagnostic(o))
		}
	}
	return nil
}

// removedDiagnostic reports an object in a version its clusters no longer
// serve, at its apiVersion.
func removedDiagnostic(o *manifest.Object, r removal, kv analyzer.KubernetesVersion, fixes []analyzer.SuggestedFix) analyzer.Diagnostic {
	pos, end := apiVersionSpan(o)
	return analyzer.Diagnostic{
		Pos: pos, End: end, Object: o, Field: "apiVersion",
		Message: fmt.Sprintf("%s %s is not served since Kubernetes 1.%d (kubernetes-version %s): kubectl apply fails; use %s",
			o.APIVersion, o.Kind, r.removedIn, kv, r.replacement),
		Facts:          map[string]float64{"removedInMinor": float64(r.removedIn), "kubernetesMinor": float64(kv.Minor)},
		SuggestedFixes: fixes,
	}
}

// kedaV1Diagnostic reports a KEDA 1 object.
func kedaV1Diagnostic(o *manifest.Object) analyzer.Diagnostic {
	pos, end := apiVersionSpan(o)
	d := analyzer.Diagnostic{
		Pos: pos, End: end, Object: o, Field: "apiVersion",
		Message: fmt.Sprintf("%s %s is KEDA 1's API, which KEDA 2 does not serve: kubectl apply fails where KEDA 2 is installed; use keda.sh/v1alpha1",
			o.APIVersion, o.Kind),
	}
	if fix, ok := kedaV1Fix(o); ok {
		d.SuggestedFixes = []analyzer.SuggestedFix{fix}
	}
	return d
}

// apiVersionSpan returns the position of an object's apiVersion value.
func apiVersionSpan(o *manifest.Object) (pos, end token.Pos) {
	if n := o.Get(manifest.Path{manifest.Key("apiVersion")}); n != nil {
		return o.Pos(n), o.End(n)
	}
	return o.KindAt.Pos, o.KindAt.End
}

// replaceAPIVersion is the fix that writes the object's apiVersion as
// replacement.
func replaceAPIVersion(o *manifest.Object, replacement string, safe bool) (analyzer.SuggestedFix, bool) {
	n := o.Get(manifest.Path{manifest.Key("apiVersion")})
	if n == nil || n.Kind != yaml.ScalarNode {
		return analyzer.SuggestedFix{}, false
	}
	f := manifest.Field{Pos: o.Pos(n), End: o.End(n)}
	f.SetNode(n.Style, n.Kind, n.ShortTag())
	return analyzer.SuggestedFix{
		Message: "Change apiVersion to " + replacement,
		Edits:   []analyzer.TextEdit{replaceScalar(f, replacement)},
		Safe:    safe,
	}, true
}

// hpaFix converts an HPA to autoscaling/v2. v2beta2 has v2's shape, so
// changing the apiVersion is all (safe). v2beta1 wrote metric targets
// otherwise (targetAverageUtilization, targetAverageValue, metricName):
// the fix writes the metrics as v2 reads them too, which changes text a
// reviewer should read (not marked safe).
func hpaFix(o *manifest.Object, r removal) []analyzer.SuggestedFix {
	fix, ok := replaceAPIVersion(o, r.replacement, r.apiVersion == "autoscaling/v2beta2")
	if !ok {
		return nil
	}
	if r.apiVersion != "autoscaling/v2beta1" {
		return []analyzer.SuggestedFix{fix}
	}
	metrics := o.Get(manifest.ParsePath("spec.metrics"))
	if metrics == nil {
		fix.Safe = true // no metric: the same default (80% CPU) in both
		return []analyzer.SuggestedFix{fix}
	}
	hpa, _ := o.Typed().(*manifest.HPA)
	if hpa == nil || metrics.Kind != yaml.SequenceNode {
		return nil
	}
	text, ok := renderMetrics(hpa, metrics, o)
	if !ok {
		return nil
	}
	fix.Message = "Change apiVersion to autoscaling/v2 and rewrite the metrics in its shape"
	fix.Edits = append(fix.Edits, analyzer.TextEdit{Pos: o.Pos(metrics), End: o.End(metrics), NewText: text})
	return []analyzer.SuggestedFix{fix}
}

// renderMetrics writes an HPA's metrics (read from v2beta1 into v2) as
// YAML that replaces the metrics sequence node: block style indented as
// the node is, or flow style when the node is.
func renderMetrics(hpa *manifest.HPA, metrics *yaml.Node, o *manifest.Object) (string, bool) {
	js, err := json.Marshal(hpa.Spec.Metrics)
	if err != nil {
		return "", false
	}
	if metrics.Style&yaml.FlowStyle != 0 {
		return string(js), true
	}
	var n yaml.Node
	if err := yaml.Unmarshal(js, &n); err != nil || len(n.Content) == 0 {
		return "", false
	}
	blockStyle(n.Content[0])
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n.Content[0]); err != nil {
		return "", false
	}
	enc.Close()
	_, col := o.File().Position(o.Pos(metrics))
	indent := strings.Repeat(" ", col-1)
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = indent + lines[i]
	}
	return strings.Join(lines, "\n"), true
}

// blockStyle clears the flow and quoting styles JSON gave a tree, so it
// is written in block style with plain scalars where they read the same.
func blockStyle(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// targetRefDiagnostic reports a scaleTargetRef written in a removed
// version, with the safe fix: the reference names the same object in
// apps/v1.
func targetRefDiagnostic(a *scaling.Autoscaler, r removal, kv analyzer.KubernetesVersion) (analyzer.Diagnostic, bool) {
	o := a.Object
	n := o.Get(manifest.ParsePath("spec.scaleTargetRef.apiVersion"))
	if n == nil || n.Kind != yaml.ScalarNode {
		return analyzer.Diagnostic{}, false
	}
	f := manifest.Field{Pos: o.Pos(n), End: o.End(n)}
	f.SetNode(n.Style, n.Kind, n.ShortTag())
	d := analyzer.Diagnostic{
		Pos: f.Pos, End: f.End, Object: o, Field: "spec.scaleTargetRef.apiVersion",
		Message: fmt.Sprintf("scaleTargetRef names %s %s, not served since Kubernetes 1.%d (kubernetes-version %s): the controller cannot find the scale target and never scales; use %s",
			a.Target.APIVersion, a.Target.Kind, r.removedIn, kv, r.replacement),
		Facts: map[string]float64{"removedInMinor": float64(r.removedIn), "kubernetesMinor": float64(kv.Minor)},
		SuggestedFixes: []analyzer.SuggestedFix{{
			Message: "Change scaleTargetRef.apiVersion to " + r.replacement,
			Edits:   []analyzer.TextEdit{replaceScalar(f, r.replacement)},
			Safe:    true,
		}},
	}
	if group(r.apiVersion) == group(r.replacement) {
		// The group still serves the kind: the controller finds the
		// target and scales. What is left is a reference no cluster of
		// that release can resolve as written (kube-linter's
		// dangling-horizontalpodautoscaler matches the version too).
		d.Severity = analyzer.Info
		d.Message = fmt.Sprintf("scaleTargetRef names %s %s, a version not served since Kubernetes 1.%d (kubernetes-version %s): the autoscaler still scales (its controller looks the target up by group and kind), but tools that resolve the reference by its version find nothing; use %s",
			a.Target.APIVersion, a.Target.Kind, r.removedIn, kv, r.replacement)
	}
	return d, true
}

// group is the API group of an apiVersion ("" for the core group).
func group(apiVersion string) string {
	if g, _, ok := strings.Cut(apiVersion, "/"); ok {
		return g
	}
	return ""
}

// kedaV1Fix moves a KEDA 1 object to keda.sh/v1alpha1 and renames what
// KEDA 2 renamed in it (scaleTargetRef.deploymentName to name,
// containerName to envSourceContainerName): not marked safe, as KEDA 2
// changed trigger metadata and defaults too (https://keda.sh/docs/2.0/migration/).
// A KEDA 1 ScaledObject of scaleType job becomes a ScaledJob, which no
// edit of this kind writes: no fix then.
func kedaV1Fix(o *manifest.Object) (analyzer.SuggestedFix, bool) {
	if o.Get(manifest.ParsePath("spec.scaleType")) != nil {
		return analyzer.SuggestedFix{}, false
	}
	fix, ok := replaceAPIVersion(o, "keda.sh/v1alpha1", false)
	if !ok {
		return fix, false
	}
	for _, rename := range [][2]string{{"deploymentName", "name"}, {"containerName", "envSourceContainerName"}} {
		if k := o.GetKey(manifest.Path{manifest.Key("spec"), manifest.Key("scaleTargetRef"), manifest.Key(rename[0])}); k != nil && k.Style == 0 {
			fix.Edits = append(fix.Edits, analyzer.TextEdit{Pos: o.Pos(k), End: o.End(k), NewText: rename[1]})
		}
	}
	fix.Message = "Move to keda.sh/v1alpha1 (KEDA 2)"
	return fix, true
}
