package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/output"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/term"
)

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

var verdictShort = [...]string{"FAIL", "WARN", "acc", "ok", "part", "bnd", "?", "n/a"}

// writeTable prints the terminal table: per autoscaler one line of
// numbers and one dim line with its place, its target and what is missing.
func writeTable(w io.Writer, a *audit.Audit, o Options) error {
	color := o.Color
	p := output.Colors(color)
	var head []string
	for _, c := range auditColumns {
		head = append(head, pad(c.head, c.width))
	}
	if len(a.Rows) > 0 {
		fmt.Fprintln(w, p.Bold+strings.TrimRight(strings.Join(head, " "), " ")+p.Reset)
	}
	for _, r := range a.Rows {
		// Names, paths and targets come from the inputs: through
		// term.Clean, as the check's text output prints them.
		name := truncate(term.Clean(r.Object.Namespace+"/"+r.Object.Name), auditColumns[2].width, true)
		cells := []string{
			verdictShort[r.Verdict],
			padLeft(amargin(r.MarginPercent), auditColumns[1].width),
			name,
			signalShort(r),
			cell(r, audit.Growth, true),
			cell(r, audit.Latency, true),
			cell(r, audit.Retry, true),
			cell(r, audit.Ceiling, true),
			cell(r, audit.Bound, true),
		}
		var line []string
		for i, c := range cells {
			c = truncate(c, auditColumns[i].width, false)
			line = append(line, pad(c, auditColumns[i].width))
		}
		vc := ""
		switch r.Verdict {
		case audit.Fail:
			vc = p.Red + p.Bold
		case audit.Warn:
			vc = p.Yellow + p.Bold
		}
		text := strings.TrimRight(strings.Join(line, " "), " ")
		if vc != "" {
			text = vc + line[0] + p.Reset + text[len(line[0]):]
		}
		fmt.Fprintln(w, text)
		detail := fmt.Sprintf("%s %s → %s", kindAbbrev(r.Object.Kind), whereText(r), targetText(r))
		if m := missingText(r); m != "" {
			detail += " · needs " + m
		}
		detail = term.Clean(detail)
		for _, l := range wrap(detail, auditTableWidth-5) {
			fmt.Fprintln(w, p.Dim+"     "+l+p.Reset)
		}
	}
	if len(a.Rows) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, p.Dim+"G ROUNDS: growth factor g and rounds for the design overload; DELAY/FLOOR: standing delay"+p.Reset)
		fmt.Fprintln(w, p.Dim+"against the floor τ_eff·Φ(w); U*/(1/A): target against 1/A; CEILING: M (M*, 0.8·N_max];"+p.Reset)
		fmt.Fprintln(w, p.Dim+"BOUND: admission bound < client timeout; ? = inputs missing, - = does not apply; ≥/≤ = at a bound"+p.Reset)
		fmt.Fprintln(w, p.Dim+"read from the manifests; part = some laws not evaluated or held at a bound only."+p.Reset)
	}
	fmt.Fprintln(w, a.SummaryLine())
	return nil
}
