package analyzer

import (
	"fmt"
	"strings"
)

// Severity is how serious a diagnostic is.
type Severity int

const (
	Info Severity = iota + 1
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity reads "info", "warning" or "error".
func ParseSeverity(s string) (Severity, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "info", "note", "notice":
		return Info, true
	case "warning", "warn":
		return Warning, true
	case "error":
		return Error, true
	}
	return 0, false
}

// Doc is a rule's documentation, in the sections of ruff's rule pages,
// parsed from the rule's Markdown file (see ParseDoc). It is the single
// source for `scalelint explain`, LSP hover, SARIF rule metadata and the
// rules reference (rules/README.md).
type Doc struct {
	Title      string   // sentence case, no final period
	What       string   // What it does (Markdown)
	Why        string   // Why is this bad: the law, and the section of rules/laws/README.md it rests on
	Example    string   // YAML that triggers the rule
	UseInstead string   // YAML that passes
	Fix        string   // Fix availability
	References []string // links and source references
}

// RulesReferenceURL is the published rules reference, rules/README.md,
// where every rule has a section; a rule's URL is this with its anchor.
const RulesReferenceURL = "https://github.com/scalelint/scalelint/blob/main/rules/README.md"

// Option is a rule option that .scalelint.yaml may set.
type Option struct {
	Name    string
	Doc     string
	Default float64
}

// Analyzer is one rule: static data and a Run function. Drivers (the CLI,
// the language server, tests) do everything else: reading files, config,
// severities, suppressions, output.
type Analyzer struct {
	Name string
	Doc  Doc
	// URL is the rule's documentation page, which drivers link to (the
	// LSP's codeDescription, SARIF's helpUri).
	URL      string
	Severity Severity // the default severity, stamped by the driver
	// Kinds lists object kinds the rule reads beyond autoscalers and their
	// targets, so the driver parses those documents before rules run.
	Kinds   []string
	Options []Option
	// Local is set on a rule whose findings about an object follow from
	// that object's own file and the configuration alone: no other file
	// of the workspace can add, remove or change them (a finding that
	// rests on a scale target, on another autoscaler, on what is deployed
	// together, or on the absence of any of them, is not local). A driver
	// that has read only some files (the language server, while it
	// indexes the workspace) may report a file's local findings at once,
	// and the others only once every file is read.
	Local bool
	Run   func(*Pass) error
}

// Option returns the rule's option spec by name.
func (a *Analyzer) Option(name string) (Option, bool) {
	for _, o := range a.Options {
		if o.Name == name {
			return o, true
		}
	}
	return Option{}, false
}

// Markdown renders the documentation as a Markdown page section.
func (d Doc) Markdown(name string, sev Severity) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n%s. Default severity: **%s**.\n\n", name, d.Title, sev)
	section := func(title, body string) {
		if body == "" {
			return
		}
		fmt.Fprintf(&b, "### %s\n\n%s\n\n", title, strings.TrimSpace(body))
	}
	section("What it does", d.What)
	section("Why is this bad", d.Why)
	if d.Example != "" {
		fmt.Fprintf(&b, "### Example\n\n```yaml\n%s\n```\n\n", strings.TrimSpace(d.Example))
	}
	if d.UseInstead != "" {
		fmt.Fprintf(&b, "### Use instead\n\n```yaml\n%s\n```\n\n", strings.TrimSpace(d.UseInstead))
	}
	section("Fix", d.Fix)
	if len(d.References) > 0 {
		b.WriteString("### References\n\n")
		for _, r := range d.References {
			fmt.Fprintf(&b, "- %s\n", r)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Text renders the documentation for a terminal.
func (d Doc) Text(name string, sev Severity) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s (default severity: %s)\n\n", name, d.Title, sev)
	section := func(title, body string) {
		if body == "" {
			return
		}
		fmt.Fprintf(&b, "%s\n%s\n\n", strings.ToUpper(title), indent(strings.TrimSpace(body), "  "))
	}
	section("What it does", d.What)
	section("Why is this bad", d.Why)
	section("Example", d.Example)
	section("Use instead", d.UseInstead)
	section("Fix", d.Fix)
	if len(d.References) > 0 {
		section("References", "- "+strings.Join(d.References, "\n- "))
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func indent(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}
