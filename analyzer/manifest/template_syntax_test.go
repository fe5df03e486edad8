package manifest

import (
	"go/token"
	"math/rand"
	"strings"
	"testing"
)

// TestTemplateSyntaxes: each template syntax is recognised where it makes
// a file unparsable or untypeable, with a hint that fits it; placeholders
// in string values of valid manifests, and placeholders of a syntax
// scalelint does not know, are not templates.
func TestTemplateSyntaxes(t *testing.T) {
	hpa := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n" +
		"  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n"
	cases := []struct {
		name, path, text string
		hint             string // a part of the template-file message; "" when the file is no template
		problem          string // else a problem the file keeps
	}{
		{"Helm", "t.yaml", hpa + "  maxReplicas: {{ .Values.max }}\n", "helm template", ""},
		{"Helm, an end without a space", "t.yaml", "{{- if .Values.on }}\n" + hpa + "  maxReplicas: 3\n{{- end}}\n", "helm template", ""},
		{"Helm, a function scalelint does not know", "t.yaml", hpa + "  maxReplicas: {{ .Values.max }}\n  minReplicas: {{ myHelper 2 }}\n", "helm template", ""},
		{"Helm action inside a value, in a chart", "chart/templates/deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers:\n      - image: app:{{ .Values.tag }}\n", "helm template", ""},
		{"Go actions in a templates directory that is no chart's", "notifications/templates/created.yaml", "message: |\n  {{.app.metadata.name}} created\nslack:\n  title: \"{{.app.metadata.name}}\"\n", "", ""},
		{"Go action inside a value, elsewhere", "deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers:\n      - image: app:{{ .Values.tag }}\n", "", ""},
		{"Helm comment line", "t.yaml", "{{/* autoscaler */}}\n" + hpa + "  maxReplicas: 3\n", "helm template", ""},
		{"Jinja statement", "t.yaml", "{% if on %}\n" + hpa + "  maxReplicas: 3\n{% endif %}\n", "Jinja", ""},
		{"Jinja expression", "t.yaml", hpa + "  maxReplicas: {{ max_replicas }}\n", "Jinja", ""},
		{"Jinja cookiecutter", "t.yaml", hpa + "  maxReplicas: {{ cookiecutter.max }}\n", "Jinja", ""},
		{"Terraform directive", "t.yaml", hpa + "%{ if enabled ~}\n  maxReplicas: 3\n%{ endif ~}\n", "Terraform", ""},
		{"Terraform by name", "hpa.tftpl.yaml", hpa + "  maxReplicas: ${max}\n", "Terraform", ""},
		{"Terraform expression", "t.yaml", hpa + "  maxReplicas: ${var.max}\n", "Terraform", ""},
		{"envsubst", "t.yaml", hpa + "  maxReplicas: ${MAX}\n", "envsubst", ""},
		{"Flux post-build default", "t.yaml", hpa + "  maxReplicas: ${max:=4}\n", "envsubst", ""},
		{"pipeline token", "t.yaml", hpa + "  maxReplicas: #{Max}#\n", "token replacement", ""},
		{"double-underscore token", "t.yaml", hpa + "  maxReplicas: __MAX__\n", "token replacement", ""},
		{"envsubst in a string", "t.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: ${REGISTRY}/web:${TAG}\n", "", ""},
		{"script in a ConfigMap", "t.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  run.sh: |\n    echo ${HOME} {{ x }} %{ y } #{z}#\n", "", ""},
		{"token in a quoted string", "t.yaml", hpa + "  maxReplicas: 3\n  # see #{Build}#\n", "", ""},
		{"unknown placeholder", "t.yaml", hpa + "  maxReplicas: <MAX>\n", "", "invalid-field"},
		// A quoted scalar spans lines (kustomize writes a multi-line value
		// with trailing spaces so): an action at a continuation line's start
		// is text, not structure. GoogleCloudPlatform/microservices-demo's
		// otel-collector ConfigMap ("project: {{PROJECT_ID}}") built so.
		{"action in a multi-line double-quoted string", "t.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  c.yaml: \"receivers:\\n  otlp: \\n\n    project: {{PROJECT_ID}}\\n\"\n", "", ""},
		{"action in a multi-line single-quoted string", "t.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  c.yaml: 'it''s\n    {{ x }}'\n", "", ""},
		{"escaped quote keeps the string open", "t.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  c.yaml: \"say \\\"hi\\\"\n    {{ x }}\"\n", "", ""},
		{"a template after a closed multi-line string", "t.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  c.yaml: \"a\n    b\"\n  d: {{ .Values.d }}\n", "helm template", ""},
		{"GitHub expression in a string", "t.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  sha: \"${{ github.sha }}\"\n", "", ""},
	}
	for _, c := range cases {
		f := Parse(token.NewFileSet(), c.path, []byte(c.text), Options{Eager: IsReadKind})
		var tmpl []Problem
		found := false
		for _, p := range f.Problems() {
			if p.Rule == "template-file" {
				tmpl = append(tmpl, p)
			}
			found = found || p.Rule == c.problem
		}
		switch {
		case c.hint == "" && (len(tmpl) > 0 || f.Template):
			t.Errorf("%s: reported as a template: %+v", c.name, tmpl)
		case c.hint != "" && (len(tmpl) != 1 || !strings.Contains(tmpl[0].Message, c.hint)):
			t.Errorf("%s: template-file %+v, want one whose hint mentions %q", c.name, tmpl, c.hint)
		}
		if c.problem != "" && !found {
			t.Errorf("%s: no %s problem: %+v", c.name, c.problem, f.Problems())
		}
	}
}

// TestMayHoldTemplateAsScan: MayHoldTemplate, which looks for "{" and "_"
// with IndexByte, says what a scan of every pair of bytes says: whether
// "{{", "{%", "{#", "${", "%{", "#{" or "__" occurs, on random texts of
// those bytes and others, at every place (first, last, overlapping).
func TestMayHoldTemplateAsScan(t *testing.T) {
	scan := func(src []byte) bool {
		for i := 0; i+1 < len(src); i++ {
			c, next := src[i], src[i+1]
			if c == '{' && (next == '{' || next == '%' || next == '#') || (c == '$' || c == '%' || c == '#') && next == '{' || c == '_' && next == '_' {
				return true
			}
		}
		return false
	}
	alpha := []byte("{$%#_ a}\n")
	r := rand.New(rand.NewSource(1))
	found := 0
	for range 100000 {
		b := make([]byte, r.Intn(12))
		for j := range b {
			b[j] = alpha[r.Intn(len(alpha))]
		}
		want := scan(b)
		if got := MayHoldTemplate(b); got != want {
			t.Fatalf("MayHoldTemplate(%q) = %v, want %v", b, got, want)
		}
		if want {
			found++
		}
	}
	if found == 0 {
		t.Error("no random text holds a mark")
	}
}
