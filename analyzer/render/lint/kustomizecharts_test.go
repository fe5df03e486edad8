package lint

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/internal/rendertest"
)

// TestKustomizeReleases: the helmCharts entries of local charts render as
// releases whose value sets follow kustomize's order (AsHelmArgs in
// kustomize's types/helmchartargs.go: valuesFile, or the chart's
// values.yaml, with valuesInline merged over it, then
// additionalValuesFiles), or say why not; entries of chart repositories,
// and directories that are not charts of the run, pass without a word.
func TestKustomizeReleases(t *testing.T) {
	root := rendertest.WriteTree(t, "", map[string]string{
		"k/kustomization.yaml": `namespace: shop
helmGlobals: {chartHome: ../charts}
helmCharts:
- {name: web, releaseName: a, valuesFile: prod.yaml, additionalValuesFiles: [extra.yaml]}
- {name: web, releaseName: b, namespace: other, valuesFile: prod.yaml, valuesInline: {x: 1}}
- {name: web, releaseName: c, valuesFile: prod.yaml, valuesInline: {x: 1}, valuesMerge: replace}
- {name: web, valuesInline: {x: 1}, valuesMerge: merge}
- {name: web, valuesInline: {x: 1}, additionalValuesFiles: [extra.yaml]}
- {name: web, valuesFile: missing.yaml}
- {name: web, repo: https://charts.example, version: 1.0.0}
- {name: elsewhere}
`,
		"k/prod.yaml":  "x: 0\n",
		"k/extra.yaml": "y: 2\n",
	})
	web, _ := filepath.Abs(filepath.Join(root, "charts", "web"))
	kf := filepath.Join(root, "k", "kustomization.yaml")
	rels, problems, _ := kustomizeReleases(kf, map[string]string{web: "charts/web"}, func(p string) ([]byte, error) { return render.ReadFile(p, 1<<20) })
	type got struct {
		name, ns string
		files    []string
		inline   int
	}
	var gots []got
	for _, r := range rels {
		g := got{name: r.opts.ReleaseName, ns: r.opts.Namespace, inline: len(r.set.Values)}
		for _, f := range r.set.Files {
			g.files = append(g.files, filepath.Base(f))
		}
		gots = append(gots, g)
	}
	want := []got{
		{"a", "shop", []string{"prod.yaml", "extra.yaml"}, 0},
		{"b", "other", []string{"prod.yaml"}, 1},
		{"c", "shop", nil, 1}, // replace: the inline values instead of the file
	}
	if !reflect.DeepEqual(gots, want) {
		t.Errorf("releases:\n got %+v\nwant %+v", gots, want)
	}
	var whys []string
	for _, p := range problems {
		whys = append(whys, p.Message)
	}
	for i, want := range []string{"valuesMerge: merge", "both valuesInline and additionalValuesFiles", `values file "missing.yaml"`} {
		if i >= len(whys) || !strings.Contains(whys[i], want) {
			t.Errorf("problem %d: %q, want one saying %q (all: %q)", i, whys, want, whys)
			break
		}
	}
	if len(whys) != 3 {
		t.Errorf("problems: %q; want 3 (a repository's chart and a directory not a chart pass silently)", whys)
	}
}
