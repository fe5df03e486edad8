package kustomize

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
)

// originTree has resources in a base and an overlay, a Helm-written
// "annotations:" with nothing after it, a List, and a generated
// ConfigMap (which comes from no file).
var originTree = map[string]string{
	"base/kustomization.yaml": "resources:\n- deploy.yaml\n- list.yaml\n",
	"base/deploy.yaml":        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations:\nspec:\n  replicas: 2\n",
	"base/list.yaml":          "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: listed}\n",
	"app/kustomization.yaml":  "resources:\n- ../base\n- svc.yaml\nnamePrefix: p-\nlabels:\n- pairs: {team: shop}\nconfigMapGenerator:\n- name: gen\n  literals: [a=b]\n",
	"app/svc.yaml":            "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  annotations: {keep: me}\n",
}

// origins lists each built object's kind/name and the file it came from.
func origins(t *testing.T, out *render.Output) string {
	t.Helper()
	l, ok := out.Files[0].Locator.(*locator)
	if !ok {
		t.Fatalf("locator %T", out.Files[0].Locator)
	}
	var b bytes.Buffer
	for _, d := range l.docs {
		fmt.Fprintf(&b, "%s/%s <- %q\n", d.kind, d.name, d.origin)
	}
	return b.String()
}

// The objects of resource files carry their file's path through the
// build (stampOrigins) and come out as kustomize's own origin
// annotations place them (the independent reference: the same root
// built with buildMetadata: [originAnnotations], as scalelint did
// before), with the same text, and without either annotation; the root
// is staged without buildMetadata, so kustomize keeps no record of its
// transformers.
func TestStampedOriginsMatchKustomize(t *testing.T) {
	tree := readTree(rendertest.WriteTree(t, "", originTree), render.Limits{})
	if bytes.Contains(tree.built["app/kustomization.yaml"], []byte("buildMetadata")) || tree.annotated != nil {
		t.Fatalf("every file was stamped, yet the root turns kustomize's origin annotations on")
	}
	stamped := build(t, tree, "app")
	k := tree.kusts["app"]
	text, ok := tree.writeKustomization(k, true)
	if !ok {
		t.Fatal("no annotated copy")
	}
	tree.annotated = map[string][]byte{k.file: text}
	ref, problems := tree.Build(t.Context(), "app")
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	got, want := origins(t, &render.Output{Files: []*render.File{stamped}}), origins(t, ref)
	if got != want {
		t.Errorf("origins differ:\n--- stamped\n%s--- kustomize's\n%s", got, want)
	}
	for _, want := range []string{`Deployment/p-web <- "base/deploy.yaml"`, `ConfigMap/p-listed <- "base/list.yaml"`, `Service/p-web <- "app/svc.yaml"`, `<- ""`} {
		if !bytes.Contains([]byte(got), []byte(want)) {
			t.Errorf("origins lack %s:\n%s", want, got)
		}
	}
	if !bytes.Equal(stamped.Text, ref.Files[0].Text) {
		t.Errorf("built text differs:\n--- stamped\n%s\n--- kustomize's\n%s", stamped.Text, ref.Files[0].Text)
	}
	for _, key := range []string{stampKey, originKey} {
		if bytes.Contains(stamped.Text, []byte(key)) {
			t.Errorf("built text keeps %s:\n%s", key, stamped.Text)
		}
	}
}

// A resource file that is also a patch elsewhere is not stamped (its
// stamp would be patched onto the patch's target): the roots that reach
// it are built with kustomize's origin annotations, and locate as before.
func TestUnstampedFileTurnsOriginsOn(t *testing.T) {
	files := map[string]string{}
	for k, v := range originTree {
		files[k] = v
	}
	files["other/kustomization.yaml"] = "resources:\n- ../app\npatches:\n- path: ../app/svc.yaml\n"
	tree := readTree(rendertest.WriteTree(t, "", files), render.Limits{})
	if !tree.kusts["app"].unstamped || tree.annotated["app/kustomization.yaml"] == nil {
		t.Fatalf("app lists a file that is a patch elsewhere, and is not marked for origin annotations")
	}
	if tree.annotated["base/kustomization.yaml"] != nil {
		t.Errorf("base reaches no unstamped file, yet would turn origin annotations on")
	}
	got := origins(t, &render.Output{Files: []*render.File{build(t, tree, "app")}})
	if !bytes.Contains([]byte(got), []byte(`Service/p-web <- "app/svc.yaml"`)) || !bytes.Contains([]byte(got), []byte(`Deployment/p-web <- "base/deploy.yaml"`)) {
		t.Errorf("origins:\n%s", got)
	}
}

// A kustomization of nothing but kind is refused as kustomize refuses it
// (kubectl kustomize: "kustomization.yaml is empty"); one with nothing
// left but what scalelint cut (its helmCharts) is not empty as
// written, and builds.
func TestEmptyKustomization(t *testing.T) {
	tree := readTree(rendertest.WriteTree(t, "", map[string]string{
		"empty/kustomization.yaml": "kind: Kustomization\n",
		"cut/kustomization.yaml":   "kind: Kustomization\nhelmCharts:\n- name: redis\n  repo: https://charts.example.com\n",
	}), render.Limits{})
	if _, problems := tree.Build(t.Context(), "empty"); len(problems) != 1 || problems[0].Rule != render.RuleError || !bytes.Contains([]byte(problems[0].Message), []byte("kustomization.yaml is empty")) {
		t.Errorf("empty: %v; want kustomize's render-error", problems)
	}
	if _, problems := tree.Build(t.Context(), "cut"); len(problems) != 0 {
		t.Errorf("cut: %v; want a build of nothing", problems)
	}
}
