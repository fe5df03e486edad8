package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/rules"
)

// missingJSON lists, for one autoscaler, the laws that could not be
// evaluated and the annotations that would enable each.
type missingJSON struct {
	File   string       `json:"file"`
	Line   int          `json:"line"`
	Object *objectRef   `json:"object"`
	Laws   []missingLaw `json:"laws"`
}

type missingLaw struct {
	Law   string   `json:"law"`
	Needs []string `json:"needs,omitempty"` // annotations, with the scalelint.dev/ prefix
	Why   string   `json:"why,omitempty"`
}

func (r *report) missing() []missingJSON {
	if r.missingMemo != nil {
		return *r.missingMemo
	}
	out := r.computeMissing()
	r.missingMemo = &out
	return out
}

func (r *report) computeMissing() []missingJSON {
	var out []missingJSON
	for _, a := range r.ws.Autoscalers() {
		e := rules.Evaluations(r.shared, r.cfg.Defaults).Evaluate(r.ws, a)
		if len(e.Missing) == 0 {
			continue
		}
		// The line only, from the line table a file holding an
		// autoscaler keeps (workspace.LoadReleased): a column would read
		// the file's text again.
		f := a.Object.File()
		m := missingJSON{File: f.Path, Line: f.Tok.Line(a.Object.NameAt.Pos), Object: r.objectRef(a.Object)}
		for _, x := range e.Missing {
			law := missingLaw{Law: x.Law, Why: x.Why}
			for _, n := range x.Needs {
				law.Needs = append(law.Needs, scaling.Prefix+n)
			}
			m.Laws = append(m.Laws, law)
		}
		out = append(out, m)
	}
	return out
}

// missingHint returns a line saying how many autoscalers have laws left
// unevaluated for want of inputs, and where to see which ("" when none):
// a clean run must not read as "every law holds" when most were never
// computed.
func (r *report) missingHint() string {
	n := len(r.missing())
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %s: laws not evaluated for want of inputs; --explain-missing lists them",
		n, plural(len(r.ws.Autoscalers()), "autoscaler"))
}

func writeMissingText(r *report, w io.Writer) {
	ms := r.missing()
	if len(ms) == 0 {
		fmt.Fprintln(w, "\nevery law that applies could be evaluated")
		return
	}
	fmt.Fprintf(w, "\nlaws not evaluated (%d autoscalers):\n", len(ms))
	for _, m := range ms {
		fmt.Fprintf(w, "  %s:%d %s %s/%s\n", m.File, m.Line, m.Object.Kind, m.Object.Namespace, m.Object.Name)
		for _, l := range m.Laws {
			if len(l.Needs) > 0 {
				fmt.Fprintf(w, "    %-22s needs %s\n", l.Law, strings.Join(l.Needs, ", "))
			} else {
				fmt.Fprintf(w, "    %-22s %s\n", l.Law, l.Why)
			}
		}
	}
}
