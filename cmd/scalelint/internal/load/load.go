// Package load reads what check, audit and simulate read: the
// configuration, and files, directories (walked with the configuration's
// excludes) and stdin, parsed in parallel into one workspace.
//
// Data flow: paths -> workspace.Walk -> workspace.LoadReleased (each
// file's trees released and its text dropped once its views are built;
// see analyzer/workspace) -> workspace.New. Nothing is printed here: the
// caller reports Inputs.Errs and Inputs.Warnings.
package load

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"io"
	"os"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
)

// stdinName is the file name of the document read from stdin ("-").
const stdinName = "<stdin>"

// Config reads path, or the .scalelint.yaml found from the working
// directory up to the repository root, or the built-in configuration,
// and applies namespace (--namespace) when not empty.
func Config(path, namespace string) (*analyzer.Config, error) {
	flag := path != ""
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
			var ce *analyzer.ConfigError
			if flag && !errors.As(err, &ce) {
				return nil, fmt.Errorf("--config: %w", err) // not read: say which flag named it
			}
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
	Files     int // files read
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
	// Stdin is what was read from stdin ("-"), kept so the inputs can
	// be read again (Again).
	Stdin []byte
}

// Read reads paths ("." when none; "-" is stdin) with cfg's excludes and
// limits. progress, when not nil, is told how many files were found and
// each one parsed (Progress).
func Read(paths []string, stdin io.Reader, cfg *analyzer.Config, progress io.Writer) *Inputs {
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
		data, err := workspace.ReadStdin(stdin, int64(cfg.Limits.WithDefaults().MaxFileSize))
		if err != nil {
			in.Errs = append(in.Errs, fmt.Errorf("stdin: %w", err))
			continue
		}
		in.Stdin = data
		files = append(files, manifest.Parse(fset, stdinName, data, parseOpts))
	}
	if len(diskPaths) > 0 {
		found, errs := workspace.Walk(diskPaths, cfg.Excluded)
		in.Errs = append(in.Errs, errs...)
		if len(found) == 0 && len(errs) == 0 {
			in.Warnings = append(in.Warnings, fmt.Sprintf("no YAML or JSON file to read under %s (after the configuration's excludes)", strings.Join(diskPaths, ", ")))
		}
		p := startProgress(progress, len(found))
		loaded, errs := workspace.LoadReleased(fset, found, parseOpts, p.file)
		p.done()
		in.Errs = append(in.Errs, errs...)
		files = append(files, loaded...)
		for _, f := range loaded {
			in.Named[f.Path] = true
		}
	}
	in.Files = len(files)
	in.Workspace = workspace.New(fset, files, workspace.Options{DefaultNamespace: cfg.Namespace, Release: true})
	return in
}

// Again reads the same paths, stdin's text and configuration again:
// after --fix changed files, the findings are those of their new text.
func (in *Inputs) Again() *Inputs {
	return Read(in.Paths, bytes.NewReader(in.Stdin), in.Config, nil)
}

// InputFiles lists the files read from disk and the configuration file: what
// an output must not overwrite (output.GuardInputs).
func (in *Inputs) InputFiles() []string {
	out := make([]string, 0, len(in.Named)+1)
	for p := range in.Named {
		out = append(out, p)
	}
	if in.Config.Path != "" {
		out = append(out, in.Config.Path)
	}
	return out
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
