package simulate

import (
	"bufio"
	"encoding/csv"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/scalelint/scalelint/rules/format"
)

// WriteCSV writes r.Samples as CSV with the header
// t_s,pods,consuming,backlog,desired.
func WriteCSV(w io.Writer, r Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"t_s", "pods", "consuming", "backlog", "desired"}); err != nil {
		return err
	}
	for _, s := range r.Samples {
		rec := []string{
			format.Exact(format.Round(s.T, 3)),
			strconv.Itoa(s.Pods),
			strconv.Itoa(s.Consuming),
			format.Exact(format.Round(s.Backlog, 3)),
			strconv.Itoa(s.Desired),
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

var sparkBlocks = []rune("▁▂▃▄▅▆▇█")

// SparklineRange draws values as at most width Unicode block characters,
// each the mean of its share of the values, on a scale from lo (▁) to hi
// (█); shares outside [lo, hi] are clamped to it, and a NaN lo or hi takes
// the shares' minimum or maximum (both NaN: the values' own range). A
// scale with lo = hi draws ▅; a share with no finite value draws a space.
// It returns "" for no values or a width below 1. A pod count drawn from
// zero keeps a resting loop flat, where the values' own range would
// stretch its ripple to the full height.
func SparklineRange(values []float64, width int, lo, hi float64) string {
	if len(values) == 0 || width < 1 {
		return ""
	}
	n := min(width, len(values))
	buckets := make([]float64, n)
	for i := range n {
		from, to := i*len(values)/n, (i+1)*len(values)/n
		sum, cnt := 0.0, 0
		for _, v := range values[from:to] {
			if finite(v) {
				sum += v
				cnt++
			}
		}
		buckets[i] = math.NaN()
		if cnt > 0 {
			buckets[i] = sum / float64(cnt)
		}
	}
	dataLo, dataHi := math.Inf(1), math.Inf(-1)
	for _, b := range buckets {
		if !math.IsNaN(b) {
			dataLo, dataHi = math.Min(dataLo, b), math.Max(dataHi, b)
		}
	}
	if math.IsNaN(lo) {
		lo = dataLo
	}
	if math.IsNaN(hi) {
		hi = dataHi
	}
	var sb strings.Builder
	for _, b := range buckets {
		switch {
		case math.IsNaN(b):
			sb.WriteByte(' ')
		case hi == lo:
			sb.WriteRune(sparkBlocks[4])
		default:
			k := int(math.Round((b - lo) / (hi - lo) * float64(len(sparkBlocks)-1)))
			sb.WriteRune(sparkBlocks[min(max(k, 0), len(sparkBlocks)-1)])
		}
	}
	return sb.String()
}

// SVG layout.
const (
	svgWidth   = 960
	panelH     = 270
	svgTop     = 56
	panelGap   = 60
	plotLeft   = 70
	plotRight  = svgWidth - 80
	plotHeight = panelH - 40
)

// WriteSVG draws r as a self-contained SVG: two panels, the first hour and
// the last hour of the run, each with pods set, pods consuming and need
// (left axis) and the backlog (right axis) against time. need ≤ 0 or NaN
// takes r.Summary.Need.
func WriteSVG(w io.Writer, r Result, need float64) error {
	if !finite(need) || need <= 0 {
		need = r.Summary.Need
	}
	bw := bufio.NewWriter(w)
	end := 0.0
	if len(r.Samples) > 0 {
		end = r.Samples[len(r.Samples)-1].T
	}
	height := svgTop + 2*panelH + panelGap + 30
	fmt.Fprintf(bw, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n",
		svgWidth, height, svgWidth, height)
	fmt.Fprintf(bw, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	c := r.Config
	title := fmt.Sprintf("demand %s → %s msg/s, %s msg/s per pod, T = %s (D = %s s), dead time %v, %s",
		format.Compact(c.DemandFrom), format.Compact(c.DemandTo), format.Compact(c.PodRate), format.Compact(c.Threshold), format.Compact(c.StandingDelay()), c.DeadTime, pathName(c))
	text(bw, svgWidth/2, 20, "middle", 12, title)
	s := r.Summary
	sub := fmt.Sprintf("last hour: pods %d–%d (p5 %.0f, p95 %.0f), mean %.1f, need %s, swing %.2f → %s",
		s.Min, s.Max, s.P5, s.P95, s.Mean, format.Compact(need), s.Swing, verdict(s.Hunts))
	text(bw, svgWidth/2, 38, "middle", 11, sub)

	first := window(r.Samples, 0, math.Min(3600, end))
	last := window(r.Samples, math.Max(0, end-3600), end)
	panel(bw, svgTop, "first hour after the step", first, 0, math.Min(3600, end), need)
	panel(bw, svgTop+panelH+panelGap, "last hour", last, math.Max(0, end-3600), end, need)

	ly := svgTop + 2*panelH + panelGap + 18
	legend(bw, plotLeft, ly, "#1f5fbf", "", "pods set")
	legend(bw, plotLeft+130, ly, "#7fb2e5", "", "pods consuming")
	legend(bw, plotLeft+290, ly, "#d9730d", "", "backlog (right axis)")
	legend(bw, plotLeft+470, ly, "#2a9d3a", "6 4", "need")
	fmt.Fprintln(bw, `</svg>`)
	return bw.Flush()
}

func verdict(h bool) string {
	if h {
		return "hunts"
	}
	return "rests"
}

func pathName(c Config) string {
	if c.Behavior == nil {
		return fmt.Sprintf("legacy normaliser, window %v", c.DownscaleWindow)
	}
	w := c.DownscaleWindow.Seconds()
	if c.Behavior.ScaleDown != nil && c.Behavior.ScaleDown.StabilizationWindowSeconds != nil {
		w = float64(*c.Behavior.ScaleDown.StabilizationWindowSeconds)
	}
	return fmt.Sprintf("behavior, scale-down window %ss", format.Compact(w))
}

func window(ss []Sample, from, to float64) []Sample {
	lo, hi := len(ss), len(ss)
	for i, s := range ss {
		if s.T >= from && lo == len(ss) {
			lo = i
		}
		if s.T > to {
			hi = i
			break
		}
	}
	if lo > hi {
		lo = hi
	}
	return ss[lo:hi]
}

func panel(w *bufio.Writer, top int, title string, ss []Sample, t0, t1, need float64) {
	x0, x1 := float64(plotLeft), float64(plotRight)
	y0, y1 := float64(top+plotHeight), float64(top+10)
	if t1 <= t0 {
		t1 = t0 + 1
	}
	maxPods, maxBacklog := need, 0.0
	for _, s := range ss {
		maxPods = math.Max(maxPods, float64(s.Pods))
		maxBacklog = math.Max(maxBacklog, s.Backlog)
	}
	podStep, podTop := niceAxis(maxPods)
	blStep, blTop := niceAxis(maxBacklog)
	xs := func(t float64) float64 { return x0 + (t-t0)/(t1-t0)*(x1-x0) }
	yp := func(p float64) float64 { return y0 - p/podTop*(y0-y1) }
	yb := func(b float64) float64 { return y0 - b/blTop*(y0-y1) }

	text(w, int(x0), top, "start", 12, title)
	fmt.Fprintf(w, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#999"/>`+"\n", x0, y1, x1-x0, y0-y1)
	// Time ticks every 10 minutes, labelled h:mm since the step.
	for m := math.Ceil(t0/600) * 600; m <= t1+1e-9; m += 600 {
		x := xs(m)
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999"/>`+"\n", x, y0, x, y0+4)
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/>`+"\n", x, y0, x, y1)
		mins := int(math.Round(m / 60))
		text(w, int(x), int(y0)+16, "middle", 11, fmt.Sprintf("%d:%02d", mins/60, mins%60))
	}
	text(w, int((x0+x1)/2), int(y0)+30, "middle", 11, "time since the demand step (h:mm)")
	for p := 0.0; p <= podTop+1e-9; p += podStep {
		y := yp(p)
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999"/>`+"\n", x0-4, y, x0, y)
		text(w, int(x0)-6, int(y)+4, "end", 11, format.Compact(p))
	}
	for b := 0.0; b <= blTop+1e-9; b += blStep {
		y := yb(b)
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999"/>`+"\n", x1, y, x1+4, y)
		text(w, int(x1)+6, int(y)+4, "start", 11, format.Compact(b))
	}
	rotated(w, int(x0)-48, int((y0+y1)/2), "pods")
	rotated(w, int(x1)+62, int((y0+y1)/2), "backlog (messages)")

	// Need.
	yn := yp(need)
	fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#2a9d3a" stroke-dasharray="6 4"/>`+"\n", x0, yn, x1, yn)
	text(w, int(x1)-4, int(yn)-4, "end", 10, "need "+format.Compact(need))
	if len(ss) == 0 {
		return
	}
	var bl, pods, cons strings.Builder
	for i, s := range ss {
		x := xs(s.T)
		fmt.Fprintf(&bl, "%.1f,%.1f ", x, yb(s.Backlog))
		if i > 0 {
			fmt.Fprintf(&pods, "%.1f,%.1f ", x, yp(float64(ss[i-1].Pods)))
			fmt.Fprintf(&cons, "%.1f,%.1f ", x, yp(float64(ss[i-1].Consuming)))
		}
		fmt.Fprintf(&pods, "%.1f,%.1f ", x, yp(float64(s.Pods)))
		fmt.Fprintf(&cons, "%.1f,%.1f ", x, yp(float64(s.Consuming)))
	}
	fmt.Fprintf(w, `<polyline fill="none" stroke="#d9730d" stroke-width="1.2" points="%s"/>`+"\n", strings.TrimSpace(bl.String()))
	fmt.Fprintf(w, `<polyline fill="none" stroke="#7fb2e5" stroke-width="1" points="%s"/>`+"\n", strings.TrimSpace(cons.String()))
	fmt.Fprintf(w, `<polyline fill="none" stroke="#1f5fbf" stroke-width="1.6" points="%s"/>`+"\n", strings.TrimSpace(pods.String()))
}

func legend(w *bufio.Writer, x, y int, color, dash, label string) {
	d := ""
	if dash != "" {
		d = fmt.Sprintf(` stroke-dasharray="%s"`, dash)
	}
	fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>`+"\n", x, y-4, x+24, y-4, color, d)
	text(w, x+30, y, "start", 11, label)
}

func text(w *bufio.Writer, x, y int, anchor string, size int, s string) {
	fmt.Fprintf(w, `<text x="%d" y="%d" text-anchor="%s" font-size="%d">`, x, y, anchor, size)
	xmlEscape(w, s)
	fmt.Fprintln(w, `</text>`)
}

func rotated(w *bufio.Writer, x, y int, s string) {
	fmt.Fprintf(w, `<text x="%d" y="%d" text-anchor="middle" transform="rotate(-90 %d %d)">`, x, y, x, y)
	xmlEscape(w, s)
	fmt.Fprintln(w, `</text>`)
}

func xmlEscape(w io.Writer, s string) {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "?")
	}
	_ = xml.EscapeText(w, []byte(s))
}

// niceAxis returns a tick step of 1, 2 or 5 times a power of ten giving at
// most about six ticks, and the axis top, a multiple of the step ≥ v.
func niceAxis(v float64) (step, top float64) {
	if !finite(v) || v <= 0 {
		return 1, 1
	}
	raw := v / 5
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	switch f := raw / p; {
	case f <= 1:
		step = p
	case f <= 2:
		step = 2 * p
	case f <= 5:
		step = 5 * p
	default:
		step = 10 * p
	}
	top = math.Ceil(v/step-1e-9) * step
	if top <= 0 {
		top = step
	}
	return step, top
}
