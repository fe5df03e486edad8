package rules

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/infer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/parallel"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/analyzer/workspace/chunked"
	"github.com/scalelint/scalelint/rules/format"
)

// defaultMargin is the margin of latency-floor's threshold fix.
const defaultMargin = 0.1

// evaluations evaluates every autoscaler of the pass, once per run for
// every rule that reports on the laws (see Evaluator).
func evaluations(pass *analyzer.Pass) []*Evaluation {
	ev := pass.Shared(evaluatorKey{}, func() any {
		return newEvaluator(func(a *scaling.Autoscaler) scaling.Inputs { return pass.DefaultsFor(a.Object.File()) },
			func(a *scaling.Autoscaler) infer.Options { return pass.InferFor(a.Object.File()) })
	}).(*Evaluator)
	type key struct{ ws *workspace.Workspace }
	return pass.Shared(key{pass.Workspace}, func() any {
		return evaluateAll(ev, pass.Workspace, pass.Workspace.Autoscalers())
	}).([]*Evaluation)
}

// evaluateAll evaluates autoscalers on every core, in their order: the
// rules that report on the laws wait for these evaluations, which took
// 60-80 ms on one core at 10,000 services. An evaluation reads the
// workspace and the views, whose memos are built under their locks, and
// its result does not depend on which goroutine made it. A panic is
// raised again on the caller's goroutine, where the rule's recovery
// reports it.
func evaluateAll(ev *Evaluator, ws *workspace.Workspace, as chunked.List[*scaling.Autoscaler]) []*Evaluation {
	out := make([]*Evaluation, as.Len())
	parallel.Parts(len(out), 1, func(lo, hi int) {
		for i, a := range as.Range(lo, hi) {
			out[i] = ev.Evaluate(ws, a)
		}
	})
	return out
}

// inputRelated points at the annotation an input came from, when it came
// from one.
func inputRelated(in scaling.Input, what string) []analyzer.Related {
	if in.Object == nil || !in.At.IsValid() {
		return nil
	}
	r := analyzer.FieldSpan(in.Object, in.At)
	msg := what + " (" + in.Origin.String() + ")"
	if in.IsBound() {
		if in.Value == 0 {
			return nil // "at least 0" points at nothing worth a note
		}
		msg = fmt.Sprintf("%s %s %s (%s)", what, in.Bound.Relation(), inputValue(in.Name, in.Value), in.Source)
	}
	return []analyzer.Related{{Pos: r.Pos(), End: r.End(), Message: msg}}
}

// bound is an input's bound for FactSource.Bound.
func boundWord(b scaling.Bound) string {
	return [...]string{"exact", "lower", "upper"}[b]
}

// factSources gives the sources of a finding's input facts, by fact name
// (fact) from the input of that name (input), for the inputs known.
func factSources(e *Evaluation, pairs ...string) map[string]analyzer.FactSource {
	out := map[string]analyzer.FactSource{}
	for i := 0; i+1 < len(pairs); i += 2 {
		in, ok := e.Inputs[pairs[i+1]]
		if !ok {
			continue
		}
		fs := analyzer.FactSource{Bound: boundWord(in.Bound), Origin: in.Origin.String(), Source: in.Source}
		if in.Object != nil && in.At.IsValid() {
			fs.Pos, fs.Line = in.At.Start(), in.LineOf()
		}
		out[pairs[i]] = fs
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// inputValue formats an input's value in its unit: "90s", "4".
func inputValue(name string, v float64) string {
	if spec, ok := scaling.SpecOf(name); ok && spec.Kind == scaling.Duration {
		return format.Secs(v)
	}
	return format.Num(v, 3)
}

// InputText formats an input of a finding in file: the value for what an
// annotation or the configuration states ("90s"); for an inferred bound,
// its relation, value and source, "≥ 20s (readinessProbe,
// api/deployment.yaml:31)" (rules/laws/README.md §10).
func InputText(in scaling.Input, file *manifest.File) string {
	v := inputValue(in.Name, in.Value)
	if !in.IsBound() {
		return v
	}
	out := in.Bound.Relation() + " " + v
	if in.Upper > in.Value {
		out += " to " + inputValue(in.Name, in.Upper)
	}
	parts := []string{}
	if in.From != "" {
		parts = append(parts, in.From)
	}
	if w := where(in, file); w != "" {
		parts = append(parts, w)
	}
	if len(parts) > 0 {
		out += " (" + strings.Join(parts, ", ") + ")"
	}
	return out
}

// where names the place an inferred input was read: "line 31" in the
// finding's own file, else the file's path (relative to the finding's
// directory when both are absolute, as in the language server) and line;
// nothing for a renderer's output.
func where(in scaling.Input, file *manifest.File) string {
	if in.Object == nil || !in.At.IsValid() {
		return ""
	}
	src := in.Object.File()
	if src.IsRenderedOutput() {
		// A line of a chart's or kustomization's rendered text: the
		// finding's note places the input in the sources instead.
		return ""
	}
	line := in.LineOf()
	if line == 0 {
		return ""
	}
	if file != nil && src.Path == file.Path {
		return "line " + strconv.Itoa(line)
	}
	p := src.Path
	if file != nil && filepath.IsAbs(p) && filepath.IsAbs(file.Path) {
		if rel, err := filepath.Rel(filepath.Dir(file.Path), p); err == nil {
			p = rel
		}
	}
	return filepath.ToSlash(p) + ":" + strconv.Itoa(line)
}

// relation is the sign of a value that is a bound ("≤", "≥") or "=".
func relation(bounded bool, sign string) string {
	if bounded {
		return sign
	}
	return "="
}

// amplificationInput names the input A was read from.
func amplificationInput(e *Evaluation) string {
	if _, ok := e.Inputs["retries"]; ok {
		return "retries"
	}
	return "retry-amplification"
}

// amplificationText is A for a message: "= 3", or an inferred bound with
// its source, "≥ 4 (Canary podinfo spec.service.retries, canary.yaml:12)".
func amplificationText(e *Evaluation, A float64, file *manifest.File) string {
	in := e.Inputs[amplificationInput(e)]
	if in.IsBound() {
		return InputText(in, file)
	}
	return "= " + format.Num(A, 3)
}

// throughRoutes qualifies a finding from an inferred A: the bound holds
// for the requests that reach the pods through the routes it was read
// from (rules/laws/README.md §10.3); callers that bypass them (clients
// outside the mesh, in-cluster callers of an Ingress's Service) dilute it.
func throughRoutes(bounded bool) string {
	if !bounded {
		return ""
	}
	return "; A counts the requests that come through the routes read, so this holds as far as the demand does"
}

// GrowthText writes a growth factor and the tolerance it is compared
// with: the tolerance as written (every digit), and g with as many digits
// as it takes not to round onto or across 1 + tolerance (format.Apart):
// "g = 1.0999 ≤ 1 + tolerance 0.1", never "g = 1.1", and never "g = 1"
// for a g of 1.0000001 against a tolerance of 0.
func GrowthText(g *GrowthEval) (gText, tolerance string) {
	return format.Apart(g.G, 1+g.Tolerance, 4), format.Exact(g.Tolerance)
}
