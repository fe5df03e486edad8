package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/report"
	"github.com/scalelint/scalelint/rules/format"
	"github.com/scalelint/scalelint/rules/simulate"
)

// The HTML report: one self-contained file. No network: a Content Security
// Policy allows no source but the page's own inline script (by its hash)
// and inline styles, so the page can neither load anything nor run a
// script a manifest smuggled in. Every text from a manifest goes through
// html/template's escaping; the SVG pictures escape their own text.

type htmlLaw struct {
	Name    string
	Verdict string
	Text    string
}

type htmlFigure struct {
	Caption string
	SVG     template.HTML
}

type htmlRow struct {
	Rank      int
	ID        string
	Verdict   string
	VerdictN  int
	Margin    string
	MarginKey string
	Kind      string
	KindShort string
	Namespace string
	Name      string
	Where     string
	Target    string
	Signal    string
	SignalTab string
	PodRate   string
	Rules     string // " a b " for the filter
	RuleList  []string
	Search    string
	Cells     []htmlCell
	Missing   string
	MissingN  int
	Laws      []htmlLaw
	Figures   []htmlFigure
	Inputs    []htmlInput
	Findings  []audit.Finding
	Open      bool
	Worst     string // the worst law's sentence, for the summary
}

type htmlCell struct {
	Text    string
	Key     string // sort key: the law's margin
	Verdict string
}

type htmlInput struct{ Name, Text, Origin string }

type htmlTile struct {
	Verdict string
	Count   int
}

type htmlPage struct {
	Title      string
	Sub        string
	CSP        string
	Style      template.CSS
	Script     template.JS
	Tiles      []htmlTile
	Worst      []*htmlRow
	Rows       []*htmlRow
	Namespaces []string
	RuleNames  []string
	Verdicts   []string
	Total      int
	PageSize   int // rows shown at once: a table of thousands lays out slowly
	Missing    []htmlMissing
}

type htmlMissing struct {
	Name  string
	Count int
}

// lawTitles are the laws' names in the report.
var lawTitles = map[string]string{
	audit.Growth:  "growth g · rounds",
	audit.Latency: "standing delay vs floor",
	audit.Retry:   "target vs 1/A",
	audit.Ceiling: "ceiling vs band",
	audit.Bound:   "bound vs timeout",
}

// sentence is a law's verdict in words, for the card and the summary.
func sentence(r *audit.Row, law string) []string {
	switch r.Laws[law] {
	case audit.NA:
		return []string{"does not apply"}
	case audit.Unknown:
		var why []string
		for _, m := range r.Missing {
			if audit.LawOf(m.Law) != law {
				continue
			}
			if len(m.Needs) > 0 {
				why = append(why, m.Law+" needs "+strings.Join(m.Needs, ", "))
			} else if m.Why != "" {
				why = append(why, m.Law+": "+m.Why)
			}
		}
		return []string{"not evaluated: " + strings.Join(why, "; ")}
	}
	note := func(h *audit.LawHead, s string) string {
		if h.Note != "" {
			s += " (" + h.Note + ")"
		}
		return s
	}
	switch law {
	case audit.Growth:
		g := r.Growth
		s := fmt.Sprintf("g = ℓ/(r·u*) = %s/(%s × %s) → %s as the controller computes it", anum(g.Limit), anum(g.Request), apct(g.Target), gnum(g.G, g.Tolerance))
		if g.Trapped {
			s += fmt.Sprintf(" ≤ 1 + tolerance = %s: never scales up on a saturated metric", bound(g.Tolerance))
			if g.FixTarget != nil {
				s += fmt.Sprintf("; a target of %d%% or less escapes", *g.FixTarget)
			}
		} else {
			s += fmt.Sprintf(" > %s (%s)", bound(g.Tolerance), amargin(audit.MarginAbove(g.G, 1+g.Tolerance)))
			if g.Rounds != nil {
				s += fmt.Sprintf("; a %s× overload needs %s", anum(*g.Overload), report.Plural(*g.Rounds, "round"))
				if g.TimeToCapacity != nil && *g.Rounds > 0 {
					s += fmt.Sprintf(" × (%s + %s) = %s to capacity", asecs(*g.DeadTime), asecs(*g.MetricWindow), asecs(*g.TimeToCapacity))
				}
				if g.CapacityDeadline != nil {
					s += fmt.Sprintf(", deadline %s", asecs(*g.CapacityDeadline))
				}
			} else {
				s += "; rounds need scalelint.dev/overload and dead-time"
			}
		}
		return []string{note(&g.LawHead, s)}
	case audit.Latency:
		var out []string
		for _, l := range r.Latency {
			name := l.Trigger
			if l.ThresholdKey != "" {
				name += " " + l.ThresholdKey + " " + anum(l.Threshold)
			}
			s := fmt.Sprintf("%s: needs τ_eff·Φ(w) = %s × %s = %s (τ_eff = %s + %s, w = (%s + %s)/%s = %s)", name,
				asecs(l.DeadTime+l.SamplingDelay), anum(l.Phi), asecs(l.RequiredStandingDelay), asecs(l.DeadTime), asecs(l.SamplingDelay),
				asecs(l.Window), asecs(l.SamplingDelay), asecs(l.DeadTime+l.SamplingDelay), anum(l.W))
			if l.Bounded {
				s += " at the lower bound on the dead time, so at least that"
			}
			if l.PodRateCeiling != nil {
				s += fmt.Sprintf("; without a pod rate it hunts unless each pod serves fewer than T/%s = %s per second", asecs(l.RequiredStandingDelay), format.SigUp(float64(*l.PodRateCeiling), 2))
			}
			if l.StandingDelay != nil {
				if l.PodRate != nil {
					s += fmt.Sprintf("; has D = T/c = %s/%s = %s", anum(l.Threshold), anum(*l.PodRate), asecs(*l.StandingDelay))
				} else {
					s += fmt.Sprintf("; has D = %s (the threshold is the drain time)", asecs(*l.StandingDelay))
				}
				if *l.Rests {
					s += fmt.Sprintf(": rests (%s)", amargin(audit.MarginAbove(*l.StandingDelay, l.RequiredStandingDelay)))
				} else {
					s += fmt.Sprintf(": hunts (%s)", amargin(audit.MarginAbove(*l.StandingDelay, l.RequiredStandingDelay)))
					if l.FixThreshold != nil {
						key := l.ThresholdKey
						if key == "" {
							key = "the threshold"
						}
						s += fmt.Sprintf("; fix: %s %s", key, anum(*l.FixThreshold))
						if l.FixWindow != nil && *l.FixWindow < l.Window {
							s += fmt.Sprintf(", or a window of %s", asecs(*l.FixWindow))
						}
					}
				}
			}
			if l.LatencyTarget != nil {
				held := "holds"
				if !*l.LatencyHeld {
					held = "cannot hold"
				}
				s += fmt.Sprintf("; the promised %s %s at rest", asecs(*l.LatencyTarget), held)
				if !l.Bounded {
					s += fmt.Sprintf(" (any promise ≥ e·τ_eff = %s is safe)", asecs(l.WindowProof))
				}
			}
			out = append(out, note(&l.LawHead, s))
		}
		return out
	case audit.Retry:
		t := r.Retry
		a, inv := "=", "="
		if t.Bounded {
			a, inv = "≥", "≤"
		}
		s := fmt.Sprintf("A %s %s, 1/A %s %s; target %s", a, anum(t.Amplification), inv, apct(t.TrapTarget), apct(t.Target))
		if t.Signal == "rate" {
			s = fmt.Sprintf("A %s %s, 1/A %s %s; rate target T/c = %s", a, anum(t.Amplification), inv, apct(t.TrapTarget), apct(t.Target))
		}
		switch {
		case t.Protected:
			s += ": an admission bound shorter than the client timeout removes the debt"
		case t.Trapped:
			s += fmt.Sprintf(" ≥ 1/A: trapped after a trigger (%s)", amargin(t.MarginPercent))
			if t.FixTarget != nil {
				s += fmt.Sprintf("; fix: a target below %s", apct(t.TrapTarget))
			}
		default:
			s += fmt.Sprintf(" < 1/A (%s)", amargin(t.MarginPercent))
		}
		return []string{note(&t.LawHead, s)}
	case audit.Ceiling:
		c := r.Ceiling
		s := "ceiling " + anum(c.Ceiling)
		if c.CeilingFloor != nil {
			s += fmt.Sprintf("; M* = A·λ/c = %s × %s / %s = %s", anum(*c.Amplification), anum(*c.Demand), anum(*c.PodRate), anum(*c.CeilingFloor))
		}
		if c.CeilingTop != nil {
			s += fmt.Sprintf("; 0.8·N_max = %s", anum(*c.CeilingTop))
		}
		switch {
		case c.BandEmpty:
			s += ": the band is empty, no ceiling is safe (lower A or bound the queue)"
		case c.Trapped:
			s += ": at or below M*, a failing service stays failed"
		case c.OverPeak:
			s += ": above 0.8·N_max, may climb past the scalability peak"
		default:
			s += fmt.Sprintf(": inside the band (%s)", amargin(c.MarginPercent))
		}
		return []string{note(&c.LawHead, s)}
	case audit.Bound:
		b := r.Bound
		s := fmt.Sprintf("admission bound %s against client timeout %s", asecs(b.AdmissionBound), asecs(b.ClientTimeout))
		if b.AdmissionBound >= b.ClientTimeout {
			s += ": not shorter, the queue still serves abandoned work"
		} else {
			s += fmt.Sprintf(": shorter, no retry debt (%s)", amargin(b.MarginPercent))
		}
		return []string{note(&b.LawHead, s)}
	}
	return nil
}

// worstSentence is the row's worst law, in words.
func worstSentence(r *audit.Row) string {
	best, bestLaw := audit.NA+1, ""
	var bestM float64
	for _, law := range audit.LawOrder {
		v := r.Laws[law]
		if v >= audit.Unknown {
			continue
		}
		m := r.Law(law).Margin()
		if v < best || (v == best && audit.LessMargin(m, bestM)) {
			best, bestLaw, bestM = v, law, m
		}
	}
	if bestLaw == "" {
		if m := missingText(r); m != "" {
			return "needs " + m
		}
		return "no law applies"
	}
	return lawTitles[bestLaw] + ": " + cell(r, bestLaw, false)
}

func htmlRows(a *audit.Audit) []*htmlRow {
	var out []*htmlRow
	for i, r := range a.Rows {
		h := &htmlRow{Rank: i + 1, ID: fmt.Sprintf("card-%d", i+1), Verdict: r.Verdict.String(), VerdictN: int(r.Verdict),
			Margin: amargin(r.MarginPercent), MarginKey: fnum(r.MarginPercent),
			Kind: r.Object.Kind, KindShort: kindAbbrev(r.Object.Kind), Namespace: r.Object.Namespace, Name: r.Object.Name,
			Where: whereText(r), Target: targetText(r), Signal: signalLong(r),
			Missing: missingText(r), MissingN: len(r.Unknown), Findings: r.Findings}
		h.SignalTab, h.PodRate = signalCell(r)
		h.RuleList = r.Rules()
		h.Rules = " " + strings.Join(h.RuleList, " ") + " "
		h.Search = strings.ToLower(strings.Join([]string{r.Object.Kind, r.Object.Namespace, r.Object.Name, h.Where, h.Target, h.Signal}, " "))
		for _, law := range audit.LawOrder {
			c := htmlCell{Text: cell(r, law, false), Verdict: r.Laws[law].String()}
			if hd := r.Law(law); hd != nil {
				c.Key = fnum(hd.MarginPercent)
			}
			h.Cells = append(h.Cells, c)
			if r.Laws[law] == audit.NA {
				continue
			}
			for _, s := range sentence(r, law) {
				h.Laws = append(h.Laws, htmlLaw{Name: lawTitles[law], Verdict: r.Laws[law].String(), Text: s})
			}
		}
		if r.Verdict == audit.NA {
			why := "no law applies: no CPU utilization target, backlog or rate signal"
			if r.Object.Kind == "ScaledJob" {
				why = "no law applies: a ScaledJob starts one job per message, the replica laws do not hold"
			}
			h.Laws = append(h.Laws, htmlLaw{Name: "laws", Verdict: audit.NA.String(), Text: why})
		}
		h.Worst = worstSentence(r)
		for _, l := range r.Latency {
			h.Figures = append(h.Figures, htmlFigure{Caption: "Φ curve: the standing delay this window demands, with this consumer's point and its fix",
				SVG: template.HTML(phiSVG(l))})
		}
		if g := r.Growth; g != nil && g.Eval.HasOverload {
			h.Figures = append(h.Figures, htmlFigure{Caption: "the rounds staircase: ready pods against time for the design overload",
				SVG: template.HTML(stairsSVG(g))})
		}
		if c := r.Ceiling; c != nil {
			h.Figures = append(h.Figures, htmlFigure{Caption: "the ceiling band: M* = A·λ/c, 0.8·N_max and the configured ceiling",
				SVG: template.HTML(ceilingSVG(c))})
		}
		for _, l := range r.Latency {
			if l.Sim == nil {
				continue
			}
			var buf bytes.Buffer
			if err := simulate.WriteSVG(&buf, *l.Sim, 0); err != nil {
				continue
			}
			svg := buf.String()
			if i := strings.Index(svg, "?>"); strings.HasPrefix(svg, "<?xml") && i >= 0 {
				svg = strings.TrimSpace(svg[i+2:])
			}
			svg = strings.Replace(svg, "<svg ", `<svg class="pic sim" `, 1)
			verdict := "rests"
			if l.Sim.Summary.Hunts {
				verdict = "hunts"
			}
			c := l.Sim.Config
			h.Figures = append(h.Figures, htmlFigure{
				Caption: fmt.Sprintf("simulated deployed loop (scalelint simulate): demand %s → %s/s, %s h: %s, pods %d–%d in the last hour, need %s",
					anum(c.DemandFrom), anum(c.DemandTo), anum(c.Hours), verdict, l.Sim.Summary.Min, l.Sim.Summary.Max, anum(l.Sim.Summary.Need)),
				SVG: template.HTML(svg)})
		}
		names := make([]string, 0, len(r.Inputs))
		for n := range r.Inputs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			in := r.Inputs[n]
			text, origin := in.Text, in.Origin
			if in.Bound != "exact" && in.Bound != "" {
				// An inferred bound: its relation, what it was read from
				// and where (rules/laws/README.md §10).
				text = map[string]string{"lower": "≥ ", "upper": "≤ "}[in.Bound] + anum(in.Value)
				origin = in.Source
				if in.File != "" {
					origin += fmt.Sprintf(" (%s:%d)", in.File, in.Line)
				}
			}
			h.Inputs = append(h.Inputs, htmlInput{Name: n, Text: text, Origin: origin})
		}
		h.Open = r.Verdict <= audit.Warn && i < 50 || len(a.Rows) <= 12
		out = append(out, h)
	}
	return out
}

// auditPageSize is how many table rows the report shows at once; sorting
// and filtering work on every row.
const auditPageSize = 500

func writeHTML(w io.Writer, a *audit.Audit, _ Options) error {
	rows := htmlRows(a)
	p := htmlPage{Title: "scalelint audit", Rows: rows, Total: len(rows), PageSize: auditPageSize, Style: template.CSS(auditCSS), Script: template.JS(auditJS)}
	p.Sub = fmt.Sprintf("%s in %s · %s", report.Plural(len(rows), "autoscaler"), report.Plural(a.Files, "file"), strings.Join(a.Inputs, " "))
	sum := sha256.Sum256([]byte(auditJS))
	p.CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	c := a.Counts()
	for v, n := range c {
		p.Verdicts = append(p.Verdicts, audit.Verdict(v).String())
		if n > 0 {
			p.Tiles = append(p.Tiles, htmlTile{Verdict: audit.Verdict(v).String(), Count: n})
		}
	}
	for _, r := range rows {
		if len(p.Worst) == 10 {
			break
		}
		if r.VerdictN <= int(audit.Pass) {
			p.Worst = append(p.Worst, r)
		}
	}
	ns, rs := map[string]bool{}, map[string]bool{}
	for _, r := range rows {
		ns[r.Namespace] = true
		for _, x := range r.RuleList {
			rs[x] = true
		}
	}
	for n := range ns {
		p.Namespaces = append(p.Namespaces, n)
	}
	for n := range rs {
		p.RuleNames = append(p.RuleNames, n)
	}
	sort.Strings(p.Namespaces)
	sort.Strings(p.RuleNames)
	for i, m := range missingCounts(a) {
		if i == 8 {
			break
		}
		p.Missing = append(p.Missing, htmlMissing{Name: "scalelint.dev/" + m.Name, Count: m.Count})
	}
	return auditTemplate.Execute(w, p)
}

var auditTemplate = template.Must(template.New("audit").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<meta name="generator" content="scalelint audit">
<title>{{.Title}}</title>
<style>{{.Style}}</style>
</head>
<body>
<header class="top">
<h1>{{.Title}}</h1>
<p class="sub">{{.Sub}}</p>
</header>
<main>
<section id="summary" aria-label="summary">
<div class="left">
<div class="tiles">
{{range .Tiles}}<button type="button" class="tile v-{{.Verdict}}" data-verdict="{{.Verdict}}" title="show only {{.Verdict}}"><b>{{.Count}}</b><span>{{.Verdict}}</span></button>
{{end}}</div>
{{if .Missing}}<div class="missing">
<h2>Inputs missing</h2>
<p class="dim">annotations that would let more laws be evaluated, by the autoscalers they would help</p>
<ul>
{{range .Missing}}<li><code>{{.Name}}</code> <b>{{.Count}}</b></li>
{{end}}</ul>
</div>{{end}}
</div>
{{if .Worst}}<div class="worst">
<h2>Worst {{len .Worst}} of {{.Total}}</h2>
<ol>
{{range .Worst}}<li><span class="badge v-{{.Verdict}}">{{.Verdict}}</span> <a href="#{{.ID}}">{{.Namespace}}/{{.Name}}</a> <span class="dim">{{.Kind}}</span> — {{.Worst}}</li>
{{end}}</ol>
</div>{{end}}
</section>
<section id="table" aria-label="every autoscaler">
<div class="filters" id="filters" role="search">
<label>namespace <select id="f-ns"><option value="">all</option>{{range .Namespaces}}<option>{{.}}</option>{{end}}</select></label>
<label>rule <select id="f-rule"><option value="">all</option>{{range .RuleNames}}<option>{{.}}</option>{{end}}</select></label>
<label>verdict <select id="f-verdict"><option value="">all</option>{{range .Verdicts}}<option>{{.}}</option>{{end}}</select></label>
<label>search <input id="f-text" type="search" placeholder="name, file, signal"></label>
<button type="button" id="f-clear">clear</button>
<output id="shown" aria-live="polite">{{.Total}} of {{.Total}}{{if gt .Total .PageSize}} (first {{.PageSize}} shown){{end}}</output>
</div>
<div class="scroll">
<table id="audit" data-page="{{.PageSize}}">
<thead><tr>
<th data-type="num" aria-sort="ascending"><button type="button">#</button></th>
<th data-type="num"><button type="button">verdict</button></th>
<th data-type="num"><button type="button">margin</button></th>
<th data-type="text"><button type="button">autoscaler</button></th>
<th data-type="text"><button type="button">signal</button></th>
<th data-type="num"><button type="button">g · rounds</button></th>
<th data-type="num"><button type="button">standing delay vs floor</button></th>
<th data-type="num"><button type="button">target vs 1/A</button></th>
<th data-type="num"><button type="button">ceiling vs band</button></th>
<th data-type="num"><button type="button">bound vs timeout</button></th>
<th data-type="num"><button type="button">missing</button></th>
</tr></thead>
<tbody>
{{range .Rows}}<tr data-ns="{{.Namespace}}" data-rules="{{.Rules}}" data-verdict="{{.Verdict}}" data-text="{{.Search}}" data-rank="{{.Rank}}"{{if gt .Rank $.PageSize}} hidden{{end}}>
<td data-sort="{{.Rank}}">{{.Rank}}</td>
<td data-sort="{{.VerdictN}}"><span class="badge v-{{.Verdict}}">{{.Verdict}}</span></td>
<td data-sort="{{.MarginKey}}" class="num">{{.Margin}}</td>
<td data-sort="{{.Namespace}}/{{.Name}}" class="who"><a href="#{{.ID}}">{{.Namespace}}/{{.Name}}</a> <span class="dim">{{.KindShort}}</span><br><span class="dim">{{.Where}} → {{.Target}}</span></td>
<td>{{.SignalTab}}{{if .PodRate}}<br><span class="dim">{{.PodRate}}</span>{{end}}</td>
{{range .Cells}}<td data-sort="{{.Key}}" class="law l-{{.Verdict}}">{{.Text}}</td>
{{end}}<td data-sort="{{.MissingN}}" class="dim">{{.Missing}}</td>
</tr>
{{end}}</tbody>
</table>
</div>
<p class="more-rows"><button type="button" id="more"{{if le .Total .PageSize}} hidden{{end}}>show {{.PageSize}} more rows</button></p>
</section>
<section id="cards" aria-label="autoscalers">
<h2>Autoscalers</h2>
{{range .Rows}}<details class="card v-{{.Verdict}}" id="{{.ID}}" data-ns="{{.Namespace}}" data-rules="{{.Rules}}" data-verdict="{{.Verdict}}" data-text="{{.Search}}"{{if .Open}} open{{end}}>
<summary><span class="badge v-{{.Verdict}}">{{.Verdict}}</span> <b>{{.Namespace}}/{{.Name}}</b> <span class="dim">{{.Kind}} · {{.Where}} → {{.Target}}</span> <span class="num">{{.Margin}}</span></summary>
<p class="signal">signal: {{.Signal}}</p>
<ul class="laws">
{{range .Laws}}<li class="l-{{.Verdict}}"><span class="badge v-{{.Verdict}}">{{.Verdict}}</span> <b>{{.Name}}</b>: {{.Text}}</li>
{{end}}</ul>
{{if .Figures}}<div class="pics">
{{range .Figures}}<figure>{{.SVG}}<figcaption>{{.Caption}}</figcaption></figure>
{{end}}</div>{{end}}
{{if or .Inputs .Findings}}<div class="more">
{{if .Inputs}}<table class="inputs"><caption>inputs</caption><tbody>
{{range .Inputs}}<tr><td><code>{{.Name}}</code></td><td>{{.Text}}</td><td class="dim">{{.Origin}}</td></tr>
{{end}}</tbody></table>{{end}}
{{if .Findings}}<ul class="findings">
{{range .Findings}}<li><span class="sev s-{{.Severity}}">{{.Severity}}</span> <code>{{.Rule}}</code> {{.Message}} <span class="dim">{{.File}}:{{.Line}}</span>{{if .Suppressed}} <span class="dim">(suppressed: {{.Suppressed}})</span>{{end}}</li>
{{end}}</ul>{{end}}
</div>{{end}}
</details>
{{end}}</section>
</main>
<footer class="dim">Generated by scalelint audit. The laws: scalelint's rules/laws/README.md; the numbers of every row are in <code>scalelint audit --format json</code>.</footer>
<script>{{.Script}}</script>
</body>
</html>
`))

const auditCSS = `
:root { --fail:#c62828; --warn:#d9730d; --acc:#6d4c9f; --pass:#2e7d32; --part:#3b6db3; --unk:#757575; --ink:#1d1d1f; --dim:#6b6b6b; --line:#e3e3e3; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fafafa; }
.top { padding: 14px 24px 8px; background: #fff; border-bottom: 1px solid var(--line); }
h1 { margin: 0; font-size: 20px; }
h2 { font-size: 16px; margin: 0 0 8px; }
.sub, .dim { color: var(--dim); }
main { padding: 12px 24px 24px; }
#summary { display: flex; gap: 24px; flex-wrap: wrap; align-items: flex-start; margin-bottom: 16px; }
#summary .left { display: flex; flex-direction: column; gap: 12px; flex: 0 1 600px; }
.tiles { display: flex; gap: 8px; flex-wrap: wrap; }
.tile { border: 1px solid var(--line); border-left: 6px solid var(--unk); background: #fff; border-radius: 6px; padding: 8px 12px; min-width: 86px; text-align: left; cursor: pointer; font: inherit; }
.tile b { display: block; font-size: 24px; line-height: 1.1; }
.tile.v-fail { border-left-color: var(--fail); } .tile.v-warn { border-left-color: var(--warn); }
.tile.v-accepted { border-left-color: var(--acc); } .tile.v-pass { border-left-color: var(--pass); } .tile.v-partial { border-left-color: var(--part); }
.worst { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px 16px; flex: 1 1 480px; }
.worst ol { margin: 0; padding-left: 22px; }
.missing { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px 16px; }
.missing p { margin: 0 0 6px; font-size: 12px; }
.missing ul { margin: 0; padding-left: 18px; font-size: 13px; }
td.law { min-width: 110px; }
.badge { display: inline-block; min-width: 54px; text-align: center; border-radius: 10px; padding: 0 7px; font-size: 12px; color: #fff; background: var(--unk); }
.badge.v-fail { background: var(--fail); } .badge.v-warn { background: var(--warn); }
.badge.v-accepted { background: var(--acc); } .badge.v-pass { background: var(--pass); }
.badge.v-partial, .badge.v-bounded { background: var(--part); }
.badge.v-n\/a { background: #b0b0b0; }
.more-rows { margin: 6px 0; }
.filters { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin: 8px 0; }
.filters select, .filters input, .filters button { font: inherit; padding: 2px 6px; }
.scroll { overflow-x: auto; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
table#audit { border-collapse: collapse; width: 100%; font-size: 13px; }
#audit th, #audit td { border-bottom: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; }
#audit th { position: sticky; top: 0; background: #f4f4f4; white-space: nowrap; }
#audit th button { all: unset; cursor: pointer; font-weight: 600; }
#audit th button:focus-visible { outline: 2px solid #1f5fbf; }
#audit th[aria-sort=ascending] button::after { content: " ▲"; font-size: 10px; }
#audit th[aria-sort=descending] button::after { content: " ▼"; font-size: 10px; }
#audit tr[hidden], .card[hidden] { display: none; }
#audit td.who { min-width: 220px; }
#audit td.who .dim { font-size: 12px; }
.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.law.l-fail { color: var(--fail); font-weight: 600; } td.law.l-warn { color: var(--warn); }
td.law.l-accepted { color: var(--acc); } td.law.l-bounded { color: var(--part); } td.law.l-unknown, td.law.l-n\/a { color: #999; }
#cards { margin-top: 24px; }
.card { background: #fff; border: 1px solid var(--line); border-left: 6px solid var(--unk); border-radius: 6px; margin: 10px 0; padding: 8px 14px; }
.card.v-fail { border-left-color: var(--fail); } .card.v-warn { border-left-color: var(--warn); }
.card.v-accepted { border-left-color: var(--acc); } .card.v-pass { border-left-color: var(--pass); } .card.v-partial { border-left-color: var(--part); }
.card summary { cursor: pointer; }
.card:target { box-shadow: 0 0 0 3px #1f5fbf55; }
.laws { list-style: none; padding: 0; margin: 8px 0; }
.laws li { margin: 3px 0; }
.pics { display: flex; flex-wrap: wrap; gap: 12px; }
figure { margin: 0; max-width: 100%; }
figcaption { font-size: 12px; color: var(--dim); max-width: 500px; }
svg.pic { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
svg.pic.sim { width: 960px; }
.more { display: flex; flex-wrap: wrap; gap: 24px; margin-top: 8px; font-size: 13px; }
.inputs caption { text-align: left; color: var(--dim); }
.inputs td { padding: 1px 8px 1px 0; }
.findings { margin: 0; padding-left: 18px; }
.sev { font-size: 12px; font-weight: 600; } .s-error { color: var(--fail); } .s-warning { color: var(--warn); } .s-info { color: #1f5fbf; }
footer { padding: 12px 24px 24px; font-size: 12px; }
@media print { .filters, .tiles { display: none; } .card { break-inside: avoid; } }
`

const auditJS = `(function () {
  "use strict";
  var table = document.getElementById("audit");
  var tbody = table.tBodies[0];
  var rows = Array.prototype.slice.call(tbody.rows);
  var cards = Array.prototype.slice.call(document.querySelectorAll("#cards .card"));
  var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
  function rank(tr) { return +tr.getAttribute("data-rank"); }
  function key(tr, i, num) {
    var c = tr.cells[i];
    var v = c.hasAttribute("data-sort") ? c.getAttribute("data-sort") : c.textContent.trim();
    if (num) {
      if (v === "") { return null; }
      var n = parseFloat(v);
      return isNaN(n) ? null : n;
    }
    return v.toLowerCase();
  }
  function sortBy(th) {
    var i = th.cellIndex;
    var num = th.getAttribute("data-type") === "num";
    var dir = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
    heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir);
    var s = dir === "ascending" ? 1 : -1;
    var keyed = rows.map(function (tr) { return { tr: tr, k: key(tr, i, num), r: rank(tr) }; });
    keyed.sort(function (a, b) {
      if (a.k === null || b.k === null) {
        if (a.k === b.k) { return a.r - b.r; }
        return a.k === null ? 1 : -1; // empty cells last either way
      }
      if (a.k < b.k) { return -s; }
      if (a.k > b.k) { return s; }
      return a.r - b.r;
    });
    var frag = document.createDocumentFragment();
    keyed.forEach(function (x) { frag.appendChild(x.tr); });
    tbody.appendChild(frag);
    apply();
  }
  heads.forEach(function (th) {
    var b = th.querySelector("button");
    if (b) { b.addEventListener("click", function () { sortBy(th); }); }
  });
  var fns = document.getElementById("f-ns");
  var frule = document.getElementById("f-rule");
  var fverdict = document.getElementById("f-verdict");
  var ftext = document.getElementById("f-text");
  var shown = document.getElementById("shown");
  function match(el, ns, rule, verdict, text) {
    return (!ns || el.getAttribute("data-ns") === ns) &&
      (!rule || el.getAttribute("data-rules").indexOf(" " + rule + " ") >= 0) &&
      (!verdict || el.getAttribute("data-verdict") === verdict) &&
      (!text || el.getAttribute("data-text").indexOf(text) >= 0);
  }
  var page = +table.getAttribute("data-page") || rows.length;
  var limit = page;
  var more = document.getElementById("more");
  function apply() {
    var ns = fns.value, rule = frule.value, verdict = fverdict.value, text = ftext.value.trim().toLowerCase();
    var n = 0;
    Array.prototype.forEach.call(tbody.rows, function (tr) {
      var ok = match(tr, ns, rule, verdict, text);
      if (ok) { n++; }
      tr.hidden = !ok || n > limit;
    });
    cards.forEach(function (c) { c.hidden = !match(c, ns, rule, verdict, text); });
    shown.textContent = n + " of " + rows.length + (n > limit ? " (first " + limit + " shown)" : "");
    more.hidden = n <= limit;
  }
  more.addEventListener("click", function () { limit += page; apply(); });
  [fns, frule, fverdict].forEach(function (s) { s.addEventListener("change", apply); });
  ftext.addEventListener("input", apply);
  document.getElementById("f-clear").addEventListener("click", function () {
    fns.value = ""; frule.value = ""; fverdict.value = ""; ftext.value = ""; apply();
  });
  Array.prototype.forEach.call(document.querySelectorAll(".tile"), function (t) {
    t.addEventListener("click", function () {
      var v = t.getAttribute("data-verdict");
      fverdict.value = fverdict.value === v ? "" : v;
      apply();
      table.scrollIntoView({ block: "start" });
    });
  });
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest("a[href^='#card-']");
    if (!a) { return; }
    var card = document.getElementById(a.getAttribute("href").slice(1));
    if (card) { card.open = true; }
  });
})();
`
