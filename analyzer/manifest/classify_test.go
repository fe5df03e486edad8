package manifest

import (
	"go/token"
	"strings"
	"testing"
)

// TestNotManifest: a file is linted when a document in it is a Kubernetes
// object (apiVersion and kind) or reads as one where it does not parse;
// the files found beside manifests in real repositories are set aside,
// without their syntax errors.
func TestNotManifest(t *testing.T) {
	cases := []struct {
		name, path, text string
		manifest         bool
		problem          string // a problem rule the file must keep, if any
	}{
		{"deployment", "deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n", true, ""},
		{"list", "list.yaml", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n", true, ""},
		{"JSON manifest", "cm.json", `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}`, true, ""},
		{"broken manifest", "broken.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [c\n", true, "yaml-syntax"},
		{"broken JSON manifest", "broken.json", "{\n  // a comment\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\"\n}\n", true, "yaml-syntax"},
		{"manifest after a document of something else", "mixed.yaml", "foo: bar\n---\napiVersion: v1\nkind: Service\nmetadata: {name: s}\n", true, ""},
		{"HPA without apiVersion", "hpa.yaml", "piVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\n", true, "invalid-field"},
		{"kustomization without apiVersion", "kustomization.yaml", "resources: [a.yaml]\n", true, ""},
		{"chart template", "chart/templates/extra.yaml", "{{- range .Values.extraObjects }}\n---\n{{ tpl (toYaml .) $ }}\n{{- end }}\n", true, "template-file"},
		{"chart template with metadata written and the header included", "chart/templates/cm.yaml", "{{ include \"lib.header\" . }}\nmetadata:\n  name: {{ .Release.Name }}\ndata: {}\n", true, "template-file"},
		// A CI pipeline's Go template in a directory named templates, no
		// chart's (elastic/cloud-on-k8s,
		// .buildkite/e2e/reporter/templates/notify-failures.tpl.yml): its
		// top level is "steps:", what it renders is no Kubernetes object.
		{"Buildkite pipeline template in a templates directory", "ci/reporter/templates/notify.tpl.yml", "steps:\n  - label: \"{{ .Count }} failure(s)\"\n    command: exit {{ .Count }}\n  {{- if gt .Count 0 }}\n  - label: notify\n  {{- end }}\n", false, ""},
		{"VS Code settings (JSONC)", ".vscode/settings.json", "{\n  // two spaces\n  \"editor.tabSize\": 2,\n}\n", false, ""},
		{"VS Code tasks (JSONC, a kind key)", ".vscode/tasks.json", "{\n  \"version\": \"2.0.0\",\n  \"tasks\": [{\"label\": \"build\", \"group\": {\"kind\": \"build\"}}], // done\n}\n", false, ""},
		{"tsconfig", "tsconfig.app.json", "{\n  /* strict */\n  \"compilerOptions\": {\"strict\": true},\n}\n", false, ""},
		{"GitHub workflow", ".github/workflows/ci.yaml", "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n    - run: echo ${{ github.sha }}\n", false, ""},
		{"Compose file", "docker-compose.yml", "services:\n  web:\n    image: web:1\n    ports: [\"8080:8080\"]\n", false, ""},
		{"Chart.yaml", "chart/Chart.yaml", "apiVersion: v2\nname: web\nversion: 1.0.0\n", false, ""},
		{"values.yaml with a kind", "chart/values.yaml", "kind: Deployment\nreplicaCount: 1\nautoscaling:\n  enabled: true\n", false, ""},
		{"pre-commit", ".pre-commit-config.yaml", "repos:\n- repo: https://github.com/pre-commit/pre-commit-hooks\n  rev: v4.6.0\n  hooks: [{id: check-yaml}]\n", false, ""},
		{"application YAML", "app/config.yaml", "server:\n  port: 8080\nlogging: {level: info}\n", false, ""},
		{"Jinja compose file", "compose.yml", "services:\n  {{ name }}:\n    image: {{ image }}\n", false, ""},
		{"empty", "empty.yaml", "# nothing\n---\n", false, ""},
	}
	for _, c := range cases {
		f := Parse(token.NewFileSet(), c.path, []byte(c.text), Options{Eager: IsReadKind})
		why := f.NotManifest()
		if (why == "") != c.manifest {
			t.Errorf("%s: NotManifest() = %q, want a manifest: %v", c.name, why, c.manifest)
		}
		if c.problem != "" {
			found := false
			for _, p := range f.Problems() {
				found = found || p.Rule == c.problem
			}
			if !found {
				t.Errorf("%s: no %s problem: %+v", c.name, c.problem, f.Problems())
			}
		}
		if c.name == "empty" && !strings.HasPrefix(why, "empty") {
			t.Errorf("empty file: reason %q", why)
		}
	}
}
