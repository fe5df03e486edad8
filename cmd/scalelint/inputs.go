package main

import (
	"fmt"
	"go/token"
	"io"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// inputs are the files a command reads, in a workspace.
type inputs struct {
	ws    *workspace.Workspace
	files int
	// named are the files found under the paths given, the only ones
	// --fix may write (stdin never is).
	named map[string]bool
	errs  []error
	// warnings say what was odd but not wrong: directories that hold no
	// file scalelint reads (a mistyped path in a CI job would otherwise
	// pass with "0 files").
	warnings []string
	paths    []string // the paths read: as given, or "." when none was
}

// loadInputs reads what check, audit and simulate read: files,
// directories (walked with the configuration's excludes) and stdin ("-"),
// parsed in parallel, into one workspace. prog, when not nil, counts
// parsed files.
func loadInputs(paths []string, stdin io.Reader, cfg *analyzer.Config, prog func(total int) *progress) inputs {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	fset := token.NewFileSet()
	parseOpts := manifest.Options{Eager: manifest.IsReadKind, Limits: cfg.Limits}
	in := inputs{named: map[string]bool{}, paths: paths}
	var files []*manifest.File
	var diskPaths []string
	for _, p := range paths {
		if p != "-" {
			diskPaths = append(diskPaths, p)
			continue
		}
		data, err := io.ReadAll(stdin)
		if err != nil {
			in.errs = append(in.errs, fmt.Errorf("stdin: %w", err))
			continue
		}
		files = append(files, manifest.Parse(fset, stdinName, data, parseOpts))
	}
	if len(diskPaths) > 0 {
		found, errs := workspace.Walk(diskPaths, cfg.Excluded)
		in.errs = append(in.errs, errs...)
		if len(found) == 0 && len(errs) == 0 {
			in.warnings = append(in.warnings, fmt.Sprintf("no YAML or JSON file to read under %s (after the configuration's excludes)", strings.Join(diskPaths, ", ")))
		}
		var onFile []func()
		var p *progress
		if prog != nil {
			p = prog(len(found))
			onFile = append(onFile, p.file)
		}
		loaded, errs := workspace.LoadReleased(fset, found, parseOpts, onFile...)
		if p != nil {
			p.done()
		}
		in.errs = append(in.errs, errs...)
		files = append(files, loaded...)
		for _, f := range loaded {
			in.named[f.Path] = true
		}
	}
	in.files = len(files)
	in.ws = workspace.New(fset, files, workspace.Options{DefaultNamespace: cfg.Namespace, Release: true})
	return in
}

// report prints the inputs' errors and warnings on stderr and says
// whether nothing could be read because of errors: the command then exits 2.
func (in inputs) report(stderr io.Writer) (nothingRead bool) {
	for _, e := range in.errs {
		fmt.Fprintf(stderr, "scalelint: %v\n", e)
	}
	for _, w := range in.warnings {
		fmt.Fprintf(stderr, "scalelint: warning: %s\n", w)
	}
	return in.files == 0 && len(in.errs) > 0
}

// changed reports, on stderr, each file whose text was dropped after
// parsing and read differently when printing its findings (it changed
// during the run), and whether there was any: the run's results for it
// cannot be trusted, so the command exits 2.
func (in inputs) changed(stderr io.Writer) bool {
	any := false
	for _, f := range in.ws.Files {
		if err := f.TextErr(); err != nil {
			fmt.Fprintf(stderr, "scalelint: %v\n", err)
			any = true
		}
	}
	return any
}
