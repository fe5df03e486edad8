package lint

import (
	"go/token"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/render"
)

// located is a finding of a unit placed in its sources.
type located struct {
	at      render.Location
	related []relatedAt
	// fixes are the finding's fixes whose every edit falls on source
	// bytes that are the rendered bytes (render.Location.Exact): an edit
	// anywhere else could change another value set's output, or the
	// wrong line.
	fixes []fixAt
	// suppression is where the annotation that suppressed the finding is
	// written, when one did.
	suppression *render.Location
}

type relatedAt struct {
	at  render.Location
	msg string
}

type fixAt struct {
	msg   string
	safe  bool
	edits []editAt
}

type editAt struct {
	at   render.Location
	text string
}

// Locate maps a position range of the unit's rendered text to its source.
func (u *Unit) Locate(pos, end token.Pos) (render.Location, bool) {
	if l, ok := u.placed[[2]token.Pos{pos, end}]; ok {
		return l, true
	}
	f := u.Workspace.FileOf(pos)
	if f == nil {
		return render.Location{}, false
	}
	l := u.locators[f]
	if l == nil {
		return render.Location{}, false
	}
	start := f.Tok.Offset(pos)
	stop := start
	if end.IsValid() && end >= pos && int(end) <= f.Tok.Base()+f.Tok.Size() {
		stop = f.Tok.Offset(end)
	}
	return l.Locate(start, stop), true
}

// locate places a finding, its related places and its fixes in their
// sources.
func (u *Unit) locate(d *analyzer.Diagnostic) located {
	var l located
	at, ok := u.Locate(d.Pos, d.End)
	if !ok {
		at = render.Location{Path: u.anchor, Note: "the " + u.what() + "'s first line: the finding has no place in what it renders"}
	}
	l.at = at
	for _, r := range d.Related {
		if a, ok := u.Locate(r.Pos, r.End); ok {
			l.related = append(l.related, relatedAt{a, r.Message})
		}
	}
	for _, fx := range d.SuggestedFixes {
		f := fixAt{msg: fx.Message, safe: fx.Safe}
		for _, e := range fx.Edits {
			a, ok := u.Locate(e.Pos, e.End)
			if !ok || !a.Exact || a.End-a.Start != int(e.End-e.Pos) || e.End < e.Pos {
				f.edits = nil
				break
			}
			f.edits = append(f.edits, editAt{a, e.NewText})
		}
		if len(f.edits) > 0 {
			l.fixes = append(l.fixes, f)
		}
	}
	if s := d.Suppression; s != nil && s.Kind == "annotation" {
		if a, ok := u.Locate(s.Pos, s.Pos); ok {
			l.suppression = &a
		}
	}
	return l
}

// what names the unit's source for messages.
func (u *Unit) what() string {
	if u.Kind == "helm" {
		return "chart"
	}
	return "kustomization"
}
