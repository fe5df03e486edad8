package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/suggest"
	"github.com/scalelint/scalelint/rules"
)

// version is set at build time with -ldflags "-X main.version=..."; else
// the module version from the build info.
var version = ""

func runVersion(_ []string, _ io.Reader, stdout, _ io.Writer) error {
	_, err := fmt.Fprintln(stdout, versionLine())
	return err
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

func runRules(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("rules", stderr)
	format := fs.String("format", "text", "text, json or markdown (the rules reference)")
	if _, err := parseCommand(fs, "Usage: scalelint rules [--format text|json|markdown]\n\nFlags:", args, stderr); err != nil {
		return err
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
		return enc.Encode(out)
	case "markdown":
		fmt.Fprint(stdout, rules.Reference())
	default:
		return fmt.Errorf("rules --format must be text, json or markdown")
	}
	return nil
}

const explainUsage = "Usage: scalelint explain [--format text|markdown] RULE   (scalelint rules lists them)\n\nFlags:"

func runExplain(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("explain", stderr)
	format := fs.String("format", "text", "text or markdown (the rule's section of the rules reference)")
	args, err := parseCommand(fs, explainUsage, args, stderr)
	if err != nil {
		return err
	}
	if len(args) != 1 || (*format != "text" && *format != "markdown") {
		fs.Usage()
		return reported{fmt.Errorf("explain takes one rule")}
	}
	a, ok := rules.ByName(args[0])
	if !ok {
		msg := fmt.Sprintf("unknown rule %q", args[0])
		if s := suggest.Closest(args[0], rules.Names()); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return errors.New(msg)
	}
	_, err = fmt.Fprint(stdout, rules.Explain(a, *format == "markdown"))
	return err
}

func runSchema(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "Usage: scalelint schema   (prints the JSON Schema of .scalelint.yaml)")
		return reported{fmt.Errorf("schema takes no arguments")}
	}
	s, err := analyzer.ConfigSchema(rules.All())
	if err != nil {
		return err
	}
	_, err = stdout.Write(append(s, '\n'))
	return err
}
