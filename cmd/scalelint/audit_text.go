package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/scalelint/scalelint/analyzer/scaling"
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
func (r *auditRow) primarySignal() (auditSignal, int) {
	if len(r.Signals) == 0 {
		return auditSignal{Type: "other", Metric: "none"}, 0
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

func signalName(s auditSignal) string {
	name := s.Metric
	if s.Type == "cpu" {
		name = "cpu"
	}
	return name
}

func (r *auditRow) signalShort() string {
	s, more := r.primarySignal()
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
func (r *auditRow) signalCell() (string, string) {
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

func (r *auditRow) signalLong() string {
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
func (r *auditRow) cell(law string, short bool) string {
	switch r.laws[law] {
	case vNA:
		return "-"
	case vUnknown:
		return "?"
	}
	switch law {
	case lawGrowth:
		g := r.Growth
		if g.Trapped {
			if short {
				return gnum(g.G) + " trap"
			}
			return fmt.Sprintf("g %s ≤ %s: trapped", gnum(g.G), anum(1+g.Tolerance))
		}
		if short {
			if g.Rounds != nil {
				return fmt.Sprintf("%s %dr", gnum(g.G), *g.Rounds)
			}
			return gnum(g.G)
		}
		out := "g " + gnum(g.G)
		if g.Rounds != nil {
			out += fmt.Sprintf(" · %s (%s×)", plural(*g.Rounds, "round"), anum(*g.Overload))
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
	case lawLatency:
		l := r.worstLatency()
		if l.StandingDelay == nil {
			if l.LatencyTarget != nil {
				rel := "≥"
				if !*l.LatencyHeld {
					rel = "<"
				}
				if short {
					return fmt.Sprintf("ℓ %s%s%s", shortNum(*l.LatencyTarget), rel, asecs(sig3(l.RequiredStandingDelay)))
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
			return fmt.Sprintf("%s%s%s %s", shortNum(*l.StandingDelay), rel, asecs(sig3(l.RequiredStandingDelay)), amargin(l.MarginPercent))
		}
		out := fmt.Sprintf("%s %s %s (%s)", asecs(*l.StandingDelay), rel, asecs(l.RequiredStandingDelay), amargin(l.MarginPercent))
		if l.LatencyTarget != nil && !*l.LatencyHeld {
			out += fmt.Sprintf("; promise %s < %s", asecs(*l.LatencyTarget), asecs(l.RequiredStandingDelay))
		}
		if len(r.Latency) > 1 {
			out += fmt.Sprintf(" (worst of %d)", len(r.Latency))
		}
		return out
	case lawRetry:
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
			return fmt.Sprintf("%s%%%s%s%%", strconv.FormatFloat(math.Round(100*t.Target), 'f', 0, 64), rel,
				strconv.FormatFloat(math.Round(100*t.TrapTarget), 'f', 0, 64))
		}
		out := fmt.Sprintf("%s %s %s (A = %s)", tgt, rel, apct(t.TrapTarget), anum(t.Amplification))
		if t.Protected {
			out += " · bounded"
		}
		return out
	case lawCeiling:
		c := r.Ceiling
		lo, hi := "?", "?"
		if c.CeilingFloor != nil {
			lo = anum(*c.CeilingFloor)
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
	case lawBound:
		b := r.Bound
		rel := "<"
		if b.AdmissionBound >= b.ClientTimeout {
			rel = "≥"
		}
		if short {
			return fmt.Sprintf("%s%s%s", anum(b.AdmissionBound), rel, asecs(b.ClientTimeout))
		}
		return fmt.Sprintf("%s %s %s", asecs(b.AdmissionBound), rel, asecs(b.ClientTimeout))
	}
	return ""
}

// shortNum formats a number for a narrow cell: whole from 10 on.
func shortNum(v float64) string {
	if math.Abs(v) >= 10 {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	return anum(v)
}

// sig3 keeps three significant digits (89.49 → 89.5, 1234 → 1230).
func sig3(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	mag := math.Pow(10, 2-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*mag) / mag
}

// missingText lists the missing inputs without the annotation prefix.
func (r *auditRow) missingText() string {
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

func (r *auditRow) targetText() string {
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

// auditColumns are the terminal table's columns: with one space between
// them they fill exactly 100 columns.
var auditColumns = []struct {
	head  string
	width int
}{
	{"", 4}, {"MARGIN", 6}, {"AUTOSCALER", 21}, {"SIGNAL", 11}, {"G ROUNDS", 10},
	{"DELAY/FLOOR", 14}, {"U*/(1/A)", 7}, {"CEILING", 12}, {"BOUND", 7},
}

const auditTableWidth = 100

var verdictShort = [...]string{"FAIL", "WARN", "acc", "ok", "?", "n/a"}

// writeAuditTable prints the terminal table: per autoscaler one line of
// numbers and one dim line with its place, its target and what is missing.
func writeAuditTable(a *audit, w io.Writer, color bool) error {
	p := colors(color)
	var head []string
	for _, c := range auditColumns {
		head = append(head, pad(c.head, c.width))
	}
	if len(a.rows) > 0 {
		fmt.Fprintln(w, p.bold+strings.TrimRight(strings.Join(head, " "), " ")+p.reset)
	}
	for _, r := range a.rows {
		name := truncate(r.Object.Namespace+"/"+r.Object.Name, auditColumns[2].width, true)
		cells := []string{
			verdictShort[r.Verdict],
			padLeft(amargin(r.MarginPercent), auditColumns[1].width),
			name,
			r.signalShort(),
			r.cell(lawGrowth, true),
			r.cell(lawLatency, true),
			r.cell(lawRetry, true),
			r.cell(lawCeiling, true),
			r.cell(lawBound, true),
		}
		var line []string
		for i, c := range cells {
			c = truncate(c, auditColumns[i].width, false)
			line = append(line, pad(c, auditColumns[i].width))
		}
		vc := ""
		switch r.Verdict {
		case vFail:
			vc = p.red + p.bold
		case vWarn:
			vc = p.yellow + p.bold
		}
		text := strings.TrimRight(strings.Join(line, " "), " ")
		if vc != "" {
			text = vc + line[0] + p.reset + text[len(line[0]):]
		}
		fmt.Fprintln(w, text)
		detail := fmt.Sprintf("%s %s:%d → %s", kindAbbrev(r.Object.Kind), r.File, r.Line, r.targetText())
		if m := r.missingText(); m != "" {
			detail += " · needs " + m
		}
		for _, l := range wrap(detail, auditTableWidth-5) {
			fmt.Fprintln(w, p.dim+"     "+l+p.reset)
		}
	}
	if len(a.rows) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, p.dim+"G ROUNDS: growth factor g and rounds for the design overload; DELAY/FLOOR: standing delay"+p.reset)
		fmt.Fprintln(w, p.dim+"against the floor τ_eff·Φ(w); U*/(1/A): target against 1/A; CEILING: M (M*, 0.8·N_max];"+p.reset)
		fmt.Fprintln(w, p.dim+"BOUND: admission bound < client timeout; ? = inputs missing, - = does not apply."+p.reset)
	}
	fmt.Fprintln(w, a.summaryLine())
	return nil
}

// mdEscape escapes text for a Markdown table cell.
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '|', '\\', '`', '*', '_', '[', ']', '#', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\n', '\r':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// markdownBudget keeps a comment under GitHub's 65,536-character limit.
const markdownBudget = 60000

// missingCounts counts, over the rows, the autoscalers each missing input
// would help, most first.
func (a *audit) missingCounts() []struct {
	Name  string
	Count int
} {
	n := map[string]int{}
	for _, r := range a.rows {
		seen := map[string]bool{}
		for _, m := range r.Missing {
			for _, x := range m.Needs {
				if !seen[x] {
					seen[x] = true
					n[strings.TrimPrefix(x, scaling.Prefix)]++
				}
			}
		}
	}
	out := make([]struct {
		Name  string
		Count int
	}, 0, len(n))
	for k, v := range n {
		out = append(out, struct {
			Name  string
			Count int
		}{k, v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// writeAuditMarkdown writes a pull-request comment: the counts; a table of
// the rows that fail, warn or are accepted; folded, the rows that pass and,
// shorter, those that could not be evaluated. It stays under GitHub's
// comment limit and says how many rows it left out.
func writeAuditMarkdown(a *audit, w io.Writer, _ bool) error {
	var b strings.Builder
	c := a.counts()
	b.WriteString("### scalelint audit\n\n")
	var parts []string
	for v, n := range c {
		if n == 0 {
			continue
		}
		s := fmt.Sprintf("%d %s", n, verdict(v))
		if verdict(v) == vFail {
			s = "**" + s + "**"
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		parts = []string{"nothing to audit"}
	}
	fmt.Fprintf(&b, "%s in %s: %s.\n", plural(len(a.rows), "autoscaler"), plural(a.files, "file"), strings.Join(parts, ", "))
	if len(a.rows) == 0 {
		_, err := io.WriteString(w, b.String())
		return err
	}
	if ms := a.missingCounts(); len(ms) > 0 {
		var xs []string
		for i, m := range ms {
			if i == 6 {
				break
			}
			xs = append(xs, fmt.Sprintf("`%s%s` (%d)", scaling.Prefix, m.Name, m.Count))
		}
		b.WriteString("Annotations that would let more laws be evaluated: " + strings.Join(xs, ", ") + ".\n")
	}
	var bad, pass, unknown []*auditRow
	na := 0
	for _, r := range a.rows {
		switch {
		case r.Verdict <= vAccepted:
			bad = append(bad, r)
		case r.Verdict == vPass:
			pass = append(pass, r)
		case r.Verdict == vUnknown:
			unknown = append(unknown, r)
		default:
			na++
		}
	}
	left := len(a.rows) - na
	full := false
	add := func(line string) bool {
		if full || b.Len()+len(line) > markdownBudget {
			full = true
			return false
		}
		b.WriteString(line)
		left--
		return true
	}
	where := func(r *auditRow) string {
		return fmt.Sprintf("%s %s<br>%s → %s", mdEscape(r.Object.Kind), mdEscape(r.Object.Namespace+"/"+r.Object.Name),
			mdEscape(fmt.Sprintf("%s:%d", r.File, r.Line)), mdEscape(r.targetText()))
	}
	head := "| verdict | margin | autoscaler | signal | g · rounds | standing delay vs floor | target vs 1/A | ceiling vs band | bound vs timeout | missing |\n" +
		"|---|--:|---|---|---|---|---|---|---|---|\n"
	row := func(r *auditRow) string {
		v := r.Verdict.String()
		if r.Verdict == vFail {
			v = "**fail**"
		}
		cells := []string{v, amargin(r.MarginPercent), where(r), mdEscape(r.signalLong())}
		for _, law := range lawOrder {
			cells = append(cells, mdEscape(r.cell(law, false)))
		}
		cells = append(cells, mdEscape(r.missingText()))
		return "| " + strings.Join(cells, " | ") + " |\n"
	}
	b.WriteString("Worst first. The margin is the distance of the law nearest its boundary from it, relative to the boundary; ? marks a law whose inputs are missing, - one that does not apply.\n")
	if len(bad) > 0 {
		b.WriteString("\n" + head)
		for _, r := range bad {
			add(row(r))
		}
	}
	if len(pass) > 0 && !full {
		summary := plural(len(pass), "autoscaler") + " that passes"
		if len(pass) > 1 {
			summary = plural(len(pass), "autoscaler") + " that pass, nearest their boundary first"
		}
		fmt.Fprintf(&b, "\n<details><summary>%s</summary>\n\n", summary)
		b.WriteString(head)
		for _, r := range pass {
			add(row(r))
		}
		b.WriteString("\n</details>\n")
	}
	if len(unknown) > 0 && !full {
		fmt.Fprintf(&b, "\n<details><summary>%s that could not be evaluated</summary>\n\n| autoscaler | signal | needs |\n|---|---|---|\n", plural(len(unknown), "autoscaler"))
		for _, r := range unknown {
			add(fmt.Sprintf("| %s | %s | %s |\n", where(r), mdEscape(r.signalLong()), mdEscape(r.missingText())))
		}
		b.WriteString("\n</details>\n")
	}
	if na > 0 {
		fmt.Fprintf(&b, "\n%s no law applies to (ScaledJobs, or no CPU, backlog or rate signal and no inputs).\n", plural(na, "autoscaler"))
	}
	if left > 0 {
		fmt.Fprintf(&b, "\n%s not shown to keep this comment short: run `scalelint audit --format html` for all of them.\n", plural(left, "more autoscaler"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// auditJSON is the JSON output, version 1.
type auditJSON struct {
	Version     int              `json:"version"`
	Summary     auditJSONSummary `json:"summary"`
	Autoscalers []auditJSONRow   `json:"autoscalers"`
}

type auditJSONSummary struct {
	Files         int `json:"files"`
	Autoscalers   int `json:"autoscalers"`
	Fail          int `json:"fail"`
	Warn          int `json:"warn"`
	Accepted      int `json:"accepted"`
	Pass          int `json:"pass"`
	Unknown       int `json:"unknown"`
	NotApplicable int `json:"notApplicable"`
}

type auditJSONRow struct {
	*auditRow
	Laws  map[string]verdict `json:"laws"`
	Rules []string           `json:"rules,omitempty"`
}

func writeAuditJSON(a *audit, w io.Writer, _ bool) error {
	c := a.counts()
	out := auditJSON{Version: 1, Summary: auditJSONSummary{Files: a.files, Autoscalers: len(a.rows),
		Fail: c[vFail], Warn: c[vWarn], Accepted: c[vAccepted], Pass: c[vPass], Unknown: c[vUnknown], NotApplicable: c[vNA]}}
	// One row at a time (jsonStream): 10,000 rows encoded at once held
	// their whole output twice.
	s := newJSONStream(w)
	summary, err := s.value(out.Summary, "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(s.w, "{\n  \"version\": %d,\n  \"summary\": %s,\n  \"autoscalers\": [", out.Version, summary)
	row := func(i int) any { r := a.rows[i]; return auditJSONRow{auditRow: r, Laws: r.laws, Rules: r.Rules()} }
	if err := s.list(len(a.rows), row, "    "); err != nil {
		return err
	}
	s.w.WriteString("]\n}\n")
	return s.w.Flush()
}

// csvColumns are the CSV header: the JSON fact names where a column holds
// one.
var csvColumns = []string{"verdict", "marginPercent", "kind", "namespace", "name", "file", "line", "scaleTarget", "signal", "podRate",
	"growthVerdict", "g", "tolerance", "overload", "rounds", "timeToCapacity",
	"latencyVerdict", "threshold", "standingDelay", "requiredStandingDelay", "phi", "w", "fixThreshold", "fixWindow",
	"retryVerdict", "amplification", "trapTarget", "target",
	"ceilingVerdict", "ceiling", "ceilingFloor", "ceilingTop",
	"boundVerdict", "admissionBound", "clientTimeout",
	"missing", "rules"}

// csvText neutralises a text cell a spreadsheet would run as a formula.
func csvText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func fnum(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

func fval(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func writeAuditCSV(a *audit, w io.Writer, _ bool) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvColumns); err != nil {
		return err
	}
	for _, r := range a.rows {
		rec := map[string]string{
			"verdict": r.Verdict.String(), "marginPercent": fnum(r.MarginPercent),
			"kind": r.Object.Kind, "namespace": csvText(r.Object.Namespace), "name": csvText(r.Object.Name),
			"file": csvText(r.File), "line": strconv.Itoa(r.Line), "scaleTarget": csvText(r.targetText()),
			"signal": csvText(r.signalShort()), "podRate": fnum(r.PodRate),
			"growthVerdict": r.laws[lawGrowth].String(), "latencyVerdict": r.laws[lawLatency].String(),
			"retryVerdict": r.laws[lawRetry].String(), "ceilingVerdict": r.laws[lawCeiling].String(),
			"boundVerdict": r.laws[lawBound].String(),
			"missing":      csvText(r.missingText()), "rules": strings.Join(r.Rules(), " "),
		}
		if g := r.Growth; g != nil {
			rec["g"], rec["tolerance"], rec["target"] = fval(g.G), fval(g.Tolerance), fval(g.Target)
			rec["overload"], rec["timeToCapacity"] = fnum(g.Overload), fnum(g.TimeToCapacity)
			if g.Rounds != nil {
				rec["rounds"] = strconv.Itoa(*g.Rounds)
			}
		}
		if l := r.worstLatency(); l != nil {
			rec["threshold"], rec["standingDelay"], rec["requiredStandingDelay"] = fval(l.Threshold), fnum(l.StandingDelay), fval(l.RequiredStandingDelay)
			rec["phi"], rec["w"], rec["fixThreshold"], rec["fixWindow"] = fval(l.Phi), fval(l.W), fnum(l.FixThreshold), fnum(l.FixWindow)
		}
		if t := r.Retry; t != nil {
			rec["amplification"], rec["trapTarget"], rec["target"] = fval(t.Amplification), fval(t.TrapTarget), fval(t.Target)
		}
		if c := r.Ceiling; c != nil {
			rec["ceiling"], rec["ceilingFloor"], rec["ceilingTop"] = fval(c.Ceiling), fnum(c.CeilingFloor), fnum(c.CeilingTop)
		}
		if b := r.Bound; b != nil {
			rec["admissionBound"], rec["clientTimeout"] = fval(b.AdmissionBound), fval(b.ClientTimeout)
		}
		row := make([]string, len(csvColumns))
		for i, c := range csvColumns {
			row[i] = rec[c]
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
