package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/chart"
)

// IsHelmfileName reports whether a path names a helmfile (helmfile.yaml
// or helmfile.yml; a helmfile.yaml.gotmpl is a template, not read).
func IsHelmfileName(p string) bool {
	switch filepath.Base(p) {
	case "helmfile.yaml", "helmfile.yml":
		return true
	}
	return false
}

// helmfileReleases reads the releases of a helmfile
// (https://helmfile.readthedocs.io/en/latest/#configuration) whose chart is
// a local path, one of charts (by absolute directory, to the unit's Dir):
// each renders with its values (files relative to the helmfile's
// directory, and inline mappings, in order), its set entries, its name
// and its namespace. A release with installed: false is not deployed; one
// whose fields hold template syntax, a chart from a repository, or a
// remote path is not read; one with secrets or a values template
// (.gotmpl) or values file the repository does not hold is not rendered,
// and a render-incomplete problem says why at its entry. It returns the
// helmfile's bytes, where the problems are placed. A helmfile that is not
// YAML (one written as a template) is not read.
func helmfileReleases(hf string, charts map[string]string, read func(string) ([]byte, error)) ([]release, []render.Problem, []byte) {
	data, err := read(hf)
	if err != nil {
		return nil, nil, nil
	}
	dir := filepath.Dir(hf)
	var rels []release
	var problems []render.Problem
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			break // the end, or not YAML: a template
		}
		if len(doc.Content) == 0 {
			continue
		}
		list := mappingValue(doc.Content[0], "releases")
		if list == nil || list.Kind != yaml.SequenceNode {
			continue
		}
		rs, ps := entryReleases(hf, list.Content, "release", func(_ int, e *yaml.Node) (release, string, *yaml.Node, bool) {
			return helmfileRelease(hf, dir, e, charts)
		})
		rels, problems = append(rels, rs...), append(problems, ps...)
	}
	return rels, problems, data
}

// entryReleases reads the entries of a file that lists releases (a
// helmfile's releases, a kustomization's helmCharts) with one, which
// returns false with the reason and its node for an entry it does not
// render and should say so (a render-incomplete problem at the node,
// "whose" naming the entry), false with no reason for one it passes over.
func entryReleases(file string, entries []*yaml.Node, whose string, one func(i int, e *yaml.Node) (release, string, *yaml.Node, bool)) ([]release, []render.Problem) {
	var rels []release
	var problems []render.Problem
	for i, e := range entries {
		rel, why, at, ok := one(i, e)
		if ok {
			rels = append(rels, rel)
		} else if why != "" {
			problems = append(problems, render.Problem{Rule: render.RuleIncomplete, Path: file, Line: at.Line, Col: at.Column,
				Message: why + ": the chart is not rendered with this " + whose + "'s values"})
		}
	}
	return rels, problems
}

// helmfileRelease reads one entry of releases. It returns false with the
// reason and its node for an entry it does not render and should say so,
// false with no reason for one it passes over.
func helmfileRelease(hf, dir string, e *yaml.Node, charts map[string]string) (release, string, *yaml.Node, bool) {
	if e.Kind != yaml.MappingNode || templated(e) {
		return release{}, "", nil, false
	}
	name, _ := scalarAt(e, "name")
	chartRef, _ := scalarAt(e, "chart")
	if name == "" || chartRef == "" || strings.Contains(chartRef, "://") {
		return release{}, "", nil, false
	}
	if installed, ok := scalarAt(e, "installed"); ok && installed == "false" {
		return release{}, "", nil, false
	}
	abs, err := filepath.Abs(filepath.Join(dir, filepath.FromSlash(chartRef)))
	if err != nil || charts[abs] == "" {
		return release{}, "", nil, false // a chart from a repository, or not a chart here
	}
	what := fmt.Sprintf("helmfile release %q", name)
	rel := release{dir: charts[abs], set: chart.ValueSet{Name: fmt.Sprintf("%s release %q", filepath.ToSlash(hf), name)}}
	rel.opts.ReleaseName = name
	rel.opts.Namespace, _ = scalarAt(e, "namespace")
	if s := mappingValue(e, "secrets"); s != nil && !isNull(s) {
		return release{}, what + " takes secrets (helm-secrets), which are not read", s, false
	}
	if vs := mappingValue(e, "values"); vs != nil && vs.Kind == yaml.SequenceNode {
		for _, v := range vs.Content {
			switch v.Kind {
			case yaml.ScalarNode:
				if strings.HasSuffix(v.Value, ".gotmpl") || strings.Contains(v.Value, "://") {
					return release{}, fmt.Sprintf("%s reads values %q, a template or a remote file, which is not read", what, v.Value), v, false
				}
				if len(rel.set.Values) > 0 {
					return release{}, what + " mixes values files and inline values, which scalelint does not render in order", v, false
				}
				p := filepath.Join(dir, filepath.FromSlash(v.Value))
				if _, err := os.Stat(p); err != nil {
					return release{}, fmt.Sprintf("%s reads values file %q, which the repository does not hold at %s", what, v.Value, p), v, false
				}
				rel.set.Files = append(rel.set.Files, p)
			case yaml.MappingNode:
				if len(rel.set.Files) > 0 {
					// Helmfile applies the values in order, and a value
					// set applies its files before its inline values:
					// only files, or only inline values, keep the order.
					return release{}, what + " mixes values files and inline values, which scalelint does not render in order", v, false
				}
				m, err := valuesOf(v)
				if err != nil {
					return release{}, fmt.Sprintf("%s has inline values helm does not read (%v)", what, err), v, false
				}
				rel.set.Values = append(rel.set.Values, m)
			}
		}
	}
	if set := mappingValue(e, "set"); set != nil && set.Kind == yaml.SequenceNode {
		for _, s := range set.Content {
			n, _ := scalarAt(s, "name")
			v, ok := scalarAt(s, "value")
			if n == "" || !ok {
				return release{}, what + " sets a value helmfile writes as a list or from a file, which scalelint does not", s, false
			}
			rel.set.Set = append(rel.set.Set, n+"="+v)
		}
	}
	return rel, "", nil, true
}

// templated reports whether a node holds template syntax anywhere.
func templated(n *yaml.Node) bool {
	if strings.Contains(n.Value, "{{") {
		return true
	}
	for _, c := range n.Content {
		if templated(c) {
			return true
		}
	}
	return false
}

// mappingValue returns the value of a key of a mapping node, or nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}
