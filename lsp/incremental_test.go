package lsp

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
)

// wsGen generates the documents of a small workspace whose objects often
// collide: few names and namespaces, autoscalers that target each other's
// workloads, suppressions, broken YAML, a LimitRange now and then.
type wsGen struct{ r *rand.Rand }

func (g wsGen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

func (g wsGen) meta(name string) string {
	s := "metadata:\n  name: " + name + "\n"
	if ns := g.pick("", "", "prod"); ns != "" {
		s += "  namespace: " + ns + "\n"
	}
	return s
}

func (g wsGen) annotations() string {
	var as []string
	if g.r.Intn(2) == 0 {
		as = append(as, `scalelint.dev/dead-time: "90s"`, `scalelint.dev/pod-rate: "10"`)
	}
	if g.r.Intn(3) == 0 {
		as = append(as, `scalelint.dev/retries: "2"`, `scalelint.dev/demand: "500"`)
	}
	if g.r.Intn(6) == 0 {
		as = append(as, `ignore.scalelint.dev/`+g.pick("replicas-managed-by-autoscaler", "tolerance-trap", "conflicting-autoscalers")+`: "known"`)
	}
	if g.r.Intn(8) == 0 {
		as = append(as, `scalelint.dev/dead-tme: "90s"`) // a typo
	}
	if len(as) == 0 {
		return ""
	}
	return "  annotations:\n    " + strings.Join(as, "\n    ") + "\n"
}

func (g wsGen) name() string { return g.pick("web", "api", "worker") }

func (g wsGen) doc() string {
	switch g.r.Intn(11) {
	case 0, 1, 2:
		s := "apiVersion: apps/v1\nkind: Deployment\n" + g.meta(g.name()) + g.annotations() + "spec:\n"
		if g.r.Intn(2) == 0 {
			s += "  replicas: 3\n"
		}
		s += "  template:\n"
		switch g.r.Intn(4) { // labels a Service or a disruption budget selects
		case 0:
			s += "    metadata: {labels: {app: " + g.name() + "}}\n"
		case 1:
			s += "    metadata: {labels: {app: " + g.name() + ", team: t}}\n"
		}
		s += "    spec:\n      containers:\n      - name: app\n        image: x\n"
		if g.r.Intn(3) == 0 {
			s += fmt.Sprintf("        readinessProbe: {initialDelaySeconds: %d}\n", g.pick2(5, 120))
		}
		switch g.r.Intn(3) {
		case 0:
			s += "        resources:\n          requests: {cpu: 500m}\n          limits: {cpu: 500m}\n"
		case 1:
			s += "        resources:\n          requests: {cpu: 250m}\n          limits: {cpu: \"1\"}\n"
		}
		return s
	case 3, 4:
		s := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n" + g.meta(g.name()) + g.annotations() + "spec:\n"
		if g.r.Intn(5) == 0 {
			s += "  # scalelint:ignore unresolved-scale-target " + g.pick("lives elsewhere", "") + "\n"
		}
		if g.r.Intn(4) == 0 { // an Argo Rollout, which may run a Deployment's template
			s += "  scaleTargetRef: {apiVersion: argoproj.io/v1alpha1, kind: Rollout, name: " + g.name() + "}\n"
		} else {
			s += "  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: " + g.name() + "}\n"
		}
		s += fmt.Sprintf("  minReplicas: %d\n  maxReplicas: %d\n", 1+g.r.Intn(2), 2+g.r.Intn(40))
		s += fmt.Sprintf("  metrics:\n  - type: Resource\n    resource:\n      name: cpu\n      target: {type: Utilization, averageUtilization: %d}\n", g.pick2(50, 95))
		return s
	case 5, 6:
		s := "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\n" + g.meta(g.name()) + g.annotations() + "spec:\n"
		s += "  scaleTargetRef:\n    name: " + g.name() + "\n"
		s += fmt.Sprintf("  maxReplicaCount: %d\n  triggers:\n  - type: kafka\n    metadata:\n      topic: t\n      lagThreshold: \"%d\"\n", 2+g.r.Intn(40), g.pick2(5, 5000))
		return s
	case 7:
		switch g.r.Intn(4) {
		case 0:
			return "apiVersion: v1\nkind: LimitRange\n" + g.meta("defaults") + "spec:\n  limits:\n  - type: Container\n    defaultRequest: {cpu: 100m}\n"
		case 1:
			// A budget on the pods of one workload, or of every one
			// labelled team: t (pdb-blocks-eviction, rules.BudgetPeers).
			sel := "{app: " + g.name() + "}"
			if g.r.Intn(3) == 0 {
				sel = "{team: t}"
			}
			return "apiVersion: policy/v1\nkind: PodDisruptionBudget\n" + g.meta(g.name()) + "spec:\n  minAvailable: " + g.pick("1", "2", `"60%"`) +
				"\n  selector:\n    matchLabels: " + sel + "\n"
		}
		return "apiVersion: v1\nkind: Service\n" + g.meta(g.name()) + "spec:\n  selector: {app: " + g.name() + "}\n  ports: [{port: 80}]\n"
	case 8:
		// Retries after a per-try timeout bound A from below (infer).
		return "apiVersion: networking.istio.io/v1\nkind: VirtualService\n" + g.meta(g.name()) + "spec:\n  http:\n  - route:\n    - destination: {host: " +
			g.name() + "}\n" + fmt.Sprintf("    retries: {attempts: %d, perTryTimeout: 2s, retryOn: %s}\n", g.pick2(1, 4), g.pick("5xx", "connect-failure"))
	case 9:
		// Argo Rollouts runs the pod template of the Deployment the
		// workloadRef names (workspace.Resolution.Pods).
		return "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\n" + g.meta(g.name()) + "spec:\n  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: " + g.name() + "}\n"
	default:
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n\tname: broken\nspec: [\n"
	}
}

func (g wsGen) pick2(a, b int) int {
	if g.r.Intn(2) == 0 {
		return a
	}
	return b
}

// fileDiagnosticsOf lints a snapshot and returns every file's protocol
// diagnostics.
func fileDiagnosticsOf(t *testing.T, snap *Snapshot) map[string][]protocol.Diagnostic {
	t.Helper()
	fds, err := snap.fileDiagnostics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]protocol.Diagnostic{}
	for _, p := range snap.paths() {
		out[p] = protocolFor(snap, fds, p)
	}
	return out
}

// recorder is a client that keeps the last diagnostics published per
// document.
type recorder struct {
	protocol.Client
	last map[uri.URI][]protocol.Diagnostic
}

func (r *recorder) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	r.last[p.URI] = p.Diagnostics
	return nil
}

// TestIncrementalMatchesFullLint edits a small multi-file workspace at
// random (autoscalers added and removed, targets renamed, namespaces
// changed, YAML broken and fixed, files added and deleted, a
// kustomization now and then) and checks after every edit that the
// snapshot derived from the previous one publishes, for every file,
// exactly what a lint from scratch of the same texts publishes, and that
// the client holds just that after the server published what changed.
func TestIncrementalMatchesFullLint(t *testing.T) {
	paths := []string{"/ws/a/deploy.yaml", "/ws/a/hpa.yaml", "/ws/a/sub/more.yaml", "/ws/b/all.yaml",
		"/ws/b/so.yaml", "/ws/c/d/e/far.yaml", "/ws/a/kustomization.yaml"}
	seeds := 12
	steps := 120
	if testing.Short() {
		seeds, steps = 3, 60
	}
	incremental, partial := 0, 0
	for seed := 0; seed < seeds; seed++ {
		g := wsGen{rand.New(rand.NewSource(int64(seed)))}
		docs := map[string][]string{}
		s := NewServer(Options{Debounce: -1, Log: io.Discard})
		client := &recorder{last: map[uri.URI][]protocol.Diagnostic{}}
		s.client = client
		set := func(p string) {
			if len(docs[p]) == 0 {
				delete(docs, p)
				s.setDiskLocked(p, nil)
				return
			}
			text := strings.Join(docs[p], "---\n")
			s.setDiskLocked(p, s.cache.newHandle(p, uri.File(p), 0, false, []byte(text)))
		}
		for _, p := range paths[:6] {
			for n := g.r.Intn(3); n > 0; n-- {
				docs[p] = append(docs[p], g.doc())
			}
			set(p)
		}
		s.mu.Lock()
		prev := s.newSnapshotLocked()
		s.mu.Unlock()
		fileDiagnosticsOf(t, prev)
		for step := 0; step < steps; step++ {
			p := paths[g.r.Intn(len(paths))]
			what := ""
			switch op := g.r.Intn(10); {
			case p == "/ws/a/kustomization.yaml":
				if docs[p] == nil {
					docs[p] = []string{"namespace: " + g.pick("prod", "dev") + "\nresources:\n- deploy.yaml\n- hpa.yaml\n"}
					what = "add kustomization"
				} else {
					docs[p] = nil
					what = "remove kustomization"
				}
			case op < 4 && len(docs[p]) > 0:
				docs[p] = slices.Clone(docs[p])
				docs[p][g.r.Intn(len(docs[p]))] = g.doc()
				what = "replace a document"
			case op < 6:
				docs[p] = append(slices.Clone(docs[p]), g.doc())
				what = "add a document"
			case op < 8 && len(docs[p]) > 0:
				i := g.r.Intn(len(docs[p]))
				docs[p] = slices.Delete(slices.Clone(docs[p]), i, i+1)
				what = "remove a document"
			case op < 9 && len(docs[p]) > 0:
				docs[p] = slices.Clone(docs[p])
				i := g.r.Intn(len(docs[p]))
				docs[p][i] = strings.Replace(docs[p][i], "\nspec:", "\n spec: [", 1) // breaks the YAML
				what = "break a document"
			default:
				docs[p] = nil
				what = "delete the file"
			}
			set(p)
			s.mu.Lock()
			snap := s.newSnapshotLocked()
			s.mu.Unlock()
			if g.r.Intn(5) == 0 {
				continue // superseded before its lint: the next derives from the last linted
			}
			got := fileDiagnosticsOf(t, snap)
			s.runLint(context.Background(), snap)
			if snap.incremental {
				incremental++
			}
			if snap.relinted != nil {
				partial++ // only the files the change reaches were linted again
			}

			fresh := NewServer(Options{Debounce: -1, Log: io.Discard})
			for q := range docs {
				text := strings.Join(docs[q], "---\n")
				fresh.setDiskLocked(q, fresh.cache.newHandle(q, uri.File(q), 0, false, []byte(text)))
			}
			fresh.mu.Lock()
			full := fresh.newSnapshotLocked()
			fresh.mu.Unlock()
			want := fileDiagnosticsOf(t, full)
			for _, q := range paths {
				g, w := protocolJSON(t, got[q]), protocolJSON(t, want[q])
				if g != w {
					t.Fatalf("seed %d step %d (%s in %s): %s differs from a full lint\nincremental: %s\nfull:        %s\nfiles:\n%s",
						seed, step, what, p, q, g, w, dump(docs))
				}
				if pub := protocolJSON(t, client.last[uri.File(q)]); pub != w {
					t.Fatalf("seed %d step %d (%s in %s): the client holds for %s\n%s\nnot\n%s", seed, step, what, p, q, pub, w)
				}
			}
		}
	}
	if incremental == 0 || partial == 0 {
		t.Errorf("no snapshot was derived incrementally (%d, %d): the test tests nothing", incremental, partial)
	}
}

func protocolJSON(t *testing.T, items []protocol.Diagnostic) string {
	if len(items) == 0 {
		return "[]"
	}
	b, err := protocol.Marshal(items)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func dump(docs map[string][]string) string {
	var b strings.Builder
	for _, p := range slices.Sorted(maps.Keys(docs)) {
		fmt.Fprintf(&b, "== %s\n%s\n", p, strings.Join(docs[p], "---\n"))
	}
	return b.String()
}

// TestFocusMatchesFullLint checks workspace.Focus's promise on random
// workspaces: linting the view of one path yields, in that path, exactly
// the unsuppressed findings of a lint of the whole workspace.
func TestFocusMatchesFullLint(t *testing.T) {
	paths := []string{"/ws/a/deploy.yaml", "/ws/a/hpa.yaml", "/ws/a/sub/more.yaml", "/ws/b/all.yaml",
		"/ws/b/so.yaml", "/ws/c/d/e/far.yaml"}
	for seed := 0; seed < 200; seed++ {
		g := wsGen{rand.New(rand.NewSource(int64(seed)))}
		s := NewServer(Options{Debounce: -1, Log: io.Discard})
		for _, p := range paths {
			var docs []string
			for n := g.r.Intn(4); n > 0; n-- {
				docs = append(docs, g.doc())
			}
			if len(docs) > 0 {
				s.setDiskLocked(p, s.cache.newHandle(p, uri.File(p), 0, false, []byte(strings.Join(docs, "---\n"))))
			}
		}
		s.mu.Lock()
		snap := s.newSnapshotLocked()
		s.mu.Unlock()
		ws := snap.Workspace()
		full := groupByFile(ws, analyzer.Run(context.Background(), ws, rules.All(), snap.cfg), nil)
		for _, p := range paths {
			in := func(q string) bool { return q == p }
			got := groupByFile(ws, analyzer.Run(context.Background(), ws.Focus([]string{p}), rules.All(), snap.cfg), in)
			var g, w []analyzer.Diagnostic
			if fd := got[p]; fd != nil {
				g = fd.diags
			}
			if fd := full[p]; fd != nil {
				w = fd.diags
			}
			if fmt.Sprint(describe(ws, g)) != fmt.Sprint(describe(ws, w)) {
				t.Fatalf("seed %d, %s: focused lint\n%v\nfull lint\n%v", seed, p, describe(ws, g), describe(ws, w))
			}
		}
	}
}

// describe renders findings with what a user sees of them.
func describe(ws *workspace.Workspace, ds []analyzer.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		s := fmt.Sprintf("%d-%d %s %s %s", d.Pos, d.End, d.Severity, d.Rule, d.Message)
		for _, r := range d.Related {
			s += fmt.Sprintf(" [%d-%d %s]", r.Pos, r.End, r.Message)
		}
		out = append(out, s)
	}
	return out
}

// TestIncrementalWorkloadRef: an edit of the Deployment an Argo Rollout's
// workloadRef names changes the findings of the Rollout's HPA, in the
// HPA's own file, although neither the HPA nor the Rollout changed. The
// HPA's tolerance trap (95% with limit = request: g = 1/0.95 = 1.0526 ≤
// 1.1, rules/laws/README.md §1.4) goes when the limit is raised to 1 core
// (g = 2/0.95 = 2.1) and comes back when it is lowered again; each time
// the derived snapshot is linted in part, and publishes what a lint from
// scratch does.
func TestIncrementalWorkloadRef(t *testing.T) {
	rollout := "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: web}\nspec:\n  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: web-base}\n---\n" +
		"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {apiVersion: argoproj.io/v1alpha1, kind: Rollout, name: web}\n  maxReplicas: 10\n" +
		"  metrics:\n  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: 95}}\n"
	deploy := func(limit string) string {
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web-base}\nspec:\n  replicas: 0\n  template:\n    spec:\n      containers:\n" +
			"      - name: web\n        image: web:1\n        resources: {requests: {cpu: 500m}, limits: {cpu: " + limit + "}}\n"
	}
	files := map[string]string{"/ws/a/rollout.yaml": rollout, "/ws/b/deploy.yaml": deploy("500m")}
	s := diskServer(files)
	hpa := "/ws/a/rollout.yaml"
	for i, limit := range []string{"1", "500m"} {
		files["/ws/b/deploy.yaml"] = deploy(limit)
		got, want := relintStep(t, s, files, "/ws/b/deploy.yaml")
		trapped := strings.Contains(protocolJSON(t, want[hpa]), "tolerance-trap")
		if trapped != (limit == "500m") {
			t.Fatalf("edit %d: a full lint finds the trap %v with limit %s", i, trapped, limit)
		}
		if g, w := protocolJSON(t, got[hpa]), protocolJSON(t, want[hpa]); g != w {
			t.Errorf("edit %d (limit %s): %s\nincremental: %s\nfull:        %s", i, limit, hpa, g, w)
		}
		if pub := protocolJSON(t, s.client.(*recorder).last[uri.File(hpa)]); pub != protocolJSON(t, want[hpa]) {
			t.Errorf("edit %d (limit %s): the client holds for %s\n%s", i, limit, hpa, pub)
		}
	}
}

// diskServer is a language server over files held in memory as on disk,
// linted once, for stepping through edits (relintStep).
func diskServer(files map[string]string) *Server {
	s := NewServer(Options{Debounce: -1, Log: io.Discard})
	s.client = &recorder{last: map[uri.URI][]protocol.Diagnostic{}}
	for p := range files {
		setDisk(s, files, p)
	}
	s.mu.Lock()
	snap := s.newSnapshotLocked()
	s.mu.Unlock()
	s.runLint(context.Background(), snap)
	return s
}

func setDisk(s *Server, files map[string]string, p string) {
	s.setDiskLocked(p, s.cache.newHandle(p, uri.File(p), 0, false, []byte(files[p])))
}

// relintStep sets path p's text to files[p] on s's disk, derives the next
// snapshot from the last and lints it; it returns that snapshot's findings
// and those of a server that lints the same texts from scratch. It fails
// the test when the snapshot was not derived incrementally (a test that
// tests nothing).
func relintStep(t *testing.T, s *Server, files map[string]string, p string) (got, want map[string][]protocol.Diagnostic) {
	t.Helper()
	setDisk(s, files, p)
	s.mu.Lock()
	snap := s.newSnapshotLocked()
	s.mu.Unlock()
	got = fileDiagnosticsOf(t, snap)
	if !snap.incremental {
		t.Fatalf("the snapshot after the edit of %s was not derived incrementally: the test tests nothing", p)
	}
	s.runLint(context.Background(), snap)
	fresh := NewServer(Options{Debounce: -1, Log: io.Discard})
	for q := range files {
		setDisk(fresh, files, q)
	}
	fresh.mu.Lock()
	full := fresh.newSnapshotLocked()
	fresh.mu.Unlock()
	return got, fileDiagnosticsOf(t, full)
}

// TestIncrementalProposals: the proposals of a ref's meant workload follow
// edits of other files (rules.ProposalPeers). Renaming a Deployment in
// its own file to "backend" makes the unresolved "bakend" of an HPA in
// another file a typo of it (did you mean), and renaming it away drops
// the proposal; a Deployment named as an HPA in a conflict, scaled by
// none, is proposed to that HPA the same way. Each step, derived
// incrementally, publishes what a full lint of the same texts does.
func TestIncrementalProposals(t *testing.T) {
	hpa := func(name, target string) string { return hpaText(name, target) + "---\n" }
	deploy := func(name string) string { return deploymentText(name) + "---\n" }
	files := map[string]string{
		"/ws/a/hpas.yaml":   hpa("api", "bakend") + hpa("web", "shared") + hpa("worker", "shared"),
		"/ws/a/shared.yaml": deploy("shared"),
		"/ws/a/other.yaml":  deploy("other"),
	}
	s := diskServer(files)
	hpas := "/ws/a/hpas.yaml"
	steps := []struct {
		other string
		want  []string // in the HPAs' findings
	}{
		{"backend", []string{`did you mean Deployment \"backend\"?`}},
		{"worker", []string{`did you mean scaleTargetRef.name \"worker\"?`}},
		{"other", nil},
	}
	for i, step := range steps {
		files["/ws/a/other.yaml"] = deploy(step.other)
		got, want := relintStep(t, s, files, "/ws/a/other.yaml")
		w := protocolJSON(t, want[hpas])
		for _, s := range step.want {
			if !strings.Contains(w, s) {
				t.Fatalf("step %d (Deployment %s): a full lint does not propose %s: %s", i, step.other, s, w)
			}
		}
		if step.want == nil && strings.Contains(w, "did you mean") {
			t.Fatalf("step %d (Deployment %s): a full lint proposes a name: %s", i, step.other, w)
		}
		if g := protocolJSON(t, got[hpas]); g != w {
			t.Errorf("step %d (Deployment %s):\nincremental: %s\nfull:        %s", i, step.other, g, w)
		}
	}
}

// TestIncrementalConflictSeverity: two HPAs in files side by side, on one
// Deployment, conflict as a warning (nothing deploys both: they may be
// alternatives), unless one of them was written for another workload,
// one of its name that no autoscaler scales: then both findings are
// errors, its partner's too. Renaming a Deployment in a third file to the
// second HPA's name, and away again, changes the severity of the first
// HPA's finding, in a file the edit does not touch; each step, derived
// incrementally, publishes what a full lint of the same texts does.
func TestIncrementalConflictSeverity(t *testing.T) {
	files := map[string]string{
		"/ws/a/web-hpa.yaml":    hpaText("web", "web"),
		"/ws/a/worker-hpa.yaml": hpaText("worker", "web"),
		"/ws/a/web.yaml":        deploymentText("web"),
		"/ws/a/other.yaml":      deploymentText("other"),
	}
	s := diskServer(files)
	web := "/ws/a/web-hpa.yaml"
	for i, step := range []struct {
		other string
		want  protocol.DiagnosticSeverity // of web's conflict finding
	}{
		{"worker", protocol.DiagnosticSeverityError},
		{"other", protocol.DiagnosticSeverityWarning},
		{"worker", protocol.DiagnosticSeverityError},
	} {
		files["/ws/a/other.yaml"] = deploymentText(step.other)
		got, want := relintStep(t, s, files, "/ws/a/other.yaml")
		var sev []protocol.DiagnosticSeverity
		for _, d := range want[web] {
			if d.Code == protocol.String("conflicting-autoscalers") {
				sev = append(sev, d.Severity)
			}
		}
		if len(sev) != 1 || sev[0] != step.want {
			t.Fatalf("step %d (Deployment %s): a full lint gives web's conflict the severities %v, want [%v]", i, step.other, sev, step.want)
		}
		if g, w := protocolJSON(t, got[web]), protocolJSON(t, want[web]); g != w {
			t.Errorf("step %d (Deployment %s):\nincremental: %s\nfull:        %s", i, step.other, g, w)
		}
	}
}

// hpaText is an HPA named name that scales Deployment target.
func hpaText(name, target string) string {
	return "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: " + name + "}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: " + target + "}\n  maxReplicas: 3\n"
}

// deploymentText is a Deployment named name whose container requests CPU.
func deploymentText(name string) string {
	return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " + name + "}\nspec:\n  template:\n    spec:\n      containers:\n      - {name: app, image: app:1, resources: {requests: {cpu: 100m}}}\n"
}
