package render

import (
	"fmt"
	"html"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit"
	"github.com/scalelint/scalelint/rules/format"
	"github.com/scalelint/scalelint/rules/laws"
)

// The pictures of the audit report, drawn as inline SVG: the Φ curve of a
// backlog consumer, the rounds staircase of a CPU target and the ceiling
// band. Every text that comes from a manifest is escaped; numbers are
// written with anum so the tests can find them.

// anum writes a number for a picture or a cell: format.Sig with three
// significant digits (whole numbers as they are, at most one decimal from
// 10 on, a tiny nonzero value in exponent form, never "0": "1e-9"), "∞"
// for an unbounded value (a standing delay T/c that overflowed), and "?"
// for NaN, a value the law could not compute, as the table's legend reads
// "?" (format.Sig writes "NaN"). The numbers of the audit's model are
// format.Float, the pictures' float64: the helpers take either.
func anum[F ~float64](v F) string {
	if math.IsNaN(float64(v)) {
		return "?"
	}
	return format.Sig(float64(v), 3)
}

// gnum writes a growth factor with four significant digits: "1.053",
// "1.25", and more where fewer would round it onto or across 1 +
// tolerance, the bound it is read against (format.Apart: "1.0999", never
// "1.1" beside a trap at 1.1). It is format.Sig(v, 4) but below 0.001,
// where Sig stops at format.MaxDecimals and would drop digits (0.000333
// for 1/3000): a growth factor that small is a manifest's own (a 300000%
// target on pods at their limit: g = 0.0003333), and the audit writes it
// whole.
func gnum[F, T ~float64](v F, tolerance T) string {
	a := math.Abs(float64(v))
	if math.IsNaN(a) {
		return anum(v)
	}
	prec := 0
	if a > 0 && !math.IsInf(a, 0) {
		prec = max(3-int(math.Floor(math.Log10(a))), 0)
		if a >= 0.001 {
			prec = min(prec, format.MaxDecimals)
		}
	}
	return format.Apart(float64(v), 1+float64(tolerance), prec)
}

// bound writes 1 + tolerance, the bound of the tolerance trap, with every
// digit it holds: gnum is kept apart from it.
func bound[T ~float64](tolerance T) string { return format.Exact(1 + float64(tolerance)) }

// asecs formats seconds as check's messages do: "89.6s".
func asecs[F ~float64](v F) string { return anum(v) + "s" }

// apct formats a fraction as a percentage: "33.3%".
func apct[F ~float64](v F) string { return anum(100*v) + "%" }

// whole writes v without decimals: format.Num(v, 0), "∞" for +Inf.
func whole[F ~float64](v F) string { return format.Num(float64(v), 0) }

// amargin formats a margin in percent with its sign: "+12%", "-98.9%",
// and "+∞%" or "-∞%" for an unbounded one (a standing delay T/c that
// overflowed, or a huge value over a tiny boundary).
func amargin[F ~float64](m *F) string {
	if m == nil {
		return ""
	}
	v := float64(*m)
	s := anum(math.Abs(v))
	if math.Abs(v) >= 10 {
		s = whole(math.Abs(v))
	}
	switch {
	case v < 0:
		return "-" + s + "%"
	case v > 0:
		return "+" + s + "%"
	}
	return "0%"
}

// svgDoc builds one SVG picture.
type svgDoc struct {
	b    strings.Builder
	w, h float64
}

func newSVG(w, h float64, label string) *svgDoc {
	s := &svgDoc{w: w, h: h}
	fmt.Fprintf(&s.b, `<svg xmlns="http://www.w3.org/2000/svg" class="pic" viewBox="0 0 %s %s" width="%s" height="%s" role="img" aria-label="%s" font-family="sans-serif" font-size="11">`,
		f1(w), f1(h), f1(w), f1(h), html.EscapeString(label))
	fmt.Fprintf(&s.b, `<rect width="%s" height="%s" fill="#fff"/>`, f1(w), f1(h))
	return s
}

// f1 writes a coordinate of a picture: format.Num with one decimal. No
// coordinate is +Inf (which format.Num writes "∞", strconv "+Inf"): the
// scales clamp the standing delay and the ceiling band to the picture,
// and the rest are the evaluation's finite numbers (W, the rounds and
// their times, the deadline) or follow from them.
func f1(v float64) string { return format.Num(v, 1) }

func (s *svgDoc) raw(format string, args ...any) { fmt.Fprintf(&s.b, format, args...) }

func (s *svgDoc) line(x1, y1, x2, y2 float64, stroke string, extra string) {
	s.raw(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"%s/>`, f1(x1), f1(y1), f1(x2), f1(y2), stroke, extra)
}

// text writes escaped text; anchor is start, middle or end.
func (s *svgDoc) text(x, y float64, anchor, attrs, t string) {
	s.raw(`<text x="%s" y="%s" text-anchor="%s"%s>%s</text>`, f1(x), f1(y), anchor, attrs, html.EscapeString(t))
}

func (s *svgDoc) circle(x, y, r float64, fill, extra string) {
	s.raw(`<circle cx="%s" cy="%s" r="%s" fill="%s"%s/>`, f1(x), f1(y), f1(r), fill, extra)
}

func (s *svgDoc) String() string { return s.b.String() + "</svg>" }

// arrow draws a line with a head at (x2, y2).
func (s *svgDoc) arrow(x1, y1, x2, y2 float64, color string) {
	s.line(x1, y1, x2, y2, color, ` stroke-width="1.5"`)
	a := math.Atan2(y2-y1, x2-x1)
	const l, w = 7.0, 0.45
	s.raw(`<path d="M%s %s L%s %s L%s %s Z" fill="%s"/>`, f1(x2), f1(y2),
		f1(x2-l*math.Cos(a-w)), f1(y2-l*math.Sin(a-w)), f1(x2-l*math.Cos(a+w)), f1(y2-l*math.Sin(a+w)), color)
}

const (
	colFail  = "#c62828"
	colWarn  = "#d9730d"
	colPass  = "#2e7d32"
	colInk   = "#222"
	colGrid  = "#e6e6e6"
	colAxis  = "#888"
	colFix   = "#1f5fbf"
	colHunts = "#fbe3e1"
	colRests = "#e3f4e4"
)

// phiSVG draws Φ: the standing delay a backlog loop needs against its
// window, both in effective dead times, the window on a log scale; the
// consumer's point, the point on the curve it needs, and its fixes.
func phiSVG(l *audit.LatencyLaw) string {
	b := l.Eval
	te := b.DeadTime + b.SamplingDelay
	const W, H = 500.0, 300.0
	const left, right, top, bottom = 50.0, 18.0, 46.0, 42.0
	s := newSVG(W, H, fmt.Sprintf("Φ curve: needs %s, has %s", asecs(b.Required), hasText(l)))
	x0, x1, y0, y1 := left, W-right, H-bottom, top

	// Domain: windows of 0.03 to 1000 dead times, widened to hold the
	// points drawn.
	lo, hi := math.Log10(0.03), 3.0
	widen := func(w float64) {
		if w > 0 && !math.IsInf(w, 0) {
			lo = math.Min(lo, math.Floor(math.Log10(w)*2)/2-0.25)
			hi = math.Max(hi, math.Ceil(math.Log10(w)*2)/2+0.25)
		}
	}
	widen(b.W)
	fixW := math.NaN()
	if l.FixWindow != nil && b.FixWindowOK && !b.FixWindowUnlimited && b.FixWindow < b.Window {
		fixW = (math.Floor(b.FixWindow) + b.SamplingDelay) / te
		widen(fixW)
	}
	const yTop = 3.0
	xs := func(w float64) float64 { return x0 + (math.Log10(w)-lo)/(hi-lo)*(x1-x0) }
	ys := func(d float64) float64 { return y0 - math.Min(d, yTop)/yTop*(y0-y1) }

	// The curve, and the regions it separates.
	var pts []string
	n := 120
	for i := 0; i <= n; i++ {
		w := math.Pow(10, lo+(hi-lo)*float64(i)/float64(n))
		pts = append(pts, f1(xs(w))+" "+f1(ys(laws.Phi(w))))
	}
	curve := "M" + strings.Join(pts, " L")
	s.raw(`<path d="%s L%s %s L%s %s Z" fill="%s"/>`, curve, f1(x1), f1(y0), f1(x0), f1(y0), colHunts)
	s.raw(`<path d="%s L%s %s L%s %s Z" fill="%s"/>`, curve, f1(x1), f1(y1), f1(x0), f1(y1), colRests)
	// Grid and axes.
	for d := 0.0; d <= yTop+1e-9; d += 0.5 {
		y := ys(d)
		s.line(x0, y, x1, y, colGrid, "")
		s.text(x0-5, y+4, "end", "", anum(d))
	}
	for e := math.Ceil(lo); e <= hi; e++ {
		x := xs(math.Pow(10, e))
		s.line(x, y0, x, y1, colGrid, "")
		s.line(x, y0, x, y0+4, colAxis, "")
		s.text(x, y0+15, "middle", "", anum(math.Pow(10, e)))
	}
	s.raw(`<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="%s"/>`, f1(x0), f1(y1), f1(x1-x0), f1(y0-y1), colAxis)
	s.text((x0+x1)/2, H-8, "middle", "", "window W_eff/τ_eff (dead times, log scale)")
	s.raw(`<text x="14" y="%s" text-anchor="middle" transform="rotate(-90 14 %s)">standing delay D/τ_eff</text>`, f1((y0+y1)/2), f1((y0+y1)/2))
	s.raw(`<path d="%s" fill="none" stroke="%s" stroke-width="2"/>`, curve, colInk)
	ye := ys(math.E)
	s.line(x0, ye, x1, ye, colAxis, ` stroke-dasharray="5 4"`)
	s.text(x0+6, ye-4, "start", ` fill="#555"`, "e: rests at any window")
	s.text(x1-6, ys(0.25), "end", ` fill="#a33"`, "hunts")
	s.text(x1-6, ys(2.9)+8, "end", ` fill="#2e6b31"`, "rests")

	// Titles.
	name := l.Trigger
	if l.ThresholdKey != "" {
		name += " " + l.ThresholdKey + " " + anum(l.Threshold)
	}
	s.text(8, 16, "start", ` font-size="12" font-weight="bold"`, "Φ curve · "+name)
	sub := fmt.Sprintf("τ_eff = %s, w = %s, Φ(w) = %s: needs %s × %s = %s", asecs(te), anum(b.W), anum(b.Phi), asecs(te), anum(b.Phi), asecs(b.Required))
	s.text(8, 32, "start", "", sub)

	// The point the loop needs, on the curve.
	xw := xs(b.W)
	yr := ys(b.Phi)
	s.line(xw, y0, xw, y1, "#999", ` stroke-dasharray="2 3"`)
	s.circle(xw, yr, 4.5, colInk, "")
	s.text(xw+7, yr-6, "start", ` font-weight="bold"`, "needs "+asecs(b.Required))

	// The latency promise.
	if l.LatencyTarget != nil {
		y := ys(float64(*l.LatencyTarget) / te)
		s.raw(`<path d="M%s %s l5 5 l-5 5 l-5 -5 Z" fill="%s"/>`, f1(xw), f1(y-5), colWarn)
		s.text(xw-8, y+4, "end", ` fill="`+colWarn+`"`, "promise "+asecs(*l.LatencyTarget))
	}
	if l.StandingDelay == nil {
		return s.String()
	}
	d := float64(*l.StandingDelay)
	yd := ys(d / te)
	color := colPass
	if !b.Rests {
		color = colFail
	}
	// Fixes first, so the point is drawn over their arrows.
	if !b.Rests {
		if l.FixThreshold != nil {
			yf := ys(float64(*l.FixThreshold) / b.PodRate / te)
			s.arrow(xw, yd-6, xw, yf+5, colFix)
			s.circle(xw, yf, 4, colFix, "")
			key := l.ThresholdKey
			if key == "" {
				key = "threshold"
			}
			s.text(xw-8, yf-6, "end", ` fill="`+colFix+`"`, "fix: "+key+" "+anum(*l.FixThreshold))
		}
		if !math.IsNaN(fixW) {
			xf := xs(fixW)
			s.arrow(xw-6, yd, xf+5, yd, colFix)
			s.circle(xf, yd, 4, colFix, "")
			s.text(xf, yd-9, "middle", ` fill="`+colFix+`"`, "or window "+asecs(math.Floor(b.FixWindow)))
		}
	}
	s.circle(xw, yd, 5.5, color, ` stroke="#fff" stroke-width="1.5"`)
	label := "has D = T/c = " + asecs(d)
	if m := amargin(l.MarginPercent); m != "" {
		label += " (" + m + ")"
	}
	if d/te > yTop {
		label += " ↑"
	}
	ly := yd + 16
	if ly > y0-4 {
		ly = yd - 10
	}
	s.text(xw+8, ly, "start", ` fill="`+color+`" font-weight="bold"`, label)
	return s.String()
}

func hasText(l *audit.LatencyLaw) string {
	if l.StandingDelay == nil {
		return "unknown"
	}
	return asecs(*l.StandingDelay)
}

// maxSteps bounds the steps the staircase draws. A growth factor just
// above 1 (a tolerance of 0 and a target of billions of percent: g =
// 1 + 1/u*) needs billions of rounds, and a step drawn per round hung the
// report; past maxSteps each step drawn stands for several rounds, which
// the subtitle says (500 pixels show no more than this anyway).
const maxSteps = 120

// stairsSVG draws the rounds of a design overload: the ready pods, as a
// multiple of the count before it, against time; each round one dead time
// plus one metric window, each multiplying the pods by at most g.
func stairsSVG(g *audit.GrowthLaw) string {
	e := g.Eval
	const W, H = 500.0, 280.0
	const left, right, top, bottom = 50.0, 18.0, 46.0, 42.0
	x0, x1, y0, y1 := left, W-right, H-bottom, top
	k := e.Overload
	need := k / e.G // pods at their limit that serve the overload, × before
	n := e.Rounds
	label := fmt.Sprintf("rounds: %d for a %s× overload at g = %s", n, anum(k), gnum(e.G, e.Tolerance))
	if e.Trapped {
		label = fmt.Sprintf("rounds: never, g = %s is inside the tolerance", gnum(e.G, e.Tolerance))
	}
	s := newSVG(W, H, label)
	round := 1.0
	if e.HasDeadTime {
		round = e.DeadTime + e.MetricWindow
	}
	shown := n
	if e.Trapped {
		shown = 3
	}
	span := float64(max(shown+1, 2)) * round
	if e.HasDeadline && e.Deadline*1.08 > span {
		span = e.Deadline * 1.08
	}
	final := math.Pow(e.G, float64(max(n, 0)))
	if e.Trapped {
		final = 1
	}
	yMax := math.Max(math.Max(k, final), 2) * 1.4
	yMin := 0.8
	xs := func(t float64) float64 { return x0 + t/span*(x1-x0) }
	ys := func(p float64) float64 {
		return y0 - (math.Log(p)-math.Log(yMin))/(math.Log(yMax)-math.Log(yMin))*(y0-y1)
	}
	// Grid: 1, 2, 5 × powers of ten.
	for p := 1.0; p <= yMax; p *= 10 {
		for _, m := range []float64{1, 2, 5} {
			v := p * m
			if v > yMax {
				break
			}
			y := ys(v)
			s.line(x0, y, x1, y, colGrid, "")
			s.text(x0-5, y+4, "end", "", anum(v)+"×")
		}
	}
	step, _ := niceStep(span)
	for t := 0.0; t <= span+1e-9; t += step {
		x := xs(t)
		s.line(x, y0, x, y0+4, colAxis, "")
		s.text(x, y0+15, "middle", "", anum(t))
	}
	s.raw(`<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="%s"/>`, f1(x0), f1(y1), f1(x1-x0), f1(y0-y1), colAxis)
	xTitle := "time after the overload (s)"
	if !e.HasDeadTime {
		xTitle = "rounds (each one dead time + one metric window)"
	}
	s.text((x0+x1)/2, H-8, "middle", "", xTitle)
	s.raw(`<text x="14" y="%s" text-anchor="middle" transform="rotate(-90 14 %s)">ready pods (× before, log)</text>`, f1((y0+y1)/2), f1((y0+y1)/2))

	// The overload and the capacity it needs.
	// Labelled on the left, where the staircase is still low.
	yk := ys(k)
	s.line(x0, yk, x1, yk, "#999", ` stroke-dasharray="3 3"`)
	yn := ys(math.Max(need, yMin))
	s.line(x0, yn, x1, yn, colPass, ` stroke-dasharray="6 4" stroke-width="1.5"`)
	ykl, ynl := yk-4, yn+13
	if ynl-ykl < 12 { // the lines are close: both labels above them
		ykl, ynl = math.Min(yk, yn)-16, math.Min(yk, yn)-4
	}
	s.text(x0+4, ykl, "start", ` fill="#666"`, fmt.Sprintf("overload k = %s×", anum(k)))
	s.text(x0+4, ynl, "start", ` fill="`+colPass+`"`, fmt.Sprintf("capacity k·u*·r/ℓ = %s×", anum(need)))

	// The staircase: at most maxSteps steps, each standing for per rounds
	// (the last for what is left), so its work is bounded whatever g.
	per := max((shown+maxSteps-1)/maxSteps, 1)
	steps := (shown + per - 1) / per
	ready := func(step int) (rounds int, pods float64) {
		rounds = min(step*per, shown)
		return rounds, math.Pow(e.G, float64(rounds))
	}
	var d strings.Builder
	fmt.Fprintf(&d, "M%s %s", f1(xs(0)), f1(ys(1)))
	p := 1.0
	for j := 1; j <= steps && !e.Trapped; j++ {
		i, next := ready(j)
		t := float64(i) * round
		fmt.Fprintf(&d, " L%s %s", f1(xs(t)), f1(ys(p)))
		p = next
		fmt.Fprintf(&d, " L%s %s", f1(xs(t)), f1(ys(p)))
	}
	fmt.Fprintf(&d, " L%s %s", f1(xs(span)), f1(ys(p)))
	color := colFix
	if e.Trapped {
		color = colFail
	}
	s.raw(`<path d="%s" fill="none" stroke="%s" stroke-width="2.2"/>`, d.String(), color)
	if !e.Trapped && shown > 0 {
		every := (steps + 11) / 12
		for j := 1; j <= steps; j++ {
			if j%every == 0 || j == steps {
				i, q := ready(j)
				s.text(xs(float64(i)*round)+3, ys(q)-4, "start", ` font-size="9" fill="`+colFix+`"`, strconv.Itoa(i))
			}
		}
	}
	// Time to capacity and the deadline.
	if !e.Trapped && n > 0 {
		xt := xs(float64(n) * round)
		s.line(xt, y0, xt, y1, colFix, ` stroke-dasharray="2 3"`)
	}
	if e.HasDeadline {
		xd := xs(e.Deadline)
		s.line(xd, y0, xd, y1, colFail, ` stroke-dasharray="6 3"`)
		if xd+90 < x1 {
			s.text(xd+4, y0-6, "start", ` fill="`+colFail+`"`, "deadline "+asecs(e.Deadline))
		} else {
			s.text(xd-4, y0-6, "end", ` fill="`+colFail+`"`, "deadline "+asecs(e.Deadline))
		}
	}

	// Titles.
	s.text(8, 16, "start", ` font-size="12" font-weight="bold"`, fmt.Sprintf("rounds · a %s× overload at g = %s per round", anum(k), gnum(e.G, e.Tolerance)))
	var sub string
	switch {
	case e.Trapped:
		sub = fmt.Sprintf("g = %s ≤ 1 + tolerance = %s: never scales up on a saturated metric", gnum(e.G, e.Tolerance), bound(e.Tolerance))
		s.text((x0+x1)/2, ys(1)-10, "middle", ` fill="`+colFail+`" font-weight="bold"`, "never: no round scales up")
	case n == 0:
		sub = "0 rounds: the capacity held at this target covers it"
	case e.HasDeadTime:
		sub = fmt.Sprintf("%d rounds × (%s + %s) = %s to capacity", n, asecs(e.DeadTime), asecs(e.MetricWindow), asecs(e.TimeToCapacity))
	default:
		sub = fmt.Sprintf("%d rounds of one dead time + one metric window each (dead time unknown)", n)
	}
	if per > 1 && !e.Trapped {
		sub += fmt.Sprintf("; a step drawn is %d rounds", per)
	}
	s.text(8, 32, "start", "", sub)
	return s.String()
}

// niceStep returns a tick step of 1, 2 or 5 × a power of ten for about six
// ticks over span.
func niceStep(span float64) (float64, int) {
	if !(span > 0) {
		return 1, 1
	}
	raw := span / 6
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*p {
			return m * p, 0
		}
	}
	return 10 * p, 0
}

// ceilingSVG draws the ceiling band: the trap below M* = A·λ/c, the safe
// band up to 0.8·N_max, the region past it, and the configured ceiling.
func ceilingSVG(c *audit.CeilingLaw) string {
	e := c.Eval
	const W, H = 500.0, 170.0
	barTop, barH := 66.0, 26.0
	s := newSVG(W, H, "ceiling band")
	peak := math.NaN()
	if c.Peak != nil {
		peak = float64(*c.Peak)
	}
	xmax := e.Ceiling
	for _, v := range []float64{e.Floor, e.Top, peak} {
		if !math.IsNaN(v) && v > xmax {
			xmax = v
		}
	}
	xmax = math.Max(xmax*1.15, 5)
	// The bar leaves room on the right for the labels of its markers.
	x0, x1 := 20.0, W-150
	xs := func(v float64) float64 { return x0 + math.Max(0, math.Min(v, xmax))/xmax*(x1-x0) }

	zone := func(a, b float64, fill string) {
		if b > a {
			s.raw(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`, f1(xs(a)), f1(barTop), f1(xs(b)-xs(a)), f1(barH), fill)
		}
	}
	floor, topV := 0.0, xmax
	if e.HasFloor {
		floor = e.Floor
	}
	if e.HasTop {
		topV = e.Top
	}
	empty := e.HasFloor && e.HasTop && e.BandEmpty
	peakEnd := xmax
	if !math.IsNaN(peak) {
		peakEnd = peak
	}
	type named struct {
		a, b float64
		name string
	}
	var names []named
	zone(0, xmax, "#f2f2f2")
	if e.HasFloor {
		zone(0, floor, "#f6c4bf")
		names = append(names, named{0, math.Min(floor, topV), "trap"})
	}
	if e.HasTop {
		zone(topV, peakEnd, "#fde0bd")
		names = append(names, named{math.Max(topV, floor), peakEnd, "near peak"})
		if peakEnd < xmax {
			zone(peakEnd, xmax, "#e0a3a3")
			names = append(names, named{peakEnd, xmax, "past peak"})
		}
	}
	if empty {
		s.raw(`<rect x="%s" y="%s" width="%s" height="%s" fill="#c62828" fill-opacity="0.45"/>`, f1(xs(topV)), f1(barTop), f1(xs(floor)-xs(topV)), f1(barH))
	} else if e.HasFloor || e.HasTop {
		zone(floor, topV, "#bfe5c2")
		names = append(names, named{floor, topV, "safe band"})
	}
	s.raw(`<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="%s"/>`, f1(x0), f1(barTop), f1(x1-x0), f1(barH), colAxis)
	// Zone names inside the bar, where they fit clear of the ceiling.
	xm := xs(e.Ceiling)
	for _, z := range names {
		a, b := xs(z.a), xs(z.b)
		wdt := float64(len([]rune(z.name)))*5.5 + 8
		if xm > a && xm < b { // the ceiling cuts the zone: use its larger side
			if xm-a > b-xm {
				b = xm - 4
			} else {
				a = xm + 4
			}
		}
		if b-a < wdt {
			continue
		}
		s.text((a+b)/2, barTop+barH/2+4, "middle", ` font-size="10" fill="#333"`, z.name)
	}

	// Markers: a leader down from the bar to the label's row; the
	// rightmost marker in the top row, so no leader crosses a label.
	type marker struct {
		v     float64
		label string
		color string
	}
	var ms []marker
	if e.HasFloor {
		ms = append(ms, marker{floor, fmt.Sprintf("M* = A·λ/c = %s·%s/%s = %s", anum(e.Amplification), anum(e.Demand), anum(e.PodRate), anum(floor)), colFail})
	}
	if e.HasTop {
		ms = append(ms, marker{topV, "0.8·N_max = " + anum(topV), colWarn})
	}
	if !math.IsNaN(peak) {
		ms = append(ms, marker{peak, "N_max = " + anum(peak), "#8b1a1a"})
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].v > ms[j].v })
	for row, m := range ms {
		x := xs(m.v)
		y := barTop + barH + 16 + float64(row)*15
		s.line(x, barTop, x, y-4, m.color, ` stroke-width="1.5"`)
		s.text(x+4, y, "start", ` fill="`+m.color+`"`, m.label)
	}
	// The configured ceiling, above the bar.
	color := colPass
	switch c.Verdict {
	case audit.Fail:
		color = colFail
	case audit.Warn, audit.Accepted:
		color = colWarn
	}
	s.raw(`<path d="M%s %s l-6 -10 l12 0 Z" fill="%s"/>`, f1(xm), f1(barTop-1), color)
	s.line(xm, barTop, xm, barTop+barH, color, ` stroke-width="2.5"`)
	ml := "maxReplicas " + anum(e.Ceiling)
	if c.Defaulted {
		ml = "maxReplicaCount " + anum(e.Ceiling) + " (KEDA default)"
	}
	anchor := "middle"
	if xm < 90 {
		anchor = "start"
	}
	s.text(xm, barTop-15, anchor, ` font-weight="bold" fill="`+color+`"`, ml)

	// Title.
	s.text(8, 16, "start", ` font-size="12" font-weight="bold"`, "ceiling band · M* < M ≤ 0.8·N_max")
	var sub string
	switch {
	case empty:
		sub = fmt.Sprintf("band (%s, %s] is empty: no ceiling is safe; lower A or bound the queue", anum(floor), anum(topV))
	case e.HasFloor && e.Trapped:
		sub = fmt.Sprintf("ceiling %s ≤ M* = %s: a failing service stays failed", anum(e.Ceiling), anum(floor))
	case e.HasTop && e.OverPeak:
		sub = fmt.Sprintf("ceiling %s > 0.8·N_max = %s: may climb past the scalability peak", anum(e.Ceiling), anum(topV))
	case e.HasFloor && e.HasTop:
		sub = fmt.Sprintf("ceiling %s inside the band (%s, %s]", anum(e.Ceiling), anum(floor), anum(topV))
	case e.HasFloor:
		sub = fmt.Sprintf("ceiling %s above M* = %s (N_max unknown)", anum(e.Ceiling), anum(floor))
	default:
		sub = fmt.Sprintf("ceiling %s within 0.8·N_max = %s (M* unknown)", anum(e.Ceiling), anum(topV))
	}
	s.text(8, 32, "start", "", sub)
	return s.String()
}
