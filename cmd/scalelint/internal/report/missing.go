package report

import (
	"fmt"

	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/rules"
)

// Missing lists, for one autoscaler, the laws that could not be evaluated
// and the annotations that would enable each.
type Missing struct {
	File   string       `json:"file"`
	Line   int          `json:"line"`
	Object *ObjectRef   `json:"object"`
	Laws   []MissingLaw `json:"laws"`
}

// MissingLaw is one law left unevaluated and what it needs.
type MissingLaw struct {
	Law   string   `json:"law"`
	Needs []string `json:"needs,omitempty"` // annotations, with the scalelint.dev/ prefix
	Why   string   `json:"why,omitempty"`
}

// MissingLaws converts an evaluation's missing laws, with the annotations'
// prefix.
func MissingLaws(e *rules.Evaluation) []MissingLaw {
	var out []MissingLaw
	for _, x := range e.Missing {
		law := MissingLaw{Law: x.Law, Why: x.Why}
		for _, n := range x.Needs {
			law.Needs = append(law.Needs, scaling.Prefix+n)
		}
		out = append(out, law)
	}
	return out
}

// Missing lists the autoscalers with laws left unevaluated for want of
// inputs, from the run's evaluations; computed once.
func (r *Report) Missing() []Missing {
	if r.missing != nil {
		return *r.missing
	}
	var out []Missing
	evals := rules.Evaluations(r.shared, r.Config.Defaults)
	for _, a := range r.Workspace.Autoscalers() {
		e := evals.Evaluate(r.Workspace, a)
		if len(e.Missing) == 0 {
			continue
		}
		// The line only, from the line table a file holding an
		// autoscaler keeps (workspace.LoadReleased): a column would read
		// the file's text again.
		f := a.Object.File()
		out = append(out, Missing{File: f.Path, Line: f.Tok.Line(a.Object.NameAt.Pos), Object: r.ObjectRef(a.Object), Laws: MissingLaws(e)})
	}
	r.missing = &out
	return out
}

// MissingHint says how many autoscalers have laws left unevaluated for
// want of inputs, and where to see which ("" when none): a clean run must
// not read as "every law holds" when most were never computed.
func (r *Report) MissingHint() string {
	n := len(r.Missing())
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %s: laws not evaluated for want of inputs; --explain-missing lists them",
		n, Plural(len(r.Workspace.Autoscalers()), "autoscaler"))
}
