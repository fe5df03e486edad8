package lint

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/chart"
)

// kustomizeReleases reads the helmCharts entries of a kustomization file
// (kf, a path on disk) whose chart is a directory of the repository
// rather than a chart repository's: no repo, the chart at
// helmGlobals.chartHome/name (chartHome "charts" when unset, relative to
// the kustomization's directory), one of charts (by absolute directory,
// to the unit's Dir). kustomize inflates them only with --enable-helm, by
// running the helm program (its HelmChartInflationGenerator), which
// scalelint does not run; the build goes on without them (said at the
// entry), and each such chart renders on its own, as a release with the
// entry's values, name and namespace (AsHelmArgs in kustomize's
// types/helmchartargs.go):
//
//   - valuesFile replaces the chart's values.yaml, and valuesInline is
//     merged over it (valuesMerge override, the default, or replace,
//     which drops valuesFile); additionalValuesFiles come after both;
//   - releaseName names the release (helm generates one when unset:
//     scalelint's default name stands in);
//   - namespace, else the kustomization's namespace, is the release's.
//
// An entry whose values cannot be rendered in that order (inline values
// and additionalValuesFiles both, or valuesMerge merge, under which the
// file wins over the inline values), or whose values file the repository
// does not hold, is not rendered: a render-incomplete problem says why at
// the entry. kustomize's transformers (namePrefix, labels, patches) do
// not apply to what the release renders. It returns the file's bytes,
// where the problems are placed.
func kustomizeReleases(kf string, charts map[string]string, read func(string) ([]byte, error)) ([]release, []render.Problem, []byte) {
	data, err := read(kf)
	if err != nil || !bytes.Contains(data, []byte("helmCharts")) {
		return nil, nil, nil // most kustomizations have none: not parsed
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil, nil
	}
	k := doc.Content[0]
	list := mappingValue(k, "helmCharts")
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil, nil, nil
	}
	dir := filepath.Dir(kf)
	home := "charts"
	if h, ok := scalarAt(mappingValue(k, "helmGlobals"), "chartHome"); ok {
		home = h
	}
	namespace, _ := scalarAt(k, "namespace")
	rels, problems := entryReleases(kf, list.Content, "entry", func(i int, e *yaml.Node) (release, string, *yaml.Node, bool) {
		return kustomizeRelease(kf, dir, home, namespace, i, e, charts)
	})
	return rels, problems, data
}

// kustomizeRelease reads one helmCharts entry. It returns false with the
// reason and its node for an entry it does not render and should say so,
// false with no reason for one it passes over (a chart repository's, or a
// directory that is not a chart of the run).
func kustomizeRelease(kf, dir, home, namespace string, i int, e *yaml.Node, charts map[string]string) (release, string, *yaml.Node, bool) {
	if e.Kind != yaml.MappingNode || templated(e) {
		return release{}, "", nil, false
	}
	name, _ := scalarAt(e, "name")
	if repo, _ := scalarAt(e, "repo"); name == "" || repo != "" {
		return release{}, "", nil, false
	}
	chartDir := filepath.Join(home, name)
	if !filepath.IsAbs(chartDir) {
		chartDir = filepath.Join(dir, chartDir)
	}
	abs, err := filepath.Abs(chartDir)
	if err != nil || charts[abs] == "" {
		return release{}, "", nil, false
	}
	what := fmt.Sprintf("helmCharts entry %q", name)
	rel := release{dir: charts[abs], set: chart.ValueSet{Name: fmt.Sprintf("%s helmCharts[%d] %q", filepath.ToSlash(kf), i, name)}}
	rel.opts.ReleaseName, _ = scalarAt(e, "releaseName")
	rel.opts.Namespace = namespace
	if ns, ok := scalarAt(e, "namespace"); ok {
		rel.opts.Namespace = ns
	}
	merge := "override"
	if m, ok := scalarAt(e, "valuesMerge"); ok {
		merge = m
	}
	inline := mappingValue(e, "valuesInline")
	hasInline := inline != nil && !isNull(inline)
	if hasInline && merge == "merge" {
		return release{}, what + " merges valuesInline under its values file (valuesMerge: merge), which scalelint does not render", inline, false
	}
	file := func(v *yaml.Node) (path, why string) {
		if v.Kind != yaml.ScalarNode || strings.Contains(v.Value, "://") {
			return "", what + " reads a values file that is not a path in the repository"
		}
		p := filepath.Join(dir, filepath.FromSlash(v.Value))
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Sprintf("%s reads values file %q, which the repository does not hold at %s", what, v.Value, p)
		}
		return p, ""
	}
	if v := mappingValue(e, "valuesFile"); v != nil && !isNull(v) && !(hasInline && merge == "replace") {
		p, why := file(v)
		if why != "" {
			return release{}, why, v, false
		}
		rel.set.Files = append(rel.set.Files, p)
	}
	if extra := mappingValue(e, "additionalValuesFiles"); extra != nil && extra.Kind == yaml.SequenceNode && len(extra.Content) > 0 {
		if hasInline {
			// kustomize applies the additional files after the inline
			// values; a value set applies its files before its inline
			// values.
			return release{}, what + " has both valuesInline and additionalValuesFiles, which scalelint does not render in order", extra, false
		}
		for _, v := range extra.Content {
			p, why := file(v)
			if why != "" {
				return release{}, why, v, false
			}
			rel.set.Files = append(rel.set.Files, p)
		}
	}
	if hasInline {
		m, err := valuesOf(inline)
		if err != nil {
			return release{}, fmt.Sprintf("%s has valuesInline helm does not read (%v)", what, err), inline, false
		}
		rel.set.Values = []map[string]any{m}
	}
	return rel, "", nil, true
}
