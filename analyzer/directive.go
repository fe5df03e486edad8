package analyzer

import (
	"bytes"
	"fmt"
	"go/token"
	"strings"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/suggest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// Suppression forms (the repository README, section "Configuration"):
//
//	# scalelint:ignore RULE[,RULE] reason      on the line before the finding, or at its end
//	# scalelint:file-ignore RULE[,RULE] reason anywhere in a document: the whole document
//	ignore.scalelint.dev/RULE: "reason"        an annotation on the object (survives rendering)
//
// A suppression without a reason, or naming an unknown rule, is itself
// reported (invalid-suppression), and so is one that matched nothing
// (unused-suppression).

const (
	ignoreDirective     = "scalelint:ignore"
	fileIgnoreDirective = "scalelint:file-ignore"
	// IgnoreAnnotationPrefix prefixes the annotation form of a suppression.
	IgnoreAnnotationPrefix = "ignore.scalelint.dev/"
)

// InvalidSuppression and UnusedSuppression are reported by the driver, not
// by a Run function; they are analyzers so they have documentation and
// can be configured like every rule.
var InvalidSuppression = &Analyzer{
	Name:     "invalid-suppression",
	Severity: Error,
	Doc:      builtinDoc("invalid-suppression"),
	URL:      RulesReferenceURL + "#invalid-suppression",
	Local:    true, // the directive's own text
}

var UnusedSuppression = &Analyzer{
	Name:     "unused-suppression",
	Severity: Warning,
	Doc:      builtinDoc("unused-suppression"),
	URL:      RulesReferenceURL + "#unused-suppression",
}

type directive struct {
	kind   string // directive, file-directive, annotation
	rules  []string
	reason string
	pos    token.Pos // start of the directive text
	end    token.Pos
	// appliesTo is the line a line directive covers.
	appliesTo int
	file      *manifest.File
	doc       *manifest.Document // file directives cover a document
	object    *manifest.Object   // annotations cover an object
	used      bool
	// removal deletes the directive (the fix of unused-suppression).
	removal TextEdit
}

// scanDirectives finds the comment directives of a file.
func scanDirectives(f *manifest.File) []*directive {
	if !f.MentionsScalelint() {
		return nil
	}
	var out []*directive
	lines := f.Lines().LineCount()
	for line := 1; line <= lines; line++ {
		text := f.LineText(line)
		c := commentStart(text)
		if c < 0 {
			continue
		}
		raw := string(text[c:])
		// Another comment after the directive ("# scalelint:ignore r why # note") ends it.
		if k := strings.Index(raw[1:], " #"); k >= 0 {
			raw = raw[:k+1]
		}
		body := strings.TrimSpace(strings.TrimLeft(raw, "#"))
		kind := ""
		switch {
		case strings.HasPrefix(body, fileIgnoreDirective):
			kind, body = "file-directive", body[len(fileIgnoreDirective):]
		case strings.HasPrefix(body, ignoreDirective):
			kind, body = "directive", body[len(ignoreDirective):]
		default:
			continue
		}
		if body != "" && body[0] != ' ' && body[0] != '\t' {
			continue // scalelint:ignorex is not a directive
		}
		fields := strings.Fields(body)
		d := &directive{kind: kind, file: f}
		if len(fields) > 0 {
			for _, r := range strings.Split(fields[0], ",") {
				if r = strings.TrimSpace(r); r != "" {
					d.rules = append(d.rules, r)
				}
			}
			d.reason = strings.Join(fields[1:], " ")
		}
		lineStart := f.Tok.Offset(f.Lines().LineStart(line))
		d.pos = f.Tok.Pos(lineStart + c)
		d.end = f.Tok.Pos(lineStart + c + len(strings.TrimRight(raw, " \t")))
		rest := len(bytes.TrimSpace(text[c+len(raw):])) > 0 // more comment after it
		ownLine := len(bytes.TrimSpace(text[:c])) == 0
		if ownLine && !rest {
			d.appliesTo = nextContentLine(f, line)
			// Removing an own-line directive removes the whole line.
			next := lineStart + len(text)
			src := f.Text()
			for next < len(src) && (src[next] == '\r' || src[next] == '\n') {
				next++
				if src[next-1] == '\n' {
					break
				}
			}
			d.removal = TextEdit{Pos: f.Tok.Pos(lineStart), End: f.Tok.Pos(next)}
		} else {
			if ownLine {
				d.appliesTo = nextContentLine(f, line)
			} else {
				d.appliesTo = line
			}
			start := c
			for start > 0 && (text[start-1] == ' ' || text[start-1] == '\t') {
				start--
			}
			d.removal = TextEdit{Pos: f.Tok.Pos(lineStart + start), End: d.end}
		}
		if kind == "file-directive" {
			off := lineStart + c
			for _, doc := range f.Docs {
				if off >= doc.Start && off < doc.End {
					d.doc = doc
				}
			}
		}
		out = append(out, d)
	}
	return out
}

// commentStart returns the index of the '#' that starts a comment on a
// YAML line, or -1: a '#' at the start or after a blank, outside quotes.
func commentStart(line []byte) int {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			// A quote starts a quoted scalar only where a value begins.
			if i == 0 || line[i-1] == ' ' || line[i-1] == '\t' || line[i-1] == '[' || line[i-1] == '{' || line[i-1] == ',' || line[i-1] == ':' {
				quote = c
			}
		case c == '#':
			if i == 0 || line[i-1] == ' ' || line[i-1] == '\t' {
				return i
			}
		}
	}
	return -1
}

// nextContentLine returns the first line after line that is not blank and
// not only a comment.
func nextContentLine(f *manifest.File, line int) int {
	for l := line + 1; l <= f.Lines().LineCount(); l++ {
		t := bytes.TrimSpace(f.LineText(l))
		if len(t) > 0 && t[0] != '#' {
			return l
		}
	}
	return line + 1
}

// annotationDirectives finds ignore.scalelint.dev/RULE annotations.
func annotationDirectives(ws *workspace.Workspace) []*directive {
	var out []*directive
	for _, o := range ws.Objects().All() {
		for _, an := range o.Annotations {
			if !strings.HasPrefix(an.Key, IgnoreAnnotationPrefix) {
				continue
			}
			d := &directive{kind: "annotation", object: o, file: o.File(),
				rules: []string{strings.TrimPrefix(an.Key, IgnoreAnnotationPrefix)},
				pos:   an.At.KeyPos(), end: an.At.End,
				reason: strings.TrimSpace(an.Value)}
			out = append(out, d)
		}
	}
	return out
}

// covers reports whether a directive covers a diagnostic.
func (d *directive) covers(diag *Diagnostic, ws *workspace.Workspace) bool {
	if !d.names(diag.Rule) {
		return false
	}
	switch d.kind {
	case "annotation":
		if diag.Object == d.object {
			return true
		}
		return diag.Object == nil && diag.Pos >= d.object.At.Pos && diag.Pos <= d.object.At.End
	case "file-directive":
		if d.doc == nil || ws.FileOf(diag.Pos) != d.file {
			return false
		}
		off := d.file.Tok.Offset(diag.Pos)
		return off >= d.doc.Start && off < d.doc.End
	default:
		if ws.FileOf(diag.Pos) == d.file {
			if line, _ := d.file.Position(diag.Pos); line == d.appliesTo {
				return true
			}
		}
		// A finding at a values line is written by a template line too.
		if r := diag.Rendered; r != nil && r.Template.Start.IsValid() && ws.FileOf(r.Template.Start) == d.file {
			line, _ := d.file.Position(r.Template.Start)
			return line == d.appliesTo
		}
		return false
	}
}

func (d *directive) names(rule string) bool {
	for _, r := range d.rules {
		if r == rule {
			return true
		}
	}
	return false
}

// applySuppressions marks suppressed diagnostics and returns the
// diagnostics about the suppressions themselves. The comments of rendered
// output, and of the files a chart or kustomization renders, are left to
// the rendering driver (SuppressRendered).
func applySuppressions(ws *workspace.Workspace, diags []Diagnostic, known map[string]bool, knownNames []string) []Diagnostic {
	var ds []*directive
	if !ws.Generated() {
		for _, f := range ws.Files().All() {
			if ws.Rendering(f) == workspace.NotRendered {
				ds = append(ds, scanDirectives(f)...)
			}
		}
	}
	ds = append(ds, annotationDirectives(ws)...)
	return suppress(ws, ds, diags, known, knownNames)
}

// SuppressRendered applies the suppression comments of the files a chart
// or kustomization renders (those ws marks rendered, whose comments Run
// leaves alone) to the findings mapped back into them (Diagnostic.Rendered:
// a comment covers the line a finding is at, and the template line that
// writes its value), and returns the findings about those comments
// (invalid-suppression, unused-suppression) with their severities. A
// comment is unused when no finding of any value set or build is on its
// line.
//
// own, when not nil, limits the comments to those of the files it accepts
// (those of the renders the findings come from, when the workspace holds
// others).
func SuppressRendered(ws *workspace.Workspace, diags []Diagnostic, analyzers []*Analyzer, cfg *Config, own func(*manifest.File) bool) []Diagnostic {
	if cfg == nil {
		cfg = DefaultConfig()
	}
	var ds []*directive
	for _, f := range ws.Files().All() {
		if ws.Rendering(f) != workspace.NotRendered && (own == nil || own(f)) {
			ds = append(ds, scanDirectives(f)...)
		}
	}
	known := map[string]bool{InvalidSuppression.Name: true, UnusedSuppression.Name: true}
	var names []string
	for _, a := range analyzers {
		known[a.Name] = true
		names = append(names, a.Name)
	}
	meta := suppress(ws, ds, diags, known, names)
	byName := map[string]*Analyzer{InvalidSuppression.Name: InvalidSuppression, UnusedSuppression.Name: UnusedSuppression}
	for _, a := range analyzers {
		if a.Name == InvalidSuppression.Name || a.Name == UnusedSuppression.Name {
			byName[a.Name] = a
		}
	}
	return stampSeverity(ws, meta, byName, cfg)
}

// StampSeverity gives findings a driver made (not a rule's Run) their
// rule's severity for their file, as Run does, and drops those of rules
// that are off there.
func StampSeverity(ws *workspace.Workspace, diags []Diagnostic, analyzers []*Analyzer, cfg *Config) []Diagnostic {
	if cfg == nil {
		cfg = DefaultConfig()
	}
	byName := map[string]*Analyzer{}
	for _, a := range analyzers {
		byName[a.Name] = a
	}
	return stampSeverity(ws, diags, byName, cfg)
}

// suppress marks the diagnostics the directives cover and returns the
// diagnostics about the directives themselves.
func suppress(ws *workspace.Workspace, ds []*directive, diags []Diagnostic, known map[string]bool, knownNames []string) []Diagnostic {
	if len(ds) == 0 {
		return nil
	}
	for i := range diags {
		for _, d := range ds {
			if d.covers(&diags[i], ws) {
				d.used = true
				if diags[i].Suppression == nil {
					diags[i].Suppression = &Suppression{Kind: d.kind, Justification: d.reason, Pos: d.pos}
				}
			}
		}
	}
	var out []Diagnostic
	for _, d := range ds {
		form := "# " + ignoreDirective
		switch d.kind {
		case "file-directive":
			form = "# " + fileIgnoreDirective
		case "annotation":
			form = IgnoreAnnotationPrefix + strings.Join(d.rules, ",")
		}
		var unknown []string
		for _, r := range d.rules {
			if !known[r] {
				unknown = append(unknown, r)
			}
		}
		switch {
		case len(d.rules) == 0:
			out = append(out, Diagnostic{Pos: d.pos, End: d.end, Rule: InvalidSuppression.Name,
				Message: fmt.Sprintf("%s names no rule: write %s RULE reason", form, form)})
		case len(unknown) > 0:
			msg := fmt.Sprintf("%s names unknown rule %q", form, unknown[0])
			if s := suggest.Closest(unknown[0], knownNames); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			out = append(out, Diagnostic{Pos: d.pos, End: d.end, Rule: InvalidSuppression.Name, Message: msg})
		case d.reason == "":
			out = append(out, Diagnostic{Pos: d.pos, End: d.end, Rule: InvalidSuppression.Name,
				Message: fmt.Sprintf("%s has no reason: say why the finding is acceptable", form)})
		case !d.used:
			what := form + " " + strings.Join(d.rules, ",")
			if d.kind == "annotation" {
				what = form
			}
			diag := Diagnostic{Pos: d.pos, End: d.end, Rule: UnusedSuppression.Name,
				Message: fmt.Sprintf("%s suppressed nothing", what)}
			if d.kind != "annotation" {
				diag.SuggestedFixes = []SuggestedFix{{Message: "Remove the unused suppression", Edits: []TextEdit{d.removal}, Safe: true}}
			}
			out = append(out, diag)
		}
	}
	return out
}
