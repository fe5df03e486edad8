// Command scalelint is a linter and language server for Kubernetes
// autoscaling manifests: HorizontalPodAutoscalers, KEDA ScaledObjects and
// ScaledJobs, and the workloads they scale. It checks whether an
// autoscaler can work, by the laws of rules/laws/README.md, with the
// numbers, at the field.
//
// Usage:
//
//	scalelint check [flags] [PATH...|-]     lint files, directories or stdin
//	scalelint rules                         list the rules
//	scalelint explain [--format F] RULE     print a rule's documentation
//	scalelint compute [flags]               evaluate the laws from raw numbers
//	scalelint audit [flags] [PATH...|-]     tabulate every autoscaler's five numbers
//	scalelint simulate [flags] [FILE...|-]  run an autoscaler's deployed control loop
//	scalelint schema                        print the JSON Schema of .scalelint.yaml
//	scalelint lsp                           speak the Language Server Protocol on stdio
//	scalelint version                       print the version
//
// This package is the command wiring: each command's file parses its
// flags and calls the packages under internal/ (load, report, output, fix,
// audit, audit/render, simulation, compute), and returns an error that
// run maps to the exit status, in one place.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/initgc"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/term"
)

// The exit status: 0 nothing at or above --fail-on, 1 findings at or above
// it, 2 a usage, configuration or I/O error.
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

// errFindings ends a command with exit status 1: findings at or above
// --fail-on. It prints nothing.
var errFindings = errors.New("findings at or above --fail-on")

// reported is an error the command printed already (the flag package's,
// or one line per input that could not be read, printed as it was
// found): exit status 2, printed no more.
type reported struct{ err error }

func (r reported) Error() string { return r.err.Error() }
func (r reported) Unwrap() error { return r.err }

// status is an exit status a command chose itself (the language server:
// 1 when the client exited without shutdown).
type status int

func (s status) Error() string { return fmt.Sprintf("exit status %d", int(s)) }

// exitCode maps a command's error to the exit status, printing it unless
// it was printed already.
func exitCode(err error, stderr io.Writer) int {
	var r reported
	var s status
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errFindings):
		return exitFindings
	case errors.As(err, &s):
		return int(s)
	case errors.As(err, &r):
		return exitError
	}
	fmt.Fprintf(stderr, "scalelint: %s\n", term.Clean(err.Error()))
	return exitError
}

// A command parses its arguments and does its work; its error decides the
// exit status (exitCode).
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"check", "lint files, directories (recursively) or stdin (-)", runCheck},
		{"rules", "list the rules", runRules},
		{"explain", "print a rule's documentation", runExplain},
		{"compute", "evaluate the laws from raw numbers", runCompute},
		{"audit", "tabulate every autoscaler's five numbers (table, markdown, json, csv, html)", runAudit},
		{"simulate", "run the deployed control loop of an autoscaler and show it hunting or resting", runSimulate},
		{"schema", "print the JSON Schema of .scalelint.yaml", runSchema},
		{"lsp", "speak the Language Server Protocol on stdin/stdout", withStatus(runLSP)},
		{"version", "print the version", runVersion},
	}
}

// withStatus adapts a command that returns its exit status itself (and
// prints its own errors).
func withStatus(f func(args []string, stdin io.Reader, stdout, stderr io.Writer) int) func([]string, io.Reader, io.Writer, io.Writer) error {
	return func(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
		if code := f(args, stdin, stdout, stderr); code != exitOK {
			return status(code)
		}
		return nil
	}
}

func main() {
	initgc.Restore()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run runs the command args name and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitError
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return exitOK
	case "-v", "--version":
		return exitCode(runVersion(nil, stdin, stdout, stderr), stderr)
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return exitCode(c.run(args[1:], stdin, stdout, stderr), stderr)
		}
	}
	fmt.Fprintf(stderr, "scalelint: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitError
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "scalelint checks whether Kubernetes autoscalers can work.")
	fmt.Fprintln(w, "\nUsage: scalelint COMMAND [flags] [args]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'scalelint COMMAND -h' for a command's flags.")
}
