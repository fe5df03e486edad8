package render

import (
	"path/filepath"
	"sort"
)

// IsChartFile reports whether a path names a chart's Chart.yaml.
func IsChartFile(p string) bool { return filepath.Base(p) == "Chart.yaml" }

// ChartRoots returns the chart directories among walked file paths: those
// holding a Chart.yaml, found by name (no file is read or parsed), except
// charts vendored below another chart's charts/ folder, which render with
// their parent. Sorted.
func ChartRoots(paths []string) []string {
	var dirs []string
	for _, p := range paths {
		if IsChartFile(p) {
			dirs = append(dirs, filepath.Dir(p))
		}
	}
	sort.Strings(dirs)
	var out []string
	for _, d := range dirs {
		if len(out) > 0 && InsideChart(out, d) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// InsideChart reports whether path p is one of the (sorted) chart
// directories or lies below one.
func InsideChart(charts []string, p string) bool {
	for d := p; ; {
		if k := sort.SearchStrings(charts, d); k < len(charts) && charts[k] == d {
			return true
		}
		nd := filepath.Dir(d)
		if nd == d || nd == "." && d == "." {
			return false
		}
		d = nd
	}
}
