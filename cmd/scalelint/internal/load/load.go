// Package load reads what check, audit and simulate read: the
// configuration, and files, directories (walked with the configuration's
// excludes) and stdin, parsed in parallel into one workspace, with the
// Helm charts and kustomizations among them rendered and linted.
//
// Data flow: paths -> workspace.Walk -> lint.Discover (charts and
// kustomizations, by name) -> lint.Render (each chart value set and
// kustomization root linted as its own deployment) ->
// workspace.LoadReleased of the files no render reads whole (each file's
// trees released and its text dropped once its views are built; see
// analyzer/workspace) -> workspace.New, with the files findings of the
// renders point into -> Inputs.Lint: the rules over the workspace and the
// renders' findings mapped back into it. Nothing is printed here: the
// caller reports Inputs.Errs and Inputs.Warnings.
package load

import (
	"context"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render/lint"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
)

// stdinName is the file name of the document read from stdin ("-").
const stdinName = "<stdin>"

// Config reads path, or the .scalelint.yaml found from the working
// directory up to the repository root, or the built-in configuration,
// and applies namespace (--namespace) when not empty.
func Config(path, namespace string) (*analyzer.Config, error) {
	if path == "" {
		wd, err := os.Getwd()
		if err == nil {
			path = analyzer.FindConfig(wd)
		}
	}
	cfg := analyzer.DefaultConfig()
	if path != "" {
		var err error
		if cfg, err = analyzer.LoadConfig(path, rules.All()); err != nil {
			return nil, err
		}
		if err := cfg.CheckCharts(); err != nil {
			return nil, err
		}
	}
	if namespace != "" {
		cfg.Namespace = namespace
	}
	return cfg, nil
}

// Inputs are the files a command reads, in one workspace.
type Inputs struct {
	Config    *analyzer.Config // the configuration read with
	Workspace *workspace.Workspace
	// Rendered are the charts and kustomizations rendered (nil when the
	// inputs hold none): their deployments (Units), and what could not be
	// rendered.
	Rendered *lint.Result
	Files    int // files read
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
}

// Options are the command line's value sets for charts.
type Options struct {
	// Values and Set are helm's --values files and --set assignments:
	// one more value set every chart is rendered with.
	Values, Set []string
}

// Read reads paths ("." when none; "-" is stdin) with cfg's excludes and
// limits, and renders the charts among them with the command line's value
// sets too (opts). progress, when not nil, is told how many files were
// found and each one parsed (Progress).
func Read(paths []string, stdin io.Reader, cfg *analyzer.Config, progress io.Writer, opts Options) *Inputs {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	fset := token.NewFileSet()
	parseOpts := manifest.Options{Eager: manifest.IsReadKind, Limits: cfg.Limits}
	in := &Inputs{Config: cfg, Named: map[string]bool{}, Paths: paths}
	var files []*manifest.File
	var diskPaths []string
	for _, p := range paths {
		if p != "-" {
			diskPaths = append(diskPaths, p)
			continue
		}
		data, err := io.ReadAll(stdin)
		if err != nil {
			in.Errs = append(in.Errs, fmt.Errorf("stdin: %w", err))
			continue
		}
		files = append(files, manifest.Parse(fset, stdinName, data, parseOpts))
		in.Files++
	}
	if len(diskPaths) > 0 {
		found, errs := workspace.Walk(diskPaths, cfg.Excluded)
		in.Errs = append(in.Errs, errs...)
		if len(found) == 0 && len(errs) == 0 {
			in.Warnings = append(in.Warnings, fmt.Sprintf("no YAML or JSON file to read under %s (after the configuration's excludes)", strings.Join(diskPaths, ", ")))
		}
		in.Files += len(found)
		for _, f := range found {
			in.Named[f] = true
		}
		if plan := lint.Discover(found); !plan.Empty() {
			in.Rendered = lint.Render(context.Background(), plan, lint.Options{Analyzers: rules.All(), Config: cfg, Values: opts.Values, Set: opts.Set})
		}
		// A chart's files are read only through its renders; a built
		// kustomization's resources and patches are read for the
		// problems of their text only (lint package doc).
		var whole, text []string
		for _, f := range found {
			switch in.Rendered.Rendering(f) {
			case workspace.RenderedChart:
			case workspace.RenderedYAML:
				text = append(text, f)
			default:
				whole = append(whole, f)
			}
		}
		p := startProgress(progress, len(whole)+len(text))
		loaded, errs := workspace.LoadReleased(fset, whole, parseOpts, p.file)
		in.Errs = append(in.Errs, errs...)
		files = append(files, loaded...)
		textOpts := parseOpts
		textOpts.Eager = func(string, string) bool { return false }
		loaded, errs = workspace.LoadReleased(fset, text, textOpts, p.file)
		p.done()
		in.Errs = append(in.Errs, errs...)
		files = append(files, loaded...)
	}
	wsOpts := workspace.Options{DefaultNamespace: cfg.Namespace, Release: true}
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
		in.Rendered.SetPositions(lint.FilePositions(in.Workspace))
	}
	return in
}

// Lint runs every rule over the inputs, as analyzer.RunWith does (shared
// keeps the workspace's law evaluations), and adds the findings of the
// rendered charts and kustomizations, mapped back into the workspace's
// files: every finding of the inputs, sorted.
func (in *Inputs) Lint(ctx context.Context, shared *analyzer.Shared) []analyzer.Diagnostic {
	all := rules.All()
	diags := analyzer.RunWith(ctx, in.Workspace, all, in.Config, shared)
	if in.Rendered == nil {
		return diags
	}
	diags = append(diags, in.Rendered.Diagnostics(in.Workspace, lint.FilePositions(in.Workspace))...)
	return analyzer.SortDiagnostics(in.Workspace, diags)
}

// NothingRead reports whether errors left nothing to read: the command
// then ends with the errors alone.
func (in *Inputs) NothingRead() bool { return in.Files == 0 && len(in.Errs) > 0 }

// Changed returns an error for each file whose text was dropped after
// parsing and read differently when its findings were printed (it changed
// during the run): the run's results for it cannot be trusted.
func (in *Inputs) Changed() []error {
	var errs []error
	for _, f := range in.Workspace.Files {
		if err := f.TextErr(); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}
