package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/rules"
)

// stdinName is the file name of the document read from stdin.
const stdinName = "<stdin>"

// listFlag is a flag that may be given several times.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

type checkOptions struct {
	formats        listFlag
	outputs        listFlag
	failOn         string
	configPath     string
	namespace      string
	explainMissing bool
	color          string
	quiet          bool
	baseline       string
	writeBaseline  string
	fix, diff      bool
	cpuProfile     string
	memProfile     string
}

// parseInterspersed parses flags that may come before, between or after
// positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// parseCommand parses a command's flags and paths (parseInterspersed)
// with usage as the help text. When it returns !ok the command ends
// with code: exitOK after --help, exitError after a bad flag (which the
// flag package has reported).
func parseCommand(fs *flag.FlagSet, usage string, args []string, stderr io.Writer) (paths []string, code int, ok bool) {
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	paths, err := parseInterspersed(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return nil, exitOK, false
	case err != nil:
		return nil, exitError, false
	}
	return paths, 0, true
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o checkOptions
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(&o.formats, "format", "output format: text, json, sarif or github (repeatable, paired with --output)")
	fs.Var(&o.outputs, "output", "write the matching --format to this file instead of stdout (repeatable)")
	fs.StringVar(&o.failOn, "fail-on", "error", "exit 1 when a finding is at or above this severity: error, warning, info or none")
	fs.StringVar(&o.configPath, "config", "", "configuration file (default: .scalelint.yaml found from the working directory up to the repository root)")
	fs.StringVar(&o.namespace, "namespace", "", "namespace of objects that set none (default: the config's, else \"default\")")
	fs.BoolVar(&o.explainMissing, "explain-missing", false, "list, per autoscaler, the laws that could not be evaluated and the annotations that would enable them")
	fs.StringVar(&o.color, "color", "auto", "colour text output: auto (on a terminal, unless NO_COLOR is set), always or never")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress or summary on stderr")
	fs.StringVar(&o.baseline, "baseline", "", "report only findings not recorded in this baseline file")
	fs.StringVar(&o.writeBaseline, "write-baseline", "", "record today's findings in this baseline file and exit 0")
	fs.BoolVar(&o.fix, "fix", false, "apply the fixes marked safe to the files named on the command line, in place")
	fs.BoolVar(&o.diff, "diff", false, "print the safe fixes as a unified diff instead of applying them")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file")
	fs.StringVar(&o.memProfile, "memprofile", "", "write a heap profile at the end of the run to this file")
	paths, code, ok := parseCommand(fs, "Usage: scalelint check [flags] [PATH...|-]\n\nLint files, directories (recursively: .yaml, .yml, .json) or stdin (-).\nExit status: 0 clean, 1 findings at or above --fail-on, 2 usage, config or I/O error.\n\nFlags:", args, stderr)
	if !ok {
		return code
	}
	if stop, err := startProfiles(o.cpuProfile, o.memProfile); err != nil {
		fmt.Fprintf(stderr, "scalelint: %v\n", err)
		return exitError
	} else {
		defer stop()
	}
	failOn, ok := parseFailOn(o.failOn)
	if !ok {
		fmt.Fprintf(stderr, "scalelint: --fail-on must be error, warning, info or none, not %q\n", o.failOn)
		return exitError
	}
	outs, err := outputsFor(o.formats, o.outputs)
	if err != nil {
		fmt.Fprintf(stderr, "scalelint: %v\n", err)
		return exitError
	}
	cfg, err := loadConfig(o.configPath, o.namespace)
	if err != nil {
		fmt.Fprintf(stderr, "scalelint: %v\n", err)
		return exitError
	}

	in := loadInputs(paths, stdin, cfg, func(total int) *progress { return newProgress(stderr, o.quiet, total) })
	ioErrs, named, ws := in.errs, in.named, in.ws
	if in.report(stderr) {
		return exitError
	}

	all := rules.All()
	shared := analyzer.NewShared()
	diags := analyzer.RunWith(context.Background(), ws, all, cfg, shared)
	heapSnapshot()
	rep := newReport(ws, diags, cfg, shared)
	if o.explainMissing {
		rep.includeMissing = true
	}
	if o.writeBaseline != "" {
		if err := rep.writeBaseline(o.writeBaseline); err != nil {
			fmt.Fprintf(stderr, "scalelint: %v\n", err)
			return exitError
		}
		fmt.Fprintf(stderr, "scalelint: recorded %s in %s\n", plural(len(rep.shown), "finding"), o.writeBaseline)
		return exitOK
	}
	if o.baseline != "" {
		b, err := readBaseline(o.baseline)
		if err != nil {
			fmt.Fprintf(stderr, "scalelint: %v\n", err)
			return exitError
		}
		rep.applyBaseline(b)
	}
	if o.diff {
		if rep.writeDiff(named, stdout) > 0 {
			return exitFindings
		}
		return exitOK
	}
	if o.fix {
		if _, errs := rep.applyFixes(named, stderr); len(errs) > 0 {
			for _, e := range errs {
				fmt.Fprintf(stderr, "scalelint: %v\n", e)
			}
			ioErrs = append(ioErrs, errs...)
		}
	}
	for _, out := range outs {
		if err := out.write(rep, stdout, o.color); err != nil {
			fmt.Fprintf(stderr, "scalelint: %v\n", err)
			return exitError
		}
	}
	if !o.quiet && !rep.textToStdout(outs) {
		fmt.Fprintln(stderr, rep.summaryLine())
		if hint := rep.missingHint(); hint != "" {
			fmt.Fprintln(stderr, hint)
		}
	}
	if len(ioErrs) > 0 && (in.files == 0 || o.fix) || in.changed(stderr) {
		return exitError
	}
	if failOn != 0 && rep.worst() >= failOn {
		return exitFindings
	}
	return exitOK
}

func parseFailOn(s string) (analyzer.Severity, bool) {
	if strings.EqualFold(s, "none") || strings.EqualFold(s, "never") {
		return 0, true
	}
	return analyzer.ParseSeverity(s)
}

// loadConfig reads --config, or the .scalelint.yaml found from the
// working directory, or the built-in configuration, and applies
// --namespace: what check, audit and simulate share.
func loadConfig(path, namespace string) (*analyzer.Config, error) {
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
	}
	if namespace != "" {
		cfg.Namespace = namespace // --namespace
	}
	return cfg, nil
}
