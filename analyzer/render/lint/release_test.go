package lint

import (
	"context"
	"go/token"
	"hash/fnv"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
)

// TestReleaseSameAnswers: a one-shot run's Release (units' trees and the
// locators' parses dropped once located) changes no answer: the findings
// located, the objects counted, the autoscalers placed, and a place asked
// for after the release (the audit's, parsed again) are those of a run
// that keeps everything, and so are the run's inputs and the files it
// renders, though a released chart keeps the bytes of only the files a
// finding may name. The trees are a kustomize overlay tree and a
// chart with value sets and an autoscaling variant.
func TestReleaseSameAnswers(t *testing.T) {
	paths, errs := workspace.Walk([]string{"../../../testdata/kustomize/hpa", "../../../testdata/charts/podinfo"}, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	plan := Discover(paths)
	if len(plan.Charts) == 0 || len(plan.Kustomizations) == 0 {
		t.Fatalf("plan %+v: want charts and kustomizations", plan)
	}
	type answers struct {
		located   [][]located
		objects   int
		places    [][2]token.Pos
		afterward [][2]token.Pos
		read      []string // the run's inputs
		rendered  map[string]workspace.Rendering
	}
	run := func(release bool) answers {
		r := Render(context.Background(), plan, Options{Analyzers: rules.All(), Release: release})
		r.SetPositions(hashedPositions)
		a := answers{read: r.Read(), rendered: map[string]workspace.Rendering{}}
		r.EachRendered(func(p string, how workspace.Rendering) { a.rendered[p] = how })
		{
			// The chart's README is among the inputs, but its bytes,
			// which no finding names, are not kept (chart.Release).
			readme := filepath.Clean("../../../testdata/charts/podinfo/README.md")
			if !slices.Contains(a.read, readme) {
				t.Errorf("%s is not among the inputs %v", readme, a.read)
			}
			if _, kept := r.sources[readme]; kept {
				t.Errorf("the bytes of %s are kept", readme)
			}
		}
		for _, u := range r.Units {
			a.located = append(a.located, u.located)
		}
		a.objects = r.Objects()
		for _, as := range r.Autoscalers() {
			a.places = append(a.places, [2]token.Pos{as.Pos, as.End})
			// A place not located before the release: its scale
			// target reference (the audit asks for such places).
			f := as.Autoscaler.Object.KindAt
			if ref := as.Autoscaler.Target.NameAt; ref.IsValid() {
				f = ref
			}
			p, e, _ := r.Place(as.Unit, f.Pos, f.End)
			a.afterward = append(a.afterward, [2]token.Pos{p, e})
		}
		return a
	}
	kept, released := run(false), run(true)
	if len(kept.located) == 0 || len(kept.places) == 0 {
		t.Fatalf("nothing rendered: %+v", kept)
	}
	if !reflect.DeepEqual(kept, released) {
		t.Errorf("with Release:\n%+v\nwithout:\n%+v", released, kept)
	}
}

// hashedPositions are positions that only say which file and offset:
// enough to compare and to tell places apart.
func hashedPositions(path string, off int) (token.Pos, bool) {
	h := fnv.New32a()
	h.Write([]byte(path))
	return token.Pos(int(h.Sum32()%1000)*1_000_000 + off + 1), true
}

// severalCharts returns the plan of the paths walked, which must hold
// several charts.
func severalCharts(t *testing.T, roots ...string) Plan {
	t.Helper()
	paths, errs := workspace.Walk(roots, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	plan := Discover(paths)
	if len(plan.Charts) < 2 {
		t.Fatalf("plan %+v: want several charts", plan)
	}
	return plan
}

// countInFlight counts the renders through the inFlight hook until the
// test ends; the function returned says the most in flight at once and
// how many started.
func countInFlight(t *testing.T) func() (most, total int) {
	var mu sync.Mutex
	now, most, total := 0, 0, 0
	inFlight = func(delta int) {
		mu.Lock()
		defer mu.Unlock()
		now += delta
		if delta > 0 {
			total++
		}
		most = max(most, now)
	}
	t.Cleanup(func() { inFlight = nil })
	return func() (int, int) {
		mu.Lock()
		defer mu.Unlock()
		return most, total
	}
}

// TestRendersInFlight: the charts render in parallel and so do each
// chart's value sets, but no more renders are in flight at once than
// there are processors (Options.renders); before, each chart of a run
// rendered as many of its value sets at once as there are processors.
func TestRendersInFlight(t *testing.T) {
	plan := severalCharts(t, "../../../testdata/charts", "../../../testdata/kustomize/hpa")
	procs := runtime.GOMAXPROCS(0)
	counts := countInFlight(t)
	r := Render(context.Background(), plan, Options{Analyzers: rules.All(), Release: true})
	most, total := counts()
	if total < 2*procs || len(r.Units) == 0 {
		t.Fatalf("%d renders, %d units: too few to tell", total, len(r.Units))
	}
	if most > procs {
		t.Errorf("%d renders in flight at once, more than the %d processors", most, procs)
	}
}

// TestPassBoundsRenders: Render calls made apart but sharing a Pass (the
// language server renders each chart on its own) keep to one bound on the
// renders in flight, as one Render's charts do: without the Pass, each
// call had a bound of its own, and as many calls as processors rendered
// processors² at once.
func TestPassBoundsRenders(t *testing.T) {
	plan := severalCharts(t, "../../../testdata/charts")
	procs := runtime.GOMAXPROCS(0)
	counts := countInFlight(t)
	pass := NewPass()
	var wg sync.WaitGroup
	for i := 0; i < 2*procs; i++ { // every chart, rendered by calls of their own
		wg.Add(1)
		go func() {
			defer wg.Done()
			dir := plan.Charts[i%len(plan.Charts)]
			Render(context.Background(), Plan{Charts: []string{dir}, Sources: plan.Sources}, Options{Analyzers: rules.All(), Pass: pass})
		}()
	}
	wg.Wait()
	most, total := counts()
	if total < 2*procs {
		t.Fatalf("%d renders: too few to tell", total)
	}
	if most > procs {
		t.Errorf("%d renders in flight at once, more than the %d processors", most, procs)
	}
}

// TestObjectsCountEveryKind: a chart whose templates render four objects
// (a Deployment, its HPA, a Service, a LimitRange), with two value sets,
// counts four, whether or not a rule asked to parse the LimitRange
// (missing-cpu-request does) and though no rule parses the Service: a
// document the parser skipped counts by its sniffed kind, once per
// template and place, as report.ObjectCount counts plain files.
func TestObjectsCountEveryKind(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"Chart.yaml":              "apiVersion: v2\nname: web\nversion: 0.1.0\n",
		"values.yaml":             "max: 5\n",
		"ci/large-values.yaml":    "max: 9\n",
		"templates/workload.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - name: web\n        image: web\n        resources: {requests: {cpu: 100m}}\n---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 2\n  maxReplicas: {{ .Values.max }}\n  metrics:\n  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}\n",
		"templates/service.yaml":  "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{port: 80}]\n",
		"templates/limits.yaml":   "apiVersion: v1\nkind: LimitRange\nmetadata: {name: web}\nspec:\n  limits:\n  - type: Container\n    defaultRequest: {cpu: 100m}\n",
	}
	rendertest.WriteTree(t, dir, files)
	paths, errs := workspace.Walk([]string{dir}, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	plan := Discover(paths)
	var without []*analyzer.Analyzer
	for _, a := range rules.All() {
		if len(a.Kinds) == 0 {
			without = append(without, a)
		}
	}
	for _, as := range [][]*analyzer.Analyzer{rules.All(), without} {
		r := Render(context.Background(), plan, Options{Analyzers: as})
		r.SetPositions(hashedPositions)
		if len(r.Units) != 2 {
			t.Fatalf("%d units, want the two value sets'", len(r.Units))
		}
		if n := r.Objects(); n != 4 {
			t.Errorf("with %d rules: %d objects, want the 4 the templates render", len(as), n)
		}
	}
}
