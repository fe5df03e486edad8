package render

import (
	"encoding/csv"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit"
	"github.com/scalelint/scalelint/rules/format"
)

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

// fnum writes a cell every digit of a number holds, or nothing for none.
func fnum(v *format.Float) string {
	if v == nil {
		return ""
	}
	return exact(*v)
}

// exact is format.Exact but for an unbounded value, which it writes as
// the JSON output does (format.Float): "Infinity" or "-Infinity", which
// Python's float() and JavaScript's Number() read back, where strconv
// writes "+Inf" (a cell a spreadsheet takes for a formula).
func exact(v format.Float) string {
	switch {
	case math.IsInf(float64(v), 1):
		return "Infinity"
	case math.IsInf(float64(v), -1):
		return "-Infinity"
	}
	return format.Exact(float64(v))
}

func writeCSV(w io.Writer, a *audit.Audit, _ Options) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvColumns); err != nil {
		return err
	}
	for _, r := range a.Rows {
		rec := map[string]string{
			"verdict": r.Verdict.String(), "marginPercent": fnum(r.MarginPercent),
			"kind": r.Object.Kind, "namespace": csvText(r.Object.Namespace), "name": csvText(r.Object.Name),
			"file": csvText(r.File), "line": strconv.Itoa(r.Line), "scaleTarget": csvText(targetText(r)),
			"signal": csvText(signalShort(r)), "podRate": fnum(r.PodRate),
			"growthVerdict": r.Laws[audit.Growth].String(), "latencyVerdict": r.Laws[audit.Latency].String(),
			"retryVerdict": r.Laws[audit.Retry].String(), "ceilingVerdict": r.Laws[audit.Ceiling].String(),
			"boundVerdict": r.Laws[audit.Bound].String(),
			"missing":      csvText(missingText(r)), "rules": strings.Join(r.Rules(), " "),
		}
		if g := r.Growth; g != nil {
			rec["g"], rec["tolerance"], rec["target"] = exact(g.G), exact(g.Tolerance), exact(g.Target)
			rec["overload"], rec["timeToCapacity"] = fnum(g.Overload), fnum(g.TimeToCapacity)
			if g.Rounds != nil {
				rec["rounds"] = strconv.Itoa(*g.Rounds)
			}
		}
		if l := r.WorstLatency(); l != nil {
			rec["threshold"], rec["standingDelay"], rec["requiredStandingDelay"] = exact(l.Threshold), fnum(l.StandingDelay), exact(l.RequiredStandingDelay)
			rec["phi"], rec["w"], rec["fixThreshold"], rec["fixWindow"] = exact(l.Phi), exact(l.W), fnum(l.FixThreshold), fnum(l.FixWindow)
		}
		if t := r.Retry; t != nil {
			rec["amplification"], rec["trapTarget"], rec["target"] = exact(t.Amplification), exact(t.TrapTarget), exact(t.Target)
		}
		if c := r.Ceiling; c != nil {
			rec["ceiling"], rec["ceilingFloor"], rec["ceilingTop"] = exact(c.Ceiling), fnum(c.CeilingFloor), fnum(c.CeilingTop)
		}
		if b := r.Bound; b != nil {
			rec["admissionBound"], rec["clientTimeout"] = exact(b.AdmissionBound), exact(b.ClientTimeout)
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
