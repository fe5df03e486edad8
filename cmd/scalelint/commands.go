package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/rules"
)

// version is set at build time with -ldflags "-X main.version=..."; else
// the module version from the build info.
var version = ""

func runVersion(_ []string, _ io.Reader, stdout, _ io.Writer) int {
	fmt.Fprintf(stdout, "scalelint %s\n", versionString())
	return exitOK
}

// versionString is the version set at build time (-ldflags "-X
// main.version=..."), else the module's (go install ...@v1.2.3), else
// "devel" with the commit it was built from, when the build recorded it.
func versionString() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	v := "devel"
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		v += "+" + rev[:min(12, len(rev))]
		if settings["vcs.modified"] == "true" {
			v += "-dirty"
		}
	}
	return v
}

func runRules(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "text, json or markdown (the rules reference)")
	if err := fs.Parse(args); err != nil {
		return exitError
	}
	all := rules.All()
	switch *format {
	case "text":
		for _, a := range all {
			fmt.Fprintf(stdout, "%-32s %-8s %s\n", a.Name, a.Severity, a.Doc.Title)
		}
	case "json":
		type ruleJSON struct {
			Name     string `json:"name"`
			Severity string `json:"severity"`
			Title    string `json:"title"`
		}
		var out []ruleJSON
		for _, a := range all {
			out = append(out, ruleJSON{a.Name, a.Severity.String(), a.Doc.Title})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out)
	case "markdown":
		fmt.Fprint(stdout, rules.Reference())
	default:
		fmt.Fprintf(stderr, "scalelint: rules --format must be text, json or markdown\n")
		return exitError
	}
	return exitOK
}

func runExplain(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "text or markdown (the rule's section of the rules reference)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: scalelint explain [--format text|markdown] RULE   (scalelint rules lists them)\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitError
	}
	args = fs.Args()
	if len(args) != 1 || (*format != "text" && *format != "markdown") {
		fs.Usage()
		return exitError
	}
	a, ok := rules.ByName(args[0])
	if !ok {
		msg := fmt.Sprintf("scalelint: unknown rule %q", args[0])
		if s := manifest.Closest(args[0], rules.Names()); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		fmt.Fprintln(stderr, msg)
		return exitError
	}
	fmt.Fprint(stdout, rules.Explain(a, *format == "markdown"))
	return exitOK
}

func runSchema(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "Usage: scalelint schema   (prints the JSON Schema of .scalelint.yaml)")
		return exitError
	}
	s, err := analyzer.ConfigSchema(rules.All())
	if err != nil {
		fmt.Fprintf(stderr, "scalelint: %v\n", err)
		return exitError
	}
	stdout.Write(append(s, '\n'))
	return exitOK
}
