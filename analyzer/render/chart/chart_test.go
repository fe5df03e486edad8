package chart

import (
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
)

const chartsDir = "../../../testdata/charts"

func load(t *testing.T, name string) *Chart {
	t.Helper()
	c, problems := Load(filepath.Join(chartsDir, name), LoadOptions{})
	if c == nil {
		t.Fatalf("Load(%s): %v", name, problems)
	}
	return c
}

// chartOf writes a chart's files to a directory and loads it, without a
// problem.
func chartOf(t *testing.T, files map[string]string) *Chart {
	t.Helper()
	c, problems := Load(rendertest.WriteTree(t, filepath.Join(t.TempDir(), "c"), files), LoadOptions{})
	if c == nil || len(problems) > 0 {
		t.Fatalf("Load: %v", problems)
	}
	return c
}

func renderSet(t *testing.T, c *Chart, vs ValueSet) *render.Output {
	t.Helper()
	out, problems := c.Render(context.Background(), vs, Options{})
	if out == nil || len(problems) > 0 {
		t.Fatalf("Render(%s, %s): %v", c.Dir, vs.Name, problems)
	}
	return out
}

func fileOf(out *render.Output, suffix string) *render.File {
	for _, f := range out.Files {
		if strings.HasSuffix(filepath.ToSlash(f.Source), suffix) {
			return f
		}
	}
	return nil
}

// lineOf returns the 1-based line of the first occurrence of s in data.
func lineOf(t *testing.T, data []byte, s string) int {
	t.Helper()
	i := bytes.Index(data, []byte(s))
	if i < 0 {
		t.Fatalf("%q not found", s)
	}
	return bytes.Count(data[:i], []byte("\n")) + 1
}

func TestMarkersLeaveOutputUnchanged(t *testing.T) {
	// The source map must not change what Helm renders: each template's
	// text with the markers cut equals Helm's own render of the
	// uninstrumented chart, for every value set of both real charts.
	for _, name := range []string{"helm-create", "podinfo"} {
		c := load(t, name)
		sets := append(c.ValueSets(), c.AutoscalingVariants()...)
		sets = append(sets, ValueSet{Name: "values-prod.yaml", Files: []string{"values-prod.yaml"}})
		for _, vs := range sets {
			if _, ok := c.data["values-prod.yaml"]; !ok && vs.Name == "values-prod.yaml" {
				continue
			}
			out := renderSet(t, c, vs)
			ch, top, err := c.prepare(vs, Options{}.withDefaults())
			if err != nil {
				t.Fatal(err)
			}
			plain, err := c.engineRender(context.Background(), ch, top, render.Limits{}.WithDefaults(), nil)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for key, want := range plain {
				if strings.HasSuffix(key, "NOTES.txt") || strings.TrimSpace(want) == "" {
					continue
				}
				n++
				rel := key[strings.Index(key, "/")+1:]
				f := fileOf(out, rel)
				if f == nil {
					t.Errorf("%s %s: %s not in the output", name, vs.Name, key)
					continue
				}
				if string(f.Text) != want {
					t.Errorf("%s %s: %s differs from helm's render:\n--- got\n%s\n--- want\n%s", name, vs.Name, key, f.Text, want)
				}
			}
			if n != len(out.Files) || n == 0 {
				t.Errorf("%s %s: %d rendered files, helm renders %d", name, vs.Name, len(out.Files), n)
			}
		}
	}
}

func TestScaffoldAutoscalingVariant(t *testing.T) {
	c := load(t, "helm-create")
	defaults := renderSet(t, c, ValueSet{Name: DefaultsName})
	if fileOf(defaults, "templates/hpa.yaml") != nil {
		t.Fatal("the scaffold's defaults render an HPA; autoscaling.enabled is false in its values.yaml")
	}
	vs := c.AutoscalingVariants()
	if len(vs) != 1 || strings.Join(vs[0].Enable, ",") != "autoscaling.enabled" {
		t.Fatalf("AutoscalingVariants = %+v; want one, autoscaling.enabled", vs)
	}
	v := vs[0]
	out := renderSet(t, c, v)
	hpa := fileOf(out, "templates/hpa.yaml")
	if hpa == nil {
		t.Fatal("the variant renders no HPA")
	}
	// averageUtilization is {{ .Values.autoscaling.targetCPUUtilizationPercentage }}:
	// the values line is where 80 is set, the template line related.
	at := bytes.Index(hpa.Text, []byte("averageUtilization: ")) + len("averageUtilization: ")
	loc := hpa.Locator.Locate(at, at+2)
	values, _ := c.Data("values.yaml")
	tpl, _ := c.Data("templates/hpa.yaml")
	if filepath.Base(loc.Path) != "values.yaml" || string(values[loc.Start:loc.End]) != "80" || !loc.Exact {
		t.Fatalf("Locate = %+v; want values.yaml's 80, exact", loc)
	}
	if got, want := bytes.Count(values[:loc.Start], []byte("\n"))+1, lineOf(t, values, "targetCPUUtilizationPercentage: 80"); got != want {
		t.Errorf("values line %d, want %d", got, want)
	}
	if len(loc.Related) != 1 || filepath.Base(loc.Related[0].Path) != "hpa.yaml" {
		t.Fatalf("Related = %+v; want the template line", loc.Related)
	}
	if got, want := bytes.Count(tpl[:loc.Related[0].Start], []byte("\n"))+1, lineOf(t, tpl, "averageUtilization: {{ .Values.autoscaling.targetCPU"); got != want {
		t.Errorf("template line %d, want %d", got, want)
	}
	// A key written in the template maps to its own bytes.
	k := bytes.Index(hpa.Text, []byte("maxReplicas:"))
	kl := hpa.Locator.Locate(k, k+len("maxReplicas"))
	if kl.Path != hpa.Source || string(tpl[kl.Start:kl.End]) != "maxReplicas" || !kl.Exact {
		t.Errorf("Locate(maxReplicas key) = %+v", kl)
	}
}

func TestGeneratedCertificatesFixed(t *testing.T) {
	// Templates that generate keys and certificates (sprig's genCA,
	// genSignedCert, genPrivateKey) and bcrypt password hashes (htpasswd)
	// render fixed text of the same form: the same at every render, and
	// without generating a key (an RSA key takes a second or more).
	dir := rendertest.WriteTree(t, "", map[string]string{
		"Chart.yaml": "apiVersion: v2\nname: tls\nversion: 0.1.0\n",
		"templates/secret.yaml": `{{- $ca := genCA "ca" 365 }}
{{- $cert := genSignedCert "svc" (list "10.0.0.1") (list "svc.local") 365 $ca }}
apiVersion: v1
kind: Secret
metadata:
  name: tls
data:
  ca.crt: {{ $ca.Cert | b64enc }}
  tls.crt: {{ $cert.Cert | b64enc }}
  tls.key: {{ $cert.Key | b64enc }}
  other.key: {{ genPrivateKey "rsa" | b64enc }}
  auth: {{ htpasswd "admin" "secret" | b64enc }}
`,
	})
	c, problems := Load(dir, LoadOptions{})
	if c == nil {
		t.Fatal(problems)
	}
	var texts []string
	for i := 0; i < 2; i++ {
		out := renderSet(t, c, ValueSet{Name: DefaultsName})
		texts = append(texts, string(out.Files[0].Text))
	}
	if texts[0] != texts[1] {
		t.Errorf("two renders differ:\n%s\n%s", texts[0], texts[1])
	}
	if want := base64.StdEncoding.EncodeToString([]byte(pemCert)); !strings.Contains(texts[0], "tls.crt: "+want) {
		t.Errorf("the certificate is not the fixed one:\n%s", texts[0])
	}
}

// TestCIValuesReadWhateverHelmignoreSays: chart-testing renders a chart
// with each ci/*-values.yaml read from the directory, whatever the
// chart's .helmignore leaves out of its package (argo-cd's and
// argo-workflows' charts ignore ci/): they are value sets all the same,
// and still not files of the chart (Helm's .Files does not hold them),
// nor is anything else below an ignored ci/.
func TestCIValuesReadWhateverHelmignoreSays(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "chart")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(chartsDir, "helm-create"))); err != nil {
		t.Fatal(err)
	}
	write := func(rel, text string) { rendertest.WriteTree(t, dir, map[string]string{rel: text}) }
	write(".helmignore", "ci/\n")
	write("ci/hpa-values.yaml", "autoscaling:\n  enabled: true\n")
	write("ci/notes.yaml", "not: a value set\n")
	c, problems := Load(dir, LoadOptions{})
	if c == nil || len(problems) > 0 {
		t.Fatalf("Load: %v", problems)
	}
	var names []string
	for _, vs := range c.ValueSets() {
		names = append(names, vs.Name)
	}
	if strings.Join(names, ",") != "values.yaml,ci/hpa-values.yaml" {
		t.Fatalf("value sets %v, want values.yaml and ci/hpa-values.yaml", names)
	}
	if out := renderSet(t, c, c.ValueSets()[1]); fileOf(out, "templates/hpa.yaml") == nil {
		t.Error("ci/hpa-values.yaml renders no HPA")
	}
	for _, f := range c.files {
		if strings.HasPrefix(f.Name, "ci/") {
			t.Errorf("%s is among the files Helm loads; .helmignore leaves ci/ out", f.Name)
		}
	}
	if _, ok := c.Data("ci/notes.yaml"); ok {
		t.Error("ci/notes.yaml was read: it is no value set, and .helmignore leaves it out")
	}
}

// TestMarkerAfterBrace: an action with a left trim right after a line
// that ends in "{" (bitnami/logstash's configuration-cm.yaml: "input {"
// then "{{- include ... | nindent 6 }}") renders as Helm renders it: the
// marker that would go behind the "{" and make "{{{" (a parse error Helm
// does not have) goes before the action, trimming the same whitespace.
func TestMarkerAfterBrace(t *testing.T) {
	dir := rendertest.WriteTree(t, "", map[string]string{
		"Chart.yaml":        "apiVersion: v2\nname: ls\nversion: 1.0.0\n",
		"values.yaml":       "input: |-\n  http { port => 8080 }\n",
		"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ls\ndata:\n  logstash.conf: |-\n    input {\n    {{- .Values.input | nindent 6 }}\n    }\n",
	})
	c, problems := Load(dir, LoadOptions{})
	if c == nil {
		t.Fatal(problems)
	}
	vs := ValueSet{Name: DefaultsName}
	out := renderSet(t, c, vs)
	ch, top, err := c.prepare(vs, Options{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	plain, err := c.engineRender(context.Background(), ch, top, render.Limits{}.WithDefaults(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := plain["ls/templates/cm.yaml"]
	if len(out.Files) != 1 || string(out.Files[0].Text) != want {
		t.Fatalf("rendered %v, want helm's:\n%s", out.Files, want)
	}
	// The value's rendered line maps to the action's template line.
	text := out.Files[0].Text
	i := bytes.Index(text, []byte("http {"))
	loc := out.Files[0].Locator.Locate(i, i+len("http {"))
	tpl, _ := c.Data("templates/cm.yaml")
	if loc.Path != filepath.Join(dir, "templates", "cm.yaml") || lineOf(t, tpl, "{{- .Values.input") != bytes.Count(tpl[:loc.Start], []byte("\n"))+1 {
		t.Errorf("located at %s:%d, want the action's line", loc.Path, loc.Start)
	}
}
