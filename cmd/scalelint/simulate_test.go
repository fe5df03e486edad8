package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/simulation"
	"github.com/scalelint/scalelint/rules/format"
)

// The tests in this file run `scalelint simulate` in process on manifests
// and check the predictions of Yuriy Polyulya's "The Delay a Window
// Demands" (11 October 2026; its falsification criteria and its deployed
// loop, rules/laws/README.md §2 and §6) through the command: the numbers
// come from the manifest and its annotations.

// simKit is the post's cluster kit as a KEDA ScaledObject: demand 50 -> 200
// msg/s (scalelint.dev/demand 200, the default 4x step), 10 msg/s per pod,
// a 90 s dead time, KEDA's default ceiling of 100. extra is inserted in
// spec; lag is the lagThreshold line ("" for KEDA's default of 10).
func simKit(extra, lag string) string {
	return `apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: orders-consumer
  annotations:
    scalelint.dev/dead-time: 90s
    scalelint.dev/pod-rate: "10"
    scalelint.dev/demand: "200"
spec:
  scaleTargetRef:
    name: orders-consumer
` + extra + `  triggers:
  - type: kafka
    metadata:
      topic: orders
` + lag
}

// simWindow is a KEDA behavior setting only the scale-down window.
func simWindow(seconds string) string {
	return `  advanced:
    horizontalPodAutoscalerConfig:
      behavior:
        scaleDown:
          stabilizationWindowSeconds: ` + seconds + "\n"
}

// simSpecimen is the post's deployed model: need 200 pods (2,000 msg/s at
// 10 msg/s per pod), ceiling 2,000, dead time 90 s, no behavior.
const simSpecimen = `apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: specimen
  annotations:
    scalelint.dev/dead-time: 90s
    scalelint.dev/pod-rate: "10"
    scalelint.dev/demand: "2000"
spec:
  scaleTargetRef:
    name: specimen
  maxReplicaCount: 2000
  triggers:
  - type: kafka
    metadata:
      topic: orders
      lagThreshold: "10"
`

type simCall struct {
	code           int
	stdout, stderr string
	dir            string
}

// simRunIn writes files into a temporary directory and runs `scalelint
// simulate args...` there, with an empty configuration.
func simRunIn(t *testing.T, files map[string]string, args ...string) simCall {
	t.Helper()
	dir := t.TempDir()
	if _, ok := files[".scalelint.yaml"]; !ok {
		files[".scalelint.yaml"] = "rules: {}\n"
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	full := []string{"--config", filepath.Join(dir, ".scalelint.yaml")}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && strings.HasSuffix(a, ".yaml") {
			a = filepath.Join(dir, a)
		}
		full = append(full, a)
	}
	var out, errb bytes.Buffer
	code := simulateCmd(full, strings.NewReader(""), &out, &errb)
	return simCall{code: code, stdout: out.String(), stderr: errb.String(), dir: dir}
}

// simJSONOf runs the command with --format json and decodes its output.
func simJSONOf(t *testing.T, files map[string]string, args ...string) simulation.JSON {
	t.Helper()
	c := simRunIn(t, files, append([]string{"--format", "json"}, args...)...)
	if c.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", c.code, c.stderr)
	}
	var out simulation.JSON
	if err := json.Unmarshal([]byte(c.stdout), &out); err != nil {
		t.Fatalf("%v\n%s", err, c.stdout)
	}
	return out
}

// TestSimulateFalsificationCriteria reproduces the post's criteria F1-F3
// at the kit's size through the command. Band edges get the slack the
// rules/simulate tests give them (the post's model stepped in whole
// seconds); verdicts are exact.
func TestSimulateFalsificationCriteria(t *testing.T) {
	lag600 := "      lagThreshold: \"600\"\n"
	for _, tc := range []struct {
		name     string
		post     string // the post's sentence
		manifest string
		args     []string
		hunts    bool
		minLo    int
		minHi    int
		maxLo    int
		maxHi    int
		lawRests bool
	}{
		{"F1 D=60s default window", "6 to 35 pods at 60 seconds", simKit("", lag600), nil, true, 4, 9, 30, 40, false},
		{"F1 D=150s default window", "19 to 21 at 150 seconds", simKit("", lag600), []string{"--threshold", "1500"}, false, 18, 20, 20, 23, true},
		{"F2 D=60s behavior window 60s", "rests with a 60-second window, between 19 and 22 pods", simKit(simWindow("60"), lag600), nil, false, 18, 20, 20, 23, true},
		{"F2 D=60s --window 60s (legacy)", "rests with a 60-second window", simKit("", lag600), []string{"--window", "60s"}, false, 18, 20, 20, 23, true},
		{"F2 D=60s behavior window 300s", "hunts with a 300-second window, between 6 and 35", simKit(simWindow("300"), lag600), nil, true, 4, 9, 30, 40, false},
		{"F3 default threshold, default window", "from one pod to the ceiling of 100", simKit("", ""), nil, true, 1, 1, 100, 100, false},
		{"F3 default threshold, behavior window 0", "with and without the window", simKit(simWindow("0"), ""), nil, true, 1, 1, 100, 100, false},
		{"F3 default threshold, --window 0 (legacy)", "with and without the window", simKit("", ""), []string{"--window", "0"}, true, 1, 1, 100, 100, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := simJSONOf(t, map[string]string{"kit.yaml": tc.manifest}, append(tc.args, "kit.yaml")...)
			s := out.LastHour
			if s == nil {
				t.Fatal("no lastHour in the JSON")
			}
			t.Logf("pods %d-%d (p5 %v, p95 %v), mean %v, swing %v, hunts %v; law %vs; the post: %q",
				s.Min, s.Max, s.P5, s.P95, s.Mean, s.Swing, s.Hunts, out.Law.RequiredStandingDelay, tc.post)
			if out.Inputs.DemandFrom != 50 || out.Inputs.DemandTo != 200 || out.Inputs.Need != 20 || out.Inputs.MaxReplicas != 100 || out.Inputs.MinReplicas != 1 {
				t.Errorf("inputs %+v are not the kit's", out.Inputs)
			}
			if s.Hunts != tc.hunts {
				t.Errorf("hunts = %v, the post says %v", s.Hunts, tc.hunts)
			}
			if s.Min < tc.minLo || s.Min > tc.minHi || s.Max < tc.maxLo || s.Max > tc.maxHi {
				t.Errorf("pods %d-%d outside [%d-%d]-[%d-%d]", s.Min, s.Max, tc.minLo, tc.minHi, tc.maxLo, tc.maxHi)
			}
			if out.Law.Rests != tc.lawRests || out.Agrees == nil || *out.Agrees != (tc.lawRests == !tc.hunts) {
				t.Errorf("law rests = %v, agrees = %v", out.Law.Rests, out.Agrees)
			}
		})
	}
}

// TestSimulateFindBoundaryPublished: "At a 90-second dead time the
// deployed boundary is 47 seconds with a one-minute window, 63 seconds with
// two minutes, 86 seconds with five and 98 seconds with ten" ("The Delay a
// Window Demands", Yuriy Polyulya). The post ran the
// controller's default path, so the window is the controller's (--window on
// a ScaledObject without behavior); the behavior path, where a KEDA user
// sets a window, drops the recommendation exactly one window old and lands
// lower at a one-minute window (rules/simulate TestBehaviourPathBoundaries).
func TestSimulateFindBoundaryPublished(t *testing.T) {
	published := map[string]format.Float{"60": 47, "120": 63, "300": 86, "600": 98}
	for _, w := range []string{"60", "120", "300", "600"} {
		t.Run("legacy window "+w+"s", func(t *testing.T) {
			t.Parallel()
			out := simJSONOf(t, map[string]string{"specimen.yaml": simSpecimen}, "--find-boundary", "--window", w, "specimen.yaml")
			b := out.Boundary
			if b == nil || !b.Found {
				t.Fatalf("no boundary: %+v", b)
			}
			t.Logf("deployed %vs (published %vs, %+.1f%%), law %vs, bracket [%v, %v]",
				b.StandingDelay, published[w], 100*(b.StandingDelay/published[w]-1), out.Law.RequiredStandingDelay, b.Lo, b.Hi)
			if math.Abs(float64(b.StandingDelay/published[w]-1)) > 0.08 {
				t.Errorf("boundary %vs is not within 8%% of the published %vs", b.StandingDelay, published[w])
			}
			if out.Inputs.Path != "legacy" || format.Num(float64(out.Inputs.Window), 4) != w || out.Inputs.Need != 200 || out.Inputs.MaxReplicas != 2000 {
				t.Errorf("inputs %+v", out.Inputs)
			}
			if b.Threshold != format.Float(math.Ceil(float64(b.StandingDelay)*10-1e-9)) || b.Lo >= b.StandingDelay || b.Hi < b.StandingDelay {
				t.Errorf("boundary %+v is inconsistent", b)
			}
		})
		t.Run("behavior window "+w+"s", func(t *testing.T) {
			t.Parallel()
			so := strings.Replace(simSpecimen, "  maxReplicaCount: 2000\n", "  maxReplicaCount: 2000\n"+simWindow(w), 1)
			out := simJSONOf(t, map[string]string{"specimen.yaml": so}, "--find-boundary", "specimen.yaml")
			b := out.Boundary
			if b == nil || !b.Found {
				t.Fatalf("no boundary: %+v", b)
			}
			t.Logf("behavior path: deployed %vs (published %vs, %+.1f%%), law %vs", b.StandingDelay, published[w], 100*(b.StandingDelay/published[w]-1), out.Law.RequiredStandingDelay)
			slack := 0.08
			if w == "60" {
				slack = 0.12 // one recommendation fewer in the window
			}
			if math.Abs(float64(b.StandingDelay/published[w]-1)) > slack {
				t.Errorf("boundary %vs is not within %v%% of the published %vs", b.StandingDelay, 100*slack, published[w])
			}
			if out.Inputs.Path != "behavior" {
				t.Errorf("path %q", out.Inputs.Path)
			}
		})
	}
}

// TestSimulateHPAExternal: an HPA External AverageValue metric marked as a
// backlog, the dead time on its target, the pod rate from the configured
// defaults; the law's prediction is rules.Evaluate's.
func TestSimulateHPAExternal(t *testing.T) {
	files := map[string]string{
		".scalelint.yaml": "defaults:\n  pod-rate: \"10\"\n",
		"app.yaml": `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: worker
  annotations:
    scalelint.dev/signal: backlog
    scalelint.dev/demand: "200"
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: worker}
  minReplicas: 2
  maxReplicas: 50
  behavior:
    scaleUp:
      policies:
      - {type: Pods, value: 2, periodSeconds: 60}
    scaleDown:
      stabilizationWindowSeconds: 120
  metrics:
  - type: External
    external:
      metric: {name: queue_depth}
      target: {type: AverageValue, averageValue: "1200"}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: worker
  annotations:
    scalelint.dev/dead-time: 1m
spec:
  template:
    spec:
      containers:
      - name: w
        image: w
`,
	}
	out := simJSONOf(t, files, "app.yaml")
	in := out.Inputs
	if in.DeadTime != 60 || in.PodRate != 10 || in.Threshold != 1200 || in.StandingDelay != 120 || in.MinReplicas != 2 ||
		in.MaxReplicas != 50 || in.Path != "behavior" || in.Window != 120 {
		t.Errorf("inputs %+v", in)
	}
	for k, want := range map[string]string{"deadTime": "target annotation", "podRate": "configured default",
		"threshold": "averageValue", "window": "stabilizationWindowSeconds", "demandTo": "autoscaler annotation"} {
		if !strings.HasPrefix(out.Sources[k], want) {
			t.Errorf("source of %s = %q, want %q...", k, out.Sources[k], want)
		}
	}
	if out.Autoscaler.Kind != "HorizontalPodAutoscaler" || out.Autoscaler.Name != "worker" || out.Autoscaler.Line != 1 || out.Metric.Type != "External" {
		t.Errorf("autoscaler %+v, metric %+v", out.Autoscaler, out.Metric)
	}
	// τ = 60, W = 120, s = 10: τ_eff = 70, w = 130/70.
	if out.Law.DeadTimeEff != 70 || out.Law.WindowEff != 130 || math.Abs(float64(out.Law.W)-130.0/70) > 1e-5 || !out.Law.Rests {
		t.Errorf("law %+v", out.Law)
	}
	if out.LastHour == nil || out.LastHour.Hunts || out.Agrees == nil || !*out.Agrees {
		t.Errorf("last hour %+v, agrees %v", out.LastHour, out.Agrees)
	}
	// A flag moves the law with the simulation.
	out = simJSONOf(t, files, "--window", "600s", "--dead-time", "90s", "--threshold", "10", "app.yaml")
	if out.Law.DeadTimeEff != 100 || out.Law.WindowEff != 610 || out.Law.Rests || out.Sources["window"] != "flag --window" {
		t.Errorf("law %+v, sources %v", out.Law, out.Sources)
	}
	if out.LastHour == nil || !out.LastHour.Hunts {
		t.Errorf("last hour %+v", out.LastHour)
	}
}

func TestSimulateErrors(t *testing.T) {
	kit := simKit("", "      lagThreshold: \"600\"\n")
	noDemand := strings.Replace(kit, "    scalelint.dev/demand: \"200\"\n", "", 1)
	cpu := `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 10
`
	other := strings.Replace(kit, "name: orders-consumer\n  annotations", "name: payments\n  annotations", 1)
	for _, tc := range []struct {
		name  string
		files map[string]string
		args  []string
		want  []string // substrings of stderr
	}{
		{"no demand", map[string]string{"kit.yaml": noDemand}, []string{"kit.yaml"},
			[]string{"kit.yaml:1", "scalelint.dev/demand", "--to"}},
		{"no demand, --from alone", map[string]string{"kit.yaml": noDemand}, []string{"--from", "50", "kit.yaml"},
			[]string{"scalelint.dev/demand"}},
		{"no pod rate", map[string]string{"kit.yaml": strings.Replace(kit, "    scalelint.dev/pod-rate: \"10\"\n", "", 1)}, []string{"kit.yaml"},
			[]string{"kit.yaml:1", "scalelint.dev/pod-rate", "--pod-rate"}},
		{"ambiguous", map[string]string{"a.yaml": kit, "b.yaml": other}, []string{"a.yaml", "b.yaml"},
			[]string{"--object", "orders-consumer (", "a.yaml:1", "payments (", "b.yaml:1"}},
		{"object without a backlog", map[string]string{"a.yaml": kit, "web.yaml": cpu}, []string{"--object", "web", "a.yaml", "web.yaml"},
			[]string{"HorizontalPodAutoscaler web (", "web.yaml:1", "no backlog signal"}},
		{"unknown object", map[string]string{"a.yaml": kit}, []string{"--object", "nope", "a.yaml"},
			[]string{"--object nope", "orders-consumer"}},
		{"no backlog autoscaler", map[string]string{"web.yaml": cpu}, []string{"web.yaml"},
			[]string{"no autoscaler with a backlog signal", "web.yaml:1"}},
		{"bad format", map[string]string{"a.yaml": kit}, []string{"--format", "png", "a.yaml"}, []string{"--format"}},
		{"boundary as svg", map[string]string{"a.yaml": kit}, []string{"--find-boundary", "--format", "svg", "a.yaml"}, []string{"--find-boundary"}},
		{"bad dead time", map[string]string{"a.yaml": kit}, []string{"--dead-time", "soon", "a.yaml"}, []string{"--dead-time"}},
		{"short run", map[string]string{"a.yaml": kit}, []string{"--hours", "0.5", "a.yaml"}, []string{"--hours"}},
		{"fractional window", map[string]string{"a.yaml": kit}, []string{"--window", "30.5", "a.yaml"}, []string{"--window"}},
		{"missing file", map[string]string{}, []string{"missing.yaml"}, []string{"missing.yaml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := simRunIn(t, tc.files, tc.args...)
			if c.code != exitError {
				t.Errorf("exit %d, want %d", c.code, exitError)
			}
			for _, w := range tc.want {
				if !strings.Contains(c.stderr, w) {
					t.Errorf("stderr does not name %q:\n%s", w, c.stderr)
				}
			}
			if c.stdout != "" {
				t.Errorf("stdout on error: %s", c.stdout)
			}
		})
	}
}

func TestSimulateOutputs(t *testing.T) {
	t.Parallel()
	files := map[string]string{"kit.yaml": simKit("", "      lagThreshold: \"600\"\n")}
	text := simRunIn(t, files, "kit.yaml")
	if text.code != exitOK {
		t.Fatalf("exit %d: %s", text.code, text.stderr)
	}
	for _, want := range []string{"standing delay 60s", "pods min ", "hunts", "100s × Φ(3.1)", "89.5s", "the simulation agrees", "0 to 35:"} {
		if !strings.Contains(text.stdout, want) {
			t.Errorf("text lacks %q:\n%s", want, text.stdout)
		}
	}
	lines := strings.Split(strings.TrimSpace(text.stdout), "\n")
	var spark string
	for i, l := range lines {
		if strings.HasPrefix(l, "pods, last hour") && i+1 < len(lines) {
			spark = strings.TrimSpace(lines[i+1])
		}
	}
	if n := utf8.RuneCountInString(spark); n != 60 {
		t.Errorf("sparkline of %d columns, want 60: %q", n, spark)
	}
	// A resting loop draws flat from zero.
	rest := simRunIn(t, files, "--threshold", "1500", "kit.yaml")
	for _, l := range strings.Split(rest.stdout, "\n") {
		if strings.HasPrefix(l, "  ▁") || strings.ContainsAny(l, "▁▂▃▄") {
			t.Errorf("a resting loop's sparkline dips: %q", l)
		}
	}

	csv := simRunIn(t, files, "--format", "csv", "--hours", "1", "kit.yaml")
	if !strings.HasPrefix(csv.stdout, "t_s,pods,consuming,backlog,desired\n") || strings.Count(csv.stdout, "\n") < 700 {
		t.Errorf("csv: %.200s", csv.stdout)
	}
	svg := simRunIn(t, files, "--format", "svg", "kit.yaml")
	if !strings.Contains(svg.stdout, "<svg") || !strings.Contains(svg.stdout, "legacy normaliser, window 5m0s") {
		t.Errorf("svg: %.400s", svg.stdout)
	}
	zero := simRunIn(t, files, "--format", "svg", "--window", "0", "kit.yaml")
	if !strings.Contains(zero.stdout, "legacy normaliser, window 0s") {
		t.Errorf("svg title of a legacy path without a window: %.400s", zero.stdout)
	}
}

func TestSimulateOutputFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	kit := filepath.Join(dir, "kit.yaml")
	if err := os.WriteFile(kit, []byte(simKit("", "      lagThreshold: \"600\"\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "out", "kit.json")
	must(t, os.MkdirAll(filepath.Dir(target), 0o755))
	must(t, os.WriteFile(target, []byte("old"), 0o644))
	var stdout, stderr bytes.Buffer
	if code := simulateCmd([]string{"--format", "json", "--output", target, kit}, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout: %s", stdout.String())
	}
	data, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	var v simulation.JSON
	if err := json.Unmarshal(data, &v); err != nil || v.LastHour == nil || !v.LastHour.Hunts {
		t.Errorf("written JSON %v: %s", err, data)
	}
	if entries, _ := os.ReadDir(filepath.Dir(target)); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	// A new file is readable as any file the user creates, as every
	// command writes it (output.WriteFile): 0644, and an existing file
	// keeps its mode.
	fresh := filepath.Join(dir, "out", "new.json")
	if code := simulateCmd([]string{"--format", "json", "--output", fresh, kit}, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for p, want := range map[string]os.FileMode{fresh: 0o644, target: 0o644} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", filepath.Base(p), st.Mode().Perm(), err, want)
		}
	}
	must(t, os.Chmod(target, 0o640))
	if code := simulateCmd([]string{"--format", "json", "--output", target, kit}, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if st, err := os.Stat(target); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("an existing file's mode 0640 became %v (%v)", st.Mode().Perm(), err)
	}
	// A directory that does not exist is an error naming --output.
	stderr.Reset()
	if code := simulateCmd([]string{"--output", filepath.Join(dir, "no", "such", "x.txt"), kit}, nil, &stdout, &stderr); code != exitError ||
		!strings.Contains(stderr.String(), "--output") {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
}

func TestSimulateStdinAndNoise(t *testing.T) {
	t.Parallel()
	kit := simKit("", "      lagThreshold: \"1000\"\n")
	run := func(args ...string) simulation.JSON {
		var stdout, stderr bytes.Buffer
		code := simulateCmd(append([]string{"--format", "json"}, append(args, "-")...), strings.NewReader(kit), &stdout, &stderr)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		var v simulation.JSON
		if err := json.Unmarshal(stdout.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	a := run("--noise", "0.1", "--seed", "7", "--hours", "4")
	b := run("--noise", "0.1", "--seed", "7", "--hours", "4")
	c := run("--noise", "0.1", "--seed", "8", "--hours", "4")
	if a.Autoscaler.File != "<stdin>" || a.Inputs.Noise != 0.1 || a.Inputs.Seed != 7 || a.Inputs.Hours != 4 {
		t.Errorf("inputs %+v from %s", a.Inputs, a.Autoscaler.File)
	}
	if *a.LastHour != *b.LastHour {
		t.Errorf("one random seed, two hours: %+v, %+v", a.LastHour, b.LastHour)
	}
	if *a.LastHour == *c.LastHour {
		t.Errorf("two random seeds gave one hour: %+v", a.LastHour)
	}
	d := run("--from", "0", "--to", "300")
	if d.Inputs.DemandFrom != 0 || d.Inputs.DemandTo != 300 || d.Inputs.Need != 30 || d.Sources["demandTo"] != "flag --to" {
		t.Errorf("inputs %+v, sources %v", d.Inputs, d.Sources)
	}
}

// simulateCmd runs `scalelint simulate args...` in process and returns
// its exit status.
func simulateCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(append([]string{"simulate"}, args...), stdin, stdout, stderr)
}
