package kustomize

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
)

// bigCRD is a CustomResourceDefinition over slimThreshold: a schema of n
// described properties, as operators' CRDs are.
func bigCRD(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\n  annotations: {team: platform}\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    additionalPrinterColumns: [{name: Age, type: date, jsonPath: .metadata.creationTimestamp}]\n    schema:\n      openAPIV3Schema:\n        description: the whole widget\n        type: object\n        properties:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "          field%d: {type: string, description: the field number %d of a widget, described at length as generated schemas are}\n", i, i)
	}
	return b.String()
}

const widgetDeploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: widget-controller\nspec:\n  replicas: 2\n"

// A file of CRDs is staged without their schemas and printer columns,
// its other objects whole; what names and selects the CRDs stays. A file
// without a CRD, with a document that does not parse, or a small file is
// staged as written.
func TestSlimCRDs(t *testing.T) {
	crd := bigCRD(200)
	if len(crd) < slimThreshold {
		t.Fatalf("the CRD is %d bytes, under the threshold %d", len(crd), slimThreshold)
	}
	slimBytes, only := slimCRDs([]byte(crd))
	slim := string(slimBytes)
	if !only {
		t.Errorf("a file of one CRD is not said to hold CRDs only")
	}
	for _, want := range []string{"kind: CustomResourceDefinition", "name: widgets.example.com", "team: platform", "group: example.com", "plural: widgets", "scope: Namespaced", "name: v1", "served: true", "storage: true"} {
		if !strings.Contains(slim, want) {
			t.Errorf("slim CRD lacks %q:\n%s", want, slim)
		}
	}
	for _, gone := range []string{"openAPIV3Schema", "field0", "additionalPrinterColumns"} {
		if strings.Contains(slim, gone) {
			t.Errorf("slim CRD keeps %q", gone)
		}
	}
	mixedBytes, only := slimCRDs([]byte(crd + "---\n" + widgetDeploy))
	mixed := string(mixedBytes)
	if only {
		t.Errorf("a file with a Deployment beside the CRD is said to hold CRDs only")
	}
	if strings.Contains(mixed, "openAPIV3Schema") || !strings.Contains(mixed, "name: widget-controller") || !strings.Contains(mixed, "replicas: 2") {
		t.Errorf("a file with a Deployment beside the CRD: the CRD is not slimmed or the Deployment not kept:\n%s", mixed)
	}
	if got, _ := slimCRDs([]byte(widgetDeploy + strings.Repeat("# CustomResourceDefinition\n", slimThreshold/27+1))); got != nil {
		t.Errorf("a file with no CRD was slimmed")
	}
	if got, _ := slimCRDs([]byte(bigCRD(3))); got != nil {
		t.Errorf("a small CRD file was slimmed")
	}
	if got, _ := slimCRDs([]byte(crd + "---\nkey: [unclosed\n")); got != nil {
		t.Errorf("a file with a document that does not parse was slimmed")
	}
}

// A build with the CRDs slimmed gives every other object as the build
// with them whole does (the independent reference: the same tree staged
// as written), and the CRD itself with what patches select.
func TestSlimBuildKeepsTheRest(t *testing.T) {
	files := map[string]string{
		"app/kustomization.yaml": "resources:\n- crd.yaml\n- deploy.yaml\nnamePrefix: p-\npatches:\n- patch: |\n    apiVersion: apiextensions.k8s.io/v1\n    kind: CustomResourceDefinition\n    metadata:\n      name: widgets.example.com\n      annotations: {patched: \"yes\"}\n",
		"app/crd.yaml":           bigCRD(200),
		"app/deploy.yaml":        widgetDeploy,
	}
	s, _ := slimAndWhole(t, files)
	if !bytes.Contains(s, []byte("patched: \"yes\"")) {
		t.Errorf("the patch of the CRD did not apply to the slim copy:\n%s", s)
	}
}

// slimAndWhole builds the tree's root app with its CRDs slimmed and
// whole, and checks that the schema is in the whole build only and that
// the Deployment (the text from its apiVersion on) is the same in both.
func slimAndWhole(t *testing.T, files map[string]string) (slim, whole []byte) {
	t.Helper()
	tree := readTree(rendertest.WriteTree(t, "", files), render.Limits{})
	s, problems := tree.build(t.Context(), tree.kusts["app"], "app", true)
	if len(problems) > 0 {
		t.Fatalf("slim build: %v", problems)
	}
	w, problems := tree.build(t.Context(), tree.kusts["app"], "app", false)
	if len(problems) > 0 {
		t.Fatalf("whole build: %v", problems)
	}
	slim, whole = s.Files[0].Text, w.Files[0].Text
	if bytes.Contains(slim, []byte("openAPIV3Schema")) || !bytes.Contains(whole, []byte("openAPIV3Schema")) {
		t.Errorf("the slim build holds the schema, or the whole one does not")
	}
	deploy := func(text []byte) string {
		i := bytes.Index(text, []byte("apiVersion: apps/v1"))
		if i < 0 {
			t.Fatalf("no Deployment built:\n%s", text)
		}
		return string(text[i:])
	}
	if deploy(slim) != deploy(whole) {
		t.Errorf("the Deployment differs:\n--- slim\n%s\n--- whole\n%s", deploy(slim), deploy(whole))
	}
	return slim, whole
}

// A CRD and a Deployment in one file (an operator's install file): the
// slim build gives the Deployment as the build of the file as written
// does (the independent reference), and the CRD without its schema.
func TestSlimBuildMixedFile(t *testing.T) {
	slimAndWhole(t, map[string]string{
		"app/kustomization.yaml": "resources:\n- install.yaml\nnamePrefix: p-\n",
		"app/install.yaml":       bigCRD(200) + "---\n" + widgetDeploy,
	})
}

// A build that fails only because the CRDs were slimmed (a replacement
// reads the schema) is built again with them whole: the user sees the
// build kustomize makes of the files as written, not an error.
func TestSlimFailureBuildsWhole(t *testing.T) {
	dir := rendertest.WriteTree(t, "", map[string]string{
		"app/kustomization.yaml": "resources:\n- crd.yaml\n- cm.yaml\nreplacements:\n- source: {kind: CustomResourceDefinition, name: widgets.example.com, fieldPath: spec.versions.0.schema.openAPIV3Schema.description}\n  targets:\n  - select: {kind: ConfigMap, name: a}\n    fieldPaths: [data.about]\n",
		"app/crd.yaml":           bigCRD(200),
		"app/cm.yaml":            configMapA + "data: {about: unset}\n",
	})
	tree := readTree(dir, render.Limits{})
	if _, problems := tree.build(t.Context(), tree.kusts["app"], "app", true); len(problems) == 0 {
		t.Fatalf("the slim build did not fail: this test no longer tests the fallback")
	}
	out := build(t, tree, "app")
	if !bytes.Contains(out.Text, []byte("about: the whole widget")) {
		t.Errorf("the replacement did not read the whole CRD:\n%s", out.Text)
	}
}

// A kustomization that patches CRDs through a target selector without
// touching their schemas (KServe's config/crd sets an annotation and a
// conversion webhook on its InferenceService CRD) builds with the CRDs
// slimmed: the patch applies to the slim copy, and the whole CRDs, which
// are most of such a tree's build time, are not copied. A JSON patch into
// a schema fails on the slim copy and is built again whole (the KEDA
// case, below).
func TestSlimBuildPatchedCRD(t *testing.T) {
	patch := "patches:\n- target: {group: apiextensions.k8s.io, kind: CustomResourceDefinition, name: widgets.example.com}\n  patch: |\n    apiVersion: apiextensions.k8s.io/v1\n    kind: CustomResourceDefinition\n    metadata:\n      name: widgets.example.com\n      annotations: {cert-manager.io/inject-ca-from: ns/cert}\n"
	tree := readTree(rendertest.WriteTree(t, "", map[string]string{
		"app/kustomization.yaml": "resources:\n- crd.yaml\n- deploy.yaml\n" + patch,
		"app/crd.yaml":           bigCRD(200),
		"app/deploy.yaml":        widgetDeploy,
	}), render.Limits{})
	out := build(t, tree, "app")
	if bytes.Contains(out.Text, []byte("openAPIV3Schema")) {
		t.Errorf("a patch of the CRD's metadata made the build take the CRDs whole:\n%s", out.Text)
	}
	if !bytes.Contains(out.Text, []byte("cert-manager.io/inject-ca-from: ns/cert")) {
		t.Errorf("the patch of the CRD did not apply:\n%s", out.Text)
	}

	// KEDA's layout: the JSON patch is in a base the root recurses into,
	// so kustomize's error carries "'../crd' must resolve to a file"
	// (its file attempt) ahead of the patch's own: that is not a file
	// missing, and the build is made again whole.
	jsonPatch := func(path string) map[string]string {
		return map[string]string{
			"app/kustomization.yaml": "resources:\n- ../crd\n- deploy.yaml\n",
			"app/deploy.yaml":        widgetDeploy,
			"crd/kustomization.yaml": "resources:\n- crd.yaml\npatches:\n- target: {kind: CustomResourceDefinition, name: widgets.example.com}\n  patch: |\n    - op: add\n      path: " + path + "\n      value: patched widget\n",
			"crd/crd.yaml":           bigCRD(200),
		}
	}
	tree = readTree(rendertest.WriteTree(t, "", jsonPatch("/spec/versions/0/schema/openAPIV3Schema/description")), render.Limits{})
	if _, problems := tree.build(t.Context(), tree.kusts["app"], "app", true); len(problems) == 0 {
		t.Fatalf("the slim build of a JSON patch into the schema did not fail: this part no longer tests the fallback")
	}
	out = build(t, tree, "app")
	if !bytes.Contains(out.Text, []byte("description: patched widget")) {
		t.Errorf("the JSON patch into the schema was not applied to the whole CRD:\n%s", out.Text)
	}

	// A patch into a path the whole CRD lacks too fails as kustomize
	// fails: a render error, not a file the tree does not hold.
	tree = readTree(rendertest.WriteTree(t, "", jsonPatch("/spec/validation/openAPIV3Schema/description")), render.Limits{})
	_, problems := tree.Build(t.Context(), "app")
	if len(problems) != 1 || problems[0].Rule != render.RuleError || !strings.Contains(problems[0].Message, "doc is missing path") {
		t.Errorf("a JSON patch that fails on the whole CRD: got %+v, want one %s saying the path is missing", problems, render.RuleError)
	}
}

// TestOnlyCRDsNotBuilt: a root whose every resource is a file of CRDs
// (elastic/cloud-on-k8s' config/crds/v1/patches, whose JSON patches into
// the schemas make the build take 10 MB of CRDs whole) is not built: its
// output could hold nothing a rule reads. The Build answers at once with
// an empty output and no problem. A root with a Deployment beside the
// same CRD is built, and so is a CRD root with a remote base cut from it
// (the base could bring workloads) or with generators (a
// HelmChartInflationGenerator configuration could).
func TestOnlyCRDsNotBuilt(t *testing.T) {
	jsonPatch := "patches:\n- target: {kind: CustomResourceDefinition, name: widgets.example.com}\n  patch: |\n    - op: add\n      path: /spec/versions/0/schema/openAPIV3Schema/description\n      value: patched widget\n"
	tree := readTree(rendertest.WriteTree(t, "", map[string]string{
		"crds/kustomization.yaml":   "resources:\n- ../base\n" + jsonPatch,
		"base/kustomization.yaml":   "resources:\n- crd.yaml\n",
		"base/crd.yaml":             bigCRD(200),
		"app/kustomization.yaml":    "resources:\n- ../base\n- deploy.yaml\n" + jsonPatch,
		"app/deploy.yaml":           widgetDeploy,
		"remote/kustomization.yaml": "resources:\n- ../base\n- https://github.com/example/operator//config/manager?ref=v1\n",
		"gen/kustomization.yaml":    "resources:\n- ../base\ngenerators:\n- cm-gen.yaml\n",
		"gen/cm-gen.yaml":           "apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata:\n  name: generated\nliterals: [a=b]\n",
	}), render.Limits{})
	out, problems := tree.Build(t.Context(), "crds")
	if out == nil || len(out.Files) != 0 || len(problems) != 0 {
		t.Errorf("the CRD-only root: %v, %v; want an empty output, no problem", out, problems)
	}
	if app := build(t, tree, "app"); !bytes.Contains(app.Text, []byte("description: patched widget")) || !bytes.Contains(app.Text, []byte("name: widget-controller")) {
		t.Errorf("the root with a Deployment was not built in full:\n%s", app.Text)
	}
	for _, root := range []string{"remote", "gen"} {
		if out, _ := tree.Build(t.Context(), root); out == nil || len(out.Files) == 0 {
			t.Errorf("the CRD root %s (a remote base cut, or generators) was not built: %v", root, out)
		}
	}
}
