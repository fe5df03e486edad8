package chart

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	yaml "go.yaml.in/yaml/v3"
	"helm.sh/helm/v4/pkg/chart/loader/archive"
	chartv2 "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/ignore"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render"
)

// Chart is a chart read from disk, rendered once per value set.
type Chart struct {
	Dir  string // as given
	Name string
	// Missing are the dependencies of Chart.yaml that charts/ does not
	// hold; the chart renders without them.
	Missing []string

	files []*archive.BufferedFile
	data  map[string][]byte // by slash path below Dir
	// chartDirs maps the first byte of each Chart.yaml read (root and
	// vendored subcharts) to the chart's directory below Dir ("" for the
	// root), to find a loaded chart's files on disk.
	chartDirs map[*byte]string
	lim       render.Limits

	mu     sync.Mutex
	parsed map[string]*render.YAML // values files parsed for locating
}

// Load reads a chart directory. The files are read once, confined to the
// directory; each Render loads them afresh, as the dependencies a value set
// enables change the chart.
//
// overlay, when not nil, holds the editor's unsaved texts (by path on
// disk), read instead of the disk's.
func Load(dir string, lim render.Limits, overlay map[string][]byte) (*Chart, []render.Problem) {
	lim = lim.WithDefaults()
	rules := ignore.Empty()
	c := &Chart{Dir: dir, data: map[string][]byte{}, chartDirs: map[*byte]string{}, lim: lim, parsed: map[string]*render.YAML{}}
	if data, err := render.ReadFile(filepath.Join(dir, ignore.HelmIgnore), lim.MaxInput); err == nil {
		if r, err := ignore.Parse(bytes.NewReader(data)); err == nil {
			rules = r
		}
	}
	rules.AddDefaults()
	ignored := func(rel string) bool {
		isDir := strings.HasSuffix(rel, "/")
		return rules.Ignore(strings.TrimSuffix(rel, "/"), fakeInfo{isDir})
	}
	helmLoads := func(rel string) bool {
		return !ignored(rel) && !(strings.HasPrefix(rel, "ci/") && ignored("ci/"))
	}
	// The ci/*-values.yaml value sets are read whatever .helmignore
	// says: chart-testing reads them from the directory (charts that keep
	// ci/ out of their package, as argo-cd's and argo-workflows' do, are
	// tested with them all the same); they are value sets, not files of
	// the chart Helm loads.
	keep := func(rel string) bool { return rel == "ci/" || isCIValues(rel) || helmLoads(rel) }
	tree, problems := render.ReadTree(dir, lim, keep)
	for _, f := range render.WithOverlay(dir, tree, overlay) {
		data := bytes.TrimPrefix(f.Data, []byte("\xef\xbb\xbf"))
		if !helmLoads(f.Rel) {
			if isCIValues(f.Rel) {
				c.data[f.Rel] = data
			}
			continue
		}
		c.data[f.Rel] = data
		c.files = append(c.files, &archive.BufferedFile{Name: f.Rel, ModTime: time.Time{}, Data: data})
		if path.Base(f.Rel) == "Chart.yaml" && len(data) > 0 {
			if d := path.Dir(f.Rel); d == "." || isSubchartDir(d) {
				c.chartDirs[&data[0]] = strings.TrimPrefix(d, ".")
			}
		}
	}
	ch, err := loader.LoadFiles(c.files)
	if err != nil {
		problems = append(problems, render.Problem{Rule: render.RuleError, Path: filepath.Join(dir, "Chart.yaml"),
			Message: fmt.Sprintf("chart does not load: %v; not rendered", err)})
		return nil, problems
	}
	if ch.Metadata == nil {
		problems = append(problems, render.Problem{Rule: render.RuleError, Path: filepath.Join(dir, "Chart.yaml"), Message: "chart has no Chart.yaml metadata; not rendered"})
		return nil, problems
	}
	c.Name = ch.Metadata.Name
	problems = append(problems, c.findMissing(ch)...)
	return c, problems
}

// isCIValues reports whether a slash path below a chart names one of its
// chart-testing value sets, ci/*-values.yaml (ValueSets).
func isCIValues(rel string) bool {
	return path.Dir(rel) == "ci" && strings.HasSuffix(rel, "-values.yaml")
}

// isSubchartDir reports whether a slash path names a vendored subchart
// directory: charts/NAME, charts/NAME/charts/OTHER, ...
func isSubchartDir(d string) bool {
	parts := strings.Split(d, "/")
	if len(parts)%2 != 0 {
		return false
	}
	for i := 0; i < len(parts); i += 2 {
		if parts[i] != "charts" {
			return false
		}
	}
	return true
}

// findMissing reports each dependency of Chart.yaml that charts/ does not
// hold, once, at its entry.
func (c *Chart) findMissing(ch *chartv2.Chart) []render.Problem {
	have := map[string]bool{}
	for _, d := range ch.Dependencies() {
		have[d.Name()] = true
	}
	var out []render.Problem
	// Dependencies are listed in Chart.yaml, or in requirements.yaml for
	// a chart of apiVersion v1.
	file := "Chart.yaml"
	if _, ok := c.data["requirements.yaml"]; ok {
		if y := render.ParseYAML(c.data[file]); len(y.Docs) == 0 || hasNoKey(y.Docs[0], "dependencies") {
			file = "requirements.yaml"
		}
	}
	y := render.ParseYAML(c.data[file])
	for i, d := range ch.Metadata.Dependencies {
		if d == nil || have[d.Name] {
			continue
		}
		c.Missing = append(c.Missing, d.Name)
		p := render.Problem{Rule: render.RuleIncomplete, Path: filepath.Join(c.Dir, file),
			Message: fmt.Sprintf("dependency %q is not vendored in charts/; the chart is rendered without it (run helm dependency build %s to lint it too)", d.Name, c.Dir)}
		if len(y.Docs) > 0 {
			if k, _ := render.Lookup(y.Docs[0], manifest.Path{manifest.Key("dependencies"), manifest.Index(i), manifest.Key("name")}); k != nil {
				p.Line, p.Col = k.Line, k.Column
			}
		}
		out = append(out, p)
	}
	sort.Strings(c.Missing)
	return out
}

// hasNoKey reports whether a mapping node lacks a key.
func hasNoKey(n *yaml.Node, key string) bool {
	k, _ := render.Lookup(n, manifest.Path{manifest.Key(key)})
	return k == nil
}

// values returns a values file of the chart parsed for locating.
func (c *Chart) valuesYAML(file string, data []byte) *render.YAML {
	c.mu.Lock()
	defer c.mu.Unlock()
	if y, ok := c.parsed[file]; ok {
		return y
	}
	y := render.ParseYAML(data)
	c.parsed[file] = y
	return y
}

// Files returns the slash paths below the chart directory of every file
// read, sorted.
func (c *Chart) Files() []string {
	out := make([]string, 0, len(c.data))
	for rel := range c.data {
		out = append(out, rel)
	}
	sort.Strings(out)
	return out
}

// Data returns a file of the chart by its slash path below the chart
// directory.
func (c *Chart) Data(rel string) ([]byte, bool) {
	d, ok := c.data[rel]
	return d, ok
}

type fakeInfo struct{ dir bool }

func (f fakeInfo) Name() string       { return "" }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() fs.FileMode  { return map[bool]fs.FileMode{true: fs.ModeDir}[f.dir] }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return f.dir }
func (f fakeInfo) Sys() any           { return nil }
