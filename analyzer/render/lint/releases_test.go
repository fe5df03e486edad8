package lint

import (
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render/chart"
	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
)

// TestReleasesOf reads GitOps objects as Argo CD and Flux give a chart its
// values (Argo CD's helm source settings,
// https://argo-cd.readthedocs.io/en/stable/user-guide/helm/; Flux's
// HelmRelease v2, https://fluxcd.io/flux/components/helm/helmreleases/):
// valueFiles relative to the source path, valuesObject instead of values,
// parameters as --set, the release name and namespace each defaults to;
// and what keeps a release from rendering.
func TestReleasesOf(t *testing.T) {
	dir := rendertest.WriteTree(t, "", map[string]string{"values-prod.yaml": "a: 1\n"})
	chart := filepath.ToSlash(dir)
	cases := []struct {
		name, doc string
		want      release // dir is the chart's; Files are checked apart
		files     []string
		problem   string // a substring of the problem, when one is wanted
	}{{
		name: "argo valueFiles, valuesObject over values, parameters",
		doc: `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: web, namespace: argocd}
spec:
  destination: {namespace: prod}
  source:
    path: ` + chart + `
    helm:
      valueFiles: [values-prod.yaml, missing.yaml]
      ignoreMissingValueFiles: true
      values: "b: 2"
      valuesObject: {c: 3}
      parameters: [{name: d.e, value: "4"}]
`,
		want:  release{set: setOf(`Application "argocd/web"`, []map[string]any{{"c": float64(3)}}, "d.e=4"), opts: opts("web", "prod")},
		files: []string{filepath.Join(dir, "values-prod.yaml")},
	}, {
		name: "argo values string, releaseName",
		doc: `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: web}
spec:
  source:
    path: ` + chart + `
    helm: {releaseName: w, values: "b: 2"}
`,
		want: release{set: setOf(`Application "web"`, []map[string]any{{"b": float64(2)}}), opts: opts("w", "")},
	}, {
		name: "argo $ref values file",
		doc: `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: web}
spec:
  sources:
  - path: ` + chart + `
    helm: {valueFiles: [$values/prod.yaml]}
`,
		problem: `reads values file "$values/prod.yaml" from another source or a URL`,
	}, {
		name: "argo missing values file",
		doc: `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: web}
spec:
  source:
    path: ` + chart + `
    helm: {valueFiles: [missing.yaml]}
`,
		problem: `reads values file "missing.yaml", which the repository does not hold`,
	}, {
		name: "flux values, targetNamespace",
		doc: `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: api, namespace: flux}
spec:
  targetNamespace: apps
  chart: {spec: {chart: ` + chart + `, sourceRef: {kind: GitRepository, name: flux-system}}}
  values: {replicas: 2}
`,
		want: release{set: setOf(`HelmRelease "flux/api"`, []map[string]any{{"replicas": float64(2)}}), opts: opts("apps-api", "apps")},
	}, {
		name: "flux postRenderers",
		doc: `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: api}
spec:
  chart: {spec: {chart: ` + chart + `, sourceRef: {kind: GitRepository, name: flux-system}}}
  postRenderers: [{kustomize: {patches: []}}]
`,
		problem: "post-renders the chart",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := manifest.Parse(token.NewFileSet(), "gitops.yaml", []byte(c.doc), manifest.Options{})
			o := f.Docs[0].Objects()[0]
			rels, problems := releasesOf(o, chart, dir)
			if c.problem != "" {
				if len(rels) != 0 || len(problems) != 1 || !strings.Contains(problems[0].Message, c.problem) {
					t.Fatalf("releases %+v, problems %+v; want only a problem saying %q", rels, problems, c.problem)
				}
				return
			}
			if len(problems) != 0 || len(rels) != 1 {
				t.Fatalf("releases %+v, problems %+v; want one release", rels, problems)
			}
			got := rels[0]
			if !reflect.DeepEqual(got.set.Files, c.files) {
				t.Errorf("files %q, want %q", got.set.Files, c.files)
			}
			got.set.Files, got.dir = nil, ""
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("release %+v, want %+v", got, c.want)
			}
		})
	}
}

func setOf(name string, values []map[string]any, set ...string) chart.ValueSet {
	return chart.ValueSet{Name: name, Values: values, Set: set}
}

func opts(release, namespace string) chart.Options {
	return chart.Options{ReleaseName: release, Namespace: namespace}
}
