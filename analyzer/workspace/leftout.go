package workspace

import (
	"regexp"
	"slices"
)

// LeftOut is a template a render left out: one that stopped Helm's render
// of a value set, which scalelint rendered again without it (the chart's
// other templates are linted). The objects it would define are missing
// from the workspace, so a rule that finds something missing (a target, a
// LimitRange, a VerticalPodAutoscaler) asks MayLack first.
type LeftOut struct {
	Path string // the template, as the user finds it
	// Kinds are the kinds its text names on a kind: line; AnyKind is set
	// when that does not say all it may define: a kind: line whose value
	// is a template action, or no kind: line at all (its objects come from
	// a helper it includes).
	Kinds   []string
	AnyKind bool
}

// kindLine matches a kind: line of a template and its value up to the end
// of the line.
var kindLine = regexp.MustCompile(`(?m)^[\t -]*kind:[\t ]*([^\n#]*)`)

// plainKind is a kind written out, quoted or not.
var plainKind = regexp.MustCompile(`^["']?([A-Za-z][A-Za-z0-9]*)["']?\s*$`)

// LeftOutOf reads what kinds a template's text may define (LeftOut).
func LeftOutOf(path string, text []byte) LeftOut {
	l := LeftOut{Path: path}
	ms := kindLine.FindAllSubmatch(text, -1)
	if len(ms) == 0 {
		l.AnyKind = true
	}
	for _, m := range ms {
		k := plainKind.FindSubmatch(m[1])
		if k == nil {
			l.AnyKind = true
			continue
		}
		if !slices.Contains(l.Kinds, string(k[1])) {
			l.Kinds = append(l.Kinds, string(k[1]))
		}
	}
	return l
}

// MayLack reports whether the workspace may lack an object of kind that
// its source defines: a render left out a template that may define one
// (Options.LeftOut).
func (ws *Workspace) MayLack(kind string) bool {
	for _, l := range ws.opts.LeftOut {
		if l.AnyKind || slices.Contains(l.Kinds, kind) {
			return true
		}
	}
	return false
}
