package chart

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/strvals"

	"github.com/scalelint/scalelint/analyzer/render"
)

// DefaultsName names the value set of a chart's own values.yaml.
const DefaultsName = "values.yaml"

// ValueSet is one set of values a chart is rendered with: the chart's
// defaults, overridden by Files in order, then by Values in order, then by
// Set (helm's --set syntax), then by Enable (dotted paths set to true).
type ValueSet struct {
	Name string
	// Files are values files: a slash path below the chart directory, or
	// a path on disk (a configured or --values file).
	Files []string
	// Values are values written inline elsewhere (a GitOps object's), in
	// helm's types (common.ReadValues): no finding points into them.
	Values []map[string]any
	Set    []string
	Enable []string
	// Beside marks the value set of a values file beside values.yaml
	// (values-prod.yaml): no one declared with what other files it is
	// deployed, so what only such sets find is a warning at most.
	Beside bool
}

// ValueSets returns the value sets a chart is rendered with: its defaults,
// then each ci/*-values.yaml (the chart-testing convention), then each
// values file beside values.yaml (siblingValues), then extra (configured
// or from the command line). The autoscaling variants are made apart:
// see AutoscalingVariants.
func (c *Chart) ValueSets(extra ...ValueSet) []ValueSet {
	sets := []ValueSet{{Name: DefaultsName}}
	var ci, siblings []string
	for rel, data := range c.data {
		switch {
		case isCIValues(rel):
			ci = append(ci, rel)
		case isSiblingValues(rel) && siblingValues(data):
			siblings = append(siblings, rel)
		}
	}
	sort.Strings(ci)
	sort.Strings(siblings)
	for _, rel := range ci {
		sets = append(sets, ValueSet{Name: rel, Files: []string{rel}})
	}
	for _, rel := range siblings {
		sets = append(sets, ValueSet{Name: rel, Files: []string{rel}, Beside: true})
	}
	return append(sets, extra...)
}

// siblingValues reports whether a values file beside values.yaml
// (values-prod.yaml, values.lint.yaml) is a value set: the values of an
// environment or of the chart's own lint, which `helm install -f` layers
// over the defaults, as scalelint does. Not when its text is a template
// of values (values.tmpl.yaml, written with {{ }} or ${ } for a build
// step or envsubst to fill) or no mapping of values at all: Helm could
// not take it as it stands, and it says nothing about the chart.
func siblingValues(data []byte) bool {
	if bytes.Contains(data, []byte("{{")) || bytes.Contains(data, []byte("${")) {
		return false
	}
	_, err := common.ReadValues(data)
	return err == nil
}

// AutoscalingVariants returns the value sets that enable, one at a time,
// the autoscalers the defaults leave out: for each boolean named
// "enabled", false in the defaults, below a key that mentions
// autoscaling, hpa or keda (autoscaling.enabled, keda.enabled,
// worker.hpa.enabled; not a vertical autoscaler's, whose key says
// vertical or vpa), the defaults with it set to true, and with it every
// "enabled" boolean of the mappings above it (the component's own switch:
// gateway.enabled with gateway.autoscaling.enabled). One at a time: a
// chart's alternatives (an HPA or a KEDA ScaledObject for one workload)
// are never enabled together. The paths include those of vendored
// subcharts' defaults, below their names. The sets are made on the
// defaults; the caller may make them on another value set (lint's
// variantOn, when the defaults do not render).
func (c *Chart) AutoscalingVariants() []ValueSet {
	ch, err := c.loadedShared() // read only: its defaults and subcharts
	if err != nil {
		return nil
	}
	var flags [][]string          // the autoscaling switches, off
	switches := map[string]bool{} // every "enabled" boolean that is off, by dotted path
	var walk func(m map[string]any, prefix []string, mentioned bool, depth int)
	walk = func(m map[string]any, prefix []string, mentioned bool, depth int) {
		if depth > 64 {
			return
		}
		for k, v := range m {
			path := append(prefix[:len(prefix):len(prefix)], k)
			switch v := v.(type) {
			case map[string]any:
				if vertical(k) {
					continue
				}
				walk(v, path, mentioned || mentionsAutoscaling(k), depth+1)
			case bool:
				if k != "enabled" || v {
					continue
				}
				switches[strings.Join(path, ".")] = true
				if mentioned {
					flags = append(flags, path)
				}
			}
		}
	}
	walk(ch.Values, nil, false, 0)
	for _, d := range ch.Dependencies() {
		walk(d.Values, []string{d.Name()}, false, 1)
	}
	var out []ValueSet
	seen := map[string]bool{}
	for _, f := range flags {
		enable := []string{strings.Join(f, ".")}
		for i := len(f) - 2; i >= 1; i-- {
			if up := strings.Join(f[:i], ".") + ".enabled"; switches[up] {
				enable = append(enable, up)
			}
		}
		sort.Strings(enable)
		var names []string
		for _, p := range enable {
			names = append(names, p+"=true")
		}
		name := DefaultsName + " with " + strings.Join(names, ", ")
		if !seen[name] {
			seen[name] = true
			out = append(out, ValueSet{Name: name, Enable: enable})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// vertical reports whether a key names a vertical autoscaler's settings,
// which scalelint does not lint.
func vertical(k string) bool {
	k = strings.ToLower(k)
	return strings.Contains(k, "vertical") || strings.Contains(k, "vpa")
}

func mentionsAutoscaling(k string) bool {
	k = strings.ToLower(k)
	return strings.Contains(k, "autoscal") || strings.Contains(k, "hpa") || strings.Contains(k, "keda")
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
	for _, v := range vs.Values {
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
	return render.ReadFile(f, c.lim.MaxInput)
}

// display returns the path of a values file as findings name it: a file
// of the chart below the chart's directory, another relative to the
// working directory when it is below it.
func (c *Chart) display(f string) string {
	if _, ok := c.data[filepath.ToSlash(f)]; ok && !filepath.IsAbs(f) {
		return filepath.Join(c.Dir, filepath.FromSlash(f))
	}
	return Relative(f)
}

// Relative returns an absolute path relative to the working directory
// when it is below it, else as it is.
func Relative(p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return p
}

// setsPath reports whether inline values set a path (to anything but a
// mapping, which only holds what is below it).
func setsPath(values []map[string]any, path []string) bool {
	for _, m := range values {
		var v any = m
		for _, k := range path {
			mm, ok := v.(map[string]any)
			if !ok {
				v = nil
				break
			}
			if v, ok = mm[k]; !ok {
				break
			}
		}
		if v != nil {
			if _, isMap := v.(map[string]any); !isMap {
				return true
			}
		}
	}
	return false
}
