package workspace

import (
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

func build(t *testing.T, files map[string]string, opts Options) *Workspace {
	t.Helper()
	fset := token.NewFileSet()
	var fs []*manifest.File
	for p, src := range files {
		fs = append(fs, manifest.Parse(fset, p, []byte(src), manifest.Options{Eager: manifest.IsReadKind}))
	}
	return New(fset, fs, opts)
}

const deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"

func hpa(name string) string {
	return "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: " + name +
		"\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 3\n"
}

func target(t *testing.T, ws *Workspace, hpaFile string) string {
	t.Helper()
	for _, a := range ws.Autoscalers().All() {
		if a.Object.Doc.File.Path == hpaFile {
			if r := ws.Target(a); r.Object != nil {
				return r.Object.Doc.File.Path
			}
			return ""
		}
	}
	t.Fatalf("no autoscaler in %s", hpaFile)
	return ""
}

func TestNearestDefinitionWins(t *testing.T) {
	ws := build(t, map[string]string{
		"envs/prod/hpa.yaml":        hpa("web"),
		"envs/prod/deployment.yaml": deploy,
		"envs/dev/deployment.yaml":  deploy,
		"base/deployment.yaml":      deploy,
	}, Options{})
	if got := target(t, ws, "envs/prod/hpa.yaml"); got != "envs/prod/deployment.yaml" {
		t.Errorf("resolved to %s", got)
	}
}

func TestTargetDistance(t *testing.T) {
	files := map[string]string{
		"team/app/autoscaling/hpa.yaml": hpa("web"),
		"team/app/deployment.yaml":      deploy, // one directory up: found
	}
	if got := target(t, build(t, files, Options{}), "team/app/autoscaling/hpa.yaml"); got != "team/app/deployment.yaml" {
		t.Errorf("parent directory: %q", got)
	}
	far := map[string]string{
		"samples/a/b/c/hpa.yaml":        hpa("web"),
		"other/project/deployment.yaml": deploy, // an unrelated tree
	}
	if got := target(t, build(t, far, Options{}), "samples/a/b/c/hpa.yaml"); got != "" {
		t.Errorf("resolved across unrelated trees to %q", got)
	}
	if got := target(t, build(t, far, Options{TargetDistance: -1}), "samples/a/b/c/hpa.yaml"); got != "other/project/deployment.yaml" {
		t.Errorf("unlimited distance: %q", got)
	}
}

func TestKustomizeNamespaceAndRoots(t *testing.T) {
	ws := build(t, map[string]string{
		"base/kustomization.yaml":          "resources:\n- deployment.yaml\n",
		"base/deployment.yaml":             deploy,
		"overlays/prod/kustomization.yaml": "namespace: prod\nresources:\n- ../../base\n- hpa.yaml\n",
		"overlays/prod/hpa.yaml":           hpa("web"),
		"loose/hpa.yaml":                   hpa("other") + "", // default namespace: the base deploys into prod only
	}, Options{})
	if got := target(t, ws, "overlays/prod/hpa.yaml"); got != "base/deployment.yaml" {
		t.Errorf("overlay HPA resolved to %q", got)
	}
	var base *manifest.Object
	for _, o := range ws.Objects().All() {
		if o.Kind == "Deployment" {
			base = o
		}
	}
	if ns := ws.Namespaces(base); len(ns) != 1 || ns[0] != "prod" {
		t.Errorf("base deployment namespaces %v, want [prod] (the overlay's namespace)", ns)
	}
	if got := target(t, ws, "loose/hpa.yaml"); got != "" {
		t.Errorf("an HPA in namespace default resolved to a Deployment deployed in prod: %q", got)
	}
}

// TestUnreadableLeavesRenderedFiles: a chart's template, which its render
// reads, is not among the files scalelint could not read; a template no
// render reads, and a file that does not parse, are. (The language
// server's workspace holds a repository's chart files: unresolved-scale-
// target read every template again at each edit of an autoscaler whose
// target is missing, and could name one as "not linted".)
func TestUnreadableLeavesRenderedFiles(t *testing.T) {
	tpl := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Values.name }}\n"
	ws := build(t, map[string]string{
		"chart/templates/deploy.yaml": tpl,
		"loose/deploy.yaml":           tpl,
		"broken/deploy.yaml":          "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: [web\n",
	}, Options{Rendered: func(p string) Rendering {
		if strings.HasPrefix(p, "chart/") {
			return RenderedChart
		}
		return NotRendered
	}})
	var got []string
	for _, f := range ws.Unreadable() {
		got = append(got, f.Path)
	}
	if want := []string{"broken/deploy.yaml", "loose/deploy.yaml"}; !slices.Equal(got, want) {
		t.Errorf("Unreadable() = %v, want %v", got, want)
	}
}
