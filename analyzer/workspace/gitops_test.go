package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// objectIn returns the first object of a file.
func objectIn(t *testing.T, ws *Workspace, path string) *manifest.Object {
	t.Helper()
	for _, o := range ws.Objects().All() {
		if o.Doc.File.Path == path {
			return o
		}
	}
	t.Fatalf("no object in %s", path)
	return nil
}

func fluxKustomization(name, path, extra string) string {
	return "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: " + name +
		"\n  namespace: flux-system\nspec:\n  path: " + path + "\n  sourceRef: {kind: GitRepository, name: flux-system}\n" + extra
}

func deployment(name string) string {
	return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name + "\n"
}

// TestFluxGeneratedKustomization: a Flux Kustomization whose path holds no
// kustomization deploys every manifest below it, each subdirectory that
// holds a kustomization as that kustomization (fluxcd/pkg's generator):
// files the kustomization does not list, and its patches, are not
// deployed; targetNamespace replaces every object's namespace.
func TestFluxGeneratedKustomization(t *testing.T) {
	ws := build(t, map[string]string{
		"clusters/prod/apps.yaml":            fluxKustomization("apps", "./apps", "  targetNamespace: shop\n"),
		"apps/a/kustomization.yaml":          "resources: [deployment.yaml]\npatches:\n- path: patch.yaml\n",
		"apps/a/deployment.yaml":             deployment("a"),
		"apps/a/unlisted.yaml":               deployment("unlisted"),
		"apps/a/patch.yaml":                  deployment("a"),
		"apps/b/deep/x/y/deployment.yaml":    deployment("b"),
		"apps/plain.yaml":                    deployment("plain"),
		"elsewhere/far/away/deployment.yaml": deployment("far"),
	}, Options{})
	a, b, plain := objectIn(t, ws, "apps/a/deployment.yaml"), objectIn(t, ws, "apps/b/deep/x/y/deployment.yaml"), objectIn(t, ws, "apps/plain.yaml")
	for _, pair := range [][2]*manifest.Object{{a, b}, {a, plain}, {b, plain}} {
		if !ws.DeployedTogether(pair[0], pair[1]) {
			t.Errorf("%s and %s: not deployed together under ./apps", pair[0].Doc.File.Path, pair[1].Doc.File.Path)
		}
	}
	if unlisted := objectIn(t, ws, "apps/a/unlisted.yaml"); len(ws.Roots(unlisted)) != 0 {
		t.Errorf("a file its kustomization does not list is deployed by %v", ws.Roots(unlisted))
	}
	if far := objectIn(t, ws, "elsewhere/far/away/deployment.yaml"); ws.DeployedTogether(a, far) {
		t.Error("a file outside the Flux path is deployed with it")
	}
	for _, o := range []*manifest.Object{a, b, plain} {
		if ns := ws.Namespaces(o); !slices.Equal(ns, []string{"shop"}) {
			t.Errorf("%s: namespaces %v, want the targetNamespace [shop]", o.Doc.File.Path, ns)
		}
	}
	var flux *Root
	for _, r := range ws.AllRoots() {
		if r.Kind == FluxKustomization {
			flux = r
		}
	}
	if flux == nil || flux.Path != "apps" || flux.Empty {
		t.Fatalf("Flux root %+v, want path apps", flux)
	}
	if !strings.Contains(flux.String(), `Flux Kustomization "flux-system/apps" (apps)`) {
		t.Errorf("root named %q", flux.String())
	}
}

// TestArgoApplicationRoots: an Argo CD Application deploys the files of
// its path, below it only with directory.recurse; its destination
// namespace goes to objects that set none; the sources of one
// Application are one root; an ApplicationSet's git directory generator
// makes one root per directory.
func TestArgoApplicationRoots(t *testing.T) {
	app := func(name, source string) string {
		return "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: " + name +
			"\nspec:\n  destination: {namespace: dest}\n" + source
	}
	ws := build(t, map[string]string{
		"argocd/flat.yaml":                 app("flat", "  source: {repoURL: https://example.com/r.git, path: flat}\n"),
		"flat/top.yaml":                    deployment("top"),
		"flat/sub/dir/deeper/nested.yaml":  deployment("nested"),
		"argocd/deep.yaml":                 app("deep", "  source: {repoURL: https://example.com/r.git, path: deep, directory: {recurse: true}}\n"),
		"deep/top.yaml":                    deployment("top2"),
		"deep/sub/dir/deeper/nested.yaml":  "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nested2\n  namespace: own\n",
		"argocd/set.yaml":                  "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: set\nspec:\n  generators:\n  - git:\n      repoURL: https://example.com/r.git\n      directories:\n      - path: teams/*\n      - path: teams/skip\n        exclude: true\n  template:\n    spec:\n      source: {repoURL: https://example.com/r.git, path: '{{.path.path}}'}\n",
		"teams/a/deployment.yaml":          deployment("ta"),
		"teams/b/deployment.yaml":          deployment("tb"),
		"teams/skip/deployment.yaml":       deployment("ts"),
		"argocd/external.yaml":             app("external", "  source: {repoURL: https://github.com/other/repo.git, path: teams/a}\n"),
		"argocd/multi.yaml":                app("multi", "  sources:\n  - {repoURL: https://example.com/r.git, path: m/one/x/y}\n  - {repoURL: https://example.com/r.git, path: m/two/x/y}\n"),
		"m/one/x/y/deployment.yaml":        deployment("one"),
		"m/two/x/y/deployment.yaml":        deployment("two"),
		"argocd/helm.yaml":                 app("chart", "  source: {repoURL: https://example.com/r.git, path: charts/app, helm: {valueFiles: [values.yaml]}}\n"),
		"charts/app/templates/config.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
	}, Options{RepositoryURLs: []string{"git@example.com:r.git"}})
	top, nested := objectIn(t, ws, "flat/top.yaml"), objectIn(t, ws, "flat/sub/dir/deeper/nested.yaml")
	if len(ws.Roots(top)) != 1 || len(ws.Roots(nested)) != 0 {
		t.Errorf("without recurse: top in %v, nested in %v; want the file in the path only", ws.Roots(top), ws.Roots(nested))
	}
	top2, nested2 := objectIn(t, ws, "deep/top.yaml"), objectIn(t, ws, "deep/sub/dir/deeper/nested.yaml")
	if !ws.DeployedTogether(top2, nested2) {
		t.Error("with directory.recurse the nested file is not deployed with the top one")
	}
	if got := ws.Namespaces(top2); !slices.Equal(got, []string{"dest"}) {
		t.Errorf("destination namespace: %v", got)
	}
	if got := ws.Namespaces(nested2); !slices.Equal(got, []string{"own"}) {
		t.Errorf("an object's own namespace wins over the destination's: %v", got)
	}
	ta, tb, ts := objectIn(t, ws, "teams/a/deployment.yaml"), objectIn(t, ws, "teams/b/deployment.yaml"), objectIn(t, ws, "teams/skip/deployment.yaml")
	if len(ws.Roots(ta)) != 1 || len(ws.Roots(tb)) != 1 || ws.Roots(ta)[0] == ws.Roots(tb)[0] || ws.DeployedTogether(ta, tb) {
		t.Errorf("ApplicationSet directories: %v and %v, want one root each", ws.Roots(ta), ws.Roots(tb))
	}
	if len(ws.Roots(ts)) != 0 {
		t.Errorf("an excluded directory is deployed by %v", ws.Roots(ts))
	}
	one, two := objectIn(t, ws, "m/one/x/y/deployment.yaml"), objectIn(t, ws, "m/two/x/y/deployment.yaml")
	if !ws.DeployedTogether(one, two) {
		t.Error("the two sources of one Application are not deployed together")
	}
	var helm, external bool
	for _, r := range ws.AllRoots() {
		helm = helm || (r.Helm && r.Path == "charts/app")
		external = external || (r.Object != nil && r.Object.Name == "external")
	}
	if !helm {
		t.Error("the Application's chart is not recorded as a root")
	}
	if external {
		t.Error("an Application of another repository (repoURL none of the remotes) declares a root here")
	}
}

// TestFluxSources: a Flux Kustomization reads its path from the
// repository when its source is flux-system (bootstrap's) or unknown;
// not when the source among the inputs is another repository (or another
// branch), nor from an ExternalArtifact or OCI source, nor when the object
// is a kustomize patch (an overlay setting a path). A HelmRelease's chart
// from a GitRepository is recorded as a chart root.
func TestFluxSources(t *testing.T) {
	ws := build(t, map[string]string{
		"clusters/artifact.yaml":     "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: art\nspec:\n  path: ./kustomize\n  sourceRef: {kind: ExternalArtifact, name: apps}\n",
		"tenants/kustomization.yaml": "resources: [sync.yaml]\npatches:\n- path: patch.yaml\n",
		"tenants/sync.yaml":          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
		"tenants/patch.yaml":         "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: patched\nspec:\n  path: ./kustomize\n",
		"clusters/podinfo.yaml":      "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: podinfo\nspec:\n  path: ./kustomize\n  sourceRef: {kind: GitRepository, name: podinfo}\n",
		"clusters/source.yaml":       "apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata:\n  name: podinfo\nspec:\n  url: https://github.com/stefanprodan/podinfo\n",
		"clusters/release.yaml":      "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: app\nspec:\n  chart:\n    spec:\n      chart: ./charts/app\n      sourceRef: {kind: GitRepository, name: flux-system}\n",
		"kustomize/x/y/z/a.yaml":     deployment("a"),
		"kustomize/b.yaml":           deployment("b"),
	}, Options{RepositoryURLs: []string{"https://github.com/example/fleet"}})
	a := objectIn(t, ws, "kustomize/x/y/z/a.yaml")
	if len(ws.Roots(a)) != 0 {
		t.Errorf("a path of another repository's source deploys %v", ws.Roots(a))
	}
	var chart bool
	for _, r := range ws.AllRoots() {
		chart = chart || (r.Kind == FluxHelmRelease && r.Helm && r.Empty)
	}
	if !chart {
		t.Errorf("HelmRelease chart not recorded: %v", ws.AllRoots())
	}
}

// relativeTempDir returns a new temporary directory and a function that
// writes paths below it relative to the working directory.
func relativeTempDir(t *testing.T) (string, func(string) string) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, dir)
	if err != nil {
		t.Fatalf("no relative path from %s to the temporary directory %s: %v", wd, dir, err)
	}
	return dir, func(s string) string { return filepath.Join(rel, s) }
}

// TestRepositoryRootPaths: GitOps paths are relative to the repository
// root given (absolute), whatever the files' paths are relative to.
func TestRepositoryRootPaths(t *testing.T) {
	dir, p := relativeTempDir(t)
	ws := build(t, map[string]string{
		p("clusters/apps.yaml"):        fluxKustomization("apps", "./apps", ""),
		p("apps/a/b/c/one.yaml"):       deployment("one"),
		p("apps/d/e/f/two.yaml"):       deployment("two"),
		p("apps/d/kustomization.yaml"): "resources: [e/f/two.yaml]\n",
	}, Options{RepositoryRoot: dir})
	one, two := objectIn(t, ws, p("apps/a/b/c/one.yaml")), objectIn(t, ws, p("apps/d/e/f/two.yaml"))
	if !ws.DeployedTogether(one, two) {
		t.Errorf("not deployed together under the repository root's apps: %v, %v", ws.Roots(one), ws.Roots(two))
	}
}

func TestNormalizeRepositoryURL(t *testing.T) {
	same := []string{"https://github.com/A/b.git", "git@github.com:a/b.git", "ssh://git@github.com/a/b", "https://github.com/a/b/"}
	for _, u := range same {
		if got := NormalizeRepositoryURL(u); got != "github.com/a/b" {
			t.Errorf("%s: %s", u, got)
		}
	}
}

// TestMissingRootPathWritten: a GitOps path that holds no input is
// written as the files' paths are (here relative to the working
// directory), not as the absolute key it was resolved to under the
// repository root: --verbose and messages show it beside paths of files.
func TestMissingRootPathWritten(t *testing.T) {
	dir, p := relativeTempDir(t)
	ws := build(t, map[string]string{
		p("clusters/prod/apps.yaml"): fluxKustomization("apps", "./apps/prod", ""),
		p("other/one.yaml"):          deployment("one"),
	}, Options{RepositoryRoot: dir})
	var got []string
	for _, r := range ws.AllRoots() {
		if r.Object != nil {
			if !r.Empty {
				t.Errorf("root %s holds no input but is not Empty", r)
			}
			got = append(got, r.Path)
		}
	}
	if want := filepath.ToSlash(p("apps/prod")); len(got) != 1 || got[0] != want {
		t.Errorf("root paths %q, want [%q]", got, want)
	}
}
