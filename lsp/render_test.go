package lsp

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// writeTree writes files (slash paths below dir) and returns dir.
func writeTree(t testing.TB, dir string, files map[string]string) string {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// webChart is a chart whose HPA's CPU target comes from values.yaml
// through a plain reference, and whose container's CPU limit equals its
// request (through toYaml of .Values.resources): a target of 95% is the
// tolerance trap (rules/laws/README.md §1.4: g = 100/95 = 1.0526 <= 1.1),
// 80% is not (g = 1.25).
var webChart = map[string]string{
	"web/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n",
	"web/values.yaml": `resources:
  requests: {cpu: 500m}
  limits: {cpu: 500m}
autoscaling:
  maxReplicas: 10
  targetCPUUtilizationPercentage: 80
`,
	"web/templates/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        resources:
          {{- toYaml .Values.resources | nindent 10 }}
`,
	"web/templates/hpa.yaml": `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ .Release.Name }}-web
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: {{ .Release.Name }}-web}
  maxReplicas: {{ .Values.autoscaling.maxReplicas }}
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: {{ .Values.autoscaling.targetCPUUtilizationPercentage }}
`,
}

// withWebChart returns files with webChart's added (files win).
func withWebChart(files map[string]string) map[string]string {
	out := maps.Clone(webChart)
	maps.Copy(out, files)
	return out
}

// TestChartValuesEditRaisesAndClears: editing a chart's values.yaml
// renders the chart again and publishes the finding at the values line
// (the template line as related information), then clears it when the
// value is set back; the template, rendered, is not a template-file.
func TestChartValuesEditRaisesAndClears(t *testing.T) {
	dir := writeTree(t, t.TempDir(), webChart)
	c := newClient(t, Options{})
	c.initialize(dir, "")
	tpl := c.open("web/templates/hpa.yaml", "")
	if p := c.waitVersion(tpl, 1); len(p.Diagnostics) != 0 {
		t.Fatalf("the template, rendered with target 80: %v", p.rules())
	}
	u := c.open("web/values.yaml", "")
	if p := c.waitVersion(u, 1); len(p.Diagnostics) != 0 {
		t.Fatalf("values.yaml with target 80: %v", p.rules())
	}

	v := c.edit(u, "targetCPUUtilizationPercentage: 80", "targetCPUUtilizationPercentage: 95")
	p := c.waitVersion(u, v)
	if len(p.Diagnostics) != 1 || !p.has("tolerance-trap") {
		t.Fatalf("after raising the target: %v\n%s", p.rules(), c.log)
	}
	d := p.Diagnostics[0]
	if want := c.positionOf(u, "95", 0); d.Range.Start != want {
		t.Errorf("finding at %v, want the values line's 95 at %v", d.Range.Start, want)
	}
	if msg, _ := d.Message.(protocol.String); !strings.Contains(string(msg), "g = 1.0526") || !strings.HasSuffix(string(msg), "[values: values.yaml]") {
		t.Errorf("message %q", msg)
	}
	related := false
	for _, r := range d.RelatedInformation {
		related = related || (r.Location.URI == tpl && r.Location.Range.Start.Line == 13 && r.Message == "the template line that writes this value")
	}
	if !related {
		t.Errorf("relatedInformation %+v; want hpa.yaml line 14 (0-based 13), averageUtilization", d.RelatedInformation)
	}
	if p := c.waitVersion(tpl, 1); len(p.Diagnostics) != 0 {
		t.Errorf("the template: %v", p.rules())
	}

	v = c.edit(u, "targetCPUUtilizationPercentage: 95", "targetCPUUtilizationPercentage: 80")
	if p := c.waitVersion(u, v); len(p.Diagnostics) != 0 {
		t.Fatalf("after setting it back: %v", p.rules())
	}
}

// TestChartHoverAndFixOnValuesLine: hover on the values line that feeds
// the rendered HPA's target shows its law table, and the quick fix edits
// the values line (its bytes are the rendered ones).
func TestChartHoverAndFixOnValuesLine(t *testing.T) {
	files := map[string]string{}
	for k, v := range webChart {
		files[k] = strings.Replace(v, "targetCPUUtilizationPercentage: 80", "targetCPUUtilizationPercentage: 95", 1)
	}
	dir := writeTree(t, t.TempDir(), files)
	c := newClient(t, Options{})
	c.initialize(dir, "")
	u := c.open("web/values.yaml", "")
	p := c.waitVersion(u, 1)
	if !p.has("tolerance-trap") {
		t.Fatalf("values.yaml: %v", p.rules())
	}
	var h protocol.Hover
	c.mustCall(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: c.positionOf(u, "95", 1)}}, &h)
	mc, _ := h.Contents.(*protocol.MarkupContent)
	if mc == nil || !strings.Contains(mc.Value, "Rendered [values: values.yaml]") || !strings.Contains(mc.Value, "| §1 growth | g = 1.053 (limit 0.5 / request 0.5 at 95%) vs 1 + tolerance = 1.1 | **trapped**") {
		t.Errorf("hover on the values line:\n%v", h.Contents)
	}

	fix := c.codeActions(u, p.Diagnostics[0].Range)["Lower the target to 90%"]
	if fix == nil {
		t.Fatalf("no fix on the values line")
	}
	v := c.applyEdit(u, fix.Edit)
	if !strings.Contains(c.texts[u], "targetCPUUtilizationPercentage: 90\n") {
		t.Errorf("values.yaml after the fix:\n%s", c.texts[u])
	}
	if p := c.waitVersion(u, v); len(p.Diagnostics) != 0 {
		t.Errorf("after the fix: %v", p.rules())
	}
}

// TestKustomizePatchEdit: editing an overlay's patch builds the
// kustomization again and publishes the finding at the patch line; the
// base, unchanged, has none.
func TestKustomizePatchEdit(t *testing.T) {
	dir := writeTree(t, t.TempDir(), map[string]string{
		"base/kustomization.yaml": "resources:\n- deployment.yaml\n- hpa.yaml\n",
		"base/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: web
        image: nginx:1.27
        resources:
          requests: {cpu: 500m}
          limits: {cpu: 500m}
`,
		"base/hpa.yaml": `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}
`,
		"prod/kustomization.yaml": "resources:\n- ../base\npatches:\n- path: hpa.yaml\n",
		"prod/hpa.yaml": `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  maxReplicas: 20
`,
	})
	c := newClient(t, Options{})
	c.initialize(dir, "")
	base := c.open("base/hpa.yaml", "")
	u := c.open("prod/hpa.yaml", "")
	if p := c.waitVersion(u, 1); len(p.Diagnostics) != 0 {
		t.Fatalf("the patch: %v", p.rules())
	}
	v := c.edit(u, "  maxReplicas: 20\n", "  maxReplicas: 20\n  metrics:\n  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: 95}}\n")
	p := c.waitVersion(u, v)
	if len(p.Diagnostics) != 1 || !p.has("tolerance-trap") {
		t.Fatalf("after the patch raised the target: %v\n%s", p.rules(), c.log)
	}
	if want := c.positionOf(u, "95", 0); p.Diagnostics[0].Range.Start != want {
		t.Errorf("finding at %v, want the patch's 95 at %v", p.Diagnostics[0].Range.Start, want)
	}
	if p := c.waitVersion(base, 1); len(p.Diagnostics) != 0 {
		t.Errorf("the base: %v", p.rules())
	}
}

// TestChartHelperChangedOnDisk: a template helper (_helpers.tpl) that no
// handle holds changes on disk: the watched change renders the chart
// again (the helper writes the HPA's CPU target: 80 -> 95, the tolerance
// trap with limit = request, rules/laws/README.md §1.4).
func TestChartHelperChangedOnDisk(t *testing.T) {
	files := withWebChart(nil)
	files["web/templates/_helpers.tpl"] = `{{- define "web.target" -}}80{{- end -}}`
	files["web/templates/hpa.yaml"] = strings.Replace(webChart["web/templates/hpa.yaml"],
		"{{ .Values.autoscaling.targetCPUUtilizationPercentage }}", `{{ include "web.target" . }}`, 1)
	dir := writeTree(t, t.TempDir(), files)
	c := newClient(t, Options{})
	c.initialize(dir, "")
	tpl := c.open("web/templates/hpa.yaml", "")
	if p := c.waitVersion(tpl, 1); len(p.Diagnostics) != 0 {
		t.Fatalf("with the helper's 80: %v", p.rules())
	}
	helper := filepath.Join(dir, "web/templates/_helpers.tpl")
	if err := os.WriteFile(helper, []byte(`{{- define "web.target" -}}95{{- end -}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{
		Changes: []protocol.FileEvent{{URI: uri.File(helper), Type: protocol.FileChangeTypeChanged}}})
	c.waitFor(tpl, "the helper's 95 rendered", func(p publication) bool { return p.has("tolerance-trap") })
}

// TestGitOpsRootDeploysKustomizationsTogether: the kustomizations a Flux
// Kustomization applies are linted as one deployment, as the command line
// does: the backend's HPA, pointed at the frontend's Deployment, conflicts
// with the frontend's HPA; when the Flux Kustomization applies the
// frontend only, each kustomization is its own deployment again and the
// conflict clears.
func TestGitOpsRootDeploysKustomizationsTogether(t *testing.T) {
	files := map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"clusters/prod/apps.yaml": `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: apps
  namespace: flux-system
spec:
  interval: 10m
  path: ./deploy/apps
  prune: true
  targetNamespace: shop
  sourceRef: {kind: GitRepository, name: flux-system}
`,
	}
	for _, app := range []string{"frontend", "backend"} {
		files["deploy/apps/"+app+"/kustomization.yaml"] = "resources:\n- deployment.yaml\n- hpa.yaml\n"
		files["deploy/apps/"+app+"/deployment.yaml"] = strings.ReplaceAll(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: APP
spec:
  selector:
    matchLabels: {app: APP}
  template:
    metadata:
      labels: {app: APP}
    spec:
      containers:
      - name: APP
        image: nginx:1.27
        resources:
          requests: {cpu: 250m}
          limits: {cpu: 500m}
`, "APP", app)
		files["deploy/apps/"+app+"/hpa.yaml"] = strings.ReplaceAll(`apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: APP
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: frontend}
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}
`, "APP", app)
	}
	dir := writeTree(t, t.TempDir(), files)
	c := newClient(t, Options{})
	c.initialize(dir, "")
	hpa := c.open("deploy/apps/backend/hpa.yaml", "")
	if p := c.waitVersion(hpa, 1); !p.has("conflicting-autoscalers") {
		t.Fatalf("two HPAs of one Deployment the Flux Kustomization applies together: %v\n%s", p.rules(), c.log)
	}
	flux := c.open("clusters/prod/apps.yaml", "")
	c.edit(flux, "path: ./deploy/apps\n", "path: ./deploy/apps/frontend\n")
	p := c.waitFor(hpa, "the conflict cleared", func(p publication) bool { return !p.has("conflicting-autoscalers") })
	if !p.has("unresolved-scale-target") {
		t.Errorf("backend deployed apart: %v\n%s", p.rules(), c.log)
	}
}

// TestChartFixAfterIndexThenOpen: the workspace is indexed (and the
// chart's finding published on values.yaml, read from disk) before
// values.yaml is opened; the open document is parsed apart from the disk
// file (its trees kept), so the render group of the open text must not
// reuse the findings placed in the disk file's parse: the quick fix is
// there.
func TestChartFixAfterIndexThenOpen(t *testing.T) {
	files := map[string]string{}
	for k, v := range webChart {
		files[k] = strings.Replace(v, "targetCPUUtilizationPercentage: 80", "targetCPUUtilizationPercentage: 95", 1)
	}
	dir := writeTree(t, t.TempDir(), files)
	c := newClient(t, Options{})
	c.initialize(dir, "")
	disk := uri.File(filepath.Join(dir, "web/values.yaml"))
	c.waitFor(disk, "the finding of the disk file", func(p publication) bool { return p.has("tolerance-trap") })
	u := c.open("web/values.yaml", "")
	p := c.waitVersion(u, 1)
	if !p.has("tolerance-trap") {
		t.Fatalf("values.yaml: %v", p.rules())
	}
	if fix := c.codeActions(u, p.Diagnostics[0].Range)["Lower the target to 90%"]; fix == nil {
		t.Fatal("no fix on the values line of the open document")
	}
}

// TestChartDependencyEditRerenders: web depends on worker, a chart of the
// same repository that charts/ does not hold, and takes it from the tree
// (its sibling directory, version 1.0.0 in ^1.0.0). worker's CPU target
// is in worker/values.yaml; its container's resources only in web's
// values (worker.resources: limit = request), so only web's render can
// find the tolerance trap there (a target of 95: g = 100/95 = 1.0526 <=
// 1.1, rules/laws/README.md §1.4); worker's own render cannot (no CPU
// request). Editing worker/values.yaml must render web again: the
// sibling's files are inputs of web's render group.
func TestChartDependencyEditRerenders(t *testing.T) {
	files := map[string]string{
		"web/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\ndependencies:\n- name: worker\n  version: ^1.0.0\n  repository: oci://registry.example/charts\n",
		"web/values.yaml": `worker:
  resources:
    requests: {cpu: 500m}
    limits: {cpu: 500m}
`,
		"worker/Chart.yaml": "apiVersion: v2\nname: worker\nversion: 1.0.0\n",
		"worker/values.yaml": `resources: {}
autoscaling:
  maxReplicas: 10
  targetCPUUtilizationPercentage: 80
`,
	}
	for _, name := range []string{"deployment.yaml", "hpa.yaml"} {
		files["worker/templates/"+name] = strings.ReplaceAll(webChart["web/templates/"+name], "-web", "-worker")
	}
	dir := writeTree(t, t.TempDir(), files)
	c := newClient(t, Options{})
	c.initialize(dir, "")
	u := c.open("worker/values.yaml", "")
	if p := c.waitVersion(u, 1); p.has("tolerance-trap") {
		t.Fatalf("worker/values.yaml with target 80: %v", p.rules())
	}
	v := c.edit(u, "targetCPUUtilizationPercentage: 80", "targetCPUUtilizationPercentage: 95")
	p := c.waitVersion(u, v)
	if !p.has("tolerance-trap") {
		t.Fatalf("after raising the target, web renders worker with it: %v\n%s", p.rules(), c.log)
	}
	v = c.edit(u, "targetCPUUtilizationPercentage: 95", "targetCPUUtilizationPercentage: 80")
	if p := c.waitVersion(u, v); p.has("tolerance-trap") {
		t.Fatalf("after setting it back: %v", p.rules())
	}
}

// TestUnder: the paths below a directory, found by binary search in the
// sorted paths, are those filepath.Rel places below it (the reference),
// for directories that prefix their siblings' names ("a/b" and "a/bc").
func TestUnder(t *testing.T) {
	paths := []string{"/r/a/b.yaml", "/r/a/b/c.yaml", "/r/a/b/d/e.yaml", "/r/a/bc/f.yaml", "/r/a/b0.yaml", "/r/z.yaml"}
	slices.Sort(paths)
	for _, dir := range []string{"/r/a/b", "/r/a", "/r", "/r/a/bc", "/r/none", "/", "/r/a/b/"} {
		var want []string
		for _, p := range paths {
			if rel, err := filepath.Rel(dir, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
				want = append(want, p)
			}
		}
		if got := under(paths, dir); !slices.Equal(got, want) {
			t.Errorf("under(%s) = %v, want %v", dir, got, want)
		}
	}
}

// TestPlainEditKeepsRenderGroups: an edit of a plain file (no chart or
// kustomization reads it) takes the base snapshot's render groups as they
// are, without working them out again (a repository of charts hashed
// every chart's files at each such edit); an edit of a chart's values
// file, or one that makes the plain file a GitOps root, works them out.
func TestPlainEditKeepsRenderGroups(t *testing.T) {
	files := maps.Clone(webChart)
	files["plain/hpa.yaml"] = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: api
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  maxReplicas: 3
`
	dir := writeTree(t, t.TempDir(), files)
	c := newClient(t, Options{})
	var mu sync.Mutex
	worked := 0
	c.srv.testHook = func(ctx context.Context, method string) {
		if method == testHookRenderGroups {
			mu.Lock()
			worked++
			mu.Unlock()
		}
	}
	count := func() int { mu.Lock(); defer mu.Unlock(); return worked }
	c.initialize(dir, "")
	plain := c.open("plain/hpa.yaml", "")
	c.waitFor(plain, "the complete findings", func(p publication) bool { return p.has("unresolved-scale-target") })
	before := count()
	if before == 0 {
		t.Fatal("the render groups were never worked out")
	}
	for _, n := range []string{"4", "5", "6"} {
		v := c.edit(plain, "maxReplicas: "+map[string]string{"4": "3", "5": "4", "6": "5"}[n], "maxReplicas: "+n)
		if p := c.waitVersion(plain, v); !p.has("unresolved-scale-target") {
			t.Fatalf("after the edit to %s: %v", n, p.rules())
		}
	}
	if n := count(); n != before {
		t.Errorf("three edits of a plain file worked the render groups out %d times, want 0", n-before)
	}
	values := c.open("web/values.yaml", "")
	c.waitVersion(values, 1)
	before = count()
	v := c.edit(values, "targetCPUUtilizationPercentage: 80", "targetCPUUtilizationPercentage: 95")
	if p := c.waitVersion(values, v); !p.has("tolerance-trap") {
		t.Fatalf("after the values edit: %v", p.rules())
	}
	if count() == before {
		t.Error("an edit of values.yaml took the base's render groups")
	}
	before = count()
	v = c.edit(plain, "apiVersion: autoscaling/v2\n", "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: apps, namespace: flux-system}\nspec: {path: ./web, interval: 1m, prune: true, sourceRef: {kind: GitRepository, name: repo}}\n---\napiVersion: autoscaling/v2\n")
	c.waitVersion(plain, v)
	if count() == before {
		t.Error("an edit that makes a plain file a GitOps root took the base's render groups")
	}
}

// TestGitOpsReleaseValues: the language server renders a chart with the
// values an Argo CD Application of the workspace gives it, as the command
// line does (lint.Result.RenderReleases): values-prod.yaml, read by the
// Application alone, sets a CPU target of 95% on the chart's HPA, the
// tolerance trap (limit = request: g = 100/95 = 1.0526 <= 1.1, rules/laws/
// README.md §1.4), found in values-prod.yaml at its line, named after the
// release alone (the file's own value set, beside values.yaml, is left to
// the release that layers it). Removing the valueFiles entry from the open
// Application leaves the file's own value set, a warning at most.
func TestGitOpsReleaseValues(t *testing.T) {
	files := map[string]string{
		"web/values-prod.yaml": "autoscaling:\n  targetCPUUtilizationPercentage: 95\n",
		"apps/web.yaml": `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: web, namespace: argocd}
spec:
  destination: {namespace: prod}
  source:
    path: web
    helm:
      valueFiles: [values-prod.yaml]
`,
	}
	dir := writeTree(t, t.TempDir(), withWebChart(files))
	must(t, os.MkdirAll(filepath.Join(dir, ".git"), 0o755)) // the repository root GitOps paths are relative to
	c := newClient(t, Options{})
	c.initialize(dir, "")
	vals := uri.File(filepath.Join(dir, "web/values-prod.yaml"))
	p := c.waitFor(vals, "the release's tolerance trap", func(p publication) bool { return p.has("tolerance-trap") })
	d := p.Diagnostics[0]
	if d.Range.Start.Line != 1 {
		t.Errorf("finding at %v, want values-prod.yaml's second line (0-based 1), the 95", d.Range.Start)
	}
	if msg, _ := d.Message.(protocol.String); !strings.HasSuffix(string(msg), `[values: Application "argocd/web"]`) {
		t.Errorf("message %q, want the release's value set named", msg)
	}
	// Once no release layers it, values-prod.yaml is a value set of its
	// own (a values file beside values.yaml, over the defaults): the
	// trap is found with it alone, as a warning at most (no one declared
	// what it is deployed with).
	app := c.open("apps/web.yaml", "")
	c.edit(app, "valueFiles: [values-prod.yaml]", "valueFiles: []")
	c.waitFor(vals, "the trap found with the file alone", besideTrap)
}

// besideTrap reports whether a publication's tolerance trap is found with
// values-prod.yaml alone, as a warning at most.
func besideTrap(p publication) bool {
	for _, d := range p.Diagnostics {
		msg, _ := d.Message.(protocol.String)
		if strings.HasSuffix(string(msg), "[values: values-prod.yaml]") && d.Severity >= protocol.DiagnosticSeverityWarning {
			return true
		}
	}
	return false
}

// TestHelmfileReleaseValues: a helmfile's release of a local chart
// renders with its values file in the language server too: the 95% CPU
// target of values-prod.yaml, read by the release alone, is the tolerance
// trap (g = 100/95 = 1.0526 <= 1.1, rules/laws/README.md §1.4), found at
// its line.
func TestHelmfileReleaseValues(t *testing.T) {
	files := map[string]string{
		"web/values-prod.yaml": "autoscaling:\n  targetCPUUtilizationPercentage: 95\n",
		"helmfile.yaml":        "releases:\n- name: web\n  namespace: prod\n  chart: ./web\n  values: [web/values-prod.yaml]\n",
	}
	dir := writeTree(t, t.TempDir(), withWebChart(files))
	c := newClient(t, Options{})
	c.initialize(dir, "")
	vals := uri.File(filepath.Join(dir, "web/values-prod.yaml"))
	p := c.waitFor(vals, "the release's tolerance trap", func(p publication) bool { return p.has("tolerance-trap") })
	if msg, _ := p.Diagnostics[0].Message.(protocol.String); !strings.HasSuffix(string(msg), `[values: `+filepath.ToSlash(filepath.Join(dir, "helmfile.yaml"))+` release "web"]`) {
		t.Errorf("message %q, want the release's value set named", msg)
	}
	// The helmfile is read from the editor's text: an unsaved edit that
	// drops the values file clears the release's finding.
	hf := c.open("helmfile.yaml", "")
	c.edit(hf, "values: [web/values-prod.yaml]", "values: []")
	c.waitFor(vals, "the release's trap gone with the unsaved helmfile edit, the file's own left", besideTrap)

	// A values file outside the chart is not among the workspace's files
	// (no manifest): the finding is at the chart's first line, saying so,
	// not dropped.
	outside := writeTree(t, t.TempDir(), map[string]string{
		"prod.yaml":     "autoscaling:\n  targetCPUUtilizationPercentage: 95\n",
		"helmfile.yaml": "releases:\n- name: web\n  chart: ./web\n  values: [prod.yaml]\n",
	})
	writeTree(t, outside, webChart)
	c2 := newClient(t, Options{})
	c2.initialize(outside, "")
	chartFile := uri.File(filepath.Join(outside, "web/Chart.yaml"))
	p = c2.waitFor(chartFile, "the release's tolerance trap at the chart's first line", func(p publication) bool { return p.has("tolerance-trap") })
	if msg, _ := p.Diagnostics[0].Message.(protocol.String); !strings.Contains(string(msg), "prod.yaml is not read") {
		t.Errorf("message %q, want it to say where the value is", msg)
	}
}

// TestCIReleaseValues: a CI workflow's helm command of a chart of the
// workspace renders it with the command's values in the language server
// too: --set of a 95% target over the webChart's limit equal to its
// request is the tolerance trap (g = 100/95 = 1.0526 <= 1.1,
// rules/laws/README.md §1.4), at the template line that writes it, named
// after the command's file and line. The workflow is read from the
// editor's text and is an input of the chart's render: an unsaved edit to
// 70% (g = 1.43) clears it.
func TestCIReleaseValues(t *testing.T) {
	releaseTrapFollowsEdits(t, ".github/workflows/deploy.yml",
		"jobs:\n  deploy:\n    steps:\n    - run: helm upgrade --install web ./web --set autoscaling.targetCPUUtilizationPercentage=95\n",
		"targetCPUUtilizationPercentage=95", "targetCPUUtilizationPercentage=70",
		func(dir string) string {
			return `[values: ` + filepath.ToSlash(filepath.Join(dir, ".github/workflows/deploy.yml")) + `:4 helm upgrade]`
		})
}

// TestKustomizeHelmChartRelease: a kustomization's helmCharts entry of a
// chart of the workspace renders it with the entry's values (lint's
// kustomizeReleases), in the editor as on the command line: the inline
// target of 95% makes the tolerance trap (g = 1/0.95 = 1.0526 ≤ 1.1, the
// webChart's limit equals its request), found at the template line that
// writes it and named by the entry. An unsaved edit of the entry to 70%
// (g = 1.43) clears it: the kustomization is read from the editor's
// text, and it is an input of the chart's render.
func TestKustomizeHelmChartRelease(t *testing.T) {
	releaseTrapFollowsEdits(t, "deploy/kustomization.yaml",
		"helmGlobals: {chartHome: ..}\nhelmCharts:\n- name: web\n  releaseName: shop\n  valuesInline:\n    autoscaling: {targetCPUUtilizationPercentage: 95}\n",
		"targetCPUUtilizationPercentage: 95", "targetCPUUtilizationPercentage: 70",
		func(string) string { return `helmCharts[0] "web"]` })
}

// releaseTrapFollowsEdits writes the webChart with a file (rel, text)
// that releases it with a 95% target, waits for the tolerance trap at the
// chart's HPA template, checks that its message ends with the release's
// name (named, given the workspace directory), then edits the unsaved
// file from one text to another (to 70%) and waits for the trap to clear.
func releaseTrapFollowsEdits(t *testing.T, rel, text, from, to string, named func(dir string) string) {
	t.Helper()
	dir := writeTree(t, t.TempDir(), withWebChart(map[string]string{rel: text}))
	c := newClient(t, Options{})
	c.initialize(dir, "")
	hpa := uri.File(filepath.Join(dir, "web/templates/hpa.yaml"))
	p := c.waitFor(hpa, "the release's tolerance trap", func(p publication) bool { return p.has("tolerance-trap") })
	if msg, _ := p.Diagnostics[0].Message.(protocol.String); !strings.HasSuffix(string(msg), named(dir)) {
		t.Errorf("message %q, want the release's value set named %s", msg, named(dir))
	}
	f := c.open(rel, "")
	c.edit(f, from, to)
	c.waitFor(hpa, "the trap cleared by the unsaved edit", func(p publication) bool { return !p.has("tolerance-trap") })
}
