// Package load reads what check, audit and simulate read: the
// configuration, and files, directories (walked with the configuration's
// excludes) and stdin, parsed in parallel into one workspace.
//
// Data flow: paths -> configuration files (--config, or the nearest
// .scalelint.yaml above each path and those found below it: each governs
// the files under its directory) -> workspace.Walk -> lint.Discover
// (charts and kustomizations, by name) -> lint.Render (each chart value
// set and kustomization root linted as its own deployment) ->
// workspace.LoadReleased of the files no render reads whole (each file's
// trees released and its text dropped once its views are built; see
// analyzer/workspace) -> files that are not Kubernetes manifests set aside
// (Inputs.Skipped) -> workspace.New, with the files the renders' findings
// point into -> Inputs.Lint: the rules over the workspace and the renders'
// findings mapped back into it. Nothing is printed here: the caller
// reports Inputs.Errs and Inputs.Warnings.
package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render/lint"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/gcpace"
	"github.com/scalelint/scalelint/rules"
)

// stdinName is the file name of the document read from stdin ("-").
const stdinName = "<stdin>"

// Options say how Read finds its configuration and shows progress.
type Options struct {
	// ConfigPath is the configuration file given (--config): it alone
	// governs every input. Empty: configuration files are found from the
	// inputs (Read).
	ConfigPath string
	// Namespace (--namespace), when not empty, replaces the namespace of
	// every configuration.
	Namespace string
	// Config, when not nil, is the configuration to read with, as it is
	// (for tests): no file is looked for.
	Config *analyzer.Config
	// Progress, when not nil, is told how many files were found and each
	// one parsed (startProgress).
	Progress io.Writer
	// Values and Set are helm's --values files and --set assignments:
	// one more value set every chart among the inputs is rendered with.
	Values, Set []string
	// Mark, when not nil, is called with the name of each phase as it
	// ends: "walk", "render" (charts and kustomizations rendered),
	// "load" (read and parse), "index" (the workspace built, targets
	// resolved): check's --stats.
	Mark func(phase string)
}

// Inputs are the files a command reads, in one workspace.
type Inputs struct {
	Config    *analyzer.Config // the configuration read with (analyzer.Config.For gives a file's)
	Workspace *workspace.Workspace
	// Rendered are the charts and kustomizations rendered (nil when the
	// inputs hold none): their deployments (Units), and what could not be
	// rendered.
	Rendered *lint.Result
	Files    int // files read as manifests, or through the renders
	// Named are the files found under the paths given, the only ones
	// --fix may write (stdin never is).
	Named map[string]bool
	// Errs are the paths that could not be read: an I/O error.
	Errs []error
	// Warnings say what was odd but not wrong: paths that hold no file
	// scalelint reads (a mistyped path in a CI job would otherwise pass
	// with "0 files").
	Warnings []string
	Paths    []string // the paths read: as given, or "." when none was
	// ConfigFiles are the configuration files that govern at least one
	// input, as paths relative to the working directory when they can be.
	ConfigFiles []string
	// Skipped are the files read and set aside: they hold no Kubernetes
	// object (editor settings, CI workflows, Compose files, chart values).
	Skipped []Skipped
	// Root is the repository root GitOps paths were resolved against.
	Root workspace.RepositoryRoot
	// Stdin is what was read from stdin ("-"), and opts the options read
	// with: kept so the inputs can be read again (Again).
	Stdin []byte
	opts  Options
}

// Skipped is a file that is not a Kubernetes manifest, and why.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Read reads paths ("." when none; "-" is stdin) with their
// configuration: o.Config, or the file o.ConfigPath names, or else, for
// each input, the nearest .scalelint.yaml above it (analyzer.FindConfig:
// never above the repository root, the home directory or a child of the
// filesystem root) or below the path it was found under. Each
// configuration file governs the files under its directory; files under
// none are read with the built-in configuration. The error is a
// configuration file that could not be read or parsed: nothing was read.
func Read(paths []string, stdin io.Reader, o Options) (*Inputs, error) {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	discover := o.Config == nil && o.ConfigPath == ""
	cfgs := newConfigSet(o.Namespace)
	cfg := o.Config
	switch {
	case cfg != nil:
	case o.ConfigPath != "":
		c, err := cfgs.load(o.ConfigPath)
		if err != nil {
			var ce *analyzer.ConfigError
			if !errors.As(err, &ce) {
				return nil, fmt.Errorf("--config: %w", err) // not read: say which flag named it
			}
			return nil, err
		}
		cfg = c
	default:
		var found []string
		for _, p := range paths {
			if p == "-" {
				p = "."
			}
			if f := analyzer.FindConfig(p); f != "" {
				found = append(found, f)
			}
		}
		scoped, err := cfgs.loadAll(found)
		if err != nil {
			return nil, err
		}
		cfg = cfgs.base().Scoped(scoped)
	}

	fset := token.NewFileSet()
	in := &Inputs{Named: map[string]bool{}, Paths: paths, opts: o}
	rendered := 0 // files read through the renders only
	var files []*manifest.File
	var diskPaths []string
	var helmfiles []string // helmfiles and CI files: their releases of local charts render too (lint.Result.RenderReleases)
	for _, p := range paths {
		if p != "-" {
			diskPaths = append(diskPaths, p)
			continue
		}
		lim := cfg.For(stdinName).Limits
		// At most one byte over the size limit (stdin may be /dev/zero):
		// the parser refuses more, as it does a file.
		data, err := workspace.ReadStdin(stdin, int64(lim.WithDefaults().MaxFileSize))
		if err != nil {
			in.Errs = append(in.Errs, fmt.Errorf("stdin: %w", err))
			continue
		}
		in.Stdin = data
		opts := manifest.Options{Eager: manifest.IsReadKind, Limits: lim}
		files = append(files, manifest.Parse(fset, stdinName, data, opts))
	}
	if len(diskPaths) > 0 {
		found, errs := workspace.Walk(diskPaths, cfg.Excluded)
		in.Errs = append(in.Errs, errs...)
		o.mark("walk")
		// Configuration files are never inputs; those found below the
		// paths govern their directories.
		var manifests, nested []string
		for _, p := range found {
			if analyzer.IsConfigName(p) {
				nested = append(nested, p)
			} else {
				manifests = append(manifests, p)
			}
		}
		if discover && len(nested) > 0 {
			if _, err := cfgs.loadAll(nearestOfEachDir(nested)); err != nil {
				return nil, err
			}
			cfg = cfgs.base().Scoped(cfgs.order)
			manifests = keepIncluded(manifests, diskPaths, cfg)
		}
		if len(found) == 0 && len(errs) == 0 {
			in.Warnings = append(in.Warnings, fmt.Sprintf("no YAML or JSON file to read under %s (after the configuration's excludes)", strings.Join(diskPaths, ", ")))
		}
		for _, m := range manifests {
			if lint.ListsReleases(m) {
				helmfiles = append(helmfiles, m)
			}
		}
		if plan := lint.Discover(manifests); !plan.Empty() {
			in.Rendered = lint.Render(context.Background(), plan, lint.Options{Analyzers: rules.All(), Config: cfg, Values: o.Values, Set: o.Set, Release: true})
		}
		o.mark("render")
		// A chart's files are read only through its renders (and may be
		// fixed); a built kustomization's resources and patches are read
		// for the problems of their text only (lint package doc).
		var whole []string
		text := map[string]bool{}
		for _, m := range manifests {
			switch in.Rendered.Rendering(m) {
			case workspace.RenderedChart:
				in.Named[m] = true
				rendered++
				continue
			case workspace.RenderedYAML:
				text[m] = true
			}
			whole = append(whole, m)
		}
		p := startProgress(o.Progress, len(whole))
		pace := gcpace.Start(len(whole))
		// Each configuration's limits for the files it governs.
		type group struct {
			cfg  *analyzer.Config
			text bool
		}
		groups := map[group][]string{}
		var order []group
		for _, m := range whole {
			g := group{cfg.For(m), text[m]}
			if _, ok := groups[g]; !ok {
				order = append(order, g)
			}
			groups[g] = append(groups[g], m)
		}
		for _, g := range order {
			parseOpts := manifest.Options{Eager: manifest.IsReadKind, Limits: g.cfg.Limits}
			if g.text {
				parseOpts.Eager = func(string, string) bool { return false }
			}
			loaded, errs := workspace.LoadReleased(fset, groups[g], parseOpts, p.file, pace.Loaded)
			in.Errs = append(in.Errs, errs...)
			files = append(files, loaded...)
		}
		pace.Stop()
		p.done()
		o.mark("load")
		for _, f := range files {
			if f.Path != stdinName {
				in.Named[f.Path] = true
			}
		}
		in.Root = workspace.FindRepositoryRoot(diskPaths)
	}
	kept := files[:0]
	for _, f := range files {
		if why := f.NotManifest(); why != "" && !workspace.IsKustomizationName(f.Path) {
			in.Skipped = append(in.Skipped, Skipped{Path: f.Path, Reason: why})
			continue
		}
		kept = append(kept, f)
	}
	files = kept
	sort.Slice(in.Skipped, func(i, j int) bool { return in.Skipped[i].Path < in.Skipped[j].Path })
	if len(files) == 0 && rendered == 0 && len(in.Skipped) > 0 {
		in.Warnings = append(in.Warnings, fmt.Sprintf("none of the %d files read holds a Kubernetes object (--verbose lists them)", len(in.Skipped)))
	}
	in.Files = len(files) + rendered
	in.Config = cfg
	in.ConfigFiles = usedConfigs(cfg, files)
	wsOpts := workspace.Options{
		DefaultNamespace: cfg.Namespace,
		NamespaceOf:      func(f *manifest.File) string { return cfg.For(f.Path).Namespace },
		RepositoryRoot:   in.Root.Dir,
		RepositoryURLs:   in.Root.URLs,
		Release:          true,
	}
	if in.Rendered != nil {
		read := map[string]bool{}
		for _, f := range files {
			read[filepath.Clean(f.Path)] = true
		}
		files = append(files, in.Rendered.SourceFiles(fset, func(p string) bool { return read[p] })...)
		wsOpts.Rendered = in.Rendered.Rendering
	}
	in.Workspace = workspace.New(fset, files, wsOpts)
	if in.Rendered != nil {
		// The kustomizations a GitOps root applies together are one
		// deployment.
		in.Rendered.DeployTogether(context.Background(), in.Rendered.GitOpsGroups(in.Workspace))
		// The charts GitOps objects and helmfiles deploy with values of
		// their own;
		// their findings may point into files no render named before (a
		// values file only a release reads), which the index must hold.
		in.Rendered.RenderReleases(context.Background(), in.Workspace, helmfiles)
		held := map[string]bool{}
		for _, f := range files {
			held[filepath.Clean(f.Path)] = true
		}
		if more := in.Rendered.SourceFiles(fset, func(p string) bool { return held[p] }); len(more) > 0 {
			files = append(files, more...)
			in.Workspace = workspace.New(fset, files, wsOpts)
		}
		in.Rendered.SetPositions(lint.FilePositions(in.Workspace))
	}
	o.mark("index")
	return in, nil
}

func (o Options) mark(phase string) {
	if o.Mark != nil {
		o.Mark(phase)
	}
}

// Lint runs every rule over the inputs, as analyzer.RunWith does (shared
// keeps the workspace's law evaluations), and adds the findings of the
// rendered charts and kustomizations, mapped back into the workspace's
// files: every finding of the inputs, sorted.
func (in *Inputs) Lint(ctx context.Context, shared *analyzer.Shared) []analyzer.Diagnostic {
	diags := analyzer.RunWith(ctx, in.Workspace, rules.All(), in.Config, shared)
	if in.Rendered == nil {
		return diags
	}
	diags = append(diags, in.Rendered.Diagnostics(in.Workspace, lint.FilePositions(in.Workspace))...)
	return analyzer.SortDiagnostics(in.Workspace, diags)
}

// configSet parses each configuration file once, with the --namespace
// flag applied.
type configSet struct {
	namespace string
	byPath    map[string]*analyzer.Config
	order     []*analyzer.Config
}

func newConfigSet(namespace string) *configSet {
	return &configSet{namespace: namespace, byPath: map[string]*analyzer.Config{}}
}

// base is the built-in configuration, with the namespace flag.
func (s *configSet) base() *analyzer.Config {
	c := analyzer.DefaultConfig()
	if s.namespace != "" {
		c.Namespace = s.namespace
	}
	return c
}

func (s *configSet) load(path string) (*analyzer.Config, error) {
	if c, ok := s.byPath[path]; ok {
		return c, nil
	}
	c, err := analyzer.LoadConfig(path, rules.All())
	if err != nil {
		return nil, err
	}
	if err := c.CheckCharts(); err != nil {
		return nil, err
	}
	if s.namespace != "" {
		c.Namespace = s.namespace
	}
	s.byPath[path] = c
	s.order = append(s.order, c)
	return c, nil
}

func (s *configSet) loadAll(paths []string) ([]*analyzer.Config, error) {
	var out []*analyzer.Config
	for _, p := range paths {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		c, err := s.load(p)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// nearestOfEachDir keeps one configuration file per directory, the first
// of analyzer.ConfigFileNames (.scalelint.yaml before .scalelint.yml).
func nearestOfEachDir(paths []string) []string {
	byDir := map[string]string{}
	var dirs []string
	for _, p := range paths {
		d := filepath.Dir(p)
		cur, ok := byDir[d]
		if !ok {
			dirs = append(dirs, d)
		}
		if !ok || nameRank(p) < nameRank(cur) {
			byDir[d] = p
		}
	}
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		out = append(out, byDir[d])
	}
	return out
}

func nameRank(p string) int {
	for i, n := range analyzer.ConfigFileNames {
		if filepath.Base(p) == n {
			return i
		}
	}
	return len(analyzer.ConfigFileNames)
}

// keepIncluded drops the files a configuration found below the input
// paths excludes; a file named on the command line is always read.
func keepIncluded(files, named []string, cfg *analyzer.Config) []string {
	explicit := map[string]bool{}
	for _, n := range named {
		explicit[n] = true
	}
	out := files[:0]
	for _, f := range files {
		if explicit[f] || !cfg.Excluded(f) {
			out = append(out, f)
		}
	}
	return out
}

// usedConfigs lists the configuration files that govern at least one of
// files, relative to the working directory when they can be.
func usedConfigs(cfg *analyzer.Config, files []*manifest.File) []string {
	seen := map[string]bool{}
	var out []string
	wd, _ := os.Getwd()
	for _, f := range files {
		p := cfg.For(f.Path).Path
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, displayPath(wd, p))
	}
	sort.Strings(out)
	return out
}

// displayPath writes an absolute path relative to the working directory
// when it can.
func displayPath(wd, p string) string {
	if wd == "" || !filepath.IsAbs(p) {
		return p
	}
	if r, err := filepath.Rel(wd, p); err == nil {
		return r
	}
	return p
}

// NothingRead reports whether errors left nothing to read: the command
// then ends with the errors alone.
func (in *Inputs) NothingRead() bool { return in.Files == 0 && len(in.Errs) > 0 }

// Changed returns an error for each file whose text was dropped after
// parsing and read differently when its findings were printed (it changed
// during the run): the run's results for it cannot be trusted.
func (in *Inputs) Changed() []error {
	var errs []error
	for _, f := range in.Workspace.Files().All() {
		if err := f.TextErr(); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// Again reads the same paths, stdin's text and configuration again:
// after --fix changed files, the findings are those of their new text.
func (in *Inputs) Again() (*Inputs, error) {
	o := in.opts
	o.Progress = nil
	return Read(in.Paths, bytes.NewReader(in.Stdin), o)
}

// InputFiles lists the files read from disk and the configuration files
// that govern them: what an output must not overwrite
// (output.GuardInputs).
func (in *Inputs) InputFiles() []string {
	out := make([]string, 0, len(in.Named)+len(in.ConfigFiles)+1)
	for p := range in.Named {
		out = append(out, p)
	}
	out = append(out, in.ConfigFiles...)
	// The files charts and kustomizations read (values files given with
	// --values among them).
	out = append(out, in.Rendered.Read()...)
	if in.opts.ConfigPath != "" {
		out = append(out, in.opts.ConfigPath)
	}
	return out
}
