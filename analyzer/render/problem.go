package render

import (
	"fmt"
	"strings"
)

// Rules of the problems rendering reports. A driver reports each through
// the rule of that name.
const (
	// RuleError: a template that does not render, a kustomization that
	// does not build, a chart that does not load (error).
	RuleError = "render-error"
	// RuleIncomplete: part of a chart or kustomization was left out, and
	// why: a dependency not vendored in charts/, a remote base; or a
	// dependency not vendored was rendered with a chart of the tree that
	// stands in for it (info).
	RuleIncomplete = "render-incomplete"
	// RuleLimit: a render over a safety limit (time, output, input).
	RuleLimit = "input-limit"
)

// Problem is something rendering could not do, positioned in the file a
// user edits.
type Problem struct {
	Rule string
	// Path is the file the problem is about (a template, Chart.yaml, a
	// kustomization); Line and Col (1-based, Col in bytes) place it, 0
	// when only the file is known.
	Path      string
	Line, Col int
	Message   string
	// Set names the value set it happened with ("" when it is the
	// chart's or the tree's, whatever the values).
	Set string
	// LeftOut names the templates that stopped a render here and were
	// left out of it (the chart's other templates rendered). A driver
	// that reports the problems of several value sets at one place lists
	// them all (LeftOutNote).
	LeftOut []string
}

// LeftOutNote ends the message of a problem that left templates out of a
// render.
func LeftOutNote(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("; %s is left out of the render and the chart's other templates are linted", names[0])
	}
	const shown = 3
	list := strings.Join(names[:min(shown, len(names))], ", ")
	if len(names) > shown {
		list += fmt.Sprintf(" and %d more", len(names)-shown)
	}
	return fmt.Sprintf("; %d templates that stop here (%s) are left out of the render and the chart's other templates are linted", len(names), list)
}

func (p Problem) String() string {
	p.Message += LeftOutNote(p.LeftOut)
	switch {
	case p.Line > 0 && p.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s [%s]", p.Path, p.Line, p.Col, p.Message, p.Rule)
	case p.Line > 0:
		return fmt.Sprintf("%s:%d: %s [%s]", p.Path, p.Line, p.Message, p.Rule)
	}
	return fmt.Sprintf("%s: %s [%s]", p.Path, p.Message, p.Rule)
}
