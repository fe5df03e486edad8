package lint

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
)

// TestShellWords: a line splits as the shell splits it, without
// expansions (quotes kept apart from $ so that known() refuses them).
func TestShellWords(t *testing.T) {
	cases := []struct {
		line string
		want []string // nil: not split
	}{
		{`helm lint ./web -f 'a b.yaml'`, []string{"helm", "lint", "./web", "-f", "a b.yaml"}},
		{`helm lint "web" --set=a=\"x\"`, []string{"helm", "lint", "web", `--set=a="x"`}},
		{`cd web && helm lint . ; echo ok || true`, []string{"cd", "web", "&&", "helm", "lint", ".", ";", "echo", "ok", "||", "true"}},
		{`helm template web ./web | kubectl apply -f -`, []string{"helm", "template", "web", "./web", "|", "kubectl", "apply", "-f", "-"}},
		{`helm lint web # the chart`, []string{"helm", "lint", "web"}},
		{`helm template web ./web > out.yaml`, []string{"helm", "template", "web", "./web"}},
		{`helm lint "web`, nil},
		{`helm install web ./web &`, nil},
		{`helm lint $(ls charts)`, nil},
	}
	for _, c := range cases {
		got, ok := shellWords(c.line)
		if c.want == nil {
			if ok {
				t.Errorf("shellWords(%q) = %q, want no split", c.line, got)
			}
			continue
		}
		if !ok || !slices.Equal(got, c.want) {
			t.Errorf("shellWords(%q) = %q, %v; want %q", c.line, got, ok, c.want)
		}
	}
}

// TestHelmCommand: which helm commands make a release of a local chart,
// and with what. A command is read only when every word is known.
func TestHelmCommand(t *testing.T) {
	dir := rendertest.WriteTree(t, t.TempDir(), map[string]string{
		"web/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n",
		"prod.yaml":      "a: 1\n",
		"extra.yaml":     "b: 2\n",
	})
	charts := map[string]string{filepath.Join(dir, "web"): "web"}
	cases := []struct {
		cmd      string
		files    []string // below dir; nil: no release
		set      []string
		name, ns string
	}{
		{"helm upgrade --install api ./web -n prod -f prod.yaml --wait", []string{"prod.yaml"}, nil, "api", "prod"},
		{"helm template web --values=prod.yaml,extra.yaml --set a.b=1", []string{"prod.yaml", "extra.yaml"}, []string{"a.b=1"}, "", ""},
		{"helm install web -g -fprod.yaml", []string{"prod.yaml"}, nil, "", ""},
		{"helm lint web --strict -f prod.yaml", []string{"prod.yaml"}, nil, "", ""},
		{"helm lint web", nil, nil, "", ""},                                  // the defaults: rendered anyway
		{"helm lint web web -f prod.yaml", nil, nil, "", ""},                 // several charts
		{"helm upgrade web -f prod.yaml", nil, nil, "", ""},                  // no chart
		{"helm upgrade api web -f missing.yaml", nil, nil, "", ""},           // not in the repository
		{"helm upgrade api web -f prod.yaml --frobnicate", nil, nil, "", ""}, // a flag not known
		{"helm upgrade api web --set-string a=1", nil, nil, "", ""},          // typed otherwise
		{"helm upgrade api other -f prod.yaml", nil, nil, "", ""},            // not a chart of the run
		{"helm upgrade api web -f $VALUES", nil, nil, "", ""},
		{"helm package web -f prod.yaml", nil, nil, "", ""},
	}
	for _, c := range cases {
		words, _ := shellWords(c.cmd)
		rel, ok := helmCommand("ci.yml", 7, words, dir, charts)
		if c.files == nil {
			if ok {
				t.Errorf("%q made a release %+v; want none", c.cmd, rel.set)
			}
			continue
		}
		var files []string
		for _, f := range rel.set.Files {
			files = append(files, strings.TrimPrefix(filepath.ToSlash(f), filepath.ToSlash(dir)+"/"))
		}
		if !ok || rel.dir != "web" || !slices.Equal(files, c.files) || !slices.Equal(rel.set.Set, c.set) ||
			rel.opts.ReleaseName != c.name || rel.opts.Namespace != c.ns || !strings.HasPrefix(rel.set.Name, "ci.yml:7 helm ") {
			t.Errorf("%q: release %v (files %v, set %v, name %q, namespace %q, set name %q); want files %v, set %v, name %q, namespace %q",
				c.cmd, ok, files, rel.set.Set, rel.opts.ReleaseName, rel.opts.Namespace, rel.set.Name, c.files, c.set, c.name, c.ns)
		}
	}
}

// TestIsCIFileName: the CI files whose helm commands are read.
func TestIsCIFileName(t *testing.T) {
	for p, want := range map[string]bool{
		".github/workflows/deploy.yml":     true,
		"repo/.github/workflows/lint.yaml": true,
		".gitlab-ci.yml":                   true,
		"sub/.gitlab-ci.yml":               true,
		".github/dependabot.yml":           false,
		".github/workflows/scripts/x.yaml": false,
		"workflows/deploy.yml":             false,
		".github/workflows/README.md":      false,
	} {
		if got := IsCIFileName(p); got != want {
			t.Errorf("IsCIFileName(%q) = %v, want %v", p, got, want)
		}
	}
}
