package rules

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
)

// runRemoteCharts reports each chart a Flux HelmRelease or an Argo CD
// Application (or ApplicationSet template) deploys from a chart
// repository: Flux and Argo CD fetch and render it with the object's
// values, scalelint never fetches anything, so the autoscalers that
// release deploys are not checked, and a run that finds none must not
// read as a clean bill. A chart from a Git path is not reported here: a
// path in this repository is rendered as a chart (workspace's GitOps
// roots).
//
// The fields read: a HelmRelease's spec.chart.spec (chart, version,
// sourceRef: HelmRepository, Bucket; GitRepository is a path) and
// spec.chartRef (OCIRepository, HelmChart), from Flux's HelmRelease v2 API
// (https://fluxcd.io/flux/components/helm/helmreleases/#chart-template,
// #chart-reference); an Application's spec.source and spec.sources[] with
// a chart key (repoURL a Helm or OCI repository, targetRevision the
// version), from Argo CD's Application specification
// (https://argo-cd.readthedocs.io/en/stable/user-guide/helm/).
func runRemoteCharts(pass *analyzer.Pass) error {
	// The workspace's objects (of a language server's view, those of the
	// files it lints again), not ObjectsOfKind, which lists the whole
	// workspace's on every edit (see runRemovedAPI); the driver parsed
	// the kinds (RenderIncomplete.Kinds).
	for _, o := range pass.Workspace.Objects().All() {
		switch o.Kind {
		case "HelmRelease", "Application", "ApplicationSet":
		default:
			continue
		}
		root := o.Root()
		if root == nil {
			continue
		}
		for _, c := range remoteCharts(o, root) {
			at := o.FieldOf(c.key, c.val)
			pass.Report(analyzer.Diagnostic{
				Pos: at.Pos, End: at.End, Object: o, Field: c.path.String(),
				Message: fmt.Sprintf("%s %s deploys %s, which is not fetched: the autoscalers and workloads it deploys are not checked",
					o.Kind, objectName(o), c.what),
			})
		}
	}
	return nil
}

// remoteChart is one chart an object deploys from outside the repository.
type remoteChart struct {
	key, val *yaml.Node    // the chart's name, where the finding goes
	path     manifest.Path // its field path (the finding's fingerprint)
	what     string        // the chart and where it comes from, for the message
}

func remoteCharts(o *manifest.Object, root *yaml.Node) []remoteChart {
	scalar := func(n *yaml.Node, p string) (key, val *yaml.Node, s string) {
		k, v := manifest.Lookup(n, manifest.ParsePath(p))
		if v == nil || v.Kind != yaml.ScalarNode || v.Value == "" {
			return nil, nil, ""
		}
		return k, v, v.Value
	}
	version := func(n *yaml.Node, p string) string {
		if _, _, v := scalar(n, p); v != "" {
			return " " + v
		}
		return ""
	}
	var out []remoteChart
	switch {
	case o.Group == "helm.toolkit.fluxcd.io" && o.Kind == "HelmRelease":
		if k, v, _ := scalar(root, "spec.chart.spec.chart"); v != nil {
			_, _, src := scalar(root, "spec.chart.spec.sourceRef.kind")
			_, _, name := scalar(root, "spec.chart.spec.sourceRef.name")
			if src != "" && src != "GitRepository" {
				out = append(out, remoteChart{key: k, val: v, path: manifest.ParsePath("spec.chart.spec.chart"),
					what: fmt.Sprintf("chart %q%s from %s %q", v.Value, version(root, "spec.chart.spec.version"), src, name)})
			}
		}
		if k, v, name := scalar(root, "spec.chartRef.name"); v != nil {
			if _, _, src := scalar(root, "spec.chartRef.kind"); src == "OCIRepository" || src == "HelmChart" {
				out = append(out, remoteChart{key: k, val: v, path: manifest.ParsePath("spec.chartRef.name"),
					what: fmt.Sprintf("the chart of %s %q", src, name)})
			}
		}
	case o.Group == "argoproj.io" && (o.Kind == "Application" || o.Kind == "ApplicationSet"):
		spec := "spec"
		if o.Kind == "ApplicationSet" {
			spec = "spec.template.spec"
		}
		sources := []string{spec + ".source"}
		if _, ss := manifest.Lookup(root, manifest.ParsePath(spec+".sources")); ss != nil && ss.Kind == yaml.SequenceNode {
			for i := range ss.Content {
				sources = append(sources, fmt.Sprintf("%s.sources[%d]", spec, i))
			}
		}
		for _, s := range sources {
			k, v, _ := scalar(root, s+".chart")
			if v == nil {
				continue // a path in a Git repository, or a values-only source
			}
			from := "a Helm repository"
			if _, _, u := scalar(root, s+".repoURL"); u != "" {
				from = "the Helm repository " + u
			}
			out = append(out, remoteChart{key: k, val: v, path: manifest.ParsePath(s + ".chart"),
				what: fmt.Sprintf("chart %q%s from %s", v.Value, version(root, s+".targetRevision"), from)})
		}
	}
	return out
}

// objectName quotes an object's name, with its namespace when it has one.
func objectName(o *manifest.Object) string {
	if o.Namespace != "" {
		return fmt.Sprintf("%q", o.Namespace+"/"+o.Name)
	}
	return fmt.Sprintf("%q", o.Name)
}
