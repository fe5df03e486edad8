package lsp

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// bigManifest returns a manifest of about lines lines: Deployments and
// the KEDA ScaledObjects that scale them, in one file.
func bigManifest(lines int) (string, int) {
	var b strings.Builder
	n := 0
	for i := 0; strings.Count(b.String(), "\n") < lines-45; i++ {
		fmt.Fprintf(&b, `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: consumer-%03d
  labels: {app: consumer-%03d, team: payments}
spec:
  replicas: 2
  selector:
    matchLabels: {app: consumer-%03d}
  template:
    metadata:
      labels: {app: consumer-%03d}
    spec:
      containers:
      - name: app
        image: example/consumer:1.%d
        ports:
        - containerPort: 8080
        resources:
          requests: {cpu: 500m, memory: 256Mi}
          limits: {cpu: "1", memory: 256Mi}
---
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: consumer-%03d
  annotations:
    scalelint.dev/dead-time: "90s"
    scalelint.dev/pod-rate: "10"
spec:
  scaleTargetRef:
    name: consumer-%03d
  minReplicaCount: 1
  maxReplicaCount: 40
  triggers:
  - type: kafka
    metadata:
      topic: orders-%03d
      bootstrapServers: kafka:9092
      consumerGroup: consumer-%03d
      lagThreshold: "%d"
`, i, i, i, i, i, i, i, i, i, 1000+i)
		n++
	}
	return b.String(), n
}

// percentile returns the p-th percentile of sorted durations, in ms.
func percentile(d []time.Duration, p float64) float64 {
	if len(d) == 0 {
		return 0
	}
	i := int(float64(len(d)-1) * p)
	return float64(d[i]) / float64(time.Millisecond)
}

// BenchmarkDidChangeLatency measures, over a 2,000-line manifest, the time
// from sending a didChange (version v) to receiving the publishDiagnostics
// of version v, through the real handler chain over a pipe, with no
// debounce. Each edit changes a real field (a lagThreshold, alternately
// below and above its floor, so the diagnostics change). After 20
// warm-up edits it runs b.N measured edits (use -benchtime=220x or more)
// and reports p50/p90/p99/max in milliseconds.
func BenchmarkDidChangeLatency(b *testing.B) {
	text, services := bigManifest(2000)
	dir := b.TempDir()
	path := filepath.Join(dir, "services.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	c := newClient(b, Options{Debounce: -1})
	c.initialize(dir, "")
	u := c.open("services.yaml", "")
	c.waitVersion(u, 1)
	edit := func(i int) time.Duration {
		svc := i % services
		old := fmt.Sprintf("consumer-%03d\n      lagThreshold: \"", svc)
		at := strings.Index(c.texts[u], old) + len(old)
		end := at + strings.IndexByte(c.texts[u][at:], '"')
		value := "5" // hunts
		if i%2 == 1 {
			value = fmt.Sprintf("%d", 2000+i) // rests
		}
		m := NewMapper([]byte(c.texts[u]))
		start := time.Now()
		v := c.change(u, []protocol.TextEdit{{Range: m.Range(at, end), NewText: value}})
		p := c.waitVersion(u, v)
		return p.At.Sub(start)
	}
	for i := 0; i < 20; i++ {
		edit(i)
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lat = append(lat, edit(20+i))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(percentile(lat, 0.5), "p50-ms")
	b.ReportMetric(percentile(lat, 0.9), "p90-ms")
	b.ReportMetric(percentile(lat, 0.99), "p99-ms")
	b.ReportMetric(percentile(lat, 1), "max-ms")
	b.ReportMetric(float64(strings.Count(text, "\n")), "lines")
}

// benchCorpus, when set, is a corpus gen_corpus.py generated that the
// corpus benchmarks read instead of generating 1,000 services: e.g.
// -bench-corpus=/tmp/corpus-10000 for the edits of a 10,000-service
// workspace.
var benchCorpus = flag.String("bench-corpus", "", "a generated corpus directory the corpus benchmarks read (default: 1,000 services generated)")

// corpusDir generates the benchmark corpus of n services once per run,
// with the repository's copy of the deterministic generator
// (testdata/bench/gen_corpus.py), or returns -bench-corpus.
func corpusDir(b *testing.B, n int) string {
	if *benchCorpus != "" {
		return *benchCorpus
	}
	gen := filepath.Join("..", "testdata", "bench", "gen_corpus.py")
	dir := filepath.Join(b.TempDir(), "corpus")
	out, err := exec.Command("python3", gen, dir, fmt.Sprint(n)).CombinedOutput()
	if err != nil {
		b.Fatalf("gen_corpus.py: %v\n%s", err, out)
	}
	return dir
}

// firstScaledObject returns the first scaledobject.yaml under dir, in
// lexical order.
func firstScaledObject(dir string) string {
	var open string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if open == "" && err == nil && strings.HasSuffix(p, "scaledobject.yaml") {
			open = p
		}
		return nil
	})
	return open
}

// BenchmarkInitializeCorpus measures, on the generated workspace of 1,000
// services, the time from sending initialize to the first
// publishDiagnostics (the server indexes the folder, lints every file and
// publishes what it found), and to the diagnostics of a document opened
// right after initialize.
func BenchmarkInitializeCorpus(b *testing.B) {
	dir := corpusDir(b, 1000)
	open := firstScaledObject(dir)
	var first, opened, edits []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c := newClient(b, Options{})
		b.StartTimer()
		start := time.Now()
		c.initialize(dir, "")
		u := c.open(open, "")
		c.waitUntil("a first publication", func() bool { return len(c.pubs) > 0 })
		c.mu.Lock()
		firstAt := c.pubs[0].At
		c.mu.Unlock()
		p := c.waitFor(u, "the opened document", func(p publication) bool { return p.HasVersion })
		first = append(first, firstAt.Sub(start))
		opened = append(opened, p.At.Sub(start))
		b.StopTimer()
		if i == 0 {
			b.ReportMetric(float64(c.srv.current().files.len()), "files")
			// Edits in this workspace: each lint derives from the one
			// before (incremental.go).
			for j := 0; j < 30; j++ {
				text := c.texts[u]
				at := strings.Index(text, "maxReplicaCount: ") + len("maxReplicaCount: ")
				end := at + strings.IndexByte(text[at:], '\n')
				m := NewMapper([]byte(text))
				t0 := time.Now()
				v := c.change(u, []protocol.TextEdit{{Range: m.Range(at, end), NewText: fmt.Sprint(20 + j)}})
				edits = append(edits, c.waitVersion(u, v).At.Sub(t0))
			}
		}
		b.StartTimer()
	}
	sort.Slice(first, func(i, j int) bool { return first[i] < first[j] })
	sort.Slice(opened, func(i, j int) bool { return opened[i] < opened[j] })
	b.ReportMetric(percentile(first, 0.5), "first-diag-ms")
	b.ReportMetric(percentile(opened, 0.5), "open-diag-ms")
	sort.Slice(edits, func(i, j int) bool { return edits[i] < edits[j] })
	b.ReportMetric(percentile(edits, 0.5), "edit-p50-ms")
	b.ReportMetric(percentile(edits, 1), "edit-max-ms")
}

// BenchmarkEditLatencyCorpus measures edit-to-diagnostics latency in the
// generated workspace of 1,000 services (about 3,400 files), with no
// debounce: the time from sending a change to an open ScaledObject (its
// maxReplicaCount, which the ceiling laws read) to receiving its
// diagnostics, over b.N edits. Each lint derives the index from the
// previous snapshot's and lints again only the files the edit can reach
// (incremental.go). Run with -benchtime=300x or more for a meaningful p99.
func BenchmarkEditLatencyCorpus(b *testing.B) {
	b.ReportAllocs() // the whole process: server and client
	dir := corpusDir(b, 1000)
	open := firstScaledObject(dir)
	c := newClient(b, Options{Debounce: -1})
	c.initialize(dir, "")
	u := c.open(open, "")
	c.waitFor(u, "the opened document", func(p publication) bool { return p.HasVersion })
	edit := func(i int) time.Duration {
		text := c.texts[u]
		at := strings.Index(text, "maxReplicaCount: ") + len("maxReplicaCount: ")
		end := at + strings.IndexByte(text[at:], '\n')
		m := NewMapper([]byte(text))
		start := time.Now()
		v := c.change(u, []protocol.TextEdit{{Range: m.Range(at, end), NewText: fmt.Sprint(10 + i%40)}})
		return c.waitVersion(u, v).At.Sub(start)
	}
	for i := 0; i < 10; i++ {
		edit(i)
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lat = append(lat, edit(i))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(percentile(lat, 0.5), "p50-ms")
	b.ReportMetric(percentile(lat, 0.9), "p90-ms")
	b.ReportMetric(percentile(lat, 0.99), "p99-ms")
	b.ReportMetric(float64(c.srv.current().files.len()), "files")
}

// benchChart returns a chart of n templates (n/2 Deployments, each with
// an HPA whose CPU target comes from values.yaml, CPU limit = request)
// and a ci/ value set: what a chart template edit renders and lints.
func benchChart(n int) map[string]string {
	files := map[string]string{"chart/Chart.yaml": "apiVersion: v2\nname: bench\nversion: 0.1.0\n"}
	values := "services:\n"
	for i := 0; i < n/2; i++ {
		values += fmt.Sprintf("  svc%d: {cpu: 500m, target: 70, max: 10}\n", i)
		files[fmt.Sprintf("chart/templates/deploy%d.yaml", i)] = fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-svc%[1]d
spec:
  selector:
    matchLabels: {app: svc%[1]d}
  template:
    metadata:
      labels: {app: svc%[1]d}
    spec:
      containers:
      - name: app
        image: nginx
        resources:
          requests: {cpu: {{ .Values.services.svc%[1]d.cpu }}}
          limits: {cpu: {{ .Values.services.svc%[1]d.cpu }}}
`, i)
		files[fmt.Sprintf("chart/templates/hpa%d.yaml", i)] = fmt.Sprintf(`{{- with .Values.services.svc%[1]d }}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ $.Release.Name }}-svc%[1]d
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: {{ $.Release.Name }}-svc%[1]d}
  maxReplicas: {{ .max }}
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: {{ .target }}
{{- end }}
`, i)
	}
	files["chart/values.yaml"] = values
	files["chart/ci/prod-values.yaml"] = "services:\n  svc0: {max: 20}\n"
	return files
}

// BenchmarkChartTemplateEditLatency measures, on a chart of 20 templates
// with two value sets, the time from a didChange of a template (version
// v) to the publishDiagnostics of version v: the chart rendered with both
// value sets, each linted, the findings mapped back. Each edit writes the
// HPA's target as a literal 95 (the tolerance trap, a finding) or back as
// {{ .target }} (70, none), so the diagnostics change every time. After
// 20 warm-up edits it runs b.N measured edits (-benchtime=220x or more)
// and reports p50/p90/p99/max in milliseconds.
func BenchmarkChartTemplateEditLatency(b *testing.B) {
	dir := writeTree(b, b.TempDir(), benchChart(20))
	c := newClient(b, Options{Debounce: -1})
	c.initialize(dir, "")
	u := c.open("chart/templates/hpa3.yaml", "")
	c.waitVersion(u, 1)
	edit := func(i int) time.Duration {
		old, value := "{{ .target }}", "95"
		if i%2 == 1 {
			old, value = "95", "{{ .target }}"
		}
		start := time.Now()
		v := c.edit(u, "averageUtilization: "+old, "averageUtilization: "+value)
		p := c.waitVersion(u, v)
		if got := p.has("tolerance-trap"); got != (i%2 == 0) {
			b.Fatalf("edit %d: %v", i, p.rules())
		}
		return p.At.Sub(start)
	}
	for i := 0; i < 20; i++ {
		edit(i)
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lat = append(lat, edit(20+i))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(percentile(lat, 0.5), "p50-ms")
	b.ReportMetric(percentile(lat, 0.9), "p90-ms")
	b.ReportMetric(percentile(lat, 0.99), "p99-ms")
	b.ReportMetric(percentile(lat, 1), "max-ms")
}
