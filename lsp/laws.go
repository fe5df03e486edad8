package lsp

import (
	"fmt"
	"strings"

	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/rules"
	"github.com/scalelint/scalelint/rules/format"
)

// evaluate returns the laws evaluated for an autoscaler with the
// configuration's annotation defaults: the numbers the rules report, for
// hover and inlay hints, evaluated once per snapshot.
func evaluate(snap *Snapshot, a *scaling.Autoscaler) *rules.Evaluation {
	return rules.Evaluations(snap.Shared(), snap.cfg).Evaluate(snap.Workspace(), a)
}

// fixThreshold is the threshold latency-floor's fix suggests, with the
// margin the configuration gives the autoscaler's file (as the rule reads
// it: analyzer.Config.Option).
func fixThreshold(snap *Snapshot, a *scaling.Autoscaler, b *rules.BacklogEval) float64 {
	return b.FixThreshold(snap.cfg.Option(rules.LatencyFloor, a.Object.File().Path, "margin"))
}

// lawTable renders an evaluation as a Markdown table, one row per law
// that could be evaluated, then the laws that could not and the
// annotations they need.
func lawTable(snap *Snapshot, e *rules.Evaluation) string {
	var b strings.Builder
	a := e.Autoscaler
	fmt.Fprintf(&b, "**%s %s**", a.Object.Kind, a.Object.Name)
	if t := e.Target; t != nil && t.Object != nil {
		fmt.Fprintf(&b, " → %s %s", t.Object.Kind, t.Object.Name)
	}
	b.WriteString("\n\n")
	var rows [][3]string
	if g := e.Growth; g != nil {
		numbers := fmt.Sprintf("g = %s (limit %s / request %s at %d%%) vs 1 + tolerance = %s",
			format.Apart(g.G, 1+g.Tolerance, 3), format.Num(g.Limit, 3), format.Num(g.Request, 3), g.TargetPercent, format.Exact(1+g.Tolerance))
		verdict := "grows"
		if g.Trapped {
			verdict = "**trapped**" + escapes(g)
			if len(g.Others) > 0 {
				verdict += fmt.Sprintf("; the other %d metrics may still scale up", len(g.Others))
			}
		}
		rows = append(rows, [3]string{"§1 growth", numbers, verdict})
		if g.HasOverload {
			numbers := fmt.Sprintf("%s× overload", format.Num(g.Overload, 2))
			verdict := "never (trapped)"
			if g.Rounds >= 0 {
				numbers += fmt.Sprintf(": %d rounds", g.Rounds)
				verdict = "reaches capacity"
				if g.HasDeadTime {
					numbers += fmt.Sprintf(", %s%s to capacity", atLeast(g.DeadTimeBounded), format.Secs(g.TimeToCapacity))
					if g.HasDeadline && g.TimeToCapacity > g.Deadline {
						verdict = fmt.Sprintf("**late**: deadline %s", format.Secs(g.Deadline))
					}
				}
			}
			rows = append(rows, [3]string{"§1 rounds", numbers, verdict})
		}
	}
	for _, bl := range e.Backlog {
		tauEff := bl.DeadTime + bl.SamplingDelay
		required := fmt.Sprintf("τ_eff·Φ = %s × %s = %s", format.Secs(tauEff), format.Num(bl.Phi, 3), format.Secs(bl.Required))
		if bl.Bounded {
			required = fmt.Sprintf("τ_eff·Φ ≥ %s × %s = %s", format.Secs(tauEff), format.Num(bl.Phi, 3), format.Secs(bl.Required))
		}
		switch {
		case bl.HasDelay && bl.Threshold > 0:
			numbers := fmt.Sprintf("D = T/c = %s/%s = %s vs %s", format.Num(bl.Threshold, 3), format.Num(bl.PodRate, 3), format.Secs(bl.StandingDelay), required)
			if bl.Delay {
				numbers = fmt.Sprintf("D = %s (the drain time the trigger holds) vs %s", format.Secs(bl.StandingDelay), required)
			}
			verdict := "rests"
			switch {
			case !bl.Rests:
				verdict = fmt.Sprintf("**hunts**: threshold ≥ %s rests", format.Num(fixThreshold(snap, a, bl), 0))
			case bl.Bounded:
				verdict = "rests at the dead time's lower bound only"
			}
			rows = append(rows, [3]string{"§2 latency floor", numbers, verdict})
		case bl.HasPodRateCeiling:
			numbers := fmt.Sprintf("T = %s; rests only if T/c ≥ %s", format.Num(bl.Threshold, 3), required)
			verdict := fmt.Sprintf("**hunts unless c < %s/s**; annotate `%spod-rate`", format.SigUp(bl.PodRateCeiling, 2), scaling.Prefix)
			rows = append(rows, [3]string{"§2 latency floor", numbers, verdict})
		}
		if bl.HasLatencyTarget {
			verdict := "held"
			switch {
			case !bl.LatencyHeld:
				verdict = "**not held**"
			case bl.Bounded:
				verdict = "held at the dead time's lower bound only"
			}
			rows = append(rows, [3]string{"§2 latency target", fmt.Sprintf("%s vs %s", format.Secs(bl.LatencyTarget), required), verdict})
		}
	}
	if r := e.Retry; r != nil {
		numbers := fmt.Sprintf("1/A = %s (A = %s) vs target %s", format.Pct(r.TrapTarget), format.Num(r.Amplification, 2), format.Pct(r.Target))
		if r.Bounded {
			numbers = fmt.Sprintf("1/A ≤ %s (A ≥ %s) vs target %s", format.Pct(r.TrapTarget), format.Num(r.Amplification, 2), format.Pct(r.Target))
		}
		verdict := "below 1/A"
		switch {
		case r.ProtectionUnknown:
			verdict = "not decided: the admission bound is below an upper bound on the client timeout"
		case r.Bounded && !r.Trapped && !r.Protected:
			verdict = "below 1/A at the lower bound on A only"
		case r.Protected:
			verdict = "protected by the admission bound"
		case r.Trapped:
			if r.Signal == scaling.SignalCPU {
				verdict = fmt.Sprintf("**trapped**: target ≤ %s%% escapes", format.Num(r.FixTarget, 0))
			} else {
				verdict = fmt.Sprintf("**trapped**: threshold ≤ %s escapes", format.Num(r.FixTarget, 2))
			}
		}
		rows = append(rows, [3]string{"§3 retry trap", numbers, verdict})
	}
	if c := e.Ceiling; c != nil {
		var parts []string
		if c.HasFloor {
			parts = append(parts, fmt.Sprintf("floor A·λ/c %s %s", rel(c.Bounded, "≥"), format.Num(c.Floor, 1)))
		}
		if c.HasTop {
			parts = append(parts, fmt.Sprintf("top 0.8·N_max = %s", format.Num(c.Top, 1)))
		}
		numbers := strings.Join(parts, ", ") + fmt.Sprintf(" vs max %s", format.Num(c.Ceiling, 0))
		var verdicts []string
		if c.BandEmpty {
			verdicts = append(verdicts, "**empty band**")
		}
		if c.Trapped {
			verdicts = append(verdicts, "**below the floor**")
		}
		if c.OverPeak {
			verdicts = append(verdicts, "**over the peak**")
		}
		if len(verdicts) == 0 {
			verdicts = append(verdicts, "in the band")
			if c.Bounded {
				verdicts = []string{"above the floor's lower bound only"}
			}
		}
		rows = append(rows, [3]string{"§4 ceiling band", numbers, strings.Join(verdicts, ", ")})
	}
	if bd := e.Bound; bd != nil {
		verdict := "shorter: abandoned work is shed"
		switch {
		case !bd.Shorter:
			verdict = "**not shorter**"
		case bd.Bounded:
			verdict = "shorter than an upper bound on the client timeout only"
		}
		rows = append(rows, [3]string{"§5 bound", fmt.Sprintf("admission bound %s vs client timeout %s %s", format.Secs(bd.Bound), rel(bd.Bounded, "≤"), format.Secs(bd.Timeout)), verdict})
	}
	if len(rows) > 0 {
		b.WriteString("| law | numbers | verdict |\n|---|---|---|\n")
		for _, r := range rows {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", r[0], r[1], r[2])
		}
	} else {
		b.WriteString("No law could be evaluated.\n")
	}
	// The inputs read from the manifests, with their bound and source
	// (rules/laws/README.md §10), and what was found and not counted.
	var read []string
	for _, spec := range scaling.Annotations {
		if in, ok := e.Inputs[spec.Name]; ok && in.IsBound() {
			read = append(read, fmt.Sprintf("- %s %s: %s", symbolOf(spec), rules.InputText(in, a.Object.File()), in.Source))
		}
	}
	for _, n := range e.Notes {
		read = append(read, "- not counted: "+n.Text)
	}
	if len(read) > 0 {
		b.WriteString("\nRead from the manifests:\n" + strings.Join(read, "\n") + "\n")
	}
	if len(e.Missing) > 0 {
		b.WriteString("\nNot evaluated or not decided:\n")
		for _, m := range e.Missing {
			var needs []string
			for _, n := range m.Needs {
				needs = append(needs, "`"+scaling.Prefix+n+"`")
			}
			switch {
			case len(needs) > 0 && m.Why != "":
				fmt.Fprintf(&b, "- `%s` needs %s: %s\n", m.Law, strings.Join(needs, ", "), m.Why)
			case len(needs) > 0:
				fmt.Fprintf(&b, "- `%s` needs %s\n", m.Law, strings.Join(needs, ", "))
			case m.Why != "":
				fmt.Fprintf(&b, "- `%s`: %s\n", m.Law, m.Why)
			}
		}
	}
	return b.String()
}

// missingAnnotations lists the annotations the unevaluated laws need, in
// the order of scaling.Annotations, once each.
func missingAnnotations(e *rules.Evaluation) []string {
	want := map[string]bool{}
	for _, m := range e.Missing {
		for _, n := range m.Needs {
			want[n] = true
		}
	}
	var out []string
	for _, spec := range scaling.Annotations {
		if want[spec.Name] {
			out = append(out, spec.Name)
		}
	}
	return out
}

// annotationDoc renders an annotation's documentation.
func annotationDoc(spec scaling.AnnotationSpec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s%s**", scaling.Prefix, spec.Name)
	if spec.Symbol != "" {
		fmt.Fprintf(&b, " (%s)", spec.Symbol)
	}
	fmt.Fprintf(&b, "\n\n%s\n\nExample: `%s`", spec.Doc, spec.Example)
	if spec.Default != "" {
		fmt.Fprintf(&b, "; default `%s`", spec.Default)
	}
	b.WriteString("\n")
	return b.String()
}

// atLeast is "at least " for a lower bound.
func atLeast(bounded bool) string {
	if bounded {
		return "at least "
	}
	return ""
}

// rel is the relation of a value that may be a bound: sign, or "=".
func rel(bounded bool, sign string) string {
	if bounded {
		return sign
	}
	return "="
}

// symbolOf is an input's symbol, or its name.
func symbolOf(spec scaling.AnnotationSpec) string {
	if spec.Symbol != "" && !strings.Contains(spec.Symbol, " ") {
		return spec.Symbol
	}
	if spec.Name == "retry-amplification" || spec.Name == "retries" {
		return "A"
	}
	return spec.Name
}

// escapes says which changes lift a trapped growth factor out of the band,
// those of them that exist (rules.GrowthEval: FixTarget, FixLimit).
func escapes(g *rules.GrowthEval) string {
	var ways []string
	if g.FixTarget >= 1 {
		ways = append(ways, fmt.Sprintf("target ≤ %d%%", g.FixTarget))
	}
	if g.FixLimit > g.Limit {
		ways = append(ways, "CPU limit ≥ "+format.Num(g.FixLimit, 3))
	}
	if len(ways) == 0 {
		return ": no target and no CPU limit the controller can hold escapes"
	}
	return ": " + strings.Join(ways, " or ") + " escapes"
}
