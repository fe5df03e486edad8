package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/fix"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/load"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/output"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/report"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/term"
)

const checkUsage = `Usage: scalelint check [flags] [PATH...|-]

Lint files, directories (recursively: .yaml, .yml, .json) or stdin (-).
Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage, config or I/O error.

Flags:`

type checkOptions struct {
	formats, outputs          listFlag
	failOn, configPath, color string
	namespace                 string
	explainMissing, quiet     bool
	verbose                   bool
	baseline, writeBaseline   string
	fix, diff                 bool
	cpuProfile, memProfile    string
	stats                     bool
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var o checkOptions
	fs := newFlagSet("check", stderr)
	fs.Var(&o.formats, "format", "output format: text, json, sarif or github (repeatable, paired with --output)")
	fs.Var(&o.outputs, "output", "write the matching --format to this file instead of stdout (repeatable)")
	fs.StringVar(&o.failOn, "fail-on", "error", "exit 1 when a finding is at or above this severity: error, warning, info or none")
	fs.StringVar(&o.configPath, "config", "", "configuration file for every input (default: for each file, the nearest .scalelint.yaml above it, up to the repository root)")
	fs.StringVar(&o.namespace, "namespace", "", "namespace of objects that set none (default: the config's, else \"default\")")
	fs.BoolVar(&o.explainMissing, "explain-missing", false, "list, per autoscaler, the laws that could not be evaluated and the annotations that would enable them")
	fs.StringVar(&o.color, "color", "auto", "colour text output: auto (on a terminal, unless NO_COLOR is set), always or never")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress or summary on stderr")
	fs.BoolVar(&o.verbose, "verbose", false, "say on stderr which configuration files govern the inputs, the deployment roots found, and each file set aside as not a Kubernetes manifest")
	fs.StringVar(&o.baseline, "baseline", "", "report only findings not recorded in this baseline file")
	fs.StringVar(&o.writeBaseline, "write-baseline", "", "record today's findings in this baseline file and exit 0 (2 when an input could not be read)")
	fs.BoolVar(&o.fix, "fix", false, "apply the fixes marked safe to the files named on the command line, in place")
	fs.BoolVar(&o.diff, "diff", false, "print the safe fixes as a unified diff instead of applying them")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file")
	fs.StringVar(&o.memProfile, "memprofile", "", "write a heap profile at the end of the run to this file")
	fs.BoolVar(&o.stats, "stats", false, "print on stderr the time, heap and resident memory of each phase of the run (walk, render, load, index, rules, report, output)")
	values := valuesFlags(fs)
	paths, err := parseCommand(fs, checkUsage, args, stderr)
	if err != nil {
		return err
	}
	// The profiles are created before anything is read: at least not over
	// a file named to be read.
	if err := output.GuardInputs([]output.Named{{Flag: "--cpuprofile", Path: o.cpuProfile}, {Flag: "--memprofile", Path: o.memProfile}}, paths); err != nil {
		return err
	}
	stop, err := startProfiles(o.cpuProfile, o.memProfile)
	if err != nil {
		return err
	}
	defer stop()
	if o.stats {
		st := startStats()
		defer func() { phaseMark = nil; st.print(stderr) }()
	}
	failOn, ok := parseFailOn(o.failOn)
	if !ok {
		return fmt.Errorf("--fail-on must be error, warning, info or none, not %q", o.failOn)
	}
	outs, err := output.Targets(o.formats, o.outputs)
	if err != nil {
		return err
	}
	in, ioErr := readInputs(paths, stdin, stderr, o.configPath, o.namespace, !o.quiet, values)
	if in == nil || in.NothingRead() {
		return ioErr
	}
	if o.verbose {
		describeInputs(in, stderr)
	}

	// No output may replace a file read.
	var named []output.Named
	for _, t := range outs {
		named = append(named, output.Named{Flag: "--output", Path: t.Path})
	}
	inputs := in.InputFiles()
	if o.writeBaseline != "" {
		named = append(named, output.Named{Flag: "--write-baseline", Path: o.writeBaseline})
	} else if o.baseline != "" {
		inputs = append(inputs, o.baseline)
	}
	if err := output.GuardInputs(named, inputs); err != nil {
		return err
	}
	var baseline *report.Baseline
	if o.baseline != "" && o.writeBaseline == "" {
		if baseline, err = report.ReadBaseline(o.baseline, int64(in.Config.Limits.WithDefaults().MaxFileSize)); err != nil {
			return fmt.Errorf("--baseline: %w", err)
		}
	}
	lint := func(in *load.Inputs) *report.Report {
		shared := analyzer.NewShared()
		diags := in.Lint(context.Background(), shared)
		mark("rules")
		heapSnapshot()
		rep := report.New(in.Workspace, diags, in.Config, shared)
		rep.Inputs = reportInputs(in)
		rep.SetInputs(in.Files, in.Rendered)
		if baseline != nil {
			rep.ApplyBaseline(baseline)
		}
		mark("report")
		return rep
	}
	rep := lint(in)
	if o.writeBaseline != "" {
		if output.IsStdout(o.writeBaseline) {
			w := bufio.NewWriter(stdout)
			if err := rep.WriteBaseline(w); err != nil {
				return err
			}
			if err := w.Flush(); err != nil {
				return err
			}
		} else if err := output.WriteFile(o.writeBaseline, rep.WriteBaseline); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "scalelint: recorded %s in %s\n", report.Plural(len(rep.Shown), "finding"), term.Clean(o.writeBaseline))
		return ioErr
	}
	if o.diff {
		n, err := fix.Diff(rep, in.Named, stdout)
		switch {
		case err != nil:
			return err
		case ioErr != nil:
			return ioErr
		case n > 0:
			return errFindings
		}
		return nil
	}
	if o.fix {
		res := fix.Apply(rep, in.Named)
		if res.Findings > 0 {
			fmt.Fprintf(stderr, "scalelint: fixed %s in %s\n", report.Plural(res.Findings, "finding"), report.Plural(res.Files, "file"))
		}
		for _, e := range res.Errs {
			fmt.Fprintf(stderr, "scalelint: %s\n", term.Clean(e.Error()))
		}
		if len(res.Errs) > 0 {
			ioErr = reported{errors.Join(append([]error{ioErr}, res.Errs...)...)}
		}
		if res.Files > 0 {
			// The fixed files changed: what remains is found, and
			// printed, in their new text (the old positions and
			// snippets are gone with it).
			again, err := in.Again()
			if err != nil {
				return err // the configuration no longer reads
			}
			for _, e := range again.Errs {
				fmt.Fprintf(stderr, "scalelint: %s\n", term.Clean(e.Error()))
			}
			if len(again.Errs) > 0 {
				ioErr = reported{errors.Join(append([]error{ioErr}, again.Errs...)...)}
			}
			in, rep = again, lint(again)
		}
	}
	opts := output.Options{ExplainMissing: o.explainMissing, Version: versionString()}
	for _, out := range outs {
		if err := out.Write(rep, stdout, o.color, opts); err != nil {
			return err
		}
	}
	mark("output")
	if !o.quiet && !output.TextToStdout(outs) {
		fmt.Fprintln(stderr, rep.SummaryLine())
		if hint := rep.MissingHint(); hint != "" {
			fmt.Fprintln(stderr, hint)
		}
	}
	if err := changed(in, stderr); err != nil {
		return err
	}
	if ioErr != nil {
		return ioErr
	}
	if failOn != 0 && rep.Worst() >= failOn {
		return errFindings
	}
	return nil
}

func parseFailOn(s string) (analyzer.Severity, bool) {
	if strings.EqualFold(s, "none") || strings.EqualFold(s, "never") {
		return 0, true
	}
	return analyzer.ParseSeverity(s)
}
