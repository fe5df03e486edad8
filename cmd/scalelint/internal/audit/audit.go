// Package audit is the audit's model: for every autoscaler of the inputs,
// the five laws' numbers (rules/laws/README.md §1-§5) with a verdict per
// law, including the autoscalers that pass, and how close each is to its
// boundary. Package render writes it as a table, Markdown, CSV, JSON or
// HTML.
//
// One pass: the inputs are linted exactly as check lints them (same
// config, rules and suppressions), and every autoscaler is evaluated once
// (the run's rules.Evaluations). A law's verdict comes from the
// evaluation; its severity from the finding check reports for it, so
// configured severities, rules turned off and suppressions show as they do
// in check.
//
// A row passes only when every law that applies to it was evaluated and
// holds (rules.AllEvaluated); a row with laws that held, or held only at a
// bound the manifests give, beside laws not evaluated is "partial", and
// each law says which it is: pass, bounded (holds at an inferred bound
// only: rules/laws/README.md §10), unknown (not evaluated). Margins come
// only from laws evaluated with stated inputs.
//
// Ordering ("worst first"), documented in the command's help:
//
//  1. by verdict class: fail, warn, accepted (suppressed or rule off),
//     pass, partial, unknown (no law could be evaluated), n/a (no law
//     applies);
//  2. within a class, by the smallest margin of the row's evaluated laws,
//     most negative first; rows without a margin after those with one;
//  3. then by the number of laws that could not be evaluated, most first;
//  4. then by file, line and name.
package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"go/token"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render/lint"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/load"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/report"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/simulation"
	"github.com/scalelint/scalelint/rules"
	"github.com/scalelint/scalelint/rules/format"
	"github.com/scalelint/scalelint/rules/simulate"
)

// Verdict is a law's or a row's verdict, in the order rows are sorted.
type Verdict int

const (
	Fail Verdict = iota
	Warn
	Accepted
	Pass
	// Partial is a row's verdict only: some law held or was bounded,
	// others were not evaluated or hold only at a bound.
	Partial
	// Bounded is a law's verdict only: it holds at a bound the manifests
	// give (a lower bound on τ or A, an upper bound on τ_out), which does
	// not decide it.
	Bounded
	Unknown
	NA
)

var verdictNames = [...]string{"fail", "warn", "accepted", "pass", "partial", "bounded", "unknown", "n/a"}

func (v Verdict) String() string { return verdictNames[v] }

func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// The laws of a row, in the order of rules/laws/README.md §1-§5.
const (
	Growth  = "growth"
	Latency = "latency"
	Retry   = "retry"
	Ceiling = "ceiling"
	Bound   = "bound"
)

var LawOrder = []string{Growth, Latency, Retry, Ceiling, Bound}

// lawRules are the rules that report each law.
var lawRules = map[string][]string{
	Growth:  {"tolerance-trap", "scale-up-rounds"},
	Latency: {"latency-floor", "latency-target"},
	Retry:   {"retry-trap"},
	Ceiling: {"ceiling-trap", "empty-ceiling-band", "ceiling-over-peak"},
	Bound:   {"bound-exceeds-timeout"},
}

// lawOf returns the law a rule reports, or "".
func LawOf(rule string) string {
	for law, rs := range lawRules {
		for _, r := range rs {
			if r == rule {
				return law
			}
		}
	}
	return ""
}

// LawHead is the verdict part every law's JSON shares.
type LawHead struct {
	Verdict Verdict `json:"verdict"`
	// Rule is the rule whose finding decides the verdict (the failing one,
	// or the law's first rule when it holds).
	Rule string `json:"rule"`
	// MarginPercent is how far the law is from its boundary, relative to
	// the boundary: (v − b)/b·100 for a value that must stay above b (a
	// standing delay, g, a ceiling above M*), (b − v)/b·100 for one that
	// must stay below it (a target under 1/A, a ceiling under 0.8·N_max, a
	// bound under the timeout, a time to capacity under its deadline);
	// negative when the law fails.
	MarginPercent *format.Float `json:"marginPercent,omitempty"`
	// Note says why a failing law is accepted, or what is not known.
	Note string `json:"note,omitempty"`
	// Bounded is set when an input of the law is a bound read from the
	// manifests (the verdict is sound; a law that holds is then not
	// decided, and has no margin).
	Bounded bool `json:"bounded,omitempty"`
}

func (h *LawHead) Margin() float64 {
	if h == nil || h.MarginPercent == nil {
		return math.NaN()
	}
	return float64(*h.MarginPercent)
}

type GrowthLaw struct {
	LawHead
	G                format.Float      `json:"g"`
	Tolerance        format.Float      `json:"tolerance"`
	Target           format.Float      `json:"target"` // utilization target, a fraction
	Limit            format.Float      `json:"limit"`
	Request          format.Float      `json:"request"`
	Trapped          bool              `json:"trapped"`
	FixTarget        *int              `json:"fixTargetPercent,omitempty"` // largest target percent that escapes the trap
	Overload         *format.Float     `json:"overload,omitempty"`
	Rounds           *int              `json:"rounds,omitempty"` // absent when trapped (never) or the overload is unknown
	DeadTime         *format.Float     `json:"deadTime,omitempty"`
	MetricWindow     *format.Float     `json:"metricWindow,omitempty"`
	TimeToCapacity   *format.Float     `json:"timeToCapacity,omitempty"`
	CapacityDeadline *format.Float     `json:"capacityDeadline,omitempty"`
	Eval             *rules.GrowthEval `json:"-"`
}

type LatencyLaw struct {
	LawHead
	Metric        int           `json:"metric"` // index of the metric or trigger
	Trigger       string        `json:"trigger"`
	ThresholdKey  string        `json:"thresholdKey,omitempty"`
	Threshold     format.Float  `json:"threshold"`
	PodRate       *format.Float `json:"podRate,omitempty"`
	DeadTime      format.Float  `json:"deadTime"`
	SamplingDelay format.Float  `json:"samplingDelay"`
	Window        format.Float  `json:"window"`
	W             format.Float  `json:"w"`
	Phi           format.Float  `json:"phi"`
	StandingDelay *format.Float `json:"standingDelay,omitempty"`
	// PodRateCeiling is c* without a pod rate: the loop hunts whenever
	// one pod serves more (rules/laws/README.md §10.1).
	PodRateCeiling        *format.Float      `json:"podRateCeiling,omitempty"`
	RequiredStandingDelay format.Float       `json:"requiredStandingDelay"`
	Rests                 *bool              `json:"rests,omitempty"`
	FixThreshold          *format.Float      `json:"fixThreshold,omitempty"`
	FixWindow             *format.Float      `json:"fixWindow,omitempty"` // longest window that rests at today's threshold
	LatencyTarget         *format.Float      `json:"latencyTarget,omitempty"`
	LatencyHeld           *bool              `json:"latencyHeld,omitempty"`
	WindowProof           format.Float       `json:"windowProofStandingDelay"`
	Eval                  *rules.BacklogEval `json:"-"`
	// Sim is the deployed loop simulated (Options.Simulate), or nil.
	Sim *simulate.Result `json:"-"`
}

type RetryLaw struct {
	LawHead
	Signal        string       `json:"signal"` // cpu or rate
	Amplification format.Float `json:"amplification"`
	TrapTarget    format.Float `json:"trapTarget"`
	Target        format.Float `json:"target"`
	Protected     bool         `json:"protected"`
	Trapped       bool         `json:"trapped"`
	// FixTarget is the largest target below 1/A in the metric's unit: a
	// percent for CPU, the per-pod threshold for a rate.
	FixTarget *format.Float `json:"fixTargetValue,omitempty"`
}

type CeilingLaw struct {
	LawHead
	Ceiling       format.Float       `json:"ceiling"`
	Defaulted     bool               `json:"ceilingDefaulted,omitempty"` // KEDA's default maxReplicaCount
	CeilingFloor  *format.Float      `json:"ceilingFloor,omitempty"`     // M* = A·λ/c
	CeilingTop    *format.Float      `json:"ceilingTop,omitempty"`       // 0.8·N_max
	Peak          *format.Float      `json:"scalabilityPeak,omitempty"`
	Amplification *format.Float      `json:"amplification,omitempty"`
	Demand        *format.Float      `json:"demand,omitempty"`
	PodRate       *format.Float      `json:"podRate,omitempty"`
	Trapped       bool               `json:"trapped"`
	BandEmpty     bool               `json:"bandEmpty"`
	OverPeak      bool               `json:"overPeak"`
	Eval          *rules.CeilingEval `json:"-"`
}

type BoundLaw struct {
	LawHead
	AdmissionBound format.Float `json:"admissionBound"`
	ClientTimeout  format.Float `json:"clientTimeout"`
}

// Signal is one metric or trigger of an autoscaler.
type Signal struct {
	Type         string        `json:"type"`   // cpu, backlog, rate or other
	Metric       string        `json:"metric"` // HPA metric type or KEDA trigger type
	Utilization  *format.Float `json:"utilization,omitempty"`
	ThresholdKey string        `json:"thresholdKey,omitempty"`
	Threshold    *format.Float `json:"threshold,omitempty"`
	Defaulted    bool          `json:"thresholdDefaulted,omitempty"`
	Mode         string        `json:"mode,omitempty"`
}

type Target struct {
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	Found bool   `json:"found"`
	File  string `json:"file,omitempty"`
	Line  int    `json:"line,omitempty"`
}

type Finding struct {
	Rule       string `json:"rule"`
	Severity   string `json:"severity"`
	File       string `json:"file"`
	Line       int    `json:"line"`
	Message    string `json:"message"`
	Suppressed string `json:"suppressed,omitempty"` // the justification, when suppressed
}

type Input struct {
	Value  format.Float `json:"value"`
	Text   string       `json:"text"`
	Origin string       `json:"origin"`
	// Bound is exact, lower or upper: an inferred input is a bound, with
	// what it was read from and where.
	Bound  string        `json:"bound"`
	Upper  *format.Float `json:"upperEnd,omitempty"`
	Source string        `json:"source,omitempty"`
	File   string        `json:"file,omitempty"`
	Line   int           `json:"line,omitempty"`
}

// Rendered says which chart value sets or kustomization builds deploy a
// row's autoscaler.
type Rendered struct {
	Kind           string   `json:"-"`
	Root           string   `json:"-"`
	ValueSets      []string `json:"valueSets,omitempty"`
	Kustomizations []string `json:"kustomizations,omitempty"`
}

// Sets returns the value sets or builds.
func (r *Rendered) Sets() []string {
	if r == nil {
		return nil
	}
	return append(r.ValueSets, r.Kustomizations...)
}

// Row is one autoscaler: what every output format shows.
type Row struct {
	File          string              `json:"file"`
	Line          int                 `json:"line"`
	Object        *report.ObjectRef   `json:"object"`
	Rendered      *Rendered           `json:"rendered,omitempty"`
	Target        Target              `json:"scaleTarget"`
	PodRate       *format.Float       `json:"podRate,omitempty"`
	Signals       []Signal            `json:"signals"`
	Verdict       Verdict             `json:"verdict"`
	MarginPercent *format.Float       `json:"marginPercent,omitempty"`
	Growth        *GrowthLaw          `json:"growth,omitempty"`
	Latency       []*LatencyLaw       `json:"latency,omitempty"`
	Retry         *RetryLaw           `json:"retry,omitempty"`
	Ceiling       *CeilingLaw         `json:"ceiling,omitempty"`
	Bound         *BoundLaw           `json:"bound,omitempty"`
	Unknown       []string            `json:"unknown,omitempty"` // laws that apply but could not be evaluated
	Missing       []report.MissingLaw `json:"missing,omitempty"`
	Findings      []Finding           `json:"findings,omitempty"`
	Inputs        map[string]Input    `json:"inputs,omitempty"`

	// Laws is every law's verdict, including unknown and n/a.
	Laws map[string]Verdict `json:"laws"`

	eval *rules.Evaluation
}

// law returns a law's head, or nil when it was not evaluated.
func (r *Row) Law(name string) *LawHead {
	switch name {
	case Growth:
		if r.Growth != nil {
			return &r.Growth.LawHead
		}
	case Latency:
		if w := r.WorstLatency(); w != nil {
			return &w.LawHead
		}
	case Retry:
		if r.Retry != nil {
			return &r.Retry.LawHead
		}
	case Ceiling:
		if r.Ceiling != nil {
			return &r.Ceiling.LawHead
		}
	case Bound:
		if r.Bound != nil {
			return &r.Bound.LawHead
		}
	}
	return nil
}

// worstLatency is the backlog metric with the worst verdict and margin.
func (r *Row) WorstLatency() *LatencyLaw {
	var w *LatencyLaw
	for _, l := range r.Latency {
		if w == nil || l.Verdict < w.Verdict || (l.Verdict == w.Verdict && LessMargin(l.Margin(), w.Margin())) {
			w = l
		}
	}
	return w
}

// LessMargin orders margins ascending with NaN (no margin) last.
func LessMargin(a, b float64) bool {
	switch {
	case math.IsNaN(a):
		return false
	case math.IsNaN(b):
		return true
	}
	return a < b
}

// Rules returns the rules the row is listed under: the failing laws'
// rules and every rule with an unsuppressed finding on the autoscaler.
func (r *Row) Rules() []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, law := range LawOrder {
		if h := r.Law(law); h != nil && (h.Verdict == Fail || h.Verdict == Warn || h.Verdict == Accepted) {
			add(h.Rule)
		}
	}
	for _, f := range r.Findings {
		if f.Suppressed == "" && (f.Severity == "error" || f.Severity == "warning") {
			add(f.Rule)
		}
	}
	sort.Strings(out)
	return out
}

// Audit is the result of one audit run.
type Audit struct {
	Rows  []*Row
	Files int
	// Autoscalers counts the autoscalers as check does (report.Report's
	// Autoscalers: once per place in the sources); a chart's value sets
	// or kustomize builds that give one different numbers make more rows.
	Autoscalers int
	Inputs      []string // the paths as given
}

// Counts returns how many rows have each verdict.
func (a *Audit) Counts() [NA + 1]int {
	var c [NA + 1]int
	for _, r := range a.Rows {
		c[r.Verdict]++
	}
	return c
}

// SummaryLine counts the rows by verdict.
func (a *Audit) SummaryLine() string {
	c := a.Counts()
	var parts []string
	for v, n := range c {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, Verdict(v)))
		}
	}
	if len(parts) == 0 {
		parts = []string{"nothing to audit"}
	}
	return fmt.Sprintf("%s: %s", a.Subject(), strings.Join(parts, ", "))
}

// Subject says what the audit covers: its autoscalers in its files, and
// the rows they take where value sets or builds whose numbers differ
// make more rows than autoscalers (the verdicts count rows).
func (a *Audit) Subject() string {
	s := report.Plural(a.Autoscalers, "autoscaler")
	if len(a.Rows) != a.Autoscalers {
		s += fmt.Sprintf(" (%s: value sets or builds whose numbers differ)", report.Plural(len(a.Rows), "row"))
	}
	return s + " in " + report.Plural(a.Files, "file")
}

// Reaches reports whether a law of some row has a verdict at or worse
// than v (--fail-on).
func (a *Audit) Reaches(v Verdict) bool {
	for _, r := range a.Rows {
		for _, lv := range r.Laws {
			if lv <= v {
				return true
			}
		}
	}
	return false
}

// Options tune an audit.
type Options struct {
	// Simulate runs the deployed loop of each backlog consumer whose
	// demand is annotated (for the HTML report's pictures).
	Simulate bool
}

// Run lints the inputs as check does and builds one row per autoscaler,
// sorted worst first. An autoscaler a chart or kustomization deploys has a
// row per value set or build whose numbers differ (the rows of those that
// agree are one, naming them all), placed in the files users edit.
func Run(in *load.Inputs, opts Options) *Audit {
	ws, cfg := in.Workspace, in.Config
	shared := analyzer.NewShared()
	diags := in.Lint(context.Background(), shared)
	rep := report.New(ws, diags, cfg, shared)
	rep.SetInputs(in.Files, in.Rendered)
	evals := rules.Evaluations(shared, cfg)
	a := &Audit{Files: rep.Files(), Autoscalers: rep.Autoscalers(), Inputs: in.Paths}

	byObject := map[*manifest.Object][]analyzer.Diagnostic{}
	var rendered []analyzer.Diagnostic
	for _, d := range diags {
		if d.Rendered != nil {
			rendered = append(rendered, d)
		} else if d.Object != nil {
			byObject[d.Object] = append(byObject[d.Object], d)
		}
	}
	loc := report.NewLocator(ws)
	for _, as := range ws.Autoscalers().All() {
		a.Rows = append(a.Rows, buildRow(rep, loc, cfg, evals.Evaluate(ws, as), byObject, nil))
		loc.Release() // the texts read for the row's lines
	}
	if in.Rendered != nil {
		a.Rows = append(a.Rows, renderedRows(rep, loc, in.Rendered, rendered)...)
	}
	sortRows(a.Rows)
	if opts.Simulate {
		simulateRows(a.Rows)
	}
	return a
}

// renderedRows builds the rows of the autoscalers the charts and
// kustomizations deploy: one per unit, placed in the sources, with the
// findings of its value set or build on it and its target; rows that
// agree (a template the value sets render alike) are merged.
func renderedRows(rep *report.Report, loc *report.Locator, res *lint.Result, diags []analyzer.Diagnostic) []*Row {
	type placeKey struct {
		pos token.Pos
		set string
	}
	bySet := map[placeKey][]analyzer.Diagnostic{}
	for _, d := range diags {
		if d.Object == nil {
			continue
		}
		p, ok := res.PlaceOf(d.Object)
		if !ok {
			continue
		}
		for _, set := range d.Rendered.Sets {
			bySet[placeKey{p, set}] = append(bySet[placeKey{p, set}], d)
		}
	}
	var rows []*Row
	index := map[string]*Row{}
	for _, u := range res.Units {
		evals := rules.Evaluations(u.Shared, rep.Config)
		place := func(p, end token.Pos) (token.Pos, token.Pos) {
			if q, e, ok := res.Place(u, p, end); ok {
				return q, e
			}
			return token.NoPos, token.NoPos
		}
		for _, as := range u.Workspace.Autoscalers().All() {
			e := evals.Evaluate(u.Workspace, as)
			byObject := map[*manifest.Object][]analyzer.Diagnostic{}
			objs := []*manifest.Object{as.Object}
			if e.Target != nil && e.Target.Object != nil {
				objs = append(objs, e.Target.Object)
			}
			for _, o := range objs {
				if p, ok := res.PlaceOf(o); ok {
					byObject[o] = bySet[placeKey{p, u.Set}]
				}
			}
			r := buildRow(rep, loc, rep.Config, e, byObject, place)
			loc.Release()
			key := rowKey(r)
			if prev := index[key]; prev != nil {
				prev.addSet(u.Set)
				continue
			}
			r.Rendered = &Rendered{Kind: u.Kind, Root: u.Root}
			r.addSet(u.Set)
			index[key] = r
			rows = append(rows, r)
		}
	}
	return rows
}

// rowKey identifies a row by what it shows.
func rowKey(r *Row) string {
	b, _ := json.Marshal(r)
	return string(b)
}

func (r *Row) addSet(set string) {
	if r.Rendered.Kind == "kustomize" {
		r.Rendered.Kustomizations = append(r.Rendered.Kustomizations, set)
	} else {
		r.Rendered.ValueSets = append(r.Rendered.ValueSets, set)
	}
}

// sortRows orders rows worst first (see the comment at the top).
func sortRows(rows []*Row) {
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Verdict != b.Verdict {
			return a.Verdict < b.Verdict
		}
		ma, mb := rowMargin(a), rowMargin(b)
		if ma != mb && !(math.IsNaN(ma) && math.IsNaN(mb)) {
			return LessMargin(ma, mb)
		}
		if len(a.Unknown) != len(b.Unknown) {
			return len(a.Unknown) > len(b.Unknown)
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Object.Name < b.Object.Name
	})
}

func rowMargin(r *Row) float64 {
	if r.MarginPercent == nil {
		return math.NaN()
	}
	return float64(*r.MarginPercent)
}

func ptr[T any](v T) *T { return &v }

// MarginAbove is the margin of a value that must stay above a boundary,
// (v − boundary)/boundary in percent; marginBelow of one that must stay
// under it, (boundary − v)/boundary. Both are negative when the law fails,
// and nil when the boundary is not positive and finite or v is NaN. An
// unbounded value (a standing delay T/c that overflowed), or a quotient
// that overflows (a huge value over a tiny boundary), makes an infinite
// margin: +Inf or -Inf, which format.Float writes in JSON and amargin as
// ∞.
func MarginAbove[F ~float64](v, boundary F) *format.Float {
	if !(boundary > 0) || math.IsNaN(float64(v)) || math.IsInf(float64(boundary), 0) {
		return nil
	}
	return ptr(format.JSONSig(float64((v - boundary) / boundary * 100)))
}

func marginBelow(v, boundary float64) *format.Float {
	m := MarginAbove(v, boundary)
	if m != nil {
		*m = -*m
	}
	return m
}

// minMargin keeps the smaller of two margins.
func minMargin(a, b *format.Float) *format.Float {
	if a == nil || (b != nil && *b < *a) {
		return b
	}
	return a
}

func finitePtr(v float64) *format.Float {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return ptr(format.JSONSig(v))
}

// buildRow builds an autoscaler's row; place maps the positions of its
// objects to those of the report's workspace (an autoscaler a chart or
// kustomization deploys is placed in its sources), nil for the
// workspace's own.
func buildRow(rep *report.Report, loc *report.Locator, cfg *analyzer.Config, e *rules.Evaluation, byObject map[*manifest.Object][]analyzer.Diagnostic,
	place func(pos, end token.Pos) (token.Pos, token.Pos)) *Row {
	placed := place != nil
	if !placed {
		place = func(p, end token.Pos) (token.Pos, token.Pos) { return p, end }
	}
	as := e.Autoscaler
	o := as.Object
	l := loc.Locate(place(o.NameAt.Pos, o.NameAt.End))
	r := &Row{File: l.File, Line: l.Line, Object: rep.ObjectRef(o), eval: e, Laws: map[string]Verdict{}}
	r.Target = Target{Kind: as.Target.Kind, Name: as.Target.Name}
	if as.Kind == scaling.ScaledJob {
		r.Target = Target{Kind: "Job", Name: "(per trigger)"}
	}
	if t := e.Target; t != nil && t.Object != nil {
		tl := loc.Locate(place(t.Object.NameAt.Pos, t.Object.NameAt.End))
		r.Target.Found, r.Target.File, r.Target.Line = true, tl.File, tl.Line
	}
	if c, ok := e.Inputs["pod-rate"]; ok {
		r.PodRate = ptr(format.JSONSig(c.Value))
	}
	for _, m := range as.Metrics {
		s := Signal{Type: m.Signal.String(), Metric: m.Type, Mode: m.Mode}
		if m.Resource != "" && (m.Type == "Resource" || m.Type == "ContainerResource") {
			s.Metric = m.Type + " " + m.Resource
		}
		if m.Signal == scaling.SignalCPU && m.Utilization.V > 0 {
			s.Utilization = ptr(format.Float(m.Utilization.V))
		}
		if m.Signal == scaling.SignalBacklog || m.Signal == scaling.SignalRate {
			s.ThresholdKey, s.Threshold, s.Defaulted = m.ThresholdKey, ptr(format.Float(m.Threshold.V)), !m.Threshold.Set
		}
		r.Signals = append(r.Signals, s)
	}
	r.Inputs = map[string]Input{}
	for name, in := range e.Inputs {
		if in.Origin == scaling.FromBuiltin {
			continue
		}
		x := Input{Value: format.JSONSig(in.Value), Text: in.Text, Origin: in.Origin.String(),
			Bound: [...]string{"exact", "lower", "upper"}[in.Bound], Source: in.Source}
		if in.Upper > in.Value {
			x.Upper = ptr(format.JSONSig(in.Upper))
		}
		if in.Object != nil && in.At.IsValid() {
			if placed {
				// In the sources, as the row's own place: the line
				// read would be the rendered text's.
				if p, end := place(in.At.Start(), in.At.End); p.IsValid() {
					l := loc.Locate(p, end)
					x.File, x.Line = l.File, l.Line
				}
			} else {
				x.File, x.Line = in.Object.File().Path, in.LineOf()
			}
		}
		r.Inputs[name] = x
	}

	// Findings check reports on the autoscaler and on its target.
	var diags []analyzer.Diagnostic
	diags = append(diags, byObject[o]...)
	if e.Target != nil && e.Target.Object != nil {
		diags = append(diags, byObject[e.Target.Object]...)
	}
	for _, d := range diags {
		dl := loc.Locate(d.Pos, d.End)
		f := Finding{Rule: d.Rule, Severity: d.Severity.String(), File: dl.File, Line: dl.Line, Message: d.Message}
		if d.Suppression != nil {
			f.Suppressed = d.Suppression.Justification
			if f.Suppressed == "" {
				f.Suppressed = d.Suppression.Kind
			}
		}
		r.Findings = append(r.Findings, f)
	}
	sev := func(rule string, fallback Verdict) (Verdict, string) {
		return lawSeverity(cfg, o, byObject[o], rule, fallback)
	}

	if g := e.Growth; g != nil {
		gl := &GrowthLaw{G: format.JSONApart(g.G, 1+g.Tolerance), Tolerance: format.Float(g.Tolerance), Target: format.Float(g.TargetPercent) / 100, Limit: format.JSONSig(g.Limit),
			Request: format.JSONSig(g.Request), Trapped: g.Trapped, Eval: g}
		gl.Rule, gl.Verdict = "tolerance-trap", Pass
		gl.MarginPercent = MarginAbove(g.G, 1+g.Tolerance)
		if g.Trapped {
			fallback := Fail
			if len(g.Others) > 0 {
				fallback = Warn // another metric may still scale up
			}
			gl.Verdict, gl.Note = sev("tolerance-trap", fallback)
			if g.FixTarget >= 1 {
				gl.FixTarget = ptr(g.FixTarget)
			}
		}
		if g.HasOverload {
			gl.Overload = ptr(format.Float(g.Overload))
			if !g.Trapped {
				gl.Rounds = ptr(g.Rounds)
			}
			if g.HasDeadTime {
				gl.DeadTime, gl.MetricWindow = ptr(format.Float(g.DeadTime)), ptr(format.Float(g.MetricWindow))
				gl.TimeToCapacity = finitePtr(g.TimeToCapacity)
				gl.Bounded = g.DeadTimeBounded
				if g.HasDeadline {
					gl.CapacityDeadline = ptr(format.Float(g.Deadline))
					if !g.Trapped {
						if !g.DeadTimeBounded {
							gl.MarginPercent = minMargin(gl.MarginPercent, marginBelow(g.TimeToCapacity, g.Deadline))
						}
						if g.TimeToCapacity > g.Deadline {
							gl.Rule = "scale-up-rounds"
							gl.Verdict, gl.Note = sev("scale-up-rounds", Warn)
						}
					}
				}
			}
		}
		r.Growth = gl
	}
	for _, b := range e.Backlog {
		ll := &LatencyLaw{Metric: b.Metric.Index, Trigger: b.Metric.Type, ThresholdKey: b.Metric.ThresholdKey, Threshold: format.JSONSig(b.Threshold),
			DeadTime: format.Float(b.DeadTime), SamplingDelay: format.Float(b.SamplingDelay), Window: format.Float(b.Window), W: format.JSONSig(b.W), Phi: format.JSONSig(b.Phi),
			RequiredStandingDelay: format.JSONSig(b.Required), WindowProof: format.JSONSig(b.WindowProof), Eval: b}
		ll.Rule, ll.Verdict, ll.Bounded = "latency-floor", Pass, b.Bounded
		if b.HasPodRate {
			ll.PodRate = ptr(format.JSONSig(b.PodRate))
		}
		switch {
		case b.HasDelay && b.Threshold > 0:
			ll.StandingDelay = ptr(format.JSONSig(b.StandingDelay))
			ll.Rests = ptr(b.Rests)
			if !b.Bounded {
				ll.MarginPercent = MarginAbove(b.StandingDelay, b.Required)
			}
			ll.FixThreshold = finitePtr(b.FixThreshold(cfg.Option(rules.LatencyFloor, o.File().Path, "margin")))
			if b.FixWindowOK && !b.FixWindowUnlimited {
				ll.FixWindow = ptr(format.JSONSig(math.Floor(b.FixWindow)))
			}
			switch {
			case !b.Rests:
				fallback := Fail
				if len(b.Others) > 0 {
					fallback = Warn // another trigger may hold more pods
				}
				ll.Verdict, ll.Note = sev("latency-floor", fallback)
			case b.Bounded:
				ll.Verdict, ll.Note = Bounded, "rests at the lower bound on the dead time only; scalelint.dev/dead-time decides"
			}
		case b.HasPodRateCeiling:
			ll.PodRateCeiling = finitePtr(b.PodRateCeiling)
			ll.Verdict, ll.Note = sev("latency-floor", Warn)
			if ll.Verdict == Pass {
				ll.Verdict = Bounded // configured as info: still a bound, not a pass
			}
			if ll.Note == "" {
				ll.Note = "hunts unless each pod serves fewer than " + format.SigUp(b.PodRateCeiling, 2) + "/s; needs scalelint.dev/pod-rate"
			}
		default:
			ll.Verdict, ll.Note = Unknown, "needs scalelint.dev/pod-rate"
		}
		if b.HasLatencyTarget {
			ll.LatencyTarget, ll.LatencyHeld = ptr(format.Float(b.LatencyTarget)), ptr(b.LatencyHeld)
			if !b.Bounded {
				ll.MarginPercent = minMargin(ll.MarginPercent, MarginAbove(b.LatencyTarget, b.Required))
			}
			held := Pass
			if b.Bounded {
				held = Bounded
			}
			if !b.LatencyHeld {
				v, note := sev("latency-target", Fail)
				if v < ll.Verdict || ll.Verdict == Unknown {
					ll.Rule, ll.Verdict, ll.Note = "latency-target", v, note
				}
			} else if ll.Verdict == Unknown {
				ll.Rule, ll.Verdict, ll.Note = "latency-target", held, ""
			}
		}
		r.Latency = append(r.Latency, ll)
	}
	if rt := e.Retry; rt != nil {
		rl := &RetryLaw{Signal: rt.Signal.String(), Amplification: format.JSONSig(rt.Amplification), TrapTarget: format.JSONSig(rt.TrapTarget),
			Target: format.JSONSig(rt.Target), Protected: rt.Protected, Trapped: rt.Trapped}
		rl.Rule, rl.Verdict, rl.Bounded = "retry-trap", Pass, rt.Bounded || rt.ProtectionUnknown
		if rt.FixTarget > 0 {
			rl.FixTarget = ptr(format.JSONSig(rt.FixTarget))
		}
		switch {
		case rt.Protected:
			rl.Note = "an admission bound shorter than the client timeout removes the debt"
		case !rl.Bounded:
			rl.MarginPercent = marginBelow(rt.Target, rt.TrapTarget)
		}
		switch {
		case rt.Trapped:
			fallback := Fail
			if rt.Signal == scaling.SignalCPU || len(rt.Others) > 0 || rt.Bounded {
				fallback = Warn
			}
			rl.Verdict, rl.Note = sev("retry-trap", fallback)
		case rt.ProtectionUnknown:
			rl.Verdict, rl.Note = Bounded, "the admission bound is shorter than an upper bound on the client timeout only"
		case rt.Bounded && !rt.Protected:
			rl.Verdict, rl.Note = Bounded, "below 1/A at the lower bound on A only"
		}
		r.Retry = rl
	}
	if c := e.Ceiling; c != nil {
		cl := &CeilingLaw{Ceiling: format.Float(c.Ceiling), Defaulted: !as.Max.Set && as.Kind != scaling.HPA, Trapped: c.Trapped,
			BandEmpty: c.BandEmpty, OverPeak: c.OverPeak, Eval: c}
		cl.Rule, cl.Verdict, cl.Bounded = "ceiling-trap", Pass, c.Bounded
		if c.HasFloor {
			cl.CeilingFloor, cl.Amplification = ptr(format.JSONSig(c.Floor)), ptr(format.JSONSig(c.Amplification))
			cl.Demand, cl.PodRate = ptr(format.JSONSig(c.Demand)), ptr(format.JSONSig(c.PodRate))
			if !c.Bounded {
				cl.MarginPercent = MarginAbove(c.Ceiling, c.Floor)
			}
		}
		if c.HasTop {
			cl.CeilingTop = ptr(format.JSONSig(c.Top))
			cl.Peak = ptr(format.JSONSig(c.Top / 0.8))
			if in, ok := e.Inputs["scalability-peak"]; ok {
				cl.Peak = ptr(format.JSONSig(in.Value))
			}
			cl.MarginPercent = minMargin(cl.MarginPercent, marginBelow(c.Ceiling, c.Top))
		}
		// The worst of the three findings decides.
		type cand struct {
			fails    bool
			rule     string
			fallback Verdict
		}
		floorFallback := Fail
		if c.Bounded {
			floorFallback = Warn // an inferred A: the rules report a warning
		}
		for _, k := range []cand{
			{c.HasFloor && c.Trapped, "ceiling-trap", floorFallback},
			{c.HasFloor && c.HasTop && c.BandEmpty, "empty-ceiling-band", floorFallback},
			{c.HasTop && c.OverPeak, "ceiling-over-peak", Warn},
		} {
			if !k.fails {
				continue
			}
			v, note := sev(k.rule, k.fallback)
			if cl.Verdict == Pass || v < cl.Verdict {
				cl.Rule, cl.Verdict, cl.Note = k.rule, v, note
			}
		}
		if cl.Verdict == Pass && !c.HasFloor {
			cl.Rule = "ceiling-over-peak"
		}
		if cl.Verdict == Pass && c.Bounded {
			cl.Verdict, cl.Note = Bounded, "above the amplified need at the lower bound on A only"
		}
		r.Ceiling = cl
	}
	if b := e.Bound; b != nil {
		bl := &BoundLaw{AdmissionBound: format.Float(b.Bound), ClientTimeout: format.Float(b.Timeout)}
		bl.Rule, bl.Verdict, bl.Bounded = "bound-exceeds-timeout", Pass, b.Bounded
		if !b.Bounded {
			bl.MarginPercent = marginBelow(b.Bound, b.Timeout)
		}
		switch {
		case !b.Shorter:
			bl.Verdict, bl.Note = sev("bound-exceeds-timeout", Fail)
		case b.Bounded:
			bl.Verdict, bl.Note = Bounded, "shorter than an upper bound on the client timeout only"
		}
		r.Bound = bl
	}

	// Missing inputs and the laws they leave unknown.
	unknown := map[string]bool{}
	r.Missing = report.MissingLaws(e)
	for _, x := range e.Missing {
		if law := LawOf(x.Law); law != "" {
			unknown[law] = true
		}
	}
	for _, law := range LawOrder {
		if h := r.Law(law); h != nil {
			r.Laws[law] = h.Verdict
			continue
		}
		if unknown[law] {
			r.Laws[law] = Unknown
			r.Unknown = append(r.Unknown, law)
		} else {
			r.Laws[law] = NA
		}
	}
	// The row: its worst failing law; else pass only when every law that
	// applies was evaluated and decided (no law bounded or unknown, no
	// half of one missing); else partial when some law held or was
	// bounded; else unknown, or n/a.
	r.Verdict = NA
	held, anyUnknown := false, false
	for _, law := range LawOrder {
		switch v := r.Laws[law]; v {
		case Unknown:
			anyUnknown = true
		case Pass, Bounded:
			held = true
		case NA:
		default:
			if v < r.Verdict {
				r.Verdict = v
			}
		}
		if h := r.Law(law); h != nil && h.MarginPercent != nil {
			r.MarginPercent = minMargin(r.MarginPercent, ptr(*h.MarginPercent))
		}
	}
	if r.Verdict == NA {
		switch {
		case held && e.Coverage() == rules.AllEvaluated:
			r.Verdict = Pass
		case held:
			r.Verdict = Partial
		case anyUnknown:
			r.Verdict = Unknown
		}
	}
	return r
}

// lawSeverity is the verdict of a failing law as check reports it: the
// severity of the rule's unsuppressed finding on the object (error: fail,
// warning: warn, info: pass); accepted when the finding is suppressed or
// the rule is off for the file; fallback when check reported nothing.
func lawSeverity(cfg *analyzer.Config, o *manifest.Object, diags []analyzer.Diagnostic, rule string, fallback Verdict) (Verdict, string) {
	worst, found := analyzer.Severity(0), false
	suppressed := ""
	for _, d := range diags {
		if d.Rule != rule {
			continue
		}
		if d.Suppression != nil {
			suppressed = d.Suppression.Justification
			if suppressed == "" {
				suppressed = d.Suppression.Kind
			}
			continue
		}
		found = true
		if d.Severity > worst {
			worst = d.Severity
		}
	}
	if found {
		switch worst {
		case analyzer.Error:
			return Fail, ""
		case analyzer.Warning:
			return Warn, ""
		default:
			return Pass, rule + " is configured as info"
		}
	}
	if suppressed != "" {
		return Accepted, "suppressed: " + suppressed
	}
	if a, ok := rules.ByName(rule); ok {
		if _, _, on := cfg.RuleSetting(a, o.File().Path); !on {
			return Accepted, rule + " is off in the configuration"
		}
	}
	return fallback, ""
}

// maxSimulations bounds the simulations one HTML report runs (rows are
// sorted worst first, so the worst consumers get theirs). A 20-hour run
// takes about a millisecond; the SVG is what costs (about 70 kB each).
const maxSimulations = 200

// simConfig is the deployed loop of one backlog metric exactly as the
// simulate command sets it up without flags: the manifest's threshold,
// replicas, behavior and window, the annotated dead time and pod rate,
// and a demand step of 4x up to the annotated demand. ok is false when an
// input is missing (the demand, most often).
func simConfig(r *Row, l *LatencyLaw) (simulate.Config, bool) {
	if l.Eval == nil || r.eval == nil {
		return simulate.Config{}, false
	}
	if _, ok := r.eval.Inputs["demand"]; !ok {
		return simulate.Config{}, false
	}
	run, err := simulation.Setup(simulation.Candidate{Autoscaler: r.eval.Autoscaler, Place: simulation.OwnFile}, l.Eval.Metric, r.eval, simulation.Overrides{})
	if err != nil {
		return simulate.Config{}, false
	}
	return run.Config, true
}

// simulateRows runs the simulations of the rows' backlog consumers, in
// parallel, worst rows first.
func simulateRows(rows []*Row) {
	type job struct {
		l   *LatencyLaw
		cfg simulate.Config
	}
	var jobs []job
	for _, r := range rows {
		for _, l := range r.Latency {
			if len(jobs) >= maxSimulations {
				break
			}
			if cfg, ok := simConfig(r, l); ok {
				jobs = append(jobs, job{l, cfg})
			}
		}
	}
	ch := make(chan job)
	var wg sync.WaitGroup
	for i := 0; i < runtime.GOMAXPROCS(0); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				if res, err := simulate.Run(j.cfg); err == nil {
					j.l.Sim = &res
				}
			}
		}()
	}
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
}
