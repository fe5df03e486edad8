package chart

import (
	"errors"
	"sync"

	"helm.sh/helm/v4/pkg/chart/common"
	chartv2 "helm.sh/helm/v4/pkg/chart/v2"
)

// Every render of a value set starts from the chart as Helm's loader
// makes it, because a render changes the chart it is given: Helm's
// ProcessDependencies enables, renames (aliases) and drops dependencies
// in the chart's metadata and replaces its defaults with the values it
// imports, and Render empties the templates it leaves out. Loading again
// from the files parsed every values.yaml of the tree again
// (sigs.k8s.io/yaml: YAML to JSON to maps) for each value set and for
// each render of a partial one: in camunda/camunda-platform-helm, whose
// charts vendor Bitnami's subcharts, 30% of the run's CPU time. The chart
// is loaded once (loaded), and each render takes a copy (cloneChart) of
// what renders change: each chart's metadata and dependency entries, its
// template files and its tree of subcharts. The rest is shared: the raw
// files, Chart.lock, the schema, the other files, the bytes of every
// file, and the defaults, which Helm copies before it merges values into
// them (coalesceValues in pkg/chart/common/util/coalesce.go), so a
// template that sets a key of .Values changes its render's copy alone
// (TestRendersDoNotShareChanges).

// loadedChart is the chart loaded once from its files, with the
// dependencies charts/ lacks dropped; never given to Helm itself.
type loadedChart struct {
	once sync.Once
	ch   *chartv2.Chart
	err  error
}

// loaded returns a copy of the chart as Helm's loader makes it from the
// chart's files, with the dependencies charts/ lacks dropped, for one
// render to change.
func (c *Chart) loaded() (*chartv2.Chart, error) {
	ch, err := c.loadedShared()
	if err != nil {
		return nil, err
	}
	return cloneChart(ch), nil
}

// loadedShared returns the chart loaded once, which callers only read.
func (c *Chart) loadedShared() (*chartv2.Chart, error) {
	l := &c.base
	l.once.Do(func() {
		l.ch, l.err = loadFiles(c.files)
		if l.err == nil {
			dropMissing(l.ch)
		}
	})
	switch {
	case l.err != nil:
		return nil, l.err
	case l.ch == nil:
		return nil, errors.New("the chart was released (Release)")
	}
	return l.ch, nil
}

// cloneChart copies a loaded chart tree: each chart's metadata (with
// copies of its dependency entries), its template files (their bytes
// shared: a render replaces a template's bytes, never changes them) and
// its subcharts.
func cloneChart(src *chartv2.Chart) *chartv2.Chart {
	dst := *src // the root's parent is nil; a subchart's is set below
	if src.Metadata != nil {
		md := *src.Metadata
		md.Dependencies = make([]*chartv2.Dependency, len(src.Metadata.Dependencies))
		for i, d := range src.Metadata.Dependencies {
			if d != nil {
				cd := *d
				md.Dependencies[i] = &cd
			}
		}
		dst.Metadata = &md
	}
	dst.Templates = make([]*common.File, len(src.Templates))
	for i, f := range src.Templates {
		if f != nil {
			cf := *f
			dst.Templates[i] = &cf
		}
	}
	deps := make([]*chartv2.Chart, 0, len(src.Dependencies()))
	for _, d := range src.Dependencies() {
		deps = append(deps, cloneChart(d))
	}
	dst.SetDependencies(deps...) // and each one's parent
	return &dst
}
