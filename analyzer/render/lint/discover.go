package lint

import (
	"path/filepath"
	"sort"

	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/kustomize"
)

// Plan is what a run renders.
type Plan struct {
	// Charts are the chart directories (as walked), sorted; a chart
	// vendored below another's charts/ renders with its parent.
	Charts []string
	// Kustomizations are the kustomization files outside every chart.
	Kustomizations []string
	// Sources are the directories of every Chart.yaml walked (vendored
	// ones too), sorted: the charts of the tree being checked, which a
	// chart's dependencies not vendored may be taken from
	// (chart.LoadOptions.Charts).
	Sources []string
	// Releasers are kustomization files whose helmCharts entries of
	// local charts give the plan's charts value sets of their own
	// (Result.RenderReleases); they are read for that only, not built.
	// Discover sets them to Kustomizations.
	Releasers []string
}

// Discover finds the charts and kustomizations among walked file paths,
// by name: no file is read, so a tree without them costs nothing.
func Discover(paths []string) Plan {
	var p Plan
	p.Charts = render.ChartRoots(paths)
	for _, f := range paths {
		if kustomize.IsKustomizationName(f) && !p.InChart(f) {
			p.Kustomizations = append(p.Kustomizations, f)
		}
		if render.IsChartFile(f) {
			p.Sources = append(p.Sources, filepath.Dir(f))
		}
	}
	sort.Strings(p.Kustomizations)
	sort.Strings(p.Sources)
	p.Releasers = p.Kustomizations
	return p
}

// IsSource returns whether a directory (a path on disk) is one of the
// plan's Sources: a chart of the tree being checked. Paths compare
// absolute and cleaned.
func (p Plan) IsSource() func(dir string) bool {
	set := make(map[string]bool, len(p.Sources))
	for _, d := range p.Sources {
		set[abs(d)] = true
	}
	return func(dir string) bool { return set[abs(dir)] }
}

// abs returns a path absolute and cleaned (cleaned when it cannot be made
// absolute).
func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// InChart reports whether a path lies in one of the plan's charts.
func (p Plan) InChart(path string) bool {
	return len(p.Charts) > 0 && render.InsideChart(p.Charts, filepath.Dir(path))
}

// Empty reports whether there is nothing to render.
func (p Plan) Empty() bool { return len(p.Charts) == 0 && len(p.Kustomizations) == 0 }
