package kustomize

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
)

const hpaTree = "../../../testdata/kustomize/hpa"

// readTree reads the whole tree below root (Open reads only what the
// kustomizations it is given can reach).
func readTree(root string, lim render.Limits) *Tree {
	lim = lim.WithDefaults()
	files, problems := render.ReadTree(root, "", lim, nil)
	return newTree(root, lim, files, problems)
}

func build(t *testing.T, tree *Tree, dir string) *render.File {
	t.Helper()
	out, problems := tree.Build(context.Background(), dir)
	if out == nil || len(problems) > 0 {
		t.Fatalf("Build(%s): %v", dir, problems)
	}
	return out.Files[0]
}

// valueAt returns the offset of the value after key in the object of kind.
func valueAt(t *testing.T, text []byte, kind, key string) int {
	t.Helper()
	i := bytes.Index(text, []byte("kind: "+kind))
	if i < 0 {
		t.Fatalf("no %s in %s", kind, text)
	}
	// The object's document: from the previous separator.
	start := bytes.LastIndex(text[:i], []byte("---\n"))
	if start < 0 {
		start = 0
	}
	j := bytes.Index(text[start:], []byte(key+": "))
	if j < 0 {
		t.Fatalf("no %s in %s", key, text)
	}
	return start + j + len(key) + 2
}

func TestRootsAreOverlays(t *testing.T) {
	tree := readTree(hpaTree, render.Limits{})
	if got := strings.Join(tree.Roots(), ","); got != "overlays/prod,overlays/staging" {
		t.Errorf("Roots = %s; want the two overlays (the base is included by both)", got)
	}
}

// A kustomize Component is built only by the kustomizations that list it
// under components. As in GoogleCloudPlatform/microservices-demo's
// kustomize/components, whose optional components are commented out of
// kustomize/kustomization.yaml, one that nothing includes is no root:
// built alone its patches match nothing, a build error no user sees.
func TestComponentsAreNeverRoots(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) { rendertest.WriteTree(t, root, map[string]string{rel: text}) }
	write("app/kustomization.yaml", "resources: [deployment.yaml]\ncomponents: [../components/used]\n# - ../components/optional\n")
	write("app/deployment.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers: [{name: web, image: web:1}]\n")
	component := "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n- patch: |-\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: web}\n    spec: {replicas: 2}\n"
	write("components/used/kustomization.yaml", component)
	write("components/optional/kustomization.yaml", component)
	tree := readTree(root, render.Limits{})
	if got := strings.Join(tree.Roots(), ","); got != "app" {
		t.Errorf("Roots = %s; want app only (components are built through what includes them)", got)
	}
	// The including kustomization builds with its component applied.
	out := build(t, tree, "app")
	if !bytes.Contains(out.Text, []byte("replicas: 2")) {
		t.Errorf("app's build lacks its component's patch:\n%s", out.Text)
	}
}

func TestPatchLineOfAField(t *testing.T) {
	tree := readTree(hpaTree, render.Limits{})
	prod := build(t, tree, "overlays/prod")
	if bytes.Contains(prod.Text, []byte("config.kubernetes.io/origin")) {
		t.Error("the origin annotations scalelint turned on are left in the output")
	}
	// averageUtilization: 95 comes from the prod patch file.
	at := valueAt(t, prod.Text, "HorizontalPodAutoscaler", "averageUtilization")
	loc := prod.Locator.Locate(at, at+2)
	patch, _ := os.ReadFile(filepath.Join(hpaTree, "overlays/prod/hpa-cpu.yaml"))
	if filepath.Base(loc.Path) != "hpa-cpu.yaml" || string(patch[loc.Start:loc.End]) != "95" || !loc.Exact {
		t.Errorf("Locate(averageUtilization) = %+v; want the patch's 95", loc)
	}
	// minReplicas is the base's.
	at = valueAt(t, prod.Text, "HorizontalPodAutoscaler", "minReplicas")
	loc = prod.Locator.Locate(at, at+1)
	base, _ := os.ReadFile(filepath.Join(hpaTree, "base/hpa.yaml"))
	if filepath.Base(loc.Path) != "hpa.yaml" || string(base[loc.Start:loc.End]) != "2" {
		t.Errorf("Locate(minReplicas) = %+v; want the base's 2", loc)
	}
	// The name was changed by namePrefix: the base's line, with a note.
	at = valueAt(t, prod.Text, "HorizontalPodAutoscaler", "name")
	loc = prod.Locator.Locate(at, at+len("prod-web"))
	if filepath.Base(loc.Path) != "hpa.yaml" || loc.Exact || loc.Note == "" {
		t.Errorf("Locate(metadata.name) = %+v; want the base's name line, not exact, with a note", loc)
	}
}

func TestInlineJSONPatchLine(t *testing.T) {
	tree := readTree(hpaTree, render.Limits{})
	staging := build(t, tree, "overlays/staging")
	at := valueAt(t, staging.Text, "HorizontalPodAutoscaler", "maxReplicas")
	loc := staging.Locator.Locate(at, at+1)
	k, _ := os.ReadFile(filepath.Join(hpaTree, "overlays/staging/kustomization.yaml"))
	if filepath.Base(loc.Path) != "kustomization.yaml" || string(k[loc.Start:loc.End]) != "3" {
		t.Fatalf("Locate(maxReplicas) = %+v; want the inline patch's 3", loc)
	}
	// The line is the patch's value line.
	line := bytes.Count(k[:loc.Start], []byte("\n")) + 1
	if want := bytes.Count(k[:bytes.Index(k, []byte("value: 3"))], []byte("\n")) + 1; line != want {
		t.Errorf("line %d, want %d", line, want)
	}
}

func TestRemoteBaseReportedOnceAndSkipped(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, s string) { rendertest.WriteTree(t, dir, map[string]string{rel: s}) }
	write("app/kustomization.yaml", "resources:\n- https://github.com/example/repo//deploy?ref=v1\n- cm.yaml\n")
	write("app/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n")
	tree := readTree(dir, render.Limits{})
	if len(tree.Problems) != 1 || tree.Problems[0].Rule != render.RuleIncomplete || tree.Problems[0].Line != 2 {
		t.Fatalf("Problems = %v; want one info at line 2", tree.Problems)
	}
	out := build(t, tree, "app")
	if !bytes.Contains(out.Text, []byte("kind: ConfigMap")) {
		t.Errorf("the local resource is not built: %s", out.Text)
	}
}

func TestBuildErrorPositioned(t *testing.T) {
	dir := rendertest.WriteTree(t, "", map[string]string{
		"app/kustomization.yaml": "resources:\n- cm.yaml\npatches:\n- path: p.yaml\n",
		"app/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
		"app/p.yaml":             "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata: {x: y}\n",
	})
	tree := readTree(dir, render.Limits{})
	out, problems := tree.Build(context.Background(), "app")
	if out != nil || len(problems) != 1 || problems[0].Rule != render.RuleError || filepath.Base(problems[0].Path) != "kustomization.yaml" || problems[0].Line != 4 {
		t.Fatalf("Build = %v, %v; want one error at the patch entry (line 4)", out, problems)
	}
	if strings.Contains(problems[0].Message, fsRoot) {
		t.Errorf("message names the in-memory tree: %s", problems[0].Message)
	}
}

// A patch whose object is not built, in a kustomization whose remote base
// was cut, is the cut's consequence, not the kustomization's error as
// written (argo-cd's examples/known-hosts: a patch of argocd-server,
// which its remote base github.com/argoproj/argo-cd//manifests/cluster-install
// holds): info, not error. TestBuildErrorPositioned keeps the same patch
// error an error where nothing was cut.
func TestPatchOfRemoteBaseIncomplete(t *testing.T) {
	dir := rendertest.WriteTree(t, "", map[string]string{
		"app/kustomization.yaml": "resources:\n- github.com/example/repo//manifests?ref=v1\n- cm.yaml\npatches:\n- path: p.yaml\n",
		"app/cm.yaml":            configMapA,
		"app/p.yaml":             "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: server\nspec:\n  replicas: 2\n",
	})
	tree := readTree(dir, render.Limits{})
	out, problems := tree.Build(context.Background(), "app")
	if out != nil || len(problems) != 1 || problems[0].Rule != render.RuleIncomplete || !strings.Contains(problems[0].Message, "left out entries of") {
		t.Fatalf("Build = %v, %v; want one render-incomplete that says entries were left out", out, problems)
	}
	if problems[0].Line != 5 {
		t.Errorf("at line %d, want 5 (the patch's entry)", problems[0].Line)
	}
}

// helmCharts need --enable-helm, which runs the helm program: the build
// goes on without them, and each is said once, at its entry (argo-cd's
// test/e2e/testdata/kustomize-api-versions was a render-error, "must
// specify --enable-helm", and none of its other resources was built).
func TestHelmChartsNotInflated(t *testing.T) {
	dir := rendertest.WriteTree(t, "", map[string]string{
		"app/kustomization.yaml": "resources:\n- cm.yaml\nhelmGlobals:\n  chartHome: charts\nhelmCharts:\n- name: redis\n  repo: https://charts.example.com\n  releaseName: cache\n",
		"app/cm.yaml":            configMapA,
	})
	tree := readTree(dir, render.Limits{})
	out := build(t, tree, "app")
	if !bytes.Contains(out.Text, []byte("name: a")) {
		t.Errorf("the local resource is not built: %s", out.Text)
	}
	var said []render.Problem
	for _, p := range tree.Problems {
		if strings.Contains(p.Message, "--enable-helm") {
			said = append(said, p)
		}
	}
	if len(said) != 1 || said[0].Rule != render.RuleIncomplete || said[0].Line != 6 || !strings.Contains(said[0].Message, `"redis"`) {
		t.Errorf("problems %v; want one render-incomplete for chart redis at its entry (line 6)", tree.Problems)
	}
}

func TestMissingFileIncomplete(t *testing.T) {
	// A resource the tree does not hold (generated by a build step) is
	// not the kustomization's error as written: info, at its entry.
	dir := rendertest.WriteTree(t, "", map[string]string{"app/kustomization.yaml": "resources:\n- missing.yaml\n"})
	tree := readTree(dir, render.Limits{})
	out, problems := tree.Build(context.Background(), "app")
	if out != nil || len(problems) != 1 || problems[0].Rule != render.RuleIncomplete || problems[0].Line != 2 {
		t.Fatalf("Build = %v, %v; want one render-incomplete at the entry", out, problems)
	}
}

// A file above the tree's root, as kubernetes-engine-samples'
// ai-ml/llm-serving-gemma/tgi/tgi-2b-bitsandbytes lists "../tgi-2b.yaml"
// when that directory is checked: kustomize names it '/tgi-2b.yaml' in the
// in-memory filesystem, and the message showed that path, which is nowhere
// on disk. It names the file where it would be on disk, beside the tree.
func TestFileAboveTreeShownOnDisk(t *testing.T) {
	dir := rendertest.WriteTree(t, "", map[string]string{
		"app/kustomization.yaml": "resources:\n- ../cm.yaml\n",
		"cm.yaml":                configMapA,
	})
	tree := readTree(filepath.Join(dir, "app"), render.Limits{})
	out, problems := tree.Build(context.Background(), ".")
	if out != nil || len(problems) != 1 || problems[0].Rule != render.RuleIncomplete {
		t.Fatalf("Build = %v, %v; want one render-incomplete", out, problems)
	}
	want := "'" + filepath.Join(dir, "cm.yaml") + "'" // ../cm.yaml from app, on disk
	if msg := problems[0].Message; !strings.Contains(msg, want) || strings.Contains(msg, "'/cm.yaml'") {
		t.Errorf("message %q; want the file named %s", msg, want)
	}
	// A file missing below the tree stays named on disk too.
	dir = rendertest.WriteTree(t, "", map[string]string{"app/kustomization.yaml": "resources:\n- missing.yaml\n"})
	tree = readTree(dir, render.Limits{})
	_, problems = tree.Build(context.Background(), "app")
	want = "'" + filepath.Join(dir, "app/missing.yaml") + "'"
	if len(problems) != 1 || !strings.Contains(problems[0].Message, want) || strings.Contains(problems[0].Message, fsRoot) {
		t.Errorf("Build = %v; want the missing file named %s", problems, want)
	}
}

// configMapA is a resource the trees of the tests below include.
const configMapA = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"

// A resource path that climbs above the kustomizations' common directory
// and comes down again, as aws-samples/eks-workshop-v2's
// manifests/modules/observability/resiliency/high-availability/config
// lists "../../../../../../manifests/base-application/ui": kustomize
// resolves it lexically (kubectl kustomize builds it), so scalelint must
// too, not report the base as a file the tree does not hold.
func TestIncludeClimbingAboveCommonDirBuilds(t *testing.T) {
	dir := rendertest.WriteTree(t, "", map[string]string{
		"m/base/kustomization.yaml":      "resources:\n- cm.yaml\n",
		"m/base/cm.yaml":                 configMapA,
		"m/x/overlay/kustomization.yaml": "resources:\n- ../../../m/base\n",
	})
	tree := Open([]string{filepath.Join(dir, "m/base/kustomization.yaml"), filepath.Join(dir, "m/x/overlay/kustomization.yaml")}, render.Limits{}, nil)
	rel, err := filepath.Rel(tree.Root, filepath.Join(dir, "m/x/overlay"))
	if err != nil {
		t.Fatal(err)
	}
	f := build(t, tree, filepath.ToSlash(rel))
	if !bytes.Contains(f.Text, []byte("kind: ConfigMap")) {
		t.Errorf("built overlay lacks the base's ConfigMap:\n%s", f.Text)
	}
}

// Linting an overlay from inside it ("cd overlays/prod && scalelint check
// .") gives relative paths that climb above the working directory
// ("../../base"): a relative tree root cannot hold both, so the base was
// reported missing and the overlay not built (kubectl kustomize builds
// it). The tree is read at absolute paths and shows them relative to the
// working directory again.
func TestOverlayCheckedFromInsideBuildsBase(t *testing.T) {
	dir := rendertest.WriteTree(t, "", map[string]string{
		"base/kustomization.yaml":          "resources:\n- cm.yaml\n",
		"base/cm.yaml":                     configMapA,
		"overlays/prod/kustomization.yaml": "resources:\n- ../../base\n",
	})
	t.Chdir(filepath.Join(dir, "overlays/prod"))
	tree := Open([]string{"kustomization.yaml"}, render.Limits{}, nil)
	var overlay string
	for _, r := range tree.Roots() {
		if tree.Path(r) == "." {
			overlay = r
		}
	}
	if overlay == "" {
		t.Fatalf("no root shown as the working directory among %v (root %s)", tree.Roots(), tree.Root)
	}
	f := build(t, tree, overlay)
	if !bytes.Contains(f.Text, []byte("kind: ConfigMap")) {
		t.Errorf("built overlay lacks the base's ConfigMap:\n%s", f.Text)
	}
	if got := tree.Path("base/cm.yaml"); got != filepath.FromSlash("../../base/cm.yaml") {
		t.Errorf("base file shown as %s; want ../../base/cm.yaml, relative to the working directory as given", got)
	}
	if _, ok := tree.Data(filepath.FromSlash("../../base/cm.yaml")); !ok {
		t.Errorf("Data(../../base/cm.yaml) not found")
	}
}

func TestSymlinkOutOfTreeRefused(t *testing.T) {
	dir := rendertest.WriteTree(t, "", map[string]string{"app/kustomization.yaml": "resources:\n- secret.yaml\n"})
	outside := rendertest.WriteTree(t, "", map[string]string{"secret.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n"})
	if err := os.Symlink(filepath.Join(outside, "secret.yaml"), filepath.Join(dir, "app/secret.yaml")); err != nil {
		t.Fatal(err)
	}
	tree := readTree(dir, render.Limits{})
	refused := false
	for _, p := range tree.Problems {
		refused = refused || strings.Contains(p.Message, "outside")
	}
	if !refused {
		t.Errorf("Problems = %v; want the link refused", tree.Problems)
	}
	if out, _ := tree.Build(context.Background(), "app"); out != nil && bytes.Contains(out.Files[0].Text, []byte("kind: Secret")) {
		t.Error("the file outside the tree was built")
	}
}

func TestRemoteReferencesNeverFetched(t *testing.T) {
	// Every field kustomize loads a file or a directory from, written as
	// a URL or a git repository: each is cut and reported once, and the
	// build succeeds from the tree alone. A fetch would fail here (the
	// proxy refuses, and the hosts do not exist), failing the build.
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1")
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	t.Setenv("GIT_ALLOW_PROTOCOL", "none")
	dir := t.TempDir()
	write := func(rel, s string) { rendertest.WriteTree(t, dir, map[string]string{rel: s}) }
	write("app/kustomization.yaml", `resources:
- cm.yaml
- github.com/example/platform//base?ref=v1
- git@gitlab.example:team/repo.git//deploy
- https://example.invalid/deploy.yaml
components:
- ssh://git@example.invalid/repo//comp
openapi:
  path: https://example.invalid/schema.json
patches:
- path: https://example.invalid/patch.yaml
configMapGenerator:
- name: settings
  files:
  - app.conf=https://example.invalid/app.conf
commonAnnotations:
  docs: https://example.invalid/docs
`)
	write("app/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n")
	tree := readTree(dir, render.Limits{})
	var lines []int
	for _, p := range tree.Problems {
		if p.Rule != render.RuleIncomplete {
			t.Errorf("problem %v; want infos", p)
		}
		lines = append(lines, p.Line)
	}
	// One per reference (lines 3, 4, 5, 7, 9, 11, 15), the annotation's
	// URL (a value, not a reference) kept.
	if fmt.Sprint(lines) != "[3 4 5 7 9 11 15]" {
		t.Errorf("reported at lines %v; want [3 4 5 7 9 11 15]", lines)
	}
	out := build(t, tree, "app")
	if !bytes.Contains(out.Text, []byte("docs: https://example.invalid/docs")) || !bytes.Contains(out.Text, []byte("name: c")) {
		t.Errorf("the build lost what is local:\n%s", out.Text)
	}
}

func TestIsRemoteRef(t *testing.T) {
	// As kustomize's loader reads references (internal/git repospec.go:
	// a scheme, an scp-style user@, github.com/): those it fetches.
	for s, want := range map[string]bool{
		"https://github.com/org/repo//deploy?ref=v1": true,
		"HTTP://example.com/x.yaml":                  true,
		"git::https://example.com/repo":              true,
		"ssh://git@example.com/repo":                 true,
		"file:///srv/repo":                           true,
		"git@github.com:org/repo":                    true,
		"github.com/org/repo/deploy":                 true,
		"GitHub.com:org/repo":                        true,
		"../base":                                    false,
		"deploy.yaml":                                false,
		"gitlab.example.com/org/repo":                false, // kustomize reads it as a local path
		"ghcr.io/org/image":                          false,
	} {
		if got := IsRemoteRef(s); got != want {
			t.Errorf("IsRemoteRef(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestDeprecatedFieldsBuildSilently(t *testing.T) {
	// bases, commonLabels and patchesStrategicMerge are converted as
	// `kustomize edit fix` converts them: the build is the same, the
	// patch line still found, and kustomize writes no deprecation warning
	// on the process's standard error (it does for each one it reads).
	dir := t.TempDir()
	write := func(rel, s string) { rendertest.WriteTree(t, dir, map[string]string{rel: s}) }
	write("base/kustomization.yaml", "resources:\n- hpa.yaml\n")
	write("base/hpa.yaml", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  maxReplicas: 10\n")
	write("prod/kustomization.yaml", "bases:\n- ../base\ncommonLabels:\n  env: prod\npatchesStrategicMerge:\n- max.yaml\n")
	write("prod/max.yaml", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  maxReplicas: 30\n")
	var out *render.Output
	var problems []render.Problem
	written, _ := rendertest.Stderr(t, func() {
		out, problems = readTree(dir, render.Limits{}).Build(context.Background(), "prod")
	})
	if written != "" {
		t.Errorf("the build wrote on standard error: %s", written)
	}
	if out == nil {
		t.Fatalf("Build: %v", problems)
	}
	f := out.Files[0]
	if !bytes.Contains(f.Text, []byte("env: prod")) {
		t.Errorf("commonLabels not applied:\n%s", f.Text)
	}
	at := valueAt(t, f.Text, "HorizontalPodAutoscaler", "maxReplicas")
	loc := f.Locator.Locate(at, at+2)
	patch, _ := os.ReadFile(filepath.Join(dir, "prod/max.yaml"))
	if filepath.Base(loc.Path) != "max.yaml" || string(patch[loc.Start:loc.End]) != "30" {
		t.Errorf("Locate(maxReplicas) = %+v; want the patch's 30", loc)
	}
}

// kustomize's library prints a warning for a kustomization's `vars` (no
// conversion removes them) on os.Stderr, and unused vars through the
// standard logger: kubeflow/manifests printed a line per build between
// scalelint's messages. A build writes nothing to either, and leaves both
// as it found them.
func TestBuildWritesNothingToStderr(t *testing.T) {
	root := rendertest.WriteTree(t, "", map[string]string{
		"app/kustomization.yaml": "resources: [cm.yaml]\nvars:\n- name: UNUSED\n  objref: {kind: ConfigMap, name: c, apiVersion: v1}\n  fieldref: {fieldpath: metadata.name}\n",
		"app/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n",
	})
	out, restored := rendertest.Stderr(t, func() { build(t, readTree(root, render.Limits{}), "app") })
	if out != "" {
		t.Errorf("the build wrote to standard error:\n%s", out)
	}
	if !restored {
		t.Error("the build did not leave os.Stderr and the standard logger's output as it found them")
	}
}

// TestLocateAfterRelease: Release drops the locator's parse of the built
// text and ReleaseParsed the tree's parses of its files (a one-shot run's
// memory, render.Releaser); a Locate afterwards parses again and answers
// as before.
func TestLocateAfterRelease(t *testing.T) {
	tree := readTree(hpaTree, render.Limits{})
	prod := build(t, tree, "overlays/prod")
	var places [][2]int
	for _, key := range []string{"averageUtilization", "minReplicas", "name"} {
		at := valueAt(t, prod.Text, "HorizontalPodAutoscaler", key)
		places = append(places, [2]int{at, at + 1})
	}
	var before []render.Location
	for _, p := range places {
		before = append(before, prod.Locator.Locate(p[0], p[1]))
	}
	l := prod.Locator.(*locator)
	if l.y == nil || len(tree.cache) == 0 {
		t.Fatal("nothing parsed by Locate")
	}
	prod.Locator.(render.Releaser).Release()
	tree.ReleaseParsed()
	if l.y != nil || tree.cache != nil {
		t.Fatal("the parses are kept after Release and ReleaseParsed")
	}
	for i, p := range places {
		if got := prod.Locator.Locate(p[0], p[1]); !reflect.DeepEqual(got, before[i]) {
			t.Errorf("Locate(%d, %d) after Release = %+v; before %+v", p[0], p[1], got, before[i])
		}
	}
}

// TestNamesKustomizeCannotStage: kustomize's in-memory filesystem creates
// only names of [a-zA-Z0-9-_.:] (kyaml filesys, isLegalFileNameForCreation),
// while kustomize build on disk reads any: an overlay directory "prod+eu",
// a resource "my deploy.yaml", a generator's "my file.txt" and a file no
// one reads, "notes file.yaml", beside the kustomization each made every
// build of the tree a render-error ("cannot stage for kustomize: illegal
// name"; found on a run over elastic/cloud-on-k8s and others given by
// paths whose common directory is named "elastic+cloud-on-k8s"). The
// build reads them by their names: the generator's keys are the names on
// disk, also of a legal name that reads as an escaped one (names.go).
func TestNamesKustomizeCannotStage(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"app/kustomization.yaml":              "resources:\n- my deploy.yaml\nnamePrefix: p-\nconfigMapGenerator:\n- name: cfg\n  files:\n  - my file.txt\n  - x-scalelint-name-6d79.txt\n",
		"app/my deploy.yaml":                  "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n",
		"app/my file.txt":                     "hello\n",
		"app/notes file.yaml":                 "note: not a manifest\n",
		"app/x-scalelint-name-6d79.txt":       "a legal name that reads as an escaped one\n",
		"overlays/prod+eu/kustomization.yaml": "resources:\n- ../../app\nnamespace: eu\n",
	}
	rendertest.WriteTree(t, dir, files)
	tree := readTree(dir, render.Limits{})
	out := build(t, tree, "overlays/prod+eu")
	for _, want := range []string{"name: p-web", "namespace: eu", "my file.txt: |", "x-scalelint-name-6d79.txt: |"} {
		if !bytes.Contains(out.Text, []byte(want)) {
			t.Errorf("built text lacks %q:\n%s", want, out.Text)
		}
	}
}

// TestEscapedNamesRoundTrip: every name the in-memory tree holds is one
// kustomize's filesystem creates (legalName, no ".."), and reads back as
// the name on disk, also a legal one that begins like an escaped name.
func TestEscapedNamesRoundTrip(t *testing.T) {
	for _, n := range []string{"app", "kustomization.yaml", "prod+eu", "my deploy.yaml", "a..b", "é.yaml", "x-scalelint-name-6d79", "x-scalelint-name-zz"} {
		e := escapeName(n)
		if !legalName.MatchString(e) || strings.Contains(e, "..") {
			t.Errorf("escapeName(%q) = %q: not a name kustomize's in-memory filesystem creates", n, e)
		}
		if got := unescape(e); got != n {
			t.Errorf("unescape(escapeName(%q)) = %q", n, got)
		}
	}
	if got := unescape(escapePath("/tree/overlays/prod+eu/my deploy.yaml")); got != "/tree/overlays/prod+eu/my deploy.yaml" {
		t.Errorf("path round trip: %q", got)
	}
}

// TestCutEntryAnchor: an anchor defined in an entry the build leaves
// out (a helmCharts entry, which scalelint does not inflate) and named by
// an alias of an entry it keeps (bjw-s-labs/helm-charts'
// examples/kustomize: releaseName: &releaseName vaultwarden, then
// meta.helm.sh/release-name: *releaseName) builds with the alias's value,
// as kustomize reads the file as written; the copy built had kept the
// alias without its anchor, and did not parse.
func TestCutEntryAnchor(t *testing.T) {
	tree := readTree(rendertest.WriteTree(t, "", map[string]string{
		"app/kustomization.yaml": "helmCharts:\n- name: app-template\n  repo: https://charts.example/\n  releaseName: &releaseName vaultwarden\n" +
			"resources:\n- cm.yaml\ncommonAnnotations:\n  meta.helm.sh/release-name: *releaseName\n",
		"app/cm.yaml": configMapA,
	}), render.Limits{})
	out := build(t, tree, "app")
	if !bytes.Contains(out.Text, []byte("meta.helm.sh/release-name: vaultwarden")) {
		t.Errorf("the alias of the cut entry's anchor was not built with its value:\n%s", out.Text)
	}
}

// TestCutEntryAliasBomb: aliases that would copy more than aliasBudget
// nodes once written out (nine levels of ten aliases each: 10⁹ nodes)
// leave the kustomization unbuilt, with a problem, at once.
func TestCutEntryAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("resources:\n- cm.yaml\n- https://example.com/remote.yaml\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		p := fmt.Sprintf("*l%d", i-1)
		fmt.Fprintf(&b, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(p+", ", 10), ", "))
	}
	tree := readTree(rendertest.WriteTree(t, "", map[string]string{
		"app/kustomization.yaml": b.String(),
		"app/cm.yaml":            configMapA,
	}), render.Limits{})
	if out, problems := tree.Build(t.Context(), "app"); out != nil || len(problems) == 0 {
		t.Errorf("an alias bomb in a cut kustomization was built (%v, %v)", out != nil, problems)
	}
}
