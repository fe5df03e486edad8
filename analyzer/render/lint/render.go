package lint

import (
	"context"
	"go/token"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/chart"
	"github.com/scalelint/scalelint/analyzer/render/kustomize"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// Options are what a run renders with.
type Options struct {
	Analyzers []*analyzer.Analyzer
	Config    *analyzer.Config // nil: the built-in configuration
	// Values and Set are the command line's --values files (paths on
	// disk) and --set assignments: one more value set for every chart.
	Values, Set []string
	// KubeVersion is the Kubernetes version charts see in .Capabilities
	// ("": the configuration's kubernetes-version, else
	// chart.DefaultKubeVersion).
	KubeVersion string
	// Overlay holds the editor's unsaved texts by path on disk (the
	// language server), read instead of the disk's.
	Overlay map[string][]byte
	// Kinds are parsed as each unit's workspace is built (as the language
	// server's workspaces do: workspace.Options.Kinds).
	Kinds []string
	// RelativeTo, when set, is the directory the kustomization roots are
	// named relative to in findings (the language server's workspace
	// folder; the command line names them as the paths it was given).
	RelativeTo string
	// Release is for a one-shot run (the command line): each unit drops
	// its documents' node trees once linted (workspace.Options.Release),
	// and its locators their parse of the rendered text once its findings
	// and its objects' kinds and names are located (render.Releaser); a
	// later Locate of another place parses again. Without it (the
	// language server, which locates anything a request asks) they are
	// kept.
	Release bool

	// Pass, when set, is shared by several Render calls (NewPass).
	Pass *Pass

	// renders holds a token per render or build in flight (Render sets
	// it): a chart's value sets render in parallel, and so do the charts,
	// but no more renders are in memory at once than there are
	// processors.
	renders chan struct{}
	// trees shares the dependency directories the charts take from the
	// tree (chart.Trees; Render sets it).
	trees *chart.Trees
}

// Pass is what the Render calls of one pass over a repository share when
// they are made apart (the language server renders each chart on its own,
// to keep each in its cache under the key of its own inputs), as one
// Render's charts share them: no more renders in flight at once than
// there are processors, over all the calls, and each dependency directory
// taken from the tree read once (chart.Trees).
type Pass struct {
	renders chan struct{}
	trees   *chart.Trees
}

// NewPass returns a pass for Render calls made together (Options.Pass).
func NewPass() *Pass {
	return &Pass{renders: make(chan struct{}, runtime.GOMAXPROCS(0)), trees: chart.NewTrees()}
}

// rendering runs one render or build, and its lint, once a processor is
// free for it.
func (o Options) rendering(f func()) {
	if o.renders != nil {
		o.renders <- struct{}{}
		defer func() { <-o.renders }()
	}
	if inFlight != nil {
		inFlight(1)
		defer inFlight(-1)
	}
	f()
}

// inFlight, when set (by a test), is told of each render that starts
// (+1) and ends (-1).
var inFlight func(delta int)

func (o Options) config() *analyzer.Config {
	if o.Config == nil {
		return analyzer.DefaultConfig()
	}
	return o.Config
}

// Unit is one deployment: a chart rendered with one value set, or one
// kustomization root built, linted in a workspace of its own.
type Unit struct {
	Kind string // "helm" or "kustomize"
	// Root is the chart directory, or the kustomization root's directory;
	// Set the value set's name, or the root's directory again.
	Root, Set string
	// Dir is the chart's or the kustomization root's directory, as a path
	// on disk ("" for several roots linted together: DeployTogether).
	Dir string
	// Variant is set on an autoscaling variant of a chart: a value set
	// scalelint made up to check an autoscaler the chart's defaults leave
	// out (chart.AutoscalingVariants), which no one declared.
	Variant   bool
	Workspace *workspace.Workspace
	// Shared holds the run's law evaluations (analyzer.RunWith).
	Shared *analyzer.Shared
	// Diags are the findings of the run, at rendered positions.
	Diags []analyzer.Diagnostic

	anchor    string                            // the file a finding without a place goes to
	outputs   []*render.File                    // what the render produced
	namespace string                            // of objects that set none
	locators  map[*manifest.File]render.Locator // by rendered file
	located   []located                         // Diags, located in their sources
	// placed holds the locations of its objects' kinds and names, taken
	// before the locators were released (Options.Release): what the
	// report's counts and the sources read ask for.
	placed map[[2]token.Pos]render.Location
	// skipped names the templates the render left out (they stopped
	// it): a variant built on this value set starts without them.
	skipped []string
	// beside is the values file of a value set beside values.yaml
	// (chart.ValueSet.Beside), as the chart names it.
	beside string
}

// setKey names a value set of the chart (or kustomization root) at a
// directory: two charts may each have a set of one name, declared in one
// and guessed in the other (values-prod.yaml).
type setKey struct{ root, set string }

// Result is what a run rendered: its units and what could not be rendered.
type Result struct {
	Units    []*Unit
	Problems []render.Problem

	opts Options
	// variants names the value sets no one declared: the autoscaling
	// variants, and the values files beside a values.yaml (what only they
	// find is a warning at most).
	variants  map[setKey]bool
	rendering map[string]workspace.Rendering
	sources   map[string][]byte // the text of every file a finding may name
	inputs    map[string]bool   // files the renders read that no finding names (chart.MayBeNamed)
	positions Positions         // set by Diagnostics, for Place
	isSource  func(string) bool // the plan's chart sources (Plan.IsSource), for RenderReleases
	// releasers are the plan's kustomization files whose helmCharts of
	// local charts RenderReleases renders (Plan.Releasers).
	releasers []string

	unitsOnce sync.Once
	unitOf    map[*manifest.File]*Unit // by rendered file (PlaceOf)
}

// Read returns the paths of the files the renders read (charts' files,
// kustomization trees): inputs an output must not replace.
func (r *Result) Read() []string {
	if r == nil {
		return nil
	}
	out := make([]string, 0, len(r.sources)+len(r.inputs))
	for p := range r.sources {
		out = append(out, p)
	}
	for p := range r.inputs {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// Rendering says how the per-file reading treats a path (workspace.Options.Rendered).
func (r *Result) Rendering(path string) workspace.Rendering {
	if r == nil {
		return workspace.NotRendered
	}
	return r.rendering[filepath.Clean(path)]
}

// EachRendered calls f with every path the result lints through a render
// and how (cleaned paths): one pass over what was rendered, where asking
// Rendering of every path of a workspace for every chart costs a
// repository of charts a quadratic number of lookups.
func (r *Result) EachRendered(f func(path string, how workspace.Rendering)) {
	if r == nil {
		return
	}
	for p, how := range r.rendering {
		f(p, how)
	}
}

// Render renders and lints everything the plan names, a few charts and
// roots at a time.
func Render(ctx context.Context, plan Plan, opts Options) *Result {
	if opts.Pass == nil {
		opts.Pass = NewPass()
	}
	opts.renders, opts.trees = opts.Pass.renders, opts.Pass.trees
	r := &Result{opts: opts, variants: map[setKey]bool{}, rendering: map[string]workspace.Rendering{}, sources: map[string][]byte{}, inputs: map[string]bool{}}
	var mu sync.Mutex
	var jobs []func()
	sources := plan.IsSource()
	r.isSource = sources
	r.releasers = plan.Releasers
	for _, dir := range plan.Charts {
		jobs = append(jobs, func() {
			units, problems, files, variants := renderChart(ctx, dir, sources, opts)
			mu.Lock()
			defer mu.Unlock()
			r.add(units, problems, files.data, workspace.RenderedChart)
			for _, p := range files.only {
				p = filepath.Clean(p)
				r.inputs[p] = true
				r.rendering[p] = workspace.RenderedChart
			}
			for _, v := range variants {
				r.variants[setKey{dir, v}] = true
			}
		})
	}
	var tree *kustomize.Tree
	built := map[string]bool{}
	if len(plan.Kustomizations) > 0 {
		tree = kustomize.Open(plan.Kustomizations, opts.config().RenderLimits, opts.Overlay)
		for _, root := range tree.Roots() {
			jobs = append(jobs, func() {
				var u *Unit
				var problems []render.Problem
				opts.rendering(func() { u, problems = buildRoot(ctx, tree, root, opts) })
				mu.Lock()
				defer mu.Unlock()
				r.add(nil, problems, nil, 0)
				if u != nil {
					r.Units = append(r.Units, u)
					built[root] = true
				}
			})
		}
	}
	run(jobs)
	if tree != nil {
		r.addTree(tree, built)
		if opts.Release {
			tree.ReleaseParsed()
		}
	}
	sort.SliceStable(r.Units, func(i, j int) bool {
		a, b := r.Units[i], r.Units[j]
		if a.Root != b.Root {
			return a.Root < b.Root
		}
		return a.order() < b.order()
	})
	return r
}

// order ranks a chart's value sets as they were rendered: the defaults,
// ci/ files, the autoscaling variant, the configured sets.
func (u *Unit) order() string {
	switch {
	case u.Set == chart.DefaultsName:
		return "0"
	case strings.HasPrefix(u.Set, "ci/") || u.beside != "":
		return "1" + u.Set
	case strings.HasPrefix(u.Set, chart.DefaultsName+" with "):
		return "2"
	}
	return "3" + u.Set
}

// addTree records what a kustomize tree's builds cover: the files of the
// roots that built are linted through them; every file of the tree may be
// named by a finding.
func (r *Result) addTree(tree *kustomize.Tree, built map[string]bool) {
	var ok []string
	for root := range built {
		ok = append(ok, root)
	}
	for p := range tree.Covered(ok) {
		r.rendering[filepath.Clean(p)] = workspace.RenderedYAML
	}
	for p := range tree.Covered(tree.Roots()) {
		if data, ok := tree.Data(p); ok {
			r.sources[filepath.Clean(p)] = data
		}
	}
	r.Problems = append(r.Problems, tree.Problems...)
}

func (r *Result) add(units []*Unit, problems []render.Problem, files map[string][]byte, rendering workspace.Rendering) {
	r.Units = append(r.Units, units...)
	r.Problems = append(r.Problems, problems...)
	for p, data := range files {
		p = filepath.Clean(p)
		r.sources[p] = data
		if rendering != 0 {
			r.rendering[p] = rendering
		}
	}
}

// run runs jobs on as many goroutines as there are processors.
func run(jobs []func()) {
	work := make(chan func())
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(jobs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				j()
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
}

// renderChart loads a chart (with the dependencies not vendored that the
// charts of the tree, sources, give) and renders and lints it once per
// value set. It returns the chart's files too (by path on disk: every one
// is the chart's or a dependency's, and findings point into some), and the
// names of its autoscaling variants.
func renderChart(ctx context.Context, dir string, sources func(string) bool, opts Options) ([]*Unit, []render.Problem, chartFiles, []string) {
	// The configuration that governs the chart's directory: its render
	// limits, charts and Kubernetes version.
	cfg, c, problems := loadChart(dir, sources, opts)
	if c == nil {
		return nil, problems, chartFiles{}, nil
	}
	base := renderOptions(cfg, opts)
	var extra []job
	abs, _ := filepath.Abs(dir)
	for _, ch := range cfg.Charts {
		if a, _ := filepath.Abs(cfg.ChartDir(ch)); a != abs {
			continue
		}
		o := base
		o.ReleaseName, o.Namespace = ch.ReleaseName, ch.Namespace
		if base.ReleaseName == "" && base.Namespace == "" {
			// The first entry's release is the chart's own sets' too.
			base.ReleaseName, base.Namespace = ch.ReleaseName, ch.Namespace
		}
		if len(ch.Values) > 0 || len(ch.Set) > 0 {
			extra = append(extra, job{valueSet(c, dir, cfg.ValuesFiles(ch), ch.Set), o, false})
		}
	}
	if len(opts.Values) > 0 || len(opts.Set) > 0 {
		extra = append(extra, job{valueSet(c, dir, opts.Values, opts.Set), base, false})
	}
	// A values file beside values.yaml is a value set of its own unless
	// a configured set or the command line names it: they say what it
	// is deployed with.
	declared := map[string]bool{} // by absolute path: a set names a file of the chart by its path below it, another on disk
	onDisk := func(f string) string {
		if !filepath.IsAbs(f) {
			f = c.Path(f)
		}
		a, _ := filepath.Abs(f)
		return a
	}
	for _, j := range extra {
		for _, f := range j.set.Files {
			declared[onDisk(f)] = true
		}
	}
	var jobs []job
	var guessed []string
	for _, vs := range c.ValueSets() {
		if vs.Beside {
			if declared[onDisk(vs.Files[0])] {
				continue
			}
			guessed = append(guessed, vs.Name)
		}
		jobs = append(jobs, job{vs, base, false})
	}
	jobs = append(jobs, extra...)
	out, setProblems := renderJobs(ctx, c, dir, jobs, opts)
	problems = append(problems, defaultsNeedValues(setProblems, out)...)
	// The autoscaling variants enable what the defaults leave out, on the
	// defaults when they render, else on the chart's own ci/ value set
	// closest to them (a chart whose defaults need a value, such as a
	// bucket name its templates require, is rendered by its CI with one):
	// without a base that renders, every variant would fail as the
	// defaults did, and no autoscaler of the chart would be linted.
	variants := guessed
	if sets := c.AutoscalingVariants(); len(sets) > 0 {
		if on, ok := variantBase(c, out); ok {
			// A variant only turns autoscalers on: the templates that
			// stopped its base's render would stop it again, one render
			// each, so it starts without them.
			vopts := base
			for _, u := range out {
				if u.Set == on.Name {
					vopts.Skip = u.skipped
				}
			}
			var vjobs []job
			for _, v := range sets {
				v = variantOn(v, on)
				vjobs = append(vjobs, job{v, vopts, true})
				variants = append(variants, v.Name)
			}
			vout, vproblems := renderJobs(ctx, c, dir, vjobs, opts)
			out, problems = append(out, vout...), append(problems, vproblems...)
		}
	}
	// Every value set is rendered: nothing renders this chart again (an
	// edit in the editor loads it afresh; a GitOps release's values load
	// it again, RenderReleases), and locating needs only the marks and the
	// files a finding may name (chart.Release).
	c.Release()
	// The chart's files, every one the chart's or a dependency's: the
	// run's inputs, and where findings point; the bytes are kept of those
	// a finding may name only.
	files := chartFiles{data: map[string][]byte{}}
	for _, rel := range c.Files() {
		if data, ok := c.Data(rel); ok {
			files.data[c.Path(rel)] = data
		} else {
			files.only = append(files.only, c.Path(rel))
		}
	}
	files.only = append(files.only, ignoredTemplates(c, files)...)
	return out, problems, files, variants
}

// ignoredTemplates returns the files below a chart's templates/ that its
// .helmignore keeps out of the chart (Kong's ingress chart ignores
// templates/tests): Helm never renders them, and read one by one they
// are Go templates, not manifests, reported as such (template-file) with
// advice to check the chart, which was checked. They are the chart's
// files, nothing of which is read per file. At most maxIgnored are
// listed; the walk stops at a link (ReadTree follows links, this does
// not need to: a linked directory Helm ignores is the same case).
func ignoredTemplates(c *chart.Chart, files chartFiles) []string {
	const maxIgnored = 10000
	only := make(map[string]bool, len(files.only))
	for _, p := range files.only {
		only[p] = true
	}
	var out []string
	_ = filepath.WalkDir(c.Path("templates"), func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil && d != nil && d.IsDir():
			return filepath.SkipDir
		case err != nil || len(out) >= maxIgnored:
			return filepath.SkipAll
		case !d.Type().IsRegular():
			return nil
		}
		if _, ok := files.data[p]; !ok && !only[p] {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// defaultsNeedValues makes render-incomplete the execution error of a
// chart's defaults when another of its value sets rendered: every template
// rendered with those values, so what stops the defaults is a value they
// leave out, as a chart that needs a datastore or a bucket named does
// (temporalio's chart reads server.config.persistence.datastores.default,
// null in its values.yaml and given by each of its ci/ files), not the
// chart's own error. A parse error stops every value set and stays
// render-error, as does an error of a ci/ set (the chart's own tests).
func defaultsNeedValues(problems []render.Problem, out []*Unit) []render.Problem {
	other := ""
	for _, u := range out {
		// A set that rendered whole: one that left templates out (they
		// stopped it) does not show the chart's templates render.
		if u.Set != chart.DefaultsName && !u.Variant && len(u.skipped) == 0 {
			other = u.Set
			break
		}
	}
	if other == "" {
		return problems
	}
	const head = "template does not render: "
	for i, p := range problems {
		if p.Rule != render.RuleError || p.Set != chart.DefaultsName || !strings.HasPrefix(p.Message, head) || !strings.Contains(p.Message, " executing ") {
			continue
		}
		p.Rule = render.RuleIncomplete
		if len(p.LeftOut) > 0 {
			// The set rendered without the template.
			p.Message = "template does not render with these values: they leave out what it reads (the chart renders it with " + other + "): " +
				strings.TrimPrefix(p.Message, head)
		} else {
			p.Message = "value set does not render: its values leave out what a template reads (the chart renders with " + other + "): " +
				strings.TrimPrefix(p.Message, head) + chart.OtherSetsLinted
		}
		problems[i] = p
	}
	return problems
}

// variantBase returns the value set the autoscaling variants build on:
// the defaults when they rendered (out holds a unit of them), else the
// chart's own value set that rendered with the smallest file (a ci/ one,
// or a values file beside values.yaml, such as langfuse's
// values.lint.yaml, which its CI lints the chart with: the fewest values
// over the defaults, tie by name); ok is false when none rendered.
func variantBase(c *chart.Chart, out []*Unit) (chart.ValueSet, bool) {
	best, size := "", -1
	for _, u := range out {
		switch {
		case u.Set == chart.DefaultsName:
			return chart.ValueSet{Name: chart.DefaultsName}, true
		case strings.HasPrefix(u.Set, "ci/") || u.beside != "":
			data, ok := c.Data(u.Set)
			if !ok {
				continue
			}
			if size < 0 || len(data) < size || len(data) == size && u.Set < best {
				best, size = u.Set, len(data)
			}
		}
	}
	if size < 0 {
		return chart.ValueSet{}, false
	}
	return chart.ValueSet{Name: best, Files: []string{best}}, true
}

// variantOn returns an autoscaling variant (made on the defaults) made on
// base instead: base's files, with the variant's switches on.
func variantOn(v, base chart.ValueSet) chart.ValueSet {
	if base.Name == chart.DefaultsName {
		return v
	}
	v.Name = base.Name + strings.TrimPrefix(v.Name, chart.DefaultsName)
	v.Files = append(append([]string(nil), base.Files...), v.Files...)
	return v
}

// loadChart loads a chart with the configuration that governs its
// directory (its render limits, charts and Kubernetes version).
func loadChart(dir string, sources func(string) bool, opts Options) (*analyzer.Config, *chart.Chart, []render.Problem) {
	cfg := opts.config().For(filepath.Join(dir, "Chart.yaml"))
	c, problems := chart.Load(dir, chart.LoadOptions{Limits: cfg.RenderLimits, Overlay: opts.Overlay, Charts: sources, Trees: opts.trees})
	return cfg, c, problems
}

// renderOptions are the render options of a chart its configuration
// governs, before any release's name and namespace.
func renderOptions(cfg *analyzer.Config, opts Options) chart.Options {
	kube := opts.KubeVersion
	if kube == "" && cfg.KubernetesVersion.Major > 0 {
		kube = "v" + cfg.KubernetesVersion.String() + ".0"
	}
	return chart.Options{KubeVersion: kube, Limits: cfg.RenderLimits}
}

// job is one value set of a chart to render, with its release.
type job struct {
	set     chart.ValueSet
	opts    chart.Options
	variant bool
}

// renderJobs renders and lints a chart's value sets in parallel (an edit
// in the editor waits for the slowest, not for their sum); it returns the
// units that rendered, in order, and the problems of all.
func renderJobs(ctx context.Context, c *chart.Chart, dir string, jobs []job, opts Options) ([]*Unit, []render.Problem) {
	units := make([]*Unit, len(jobs))
	setProblems := make([][]render.Problem, len(jobs))
	var work []func()
	for i, j := range jobs {
		work = append(work, func() {
			if ctx.Err() != nil {
				return
			}
			opts.rendering(func() {
				out, ps := c.Render(ctx, j.set, j.opts)
				setProblems[i] = ps
				if out == nil {
					return
				}
				ns := j.opts.Namespace
				if ns == "" {
					ns = "default"
				}
				units[i] = lintUnit(ctx, "helm", dir, j.set.Name, filepath.Join(dir, "Chart.yaml"), out, ns, opts)
				units[i].Variant, units[i].Dir = j.variant, dir
				if j.set.Beside {
					units[i].beside = j.set.Files[0]
				}
			})
		})
	}
	run(work)
	var out []*Unit
	var problems []render.Problem
	for i := range jobs {
		problems = append(problems, setProblems[i]...)
		if units[i] != nil {
			out = append(out, units[i])
		}
	}
	return out, problems
}

// chartFiles are the files a chart's renders read, by path on disk: with
// their bytes, and, after chart.Release, without.
type chartFiles struct {
	data map[string][]byte
	only []string
}

// valueSet makes a value set of values files (paths on disk) and --set
// assignments. A file inside the chart is named by its path below it, so
// that it is read, and findings point, as the chart's own file.
func valueSet(c *chart.Chart, dir string, files, set []string) chart.ValueSet {
	vs := chart.ValueSet{Set: set}
	var names []string
	for _, f := range files {
		if rel, err := filepath.Rel(dir, f); err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
			if _, ok := c.Data(filepath.ToSlash(rel)); ok {
				vs.Files = append(vs.Files, filepath.ToSlash(rel))
				names = append(names, filepath.ToSlash(rel))
				continue
			}
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			abs = f
		}
		vs.Files = append(vs.Files, abs)
		names = append(names, chart.Relative(abs))
	}
	vs.Name = strings.Join(append(names, set...), ", ")
	return vs
}

// buildRoot builds and lints one kustomization root.
func buildRoot(ctx context.Context, tree *kustomize.Tree, root string, opts Options) (*Unit, []render.Problem) {
	out, problems := tree.Build(ctx, root)
	if out == nil {
		return nil, problems
	}
	ns := opts.config().Namespace
	if ns == "" {
		ns = "default"
	}
	dir := tree.Path(root)
	anchor := dir
	if len(out.Files) > 0 {
		anchor = out.Files[0].Source
	}
	name := dir
	if opts.RelativeTo != "" {
		if rel, err := filepath.Rel(opts.RelativeTo, dir); err == nil && !strings.HasPrefix(rel, "..") {
			name = rel
		}
	}
	u := lintUnit(ctx, "kustomize", tree.Root, name, anchor, out, ns, opts)
	u.Dir = dir
	return u, problems
}

// lintUnit parses what a render produced into a workspace of its own,
// runs every rule over it, and locates the findings in their sources.
func lintUnit(ctx context.Context, kind, root, set, anchor string, out *render.Output, namespace string, opts Options) *Unit {
	cfg := opts.config()
	fset := token.NewFileSet()
	u := &Unit{Kind: kind, Root: root, Set: set, anchor: anchor, outputs: out.Files, namespace: namespace, locators: map[*manifest.File]render.Locator{}}
	var files []*manifest.File
	for _, f := range out.Files {
		mf := manifest.Parse(fset, f.Source, f.Text, manifest.Options{Eager: manifest.IsReadKind, Limits: cfg.Limits, RenderedOutput: true})
		files = append(files, mf)
		u.locators[mf] = f.Locator
	}
	// One render is one deployment: a scale target is wherever its
	// template or resource file is.
	u.Workspace = workspace.New(fset, files, workspace.Options{DefaultNamespace: namespace, TargetDistance: -1, Generated: true, Kinds: opts.Kinds, Release: opts.Release, LeftOut: out.LeftOut})
	u.skipped = out.Skipped
	u.Shared = analyzer.NewShared()
	u.Diags = analyzer.RunWith(ctx, u.Workspace, opts.Analyzers, cfg, u.Shared)
	u.located = make([]located, len(u.Diags))
	for i := range u.Diags {
		u.located[i] = u.locate(&u.Diags[i])
	}
	if opts.Release {
		u.placed = map[[2]token.Pos]render.Location{}
		for _, o := range u.Workspace.Objects().All() {
			for _, f := range []manifest.Field{o.KindAt, o.NameAt} {
				if l, ok := u.Locate(f.Pos, f.End); ok {
					u.placed[[2]token.Pos{f.Pos, f.End}] = l
				}
			}
		}
		for _, l := range u.locators {
			if rl, ok := l.(render.Releaser); ok {
				rl.Release()
			}
		}
	}
	return u
}

// readSource reads a file a finding or problem names that no render read.
func readSource(p string, limit int) ([]byte, bool) {
	data, err := render.ReadFile(p, limit)
	return data, err == nil
}

// Group is a GitOps root that deploys several kustomization roots
// together: Name says which (for messages), Dirs are the roots'
// directories, as paths on disk.
type Group struct {
	Name string
	Dirs []string
}

// GitOpsGroups returns the GitOps roots of a workspace (a Flux
// Kustomization's path, an Argo CD Application's sources:
// workspace.Root) that deploy more than one of the result's
// kustomization roots.
func (r *Result) GitOpsGroups(ws *workspace.Workspace) []Group {
	var out []Group
	for _, root := range ws.AllRoots() {
		if root.Kind == workspace.KustomizeRoot || root.Helm {
			continue
		}
		paths := root.Paths
		if len(paths) == 0 {
			paths = []string{root.Path}
		}
		var dirs []string
		for _, u := range r.Units {
			if u.Kind != "kustomize" {
				continue
			}
			d := filepath.ToSlash(filepath.Clean(u.Dir))
			for _, p := range paths {
				p = filepath.ToSlash(filepath.Clean(p))
				if d == p || root.Recurse && strings.HasPrefix(d, p+"/") {
					dirs = append(dirs, u.Dir)
					break
				}
			}
		}
		if len(dirs) > 1 {
			out = append(out, Group{Name: root.String(), Dirs: dirs})
		}
	}
	return out
}

// DeployTogether lints the kustomization roots each group deploys
// together as one deployment (a unit of their builds' output together),
// instead of each alone: objects of two roots one GitOps root applies can
// conflict, and one can be the other's scale target, which their builds
// alone cannot show. A root no group deploys stays a deployment of its
// own. Call it before Diagnostics.
func (r *Result) DeployTogether(ctx context.Context, groups []Group) {
	grouped := map[string]bool{}
	var units []*Unit
	for _, g := range groups {
		var parts []*Unit
		for _, u := range r.Units {
			if u.Kind == "kustomize" && slices.Contains(g.Dirs, u.Dir) {
				parts = append(parts, u)
			}
		}
		if len(parts) < 2 {
			continue
		}
		out := &render.Output{Root: parts[0].Root}
		for _, u := range parts {
			out.Files = append(out.Files, u.outputs...)
		}
		u := lintUnit(ctx, "kustomize", parts[0].Root, g.Name, parts[0].anchor, out, parts[0].namespace, r.opts)
		units = append(units, u)
		for _, p := range parts {
			grouped[p.Dir] = true
		}
	}
	if len(units) == 0 {
		return
	}
	kept := r.Units[:0]
	for _, u := range r.Units {
		if u.Kind != "kustomize" || !grouped[u.Dir] {
			kept = append(kept, u)
		}
	}
	r.Units = append(kept, units...)
}
