package chart

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/Masterminds/semver/v3"
	"helm.sh/helm/v4/pkg/chart/loader/archive"
	chartv2 "helm.sh/helm/v4/pkg/chart/v2"

	"github.com/scalelint/scalelint/analyzer/render"
)

// A dependency of Chart.yaml that charts/ does not hold is taken, when it
// can be, from the tree being checked, as a monorepo of charts holds it
// (bitnami/charts: every chart depends on bitnami/common, published to a
// registry, and the repository holds its source):
//
//   - a file:// repository names the directory, relative to the chart, as
//     helm dependency build resolves it (helm's internal/resolver
//     GetLocalPath): exact, that is the chart helm would vendor;
//   - any other repository: the sibling directory named as the dependency
//     (<chart's parent>/<name>), when its Chart.yaml names the same chart
//     and its version satisfies the dependency's constraint (Masterminds
//     semver, as helm checks it). A stand-in: the published chart of that
//     version may differ from the repository's copy, and the finding that
//     reports it says so.
//
// Only a chart directory of the tree being checked is taken
// (LoadOptions.Charts): nothing is fetched, and nothing outside the paths
// checked is read. The chart taken is loaded as if vendored at
// charts/<name> (Helm's loader, conditions, tags, aliases and
// import-values then apply as to any subchart), with its own dependencies
// taken the same way, at most maxDepth deep, a chart never below itself.

// maxDepth bounds the chain of dependencies taken from the tree.
const maxDepth = 8

// LoadOptions say how a chart is read.
type LoadOptions struct {
	Limits render.Limits
	// Overlay holds the editor's unsaved texts (by path on disk), read
	// instead of the disk's.
	Overlay map[string][]byte
	// Charts reports whether a directory (a path on disk, cleaned) holds a
	// chart of the tree being checked: a dependency not vendored is taken
	// from such a directory only. Nil: from none.
	Charts func(dir string) bool
	// Trees, when set, shares the dependency directories read among the
	// charts of a run (NewTrees). Nil: each chart reads its own.
	Trees *Trees
}

// source is a dependency taken from the tree: the directory below the
// chart it is loaded at (charts/NAME), and its directory on disk.
type source struct {
	at, dir string
}

// candidate returns the directory a dependency not vendored may be taken
// from, and whether a file:// repository names it.
func candidate(chartDir string, d *chartv2.Dependency) (string, bool) {
	if p, ok := strings.CutPrefix(d.Repository, "file://"); ok {
		if filepath.IsAbs(p) {
			return filepath.Clean(p), true
		}
		return filepath.Join(chartDir, filepath.FromSlash(p)), true
	}
	return filepath.Join(filepath.Dir(filepath.Clean(chartDir)), d.Name), false
}

// metadata reads a chart's Chart.yaml (and requirements.yaml, where a
// chart of apiVersion v1 lists its dependencies) through Helm's loader.
func metadata(dir string, read func(string) ([]byte, bool)) (*chartv2.Metadata, bool) {
	data, ok := read(filepath.Join(dir, "Chart.yaml"))
	if !ok {
		return nil, false
	}
	files := []*archive.BufferedFile{{Name: "Chart.yaml", Data: data}}
	if req, ok := read(filepath.Join(dir, "requirements.yaml")); ok {
		files = append(files, &archive.BufferedFile{Name: "requirements.yaml", Data: req})
	}
	ch, err := loadFiles(files)
	if err != nil || ch.Metadata == nil {
		return nil, false
	}
	return ch.Metadata, true
}

// stands says why a chart does not stand for a dependency ("" when it
// does): it is another chart, or its version does not satisfy the
// dependency's constraint (helm's resolver: semver.NewConstraint, Check).
func stands(d *chartv2.Dependency, dir string, m *chartv2.Metadata) string {
	if m.Name != d.Name {
		return fmt.Sprintf("%s is chart %q", dir, m.Name)
	}
	c, err := semver.NewConstraint(d.Version)
	if err != nil {
		return fmt.Sprintf("its version constraint %q does not parse: %v", d.Version, err)
	}
	v, err := semver.NewVersion(m.Version)
	if err != nil {
		return fmt.Sprintf("%s has version %q, which does not parse: %v", dir, m.Version, err)
	}
	if !c.Check(v) {
		return fmt.Sprintf("%s has version %s, which does not satisfy %s", dir, m.Version, d.Version)
	}
	return ""
}

// resolution is what was decided for a dependency not vendored.
type resolution struct {
	dir  string // the chart taken; "" when none
	file bool   // named by a file:// repository
	meta *chartv2.Metadata
	why  string // why the candidate was not taken; "" when there was none
}

// resolve decides where a dependency not vendored of the chart at dir is
// taken from. stack holds the directories of the charts being taken
// (the root first), cleaned.
func resolve(dir string, d *chartv2.Dependency, charts func(string) bool, read func(string) ([]byte, bool), stack []string) resolution {
	cand, file := candidate(dir, d)
	r := resolution{file: file}
	if charts == nil || !charts(cand) {
		if file {
			r.why = fmt.Sprintf("its file:// source %s is not a chart among the paths checked", cand)
		}
		return r
	}
	for _, s := range stack {
		if s == filepath.Clean(cand) {
			r.why = fmt.Sprintf("%s depends on this chart in turn (a cycle)", cand)
			return r
		}
	}
	if len(stack) > maxDepth {
		r.why = fmt.Sprintf("%s would be more than %d levels of dependencies deep", cand, maxDepth)
		return r
	}
	m, ok := metadata(cand, read)
	if !ok {
		r.why = fmt.Sprintf("the Chart.yaml of %s does not load", cand)
		return r
	}
	if why := stands(d, cand, m); why != "" {
		r.why = why
		return r
	}
	r.dir, r.meta = cand, m
	return r
}

// taken is the message of a dependency taken from the tree.
func taken(d *chartv2.Dependency, r resolution) string {
	head := fmt.Sprintf("dependency %q is not vendored in charts/; rendered with %s", d.Name, r.dir)
	switch {
	case r.file:
		return fmt.Sprintf("%s (version %s), which its repository %s names, as helm dependency build would vendor it", head, r.meta.Version, d.Repository)
	case d.Repository == "":
		return fmt.Sprintf("%s (version %s, which satisfies %s) from this repository, which helm would render only if charts/ held the same", head, r.meta.Version, d.Version)
	}
	return fmt.Sprintf("%s (version %s, which satisfies %s) from this repository, which helm dependency build would vendor only if the chart published at %s is the same", head, r.meta.Version, d.Version, d.Repository)
}

// DependencyDirs returns the directories Load would read for a chart's
// dependencies besides the chart's own: every candidate looked at (taken
// or not: a change there may change what is taken), and, through those
// taken, theirs. The inputs of the chart's renders with its own files.
// Every dependency is looked at, vendored or not (an over-approximation:
// Chart.yaml alone does not say what charts/ holds). read returns a
// file's text.
func DependencyDirs(dir string, charts func(string) bool, read func(string) ([]byte, bool)) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(dir string, stack []string)
	walk = func(dir string, stack []string) {
		m, ok := metadata(dir, read)
		if !ok {
			return
		}
		for _, d := range m.Dependencies {
			if d == nil {
				continue
			}
			r := resolve(dir, d, charts, read, stack)
			if cand, _ := candidate(dir, d); charts != nil && charts(cand) && !seen[cand] {
				seen[cand] = true
				out = append(out, cand)
			}
			if r.dir != "" {
				walk(r.dir, append(stack[:len(stack):len(stack)], filepath.Clean(r.dir)))
			}
		}
	}
	walk(dir, []string{filepath.Clean(dir)})
	return out
}

// at returns the directory below the chart a dependency taken from the
// tree is loaded at: charts/NAME below its parent's, unless the chart's
// files already hold that path (then NAME-2, ...). Helm's loader takes
// any directory of charts/ whose name does not start with _ or . as a
// subchart.
func (c *Chart) at(parent, name string) string {
	base := path.Join(parent, "charts", name)
	for i := 1; ; i++ {
		p := base
		if i > 1 {
			p = fmt.Sprintf("%s-%d", base, i)
		}
		if !c.holds(p) {
			return p
		}
	}
}

// holds reports whether a file read lies at or below a slash path.
func (c *Chart) holds(p string) bool {
	for rel := range c.data {
		if rel == p || strings.HasPrefix(rel, p+"/") {
			return true
		}
	}
	for _, s := range c.sources {
		if s.at == p {
			return true
		}
	}
	return false
}

// diskPath returns the path on disk of a slash path below the chart: in
// the directory of the dependency taken from the tree that it lies in, if
// any.
func (c *Chart) diskPath(rel string) string {
	best := -1
	for i, s := range c.sources {
		if (rel == s.at || strings.HasPrefix(rel, s.at+"/")) && (best < 0 || len(s.at) > len(c.sources[best].at)) {
			best = i
		}
	}
	if best < 0 {
		return filepath.Join(c.Dir, filepath.FromSlash(rel))
	}
	s := c.sources[best]
	return filepath.Join(s.dir, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(rel, s.at), "/")))
}

// Path returns the path on disk of a file of the chart (Files): below the
// chart's directory, or below a dependency's taken from the tree.
func (c *Chart) Path(rel string) string { return c.diskPath(rel) }
