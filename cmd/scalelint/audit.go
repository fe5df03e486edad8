package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit/render"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/output"
)

const auditUsage = `Usage: scalelint audit [flags] [PATH...|-]

Tabulate every autoscaler's five numbers (rules/laws/README.md §1-§5): the
growth factor g and the rounds and time to capacity; the standing delay
against the floor the loop needs, with the margin; the target against 1/A;
the ceiling against its band; the admission bound against the client
timeout; and the inputs that are missing. The inputs are read and linted
as 'scalelint check' reads them (same config, rules and suppressions).

Rows are sorted worst first: by verdict (fail, warn, accepted = suppressed
or rule off, pass = every law that applies evaluated and holding, partial =
some laws held or held only at a bound read from the manifests while others
were not evaluated, unknown = no law could be evaluated, n/a = no law
applies), then by the smallest margin of the row's evaluated laws (most
negative first; a law's margin is its distance from its boundary relative
to the boundary, negative when it fails; a law decided only at a bound has
none), then by the number of laws that could not be evaluated, then by
file and line.

Formats: table (fits 100 columns), markdown (a pull-request comment),
json, csv, html (one self-contained page with pictures).
Exit status: 0, or 1 with --fail-on and a law at or above it; 2 usage,
config or I/O error.

Flags:`

func runAudit(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var format, out, configPath, namespace, failOnFlag, color string
	var simulate, quiet bool
	fs := newFlagSet("audit", stderr)
	fs.StringVar(&format, "format", "table", "output format: table, markdown, json, csv or html")
	fs.StringVar(&out, "output", "", "write to this file (atomically) instead of stdout")
	fs.StringVar(&configPath, "config", "", "configuration file for every input (default: for each file, the nearest .scalelint.yaml above it, up to the repository root)")
	fs.StringVar(&namespace, "namespace", "", "namespace of objects that set none (default: the config's, else \"default\")")
	fs.StringVar(&failOnFlag, "fail-on", "none", "exit 1 when a law's verdict is at or above this: fail (error), warn (warning) or none")
	fs.StringVar(&color, "color", "auto", "colour the table: auto (on a terminal, unless NO_COLOR is set), always or never")
	fs.BoolVar(&simulate, "simulate", true, "html: embed the simulated deployed loop of each backlog consumer whose demand is annotated")
	fs.BoolVar(&quiet, "quiet", false, "no summary on stderr")
	values := valuesFlags(fs)
	paths, err := parseCommand(fs, auditUsage, args, stderr)
	if err != nil {
		return err
	}
	if format == "text" {
		format = "table"
	}
	if !render.Known(format) {
		return fmt.Errorf("unknown --format %q (table, markdown, json, csv, html)", format)
	}
	failOn := audit.Verdict(-1)
	switch strings.ToLower(failOnFlag) {
	case "none", "never", "":
	case "fail", "error":
		failOn = audit.Fail
	case "warn", "warning":
		failOn = audit.Warn
	default:
		return fmt.Errorf("--fail-on must be fail, warn or none, not %q", failOnFlag)
	}
	in, ioErr := readInputs(paths, stdin, stderr, configPath, namespace, false, values)
	if in == nil || in.NothingRead() {
		return ioErr
	}
	if err := output.GuardInputs([]output.Named{{Flag: "--output", Path: out}}, in.InputFiles()); err != nil {
		return err
	}
	a := audit.Run(in, audit.Options{Simulate: format == "html" && simulate})
	if output.IsStdout(out) {
		w := bufio.NewWriterSize(stdout, 64<<10)
		if err := render.Write(w, a, format, render.Options{Color: format == "table" && output.UseColor(color, stdout)}); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
	} else if err := output.WriteFile(out, func(w io.Writer) error { return render.Write(w, a, format, render.Options{}) }); err != nil {
		return err
	}
	if !quiet && (!output.IsStdout(out) || format != "table") {
		fmt.Fprintln(stderr, a.SummaryLine())
	}
	if err := changed(in, stderr); err != nil {
		return err
	}
	if ioErr != nil {
		return ioErr
	}
	if failOn >= 0 && a.Reaches(failOn) {
		return errFindings
	}
	return nil
}
