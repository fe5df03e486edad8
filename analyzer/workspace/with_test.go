package workspace

import (
	"fmt"
	"go/token"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace/chunked"
)

// describeWS renders what rules read of a workspace: its files in order,
// its autoscalers in order with their resolved targets, its objects and
// their workloads, and the file of every file's first position.
func describeWS(ws *Workspace) string {
	var b strings.Builder
	for _, f := range ws.Files().All() {
		fmt.Fprintf(&b, "file %s %p\n", f.Path, f)
		if ws.FileOf(f.Tok.Pos(0)) != f {
			fmt.Fprintf(&b, "  FileOf misses it\n")
		}
	}
	for _, a := range ws.Autoscalers().All() {
		r := ws.Target(a)
		fmt.Fprintf(&b, "autoscaler %p %s -> %p %p %v apart %v other namespaces %v pods %p %p\n", a.Object, a.Object.Doc.File.Path, r.Object, r.Workload, r.Variants, r.Apart, r.OtherNamespace, r.PodsObject, r.Pods)
	}
	objs := map[*manifest.Object]bool{}
	for _, o := range ws.Objects().All() {
		objs[o] = true
	}
	for _, f := range ws.Files().All() {
		for _, d := range f.Docs {
			if d.Parsed() {
				for _, o := range d.Objects() {
					var roots []string
					for _, r := range ws.Roots(o) {
						roots = append(roots, r.String())
					}
					fmt.Fprintf(&b, "object %p indexed %v workload %p roots %v namespaces %v\n", o, objs[o], ws.Workload(o), roots, ws.Namespaces(o))
				}
			}
		}
	}
	fmt.Fprintf(&b, "%d objects\n", ws.Objects().Len())
	// Kept apart by With (counted, and the files by base layered over the
	// base's): what New finds by a pass over everything.
	fmt.Fprintf(&b, "routes to services %v\n", ws.routesToServices())
	// As sets: With appends what a change adds, New lists in file order
	// (no reader depends on the order).
	set := func(objs []*manifest.Object) []string {
		var out []string
		for _, o := range objs {
			out = append(out, fmt.Sprintf("%p", o))
		}
		slices.Sort(out)
		return out
	}
	fmt.Fprintf(&b, "budgets %v\n", set(ws.Budgets()))
	for _, l := range [][2]string{{"app", "web"}, {"app", "api"}, {"team", "t"}} {
		fmt.Fprintf(&b, "pod label %s=%s: %v\n", l[0], l[1], set(ws.WithPodLabel(l[0], l[1])))
	}
	for _, f := range ws.Unreadable() {
		fmt.Fprintf(&b, "unreadable %s %p\n", f.Path, f)
	}
	return b.String()
}

// withDocs are the documents withMatchesNew fills files with; the last
// is a GitOps root.
var withDocs = []string{
	deploy, hpa("web"), hpa("api"),
	"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n  namespace: prod\n",
	"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: api\n  namespace: prod\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}\n",
	"apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata:\n  name: so\nspec:\n  scaleTargetRef: {name: web}\n",
	"apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: lr\n",
	"apiVersion: example.com/v1\nkind: Custom\nmetadata:\n  name: web\n",
	"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: c\nspec:\n  scaleTargetRef: {apiVersion: example.com/v1, kind: Custom, name: web}\n",
	"kind: Deployment\nmetadata:\n\tname: broken\n",
	// A Service is parsed when a route may name it (New and With alike).
	"apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n",
	"apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: web\nspec:\n  http: [{route: [{destination: {host: web}}]}]\n",
	// An Argo Rollout that runs Deployment web's pod template, and its
	// HPA: an edit of web resolves the HPA again (byTemplateRef).
	"apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata:\n  name: ro\nspec:\n  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n",
	"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: ro\nspec:\n  scaleTargetRef: {apiVersion: argoproj.io/v1alpha1, kind: Rollout, name: ro}\n",
	// Pod labels and a disruption budget (WithPodLabel, Budgets).
	"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    metadata: {labels: {app: web, team: t}}\n",
	"apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: api\nspec:\n  template:\n    metadata: {labels: {app: api, team: t}}\n",
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: pdb\nspec:\n  minAvailable: 1\n  selector: {matchLabels: {team: t}}\n",
	// A Flux Kustomization deploys a/ together, in namespace flux.
	"apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\nspec:\n  path: ./a\n  targetNamespace: flux\n",
}

// TestWithMatchesNew replaces files of a workspace at random and checks
// that With gives what New gives from the same parsed files.
func TestWithMatchesNew(t *testing.T) {
	withMatchesNew(t, []string{"a/deploy.yaml", "a/hpa.yaml", "a/sub/x.yaml", "b/y.yaml", "c/d/e/z.yaml"}, withDocs, 50, 40)
}

// TestWithMatchesNewLarge is TestWithMatchesNew over enough paths that
// the workspace's lists span many chunks (chunked.Size), so that With's
// splices cross chunk boundaries, merge and cut chunks.
func TestWithMatchesNewLarge(t *testing.T) {
	var paths []string
	for i := 0; i < 3*chunked.Size; i++ {
		paths = append(paths, fmt.Sprintf("s%03d/%s.yaml", i/3, []string{"deploy", "hpa", "svc"}[i%3]))
	}
	// Without the GitOps root, which makes With build from scratch
	// whenever a path comes or goes: a large workspace holds one at
	// random in nearly every step.
	withMatchesNew(t, paths, withDocs[:len(withDocs)-1], 2, 20)
}

// withMatchesNew replaces files of paths at random, steps times over
// each of several workspaces (one random source each), and compares
// With's workspace with New's.
func withMatchesNew(t *testing.T, paths, docs []string, seeds, steps int) {
	scratch := 0
	defer func() { t.Logf("%d steps built from scratch", scratch) }()
	opts := Options{Kinds: []string{"LimitRange"}}
	for seed := 0; seed < seeds; seed++ {
		r := rand.New(rand.NewSource(int64(seed)))
		fset := token.NewFileSet()
		parse := func(p string) []*manifest.File {
			var out []*manifest.File
			for n := r.Intn(3); n > 0; n-- {
				out = append(out, manifest.Parse(fset, p, []byte(docs[r.Intn(len(docs))]), manifest.Options{Eager: manifest.IsReadKind}))
			}
			return out
		}
		byPath := map[string][]*manifest.File{}
		var all []*manifest.File
		for _, p := range paths {
			byPath[p] = parse(p)
			all = append(all, byPath[p]...)
		}
		ws := New(fset, all, opts)
		for step := 0; step < steps; step++ {
			replace := map[string][]*manifest.File{}
			for n := 1 + r.Intn(2+len(paths)/100); n > 0; n-- {
				// A path, or a run of neighbours (files that come, go
				// or change side by side, across chunks).
				i, run := r.Intn(len(paths)), 1
				if r.Intn(3) == 0 {
					run += r.Intn(6)
				}
				for _, p := range paths[i:min(i+run, len(paths))] {
					replace[p] = parse(p)
					byPath[p] = replace[p]
				}
			}
			next, ok := ws.With(replace)
			if !ok {
				scratch++
			}
			all = all[:0]
			for _, p := range paths {
				all = append(all, byPath[p]...)
			}
			want := New(fset, all, opts)
			if g, w := describeWS(next), describeWS(want); g != w {
				t.Fatalf("seed %d step %d: With\n%s\nNew\n%s", seed, step, g, w)
			}
			ws = next
		}
	}
}

// TestWithSharesKindsCopyOnWrite: a workspace With makes shares the kinds
// its base parsed until one of them parses another kind, which the other
// then has not parsed.
func TestWithSharesKindsCopyOnWrite(t *testing.T) {
	ws := New(token.NewFileSet(), nil, Options{})
	ws.parseKind("Deployment")
	next, _ := ws.With(map[string][]*manifest.File{})
	next.parseKind("StatefulSet")
	ws.parseKind("DaemonSet")
	for _, c := range []struct {
		w     *Workspace
		what  string
		kinds []string
		not   string
	}{
		{ws, "base", []string{"Deployment", "DaemonSet"}, "StatefulSet"},
		{next, "derived", []string{"Deployment", "StatefulSet"}, "DaemonSet"},
	} {
		for _, k := range c.kinds {
			if !c.w.kinds[k] {
				t.Errorf("%s: %s not parsed", c.what, k)
			}
		}
		if c.w.kinds[c.not] {
			t.Errorf("%s: %s parsed by the other workspace shows in this one", c.what, c.not)
		}
	}
}
