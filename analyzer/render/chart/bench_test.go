package chart_test

import (
	"context"
	"fmt"
	"go/token"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/chart"
	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
)

// writeChart writes a chart of n templates: n/2 Deployments, each with
// an HPA whose CPU target comes from values.yaml.
func writeChart(b *testing.B, n int) string {
	dir := b.TempDir()
	w := func(rel, s string) { rendertest.WriteTree(b, dir, map[string]string{rel: s}) }
	w("Chart.yaml", "apiVersion: v2\nname: bench\nversion: 0.1.0\n")
	values := "services:\n"
	for i := 0; i < n/2; i++ {
		values += fmt.Sprintf("  svc%d:\n    cpu: 500m\n    target: 70\n    max: 10\n", i)
		w(fmt.Sprintf("templates/deploy%d.yaml", i), fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-svc%[1]d
  labels:
    app: svc%[1]d
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
          requests:
            cpu: {{ .Values.services.svc%[1]d.cpu }}
`, i))
		w(fmt.Sprintf("templates/hpa%d.yaml", i), fmt.Sprintf(`{{- with .Values.services.svc%[1]d }}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ $.Release.Name }}-svc%[1]d
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: {{ $.Release.Name }}-svc%[1]d}
  minReplicas: 2
  maxReplicas: {{ .max }}
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: {{ .target }}
{{- end }}
`, i))
	}
	w("values.yaml", values)
	return dir
}

// BenchmarkRenderLint20 renders a chart of 20 templates with its defaults,
// parses the output and runs every rule over it: what linting a chart
// costs once it is read (issue goal: under 50 ms).
func BenchmarkRenderLint20(b *testing.B) {
	dir := writeChart(b, 20)
	c, problems := chart.Load(dir, chart.LoadOptions{})
	if c == nil {
		b.Fatal(problems)
	}
	all := rules.All()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, problems := c.Render(context.Background(), chart.ValueSet{Name: chart.DefaultsName}, chart.Options{})
		if out == nil || len(out.Files) != 20 {
			b.Fatal(problems)
		}
		lint(b, out, all)
	}
}

// BenchmarkLoadRenderLint20 includes reading the chart from disk, as a
// first render does.
func BenchmarkLoadRenderLint20(b *testing.B) {
	dir := writeChart(b, 20)
	all := rules.All()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, problems := chart.Load(dir, chart.LoadOptions{})
		if c == nil {
			b.Fatal(problems)
		}
		out, problems := c.Render(context.Background(), chart.ValueSet{Name: chart.DefaultsName}, chart.Options{})
		if out == nil {
			b.Fatal(problems)
		}
		lint(b, out, all)
	}
}

func lint(b *testing.B, out *render.Output, all []*analyzer.Analyzer) {
	fset := token.NewFileSet()
	var files []*manifest.File
	for _, f := range out.Files {
		files = append(files, manifest.Parse(fset, f.Source, f.Text, manifest.Options{}))
	}
	ws := workspace.New(fset, files, workspace.Options{})
	if ws.Autoscalers().Len() != 10 {
		b.Fatalf("%d autoscalers, want 10", ws.Autoscalers().Len())
	}
	analyzer.Run(context.Background(), ws, all, nil)
}
