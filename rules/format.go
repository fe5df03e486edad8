package rules

import (
	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// defaultMargin is the margin of latency-floor's threshold fix.
const defaultMargin = 0.1

// evaluations evaluates every autoscaler of the pass, once per run for
// every rule that reports on the laws (see Evaluator).
func evaluations(pass *analyzer.Pass) []*Evaluation {
	ev := pass.Shared(evaluatorKey{}, func() any {
		return newEvaluator(func(a *scaling.Autoscaler) scaling.Inputs { return pass.DefaultsFor(a.Object.File()) })
	}).(*Evaluator)
	type key struct{ ws *workspace.Workspace }
	return pass.Shared(key{pass.Workspace}, func() any {
		var out []*Evaluation
		for _, a := range pass.Workspace.Autoscalers() {
			out = append(out, ev.Evaluate(pass.Workspace, a))
		}
		return out
	}).([]*Evaluation)
}

// inputRelated points at the annotation an input came from, when it came
// from one.
func inputRelated(in scaling.Input, what string) []analyzer.Related {
	if in.Object == nil || !in.At.IsValid() {
		return nil
	}
	r := analyzer.FieldSpan(in.Object, in.At)
	return []analyzer.Related{{Pos: r.Pos(), End: r.End(), Message: what + " (" + in.Origin.String() + ")"}}
}
