package rules

import (
	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/scaling"
)

// defaultMargin is the margin of latency-floor's threshold fix.
const defaultMargin = 0.1

// evaluations evaluates every autoscaler of the pass.
func evaluations(pass *analyzer.Pass) []*Evaluation {
	opts := EvalOptions{Margin: defaultMargin}
	if _, ok := pass.Analyzer.Option("margin"); ok {
		opts.Margin = pass.Option("margin")
	}
	type key struct{ margin float64 }
	return pass.Shared(key{opts.Margin}, func() any {
		var out []*Evaluation
		for _, a := range pass.Workspace.Autoscalers() {
			out = append(out, Evaluate(pass.Workspace, a, pass.Defaults, opts))
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
