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
	}
	sort.Strings(p.Kustomizations)
	return p
}

// InChart reports whether a path lies in one of the plan's charts.
func (p Plan) InChart(path string) bool {
	return len(p.Charts) > 0 && render.InsideChart(p.Charts, filepath.Dir(path))
}

// Empty reports whether there is nothing to render.
func (p Plan) Empty() bool { return len(p.Charts) == 0 && len(p.Kustomizations) == 0 }
