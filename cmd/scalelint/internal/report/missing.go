package report

import (
	"fmt"
	"sync"

	"github.com/scalelint/scalelint/analyzer/parallel"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/rules"
	"github.com/scalelint/scalelint/rules/format"
)

// Missing lists, for one autoscaler, the laws that could not be evaluated
// and the annotations that would enable each.
type Missing struct {
	File   string       `json:"file"`
	Line   int          `json:"line"`
	Object *ObjectRef   `json:"object"`
	Laws   []MissingLaw `json:"laws"`
	// Bounds are the inputs read from the manifests as bounds, which the
	// laws used only where sound (rules/laws/README.md §10).
	Bounds []InputBound `json:"bounds,omitempty"`
}

// InputBound is one input the manifests bound: scalelint.dev/dead-time
// ≥ 20 (readinessProbe of container api, deploy.yaml:31).
type InputBound struct {
	Input  string  `json:"input"` // the annotation that would state it, with the prefix
	Bound  string  `json:"bound"` // lower or upper
	Value  float64 `json:"value"` // seconds for durations
	Upper  float64 `json:"upperEnd,omitempty"`
	Source string  `json:"source"`
	File   string  `json:"file,omitempty"`
	Line   int     `json:"line,omitempty"`
}

// Bounds lists an evaluation's inferred inputs, by annotation name. at
// places an input's field in the files the user edits (file and line, ""
// when it has no place there); nil reads it where it was read, right for
// the objects of the workspace itself, not for those a chart or
// kustomization renders (the line would be the rendered text's).
func Bounds(e *rules.Evaluation, at func(scaling.Input) (string, int)) []InputBound {
	var out []InputBound
	for _, spec := range scaling.Annotations {
		in, ok := e.Inputs[spec.Name]
		if !ok || !in.IsBound() {
			continue
		}
		b := InputBound{Input: prefixed(spec.Name), Bound: [...]string{"exact", "lower", "upper"}[in.Bound],
			Value: format.RoundSig(in.Value, 6), Upper: format.RoundSig(in.Upper, 6), Source: in.Source}
		if in.Object != nil && in.At.IsValid() {
			if at == nil {
				b.File, b.Line = in.Object.File().Path, in.LineOf()
			} else {
				b.File, b.Line = at(in)
			}
		}
		out = append(out, b)
	}
	return out
}

// annotationKeys are the annotations' names with the prefix, made once:
// the list of missing inputs names a few for each of thousands of
// autoscalers, and holds them to the end of the run.
var annotationKeys = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	for _, spec := range scaling.Annotations {
		out[spec.Name] = scaling.Prefix + spec.Name
	}
	return out
})

// prefixed returns an annotation's name with the prefix.
func prefixed(name string) string {
	if k, ok := annotationKeys()[name]; ok {
		return k
	}
	return scaling.Prefix + name
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
	if len(e.Missing) == 0 {
		return nil
	}
	out := make([]MissingLaw, 0, len(e.Missing)) // one for each autoscaler of a run, held to its end
	for _, x := range e.Missing {
		law := MissingLaw{Law: x.Law, Why: x.Why}
		if len(x.Needs) > 0 {
			law.Needs = make([]string, len(x.Needs))
			for i, n := range x.Needs {
				law.Needs[i] = prefixed(n)
			}
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
	evals := rules.Evaluations(r.shared, r.Config)
	as := r.Workspace.Autoscalers()
	// On every core, each goroutine a run of the autoscalers, joined in
	// order: the lists of thousands of autoscalers took 30-40 ms on one
	// core at the end of a run. The evaluations are the run's, made.
	found := make([]*Missing, as.Len())
	parallel.Parts(len(found), 64, func(lo, hi int) {
		for i, a := range as.Range(lo, hi) {
			e := evals.Evaluate(r.Workspace, a)
			if len(e.Missing) == 0 {
				continue
			}
			// The line only, read when the view was built (NameLine): a
			// column would read the file's text again.
			f := a.Object.File()
			found[i] = &Missing{File: f.Path, Line: a.NameLine, Object: r.ObjectRef(a.Object), Laws: MissingLaws(e),
				Bounds: Bounds(e, nil)}
		}
	})
	var out []Missing
	for _, m := range found {
		if m != nil {
			out = append(out, *m)
		}
	}
	if r.Rendered != nil {
		for _, ra := range r.Rendered.Autoscalers() {
			u := ra.Unit
			e := rules.Evaluations(u.Shared, r.Config).Evaluate(u.Workspace, ra.Autoscaler)
			if len(e.Missing) == 0 {
				continue
			}
			// The inputs' places in the sources, as the autoscaler's.
			at := func(in scaling.Input) (string, int) {
				p, _, ok := r.Rendered.Place(u, in.At.Start(), in.At.End)
				if !ok {
					return "", 0
				}
				if f := r.Workspace.FileOf(p); f != nil {
					return f.Path, f.Lines().Line(p)
				}
				return "", 0
			}
			m := Missing{Object: r.ObjectRef(ra.Autoscaler.Object), Laws: MissingLaws(e), Bounds: Bounds(e, at)}
			if f := r.Workspace.FileOf(ra.Pos); f != nil {
				m.File, m.Line = f.Path, f.Lines().Line(ra.Pos)
			}
			out = append(out, m)
		}
	}
	r.missing = &out
	return out
}

// Coverage counts the autoscalers by how much of their laws was decided
// (rules.Coverage), from the run's evaluations; computed once.
func (r *Report) Coverage() [rules.AllEvaluated + 1]int {
	if r.coverage != nil {
		return *r.coverage
	}
	var c [rules.AllEvaluated + 1]int
	evals := rules.Evaluations(r.shared, r.Config)
	for _, a := range r.Workspace.Autoscalers().All() {
		c[evals.Evaluate(r.Workspace, a).Coverage()]++
	}
	if r.Rendered != nil {
		for _, ra := range r.Rendered.Autoscalers() {
			u := ra.Unit
			c[rules.Evaluations(u.Shared, r.Config).Evaluate(u.Workspace, ra.Autoscaler).Coverage()]++
		}
	}
	r.coverage = &c
	return c
}

// MissingHint says, in one sentence, for how many autoscalers every law
// that applies was evaluated, for how many some (the others bounded or
// not evaluated) and for how many none, and where to see what they need
// ("" when every law that applies was evaluated): a clean run must not
// read as "every law holds" when most were never computed.
func (r *Report) MissingHint() string {
	c := r.Coverage()
	if c[rules.PartlyEvaluated]+c[rules.NoneEvaluated] == 0 {
		return ""
	}
	s := fmt.Sprintf("%s: laws evaluated in full for %d, in part for %d (the others only bounded or not evaluated), not at all for %d",
		Plural(r.Autoscalers(), "autoscaler"), c[rules.AllEvaluated], c[rules.PartlyEvaluated], c[rules.NoneEvaluated])
	if c[rules.NoLaw] > 0 {
		s += fmt.Sprintf(", and no law applies to %d", c[rules.NoLaw])
	}
	return s + "; --explain-missing lists what each needs"
}
