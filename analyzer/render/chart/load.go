package chart

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
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
	// Missing are the dependencies of Chart.yaml (the chart's, or those
	// of a dependency taken from the tree) that charts/ does not hold and
	// the tree does not give; the chart renders without them.
	Missing []string

	files []*archive.BufferedFile
	data  map[string][]byte // by slash path below Dir
	// chartDirs maps the first byte of each Chart.yaml read (root,
	// vendored subcharts, dependencies taken from the tree) to the
	// chart's directory below Dir ("" for the root), to find a loaded
	// chart's files on disk.
	chartDirs map[*byte]string
	// sources are the dependencies taken from the tree (deps.go), loaded
	// as if vendored below charts/.
	sources []source
	lim     render.Limits
	size    int // bytes read, of every tree
	count   int // files read, of every tree

	mu     sync.Mutex
	parsed map[string]*render.YAML // values files parsed for locating

	// The templates instrumented, shared by every value set's render
	// (Render): a template's markers do not depend on the values, so it
	// is parsed and marked once per chart, not once per value set, and
	// the renders' locators share one table of marks.
	instMu       sync.Mutex
	instrumented map[string]instrumentedTemplate // by template key
	marks        []mark                          // of every template instrumented; append only

	base loadedChart // the chart as loaded once, copied for each render (clone.go)

	released []string // the files whose bytes Release dropped
	trees    *Trees   // the run's dependency directories read (LoadOptions.Trees)
}

// instrumentedTemplate is a template's text with its markers inserted,
// and the text it was made from.
type instrumentedTemplate struct {
	src, text string
}

// treeFile is a file of a chart directory read: its slash path below the
// directory, and whether Helm's loader reads it (else it is a ci/ value
// set).
type treeFile struct {
	rel   string
	data  []byte
	loads bool
}

// Load reads a chart directory, and the dependencies charts/ does not
// hold that the tree being checked gives (deps.go). The files are read
// once, confined to each directory, within one input limit; each Render
// loads them afresh, as the dependencies a value set enables change the
// chart.
func Load(dir string, opts LoadOptions) (*Chart, []render.Problem) {
	// Helm's loader logs on the process's standard error (a v2 chart's
	// requirements.yaml: pkg/chart/v2/loader/load.go), as its renders do
	// (render.Hush).
	defer render.Hush()()
	lim := opts.Limits.WithDefaults()
	c := &Chart{Dir: dir, data: map[string][]byte{}, chartDirs: map[*byte]string{}, lim: lim, parsed: map[string]*render.YAML{}, trees: opts.Trees}
	files, problems := c.readChart(dir, true, opts.Overlay)
	c.commit(files, "")
	ch, err := loadFiles(c.files)
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
	problems = append(problems, c.dependencies(ch, dir, "", opts, []string{filepath.Clean(dir)})...)
	sort.Strings(c.Missing)
	c.Missing = slices.Compact(c.Missing)
	return c, problems
}

// readChart reads the files of a chart directory that Helm's loader reads
// (.helmignore honoured), and, for the root, the files of its value sets
// (isValueSetFile), within what the input limits leave.
func (c *Chart) readChart(dir string, root bool, overlay map[string][]byte) ([]treeFile, []render.Problem) {
	lim := c.lim
	lim.MaxInput -= c.size
	lim.MaxFiles -= c.count
	if lim.MaxInput <= 0 || lim.MaxFiles <= 0 {
		return nil, []render.Problem{{Rule: render.RuleLimit, Path: dir,
			Message: fmt.Sprintf("the files of %s and of its dependencies are over the input limit of %d bytes or %d files; %s is not read", c.Dir, c.lim.MaxInput, c.lim.MaxFiles, dir)}}
	}
	var rules *ignore.Rules
	var tree []render.TreeFile
	var problems []render.Problem
	if d, ok := c.trees.get(dir, c.lim, root); ok && d.fits(lim) {
		// Read by another chart of the run, in full, and within what
		// this chart's limits leave: what reading it again would give.
		rules, tree = d.rules, d.tree
	} else {
		rules, tree, problems = readDir(dir, root, lim)
	}
	var out []treeFile
	for _, f := range render.WithOverlay(dir, tree, overlay) {
		c.size += len(f.Data)
		c.count++
		data := bytes.TrimPrefix(f.Data, []byte("\xef\xbb\xbf"))
		loads := helmLoads(rules, f.Rel)
		if !loads && !(root && isValueSetFile(f.Rel)) {
			continue
		}
		out = append(out, treeFile{rel: f.Rel, data: data, loads: loads})
	}
	return out, problems
}

// readDir reads a chart directory: its .helmignore rules, and the files
// Helm's loader reads (.helmignore honoured) and, for the root, its
// ci/*-values.yaml value sets (read whatever .helmignore says:
// chart-testing reads them from the directory; charts that keep ci/ out
// of their package, as argo-cd's and argo-workflows' do, are tested with
// them all the same; they are value sets, not files of the chart Helm
// loads; a dependency's are not value sets of the chart that depends on
// it), within lim.
func readDir(dir string, root bool, lim render.Limits) (*ignore.Rules, []render.TreeFile, []render.Problem) {
	rules := ignore.Empty()
	if data, err := render.ReadFile(filepath.Join(dir, ignore.HelmIgnore), lim.MaxInput); err == nil {
		if r, err := ignore.Parse(bytes.NewReader(data)); err == nil {
			rules = r
		}
	}
	rules.AddDefaults()
	keep := func(rel string) bool { return root && (rel == "ci/" || isValueSetFile(rel)) || helmLoads(rules, rel) }
	// Confined to the chart's repository, not to its directory: Helm's
	// loader follows a link to a sibling directory of the repository.
	tree, problems := render.ReadTree(dir, render.RepositoryRoot(dir), lim, keep)
	return rules, tree, problems
}

// helmLoads reports whether Helm's loader reads a file (a slash path below
// the chart; a directory's ends in "/") under a chart's .helmignore rules.
func helmLoads(rules *ignore.Rules, rel string) bool {
	ignored := func(rel string) bool {
		isDir := strings.HasSuffix(rel, "/")
		return rules.Ignore(strings.TrimSuffix(rel, "/"), fakeInfo{isDir})
	}
	return !ignored(rel) && !(strings.HasPrefix(rel, "ci/") && ignored("ci/"))
}

// commit adds the files read of a chart directory to the chart, at a
// slash path below it ("" for the chart's own).
func (c *Chart) commit(files []treeFile, at string) {
	for _, f := range files {
		rel := path.Join(at, f.rel)
		c.data[rel] = f.data
		if !f.loads {
			continue
		}
		c.files = append(c.files, &archive.BufferedFile{Name: rel, ModTime: time.Time{}, Data: f.data})
		if path.Base(f.rel) == "Chart.yaml" && len(f.data) > 0 {
			if d := path.Dir(f.rel); d == "." || isSubchartDir(d) {
				c.chartDirs[&f.data[0]] = path.Join(at, strings.TrimPrefix(d, "."))
			}
		}
	}
}

// isValueSetFile reports whether a slash path below a chart names a file
// of one of its own value sets (ValueSets): ci/*-values.yaml, or a values
// file beside values.yaml.
func isValueSetFile(rel string) bool { return isCIValues(rel) || isSiblingValues(rel) }

// isSiblingValues reports whether a slash path below a chart names a
// values file beside its values.yaml: values-prod.yaml, values.lint.yaml,
// values_ha.yml (a name that starts with "values" and a separator).
func isSiblingValues(rel string) bool {
	ext := path.Ext(rel)
	if strings.Contains(rel, "/") || ext != ".yaml" && ext != ".yml" {
		return false
	}
	stem := strings.TrimSuffix(rel, ext)
	return len(stem) > len("values.") && strings.HasPrefix(stem, "values") && strings.ContainsRune("-._", rune(stem[len("values")]))
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

// dependencies takes each dependency of a loaded chart (the root, or one
// taken from the tree, at a slash path below the root; dir on disk) that
// its charts/ does not hold from the tree when it can (deps.go), and
// reports each once, at its entry: the chart it was rendered with, or that
// the chart renders without it.
func (c *Chart) dependencies(ch *chartv2.Chart, dir, at string, opts LoadOptions, stack []string) []render.Problem {
	have := map[string]bool{}
	for _, d := range ch.Dependencies() {
		have[d.Name()] = true
	}
	// Dependencies are listed in Chart.yaml, or in requirements.yaml for
	// a chart of apiVersion v1.
	file := path.Join(at, "Chart.yaml")
	if req := path.Join(at, "requirements.yaml"); c.data[req] != nil {
		if y := render.ParseYAML(c.data[file]); len(y.Docs) == 0 || hasNoKey(y.Docs[0], "dependencies") {
			file = req
		}
	}
	y := render.ParseYAML(c.data[file])
	read := func(p string) ([]byte, bool) {
		if data, ok := opts.Overlay[p]; ok {
			return data, true
		}
		data, err := render.ReadFile(p, c.lim.MaxInput)
		return data, err == nil
	}
	var out []render.Problem
	took := map[string]resolution{}
	for i, d := range ch.Metadata.Dependencies {
		if d == nil || have[d.Name] {
			continue
		}
		p := render.Problem{Rule: render.RuleIncomplete, Path: c.diskPath(file)}
		if len(y.Docs) > 0 {
			if k, _ := render.Lookup(y.Docs[0], manifest.Path{manifest.Key("dependencies"), manifest.Index(i), manifest.Key("name")}); k != nil {
				p.Line, p.Col = k.Line, k.Column
			}
		}
		r, again := took[d.Name]
		switch {
		case again:
			// Another entry of the same chart (another alias): the
			// chart taken serves it too, when it stands for it.
			if why := stands(d, r.dir, r.meta); why != "" {
				r = resolution{why: why}
			}
		default:
			r = resolve(dir, d, opts.Charts, read, stack)
			if r.dir != "" {
				ps, why := c.take(d, r, at, opts, stack)
				out = append(out, ps...)
				if why != "" {
					r = resolution{why: why}
				} else {
					took[d.Name] = r
				}
			}
		}
		if r.dir != "" {
			p.Message = taken(d, r)
			out = append(out, p)
			continue
		}
		c.Missing = append(c.Missing, d.Name)
		p.Message = fmt.Sprintf("dependency %q is not vendored in charts/; the chart is rendered without it (run helm dependency build %s to lint it too)", d.Name, dir)
		if r.why != "" {
			p.Message += "; " + r.why
		}
		out = append(out, p)
	}
	return out
}

// take reads a dependency's chart from the tree and adds it below the
// chart at charts/NAME of its parent (at), with its own dependencies taken
// the same way. When the chart taken does not load, it says why, and the
// chart is rendered without it (its own render reports the error).
func (c *Chart) take(d *chartv2.Dependency, r resolution, parent string, opts LoadOptions, stack []string) ([]render.Problem, string) {
	files, problems := c.readChart(r.dir, false, opts.Overlay)
	for _, p := range problems {
		if p.Rule == render.RuleLimit {
			// Part of a chart is no stand-in for it.
			return problems, fmt.Sprintf("%s is not read in full (the input limit)", r.dir)
		}
	}
	var buf []*archive.BufferedFile
	for _, f := range files {
		if f.loads {
			buf = append(buf, &archive.BufferedFile{Name: f.rel, Data: f.data})
		}
	}
	sub, err := loadFiles(buf)
	if err == nil && sub.Metadata == nil {
		err = fmt.Errorf("no Chart.yaml metadata")
	}
	if err != nil {
		return problems, fmt.Sprintf("%s does not load: %v", r.dir, err)
	}
	at := c.at(parent, d.Name)
	c.sources = append(c.sources, source{at: at, dir: r.dir})
	c.commit(files, at)
	return append(problems, c.dependencies(sub, r.dir, at, opts, append(stack[:len(stack):len(stack)], filepath.Clean(r.dir)))...), ""
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
// read, sorted: a dependency taken from the tree at charts/NAME as it is
// loaded (Path says where each is on disk). After Release, Data has the
// bytes of only some of them.
func (c *Chart) Files() []string {
	out := make([]string, 0, len(c.data)+len(c.released))
	for rel := range c.data {
		out = append(out, rel)
	}
	out = append(out, c.released...)
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

// Release drops what only the renders read, for a one-shot run that has
// rendered every value set of the chart (the command line): the
// templates as instrumented, the files given to Helm's loader, and the
// bytes of every file no location names (MayBeNamed). Locating still
// works; Render must not be called again.
func (c *Chart) Release() {
	c.instMu.Lock()
	c.instrumented = nil
	c.instMu.Unlock()
	c.files = nil
	c.base.ch = nil
	for rel := range c.data {
		if !MayBeNamed(rel) {
			delete(c.data, rel)
			c.released = append(c.released, rel)
		}
	}
}

// MayBeNamed reports whether a location may name a chart's file (a slash
// path below it): a template (a file below a templates/ directory), or a
// YAML file (Chart.yaml, values files, requirements.yaml). A README, a
// changelog or a file below files/ is read by the renders only.
func MayBeNamed(rel string) bool {
	return strings.HasPrefix(rel, "templates/") || strings.Contains(rel, "/templates/") ||
		strings.HasSuffix(rel, ".yaml") || strings.HasSuffix(rel, ".yml")
}

// loadFiles is Helm's loader.LoadFiles, hushed (render.Hush): the loader
// logs a v2 chart's requirements.yaml on the standard logger, and it is
// called outside Load and Render too (DependencyDirs, AutoscalingVariants),
// where the output went to the user's terminal unless another load or
// render happened to run at that moment.
func loadFiles(files []*archive.BufferedFile) (*chartv2.Chart, error) {
	defer render.Hush()()
	return loader.LoadFiles(files)
}
