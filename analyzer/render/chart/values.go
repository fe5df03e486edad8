package chart

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/strvals"
)

// DefaultsName names the value set of a chart's own values.yaml.
const DefaultsName = "values.yaml"

// ValueSet is one set of values a chart is rendered with: the chart's
// defaults, overridden by Files in order, then by Set (helm's --set
// syntax), then by Enable (dotted paths set to true).
type ValueSet struct {
	Name string
	// Files are values files: a slash path below the chart directory, or
	// a path on disk (a configured or --values file).
	Files  []string
	Set    []string
	Enable []string
}

// ValueSets returns the value sets a chart is rendered with: its defaults,
// then each ci/*-values.yaml (the chart-testing convention), then extra
// (configured or from the command line). The autoscaling variant depends
// on what the defaults render: see AutoscalingVariant.
func (c *Chart) ValueSets(extra ...ValueSet) []ValueSet {
	sets := []ValueSet{{Name: DefaultsName}}
	var ci []string
	for rel := range c.data {
		if path.Dir(rel) == "ci" && strings.HasSuffix(rel, "-values.yaml") {
			ci = append(ci, rel)
		}
	}
	sort.Strings(ci)
	for _, rel := range ci {
		sets = append(sets, ValueSet{Name: rel, Files: []string{rel}})
	}
	return append(sets, extra...)
}

// AutoscalingVariant returns the defaults with every boolean named
// "enabled" set to true when it is false and a key above it mentions
// autoscaling, hpa or keda (autoscaling.enabled, keda.enabled,
// worker.hpa.enabled), and whether there is any such value. The paths
// include those of vendored subcharts' defaults, below their names.
func (c *Chart) AutoscalingVariant() (ValueSet, bool) {
	ch, err := loader.LoadFiles(c.files)
	if err != nil {
		return ValueSet{}, false
	}
	var paths []string
	var walk func(m map[string]any, prefix []string, mentioned bool, depth int)
	walk = func(m map[string]any, prefix []string, mentioned bool, depth int) {
		if depth > 64 {
			return
		}
		for k, v := range m {
			switch v := v.(type) {
			case map[string]any:
				walk(v, append(prefix[:len(prefix):len(prefix)], k), mentioned || mentionsAutoscaling(k), depth+1)
			case bool:
				if k == "enabled" && !v && mentioned {
					paths = append(paths, strings.Join(append(prefix[:len(prefix):len(prefix)], k), "."))
				}
			}
		}
	}
	walk(ch.Values, nil, false, 0)
	for _, d := range ch.Dependencies() {
		walk(d.Values, []string{d.Name()}, false, 1)
	}
	if len(paths) == 0 {
		return ValueSet{}, false
	}
	sort.Strings(paths)
	paths = dedupe(paths)
	var names []string
	for _, p := range paths {
		names = append(names, p+"=true")
	}
	return ValueSet{Name: DefaultsName + " with " + strings.Join(names, ", "), Enable: paths}, true
}

func mentionsAutoscaling(k string) bool {
	k = strings.ToLower(k)
	return strings.Contains(k, "autoscal") || strings.Contains(k, "hpa") || strings.Contains(k, "keda")
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// values merges a value set's overrides as helm install -f/--set does;
// the chart's defaults are coalesced under them by the render.
func (c *Chart) values(vs ValueSet) (map[string]any, error) {
	base := map[string]any{}
	for _, f := range vs.Files {
		data, err := c.valuesFile(f)
		if err != nil {
			return nil, err
		}
		v, err := common.ReadValues(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.display(f), err)
		}
		base = loader.MergeMaps(base, v)
	}
	for _, s := range vs.Set {
		if err := strvals.ParseInto(s, base); err != nil {
			return nil, fmt.Errorf("--set %s: %w", s, err)
		}
	}
	for _, p := range vs.Enable {
		m := base
		keys := strings.Split(p, ".")
		for _, k := range keys[:len(keys)-1] {
			next, ok := m[k].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[k] = next
			}
			m = next
		}
		m[keys[len(keys)-1]] = true
	}
	return base, nil
}

// valuesFile returns a values file's bytes: from the chart when the path
// is a slash path below it, else from disk (bounded).
func (c *Chart) valuesFile(f string) ([]byte, error) {
	if !filepath.IsAbs(f) {
		if d, ok := c.data[filepath.ToSlash(f)]; ok {
			return d, nil
		}
	}
	return readSmall(f, c.lim.MaxInput)
}

// display returns the path of a values file as findings name it.
func (c *Chart) display(f string) string {
	if _, ok := c.data[filepath.ToSlash(f)]; ok && !filepath.IsAbs(f) {
		return filepath.Join(c.Dir, filepath.FromSlash(f))
	}
	return f
}
