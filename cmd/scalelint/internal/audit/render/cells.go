package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/report"
	"github.com/scalelint/scalelint/rules/format"
)

// The cells every tabular format shares: long forms for markdown and HTML,
// short ones for a terminal.

// kindAbbrev abbreviates an autoscaler kind for narrow cells.
func kindAbbrev(kind string) string {
	switch kind {
	case scaling.HPA.String():
		return "HPA"
	case scaling.ScaledObject.String():
		return "SO"
	case scaling.ScaledJob.String():
		return "SJ"
	}
	return kind
}

// primarySignal is the metric the laws read first: a backlog, a rate, a
// CPU target, else the first metric.
func primarySignal(r *audit.Row) (audit.Signal, int) {
	if len(r.Signals) == 0 {
		return audit.Signal{Type: "other", Metric: "none"}, 0
	}
	for _, t := range []string{"backlog", "rate", "cpu"} {
		for _, s := range r.Signals {
			if s.Type == t {
				return s, len(r.Signals) - 1
			}
		}
	}
	return r.Signals[0], len(r.Signals) - 1
}

func signalName(s audit.Signal) string {
	name := s.Metric
	if s.Type == "cpu" {
		name = "cpu"
	}
	return name
}

func signalShort(r *audit.Row) string {
	s, more := primarySignal(r)
	out := signalName(s)
	switch {
	case s.Utilization != nil:
		out += " " + anum(*s.Utilization) + "%"
	case s.Threshold != nil:
		out += " " + anum(*s.Threshold)
	}
	if more > 0 {
		out += " +" + strconv.Itoa(more)
	}
	return out
}

// signalCell is the table's signal: each metric with its target, then the
// pod rate when known.
func signalCell(r *audit.Row) (string, string) {
	var parts []string
	for _, s := range r.Signals {
		t := signalName(s)
		switch {
		case s.Utilization != nil:
			t += " " + anum(*s.Utilization) + "%"
		case s.Threshold != nil:
			if s.ThresholdKey != "" {
				t += " " + s.ThresholdKey
			}
			t += " " + anum(*s.Threshold)
			if s.Defaulted {
				t += " (default)"
			}
		}
		parts = append(parts, t)
	}
	rate := ""
	if r.PodRate != nil {
		rate = "c = " + anum(*r.PodRate) + "/s per pod"
	}
	return strings.Join(parts, ", "), rate
}

func signalLong(r *audit.Row) string {
	var parts []string
	for _, s := range r.Signals {
		t := signalName(s)
		if s.Mode != "" {
			t += " (" + s.Mode + ")"
		}
		switch {
		case s.Utilization != nil:
			t += " " + anum(*s.Utilization) + "%"
		case s.Threshold != nil:
			key := s.ThresholdKey
			if key != "" {
				key += " "
			}
			t += " " + key + anum(*s.Threshold)
			if s.Defaulted {
				t += " (default)"
			}
		}
		if s.Type == "backlog" || s.Type == "rate" {
			t += " [" + s.Type + "]"
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		parts = []string{"no metric"}
	}
	out := strings.Join(parts, ", ")
	if r.PodRate != nil {
		out += " · c = " + anum(*r.PodRate) + "/s per pod"
	}
	return out
}

// cell returns a law's cell; short for the terminal.
func cell(r *audit.Row, law string, short bool) string {
	switch r.Laws[law] {
	case audit.NA:
		return "-"
	case audit.Unknown:
		return "?"
	}
	switch law {
	case audit.Growth:
		g := r.Growth
		if g.Trapped {
			if short {
				return gnum(g.G, g.Tolerance) + " trap"
			}
			return fmt.Sprintf("g %s ≤ %s: trapped", gnum(g.G, g.Tolerance), bound(g.Tolerance))
		}
		if short {
			if g.Rounds != nil {
				return fmt.Sprintf("%s %dr", gnum(g.G, g.Tolerance), *g.Rounds)
			}
			return gnum(g.G, g.Tolerance)
		}
		out := "g " + gnum(g.G, g.Tolerance)
		if g.Rounds != nil {
			out += fmt.Sprintf(" · %s (%s×)", report.Plural(*g.Rounds, "round"), anum(*g.Overload))
			if g.TimeToCapacity != nil {
				out += " · " + asecs(*g.TimeToCapacity)
				if g.CapacityDeadline != nil {
					rel := "≤"
					if *g.TimeToCapacity > *g.CapacityDeadline {
						rel = ">"
					}
					out += " " + rel + " " + asecs(*g.CapacityDeadline)
				}
			}
		}
		return out
	case audit.Latency:
		l := r.WorstLatency()
		if l.StandingDelay == nil {
			if l.PodRateCeiling != nil {
				// Without a pod rate: hunts unless c < c* (a bound).
				if short {
					return "c<" + format.SigUp(float64(*l.PodRateCeiling), 2) + "/s"
				}
				return fmt.Sprintf("hunts unless c < %s/s (needs T/c ≥ %s)", format.SigUp(float64(*l.PodRateCeiling), 2), asecs(l.RequiredStandingDelay))
			}
			if l.LatencyTarget != nil {
				rel := "≥"
				if !*l.LatencyHeld {
					rel = "<"
				}
				if short {
					return fmt.Sprintf("ℓ %s%s%s", shortNum(*l.LatencyTarget), rel, asecs(format.RoundSig(float64(l.RequiredStandingDelay), 3)))
				}
				return fmt.Sprintf("promise %s %s %s (%s)", asecs(*l.LatencyTarget), rel, asecs(l.RequiredStandingDelay), amargin(l.MarginPercent))
			}
			return "?"
		}
		rel := "≥"
		if l.Rests != nil && !*l.Rests {
			rel = "<"
		}
		if short {
			return fmt.Sprintf("%s%s%s %s", shortNum(*l.StandingDelay), rel, asecs(format.RoundSig(float64(l.RequiredStandingDelay), 3)), amargin(l.MarginPercent))
		}
		out := fmt.Sprintf("%s %s %s (%s)", asecs(*l.StandingDelay), rel, asecs(l.RequiredStandingDelay), amargin(l.MarginPercent))
		if l.Bounded {
			out = fmt.Sprintf("%s %s %s at the dead time's lower bound", asecs(*l.StandingDelay), rel, asecs(l.RequiredStandingDelay))
		}
		if l.LatencyTarget != nil && !*l.LatencyHeld {
			out += fmt.Sprintf("; promise %s < %s", asecs(*l.LatencyTarget), asecs(l.RequiredStandingDelay))
		}
		if len(r.Latency) > 1 {
			out += fmt.Sprintf(" (worst of %d)", len(r.Latency))
		}
		return out
	case audit.Retry:
		t := r.Retry
		rel := "<"
		if t.Target >= t.TrapTarget {
			rel = "≥"
		}
		tgt := apct(t.Target)
		if t.Signal == "rate" {
			tgt = "T/c " + apct(t.Target)
		}
		if short {
			if t.Protected && t.Target >= t.TrapTarget {
				return "bounded"
			}
			return fmt.Sprintf("%s%%%s%s%%", whole(format.Round(100*float64(t.Target), 0)), rel, whole(format.Round(100*float64(t.TrapTarget), 0)))
		}
		out := fmt.Sprintf("%s %s %s (A = %s)", tgt, rel, apct(t.TrapTarget), anum(t.Amplification))
		if t.Bounded {
			out = fmt.Sprintf("%s %s %s (A ≥ %s)", tgt, rel, apct(t.TrapTarget), anum(t.Amplification))
		}
		if t.Protected {
			out += " · bounded"
		}
		return out
	case audit.Ceiling:
		c := r.Ceiling
		lo, hi := "?", "?"
		if c.CeilingFloor != nil {
			lo = anum(*c.CeilingFloor)
			if c.Bounded {
				lo = "≥" + lo
			}
		}
		if c.CeilingTop != nil {
			hi = anum(*c.CeilingTop)
		}
		if short {
			return fmt.Sprintf("%s (%s,%s]", anum(c.Ceiling), lo, hi)
		}
		switch {
		case c.BandEmpty:
			return fmt.Sprintf("%s; band (%s, %s] empty", anum(c.Ceiling), lo, hi)
		case c.Trapped:
			return fmt.Sprintf("%s ≤ M* %s", anum(c.Ceiling), lo)
		case c.OverPeak:
			return fmt.Sprintf("%s > 0.8·N_max %s", anum(c.Ceiling), hi)
		}
		return fmt.Sprintf("%s in (%s, %s]", anum(c.Ceiling), lo, hi)
	case audit.Bound:
		b := r.Bound
		rel := "<"
		if b.AdmissionBound >= b.ClientTimeout {
			rel = "≥"
		}
		timeout := asecs(b.ClientTimeout)
		if b.Bounded {
			timeout = "≤" + timeout // the client timeout is at most this
		}
		if short {
			return fmt.Sprintf("%s%s%s", anum(b.AdmissionBound), rel, timeout)
		}
		return fmt.Sprintf("%s %s %s", asecs(b.AdmissionBound), rel, timeout)
	}
	return ""
}

// shortNum formats a number for a narrow cell: whole from 10 on, halves
// away from zero.
func shortNum[F ~float64](v F) string {
	if math.Abs(float64(v)) >= 10 {
		return whole(format.Round(float64(v), 0))
	}
	return anum(v)
}

// missingText lists the missing inputs without the annotation prefix.
func missingText(r *audit.Row) string {
	seen := map[string]bool{}
	var needs, whys []string
	for _, m := range r.Missing {
		for _, n := range m.Needs {
			n = strings.TrimPrefix(n, scaling.Prefix)
			if !seen[n] {
				seen[n] = true
				needs = append(needs, n)
			}
		}
		if m.Why != "" {
			whys = append(whys, m.Law+": "+m.Why)
		}
	}
	return strings.Join(append(needs, whys...), ", ")
}

// whereText is a row's file:line, with the chart value sets or
// kustomization builds that deploy it.
func whereText(r *audit.Row) string {
	s := fmt.Sprintf("%s:%d", r.File, r.Line)
	if sets := r.Rendered.Sets(); len(sets) > 0 {
		what := "values"
		if len(r.Rendered.Kustomizations) > 0 {
			what = "kustomization"
		}
		s += " [" + what + ": " + strings.Join(sets, ", ") + "]"
	}
	return s
}

func targetText(r *audit.Row) string {
	t := r.Target.Kind + "/" + r.Target.Name
	if r.Target.Kind == "" && r.Target.Name == "" {
		t = "(no target)"
	}
	if !r.Target.Found && r.Object.Kind != scaling.ScaledJob.String() {
		t += " (not found)"
	}
	return t
}

// truncate shortens s to n display cells with an ellipsis; keepEnd keeps
// the end (a name) rather than the start.
func truncate(s string, n int, keepEnd bool) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	if keepEnd {
		return "…" + string(rs[len(rs)-n+1:])
	}
	return string(rs[:n-1]) + "…"
}

// wrap breaks s at spaces into lines of at most n runes; a longer word (a
// deep path) keeps its end.
func wrap(s string, n int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		w = truncate(w, n, true)
		switch {
		case line == "":
			line = w
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= n:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	return append(lines, line)
}

func pad(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}

func padLeft(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return strings.Repeat(" ", n-k) + s
	}
	return s
}
