// Command scalelint is a linter and language server for Kubernetes
// autoscaling manifests: HorizontalPodAutoscalers, KEDA ScaledObjects and
// ScaledJobs, and the workloads they scale. It checks whether an
// autoscaler can work, by the laws of LAWS.md, with the numbers, at the
// field.
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
package main

import (
	"fmt"
	"io"
	"os"
)

// exit codes (DESIGN.md): 0 nothing at or above --fail-on, 1 findings at or
// above it, 2 usage, config or I/O error.
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
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
		{"lsp", "speak the Language Server Protocol on stdin/stdout", runLSP},
		{"version", "print the version", runVersion},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

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
		return runVersion(nil, stdin, stdout, stderr)
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(args[1:], stdin, stdout, stderr)
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
