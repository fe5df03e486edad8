package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
	"github.com/scalelint/scalelint/rules/simulate"
)

// `scalelint audit` tabulates, for every autoscaler of the inputs, the
// five numbers of the seed's "What to Compute" (LAWS.md §1-§5) with a
// verdict per law, including the autoscalers that pass, and how close each
// is to its boundary.
//
// One pass: the inputs are loaded and linted exactly as `check` loads and
// lints them (same config, same rules, same suppressions), then every
// autoscaler is evaluated once with rules.Evaluate. A law's verdict comes
// from the evaluation; its severity from the finding check would report
// for it (so configured severities, rules turned off and suppressions show
// as they do in check).
//
// Ordering ("worst first"), documented in the command's help:
//
//  1. by verdict class: fail, warn, accepted (suppressed or rule off),
//     pass, unknown (no law could be evaluated), n/a (no law applies);
//  2. within a class, by the smallest margin of the row's evaluated laws,
//     most negative first; rows without a margin after those with one;
//  3. then by the number of laws that could not be evaluated, most first;
//  4. then by file, line and name.

// verdict is a law's or a row's verdict, in the order rows are sorted.
type verdict int

const (
	vFail verdict = iota
	vWarn
	vAccepted
	vPass
	vUnknown
	vNA
)

var verdictNames = [...]string{"fail", "warn", "accepted", "pass", "unknown", "n/a"}

func (v verdict) String() string { return verdictNames[v] }

func (v verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// The laws of a row, in the order of the seed's "What to Compute".
const (
	lawGrowth  = "growth"
	lawLatency = "latency"
	lawRetry   = "retry"
	lawCeiling = "ceiling"
	lawBound   = "bound"
)

var lawOrder = []string{lawGrowth, lawLatency, lawRetry, lawCeiling, lawBound}

// lawRules are the rules that report each law.
var lawRules = map[string][]string{
	lawGrowth:  {"tolerance-trap", "scale-up-rounds"},
	lawLatency: {"latency-floor", "latency-target"},
	lawRetry:   {"retry-trap"},
	lawCeiling: {"ceiling-trap", "empty-ceiling-band", "ceiling-over-peak"},
	lawBound:   {"bound-exceeds-timeout"},
}

// lawOf returns the law a rule reports, or "".
func lawOf(rule string) string {
	for law, rs := range lawRules {
		for _, r := range rs {
			if r == rule {
				return law
			}
		}
	}
	return ""
}

// lawHead is the verdict part every law's JSON shares.
type lawHead struct {
	Verdict verdict `json:"verdict"`
	// Rule is the rule whose finding decides the verdict (the failing one,
	// or the law's first rule when it holds).
	Rule string `json:"rule"`
	// MarginPercent is how far the law is from its boundary, relative to
	// the boundary: (v − b)/b·100 for a value that must stay above b (a
	// standing delay, g, a ceiling above M*), (b − v)/b·100 for one that
	// must stay below it (a target under 1/A, a ceiling under 0.8·N_max, a
	// bound under the timeout, a time to capacity under its deadline);
	// negative when the law fails.
	MarginPercent *float64 `json:"marginPercent,omitempty"`
	// Note says why a failing law is accepted, or what is not known.
	Note string `json:"note,omitempty"`
}

func (h *lawHead) margin() float64 {
	if h == nil || h.MarginPercent == nil {
		return math.NaN()
	}
	return *h.MarginPercent
}

type growthLaw struct {
	lawHead
	G                float64  `json:"g"`
	Tolerance        float64  `json:"tolerance"`
	Target           float64  `json:"target"` // utilization target, a fraction
	Limit            float64  `json:"limit"`
	Request          float64  `json:"request"`
	Trapped          bool     `json:"trapped"`
	FixTarget        *int     `json:"fixTargetPercent,omitempty"` // largest target percent that escapes the trap
	Overload         *float64 `json:"overload,omitempty"`
	Rounds           *int     `json:"rounds,omitempty"` // absent when trapped (never) or the overload is unknown
	DeadTime         *float64 `json:"deadTime,omitempty"`
	MetricWindow     *float64 `json:"metricWindow,omitempty"`
	TimeToCapacity   *float64 `json:"timeToCapacity,omitempty"`
	CapacityDeadline *float64 `json:"capacityDeadline,omitempty"`
	eval             *rules.GrowthEval
}

type latencyLaw struct {
	lawHead
	Metric                int      `json:"metric"` // index of the metric or trigger
	Trigger               string   `json:"trigger"`
	ThresholdKey          string   `json:"thresholdKey,omitempty"`
	Threshold             float64  `json:"threshold"`
	PodRate               *float64 `json:"podRate,omitempty"`
	DeadTime              float64  `json:"deadTime"`
	SamplingDelay         float64  `json:"samplingDelay"`
	Window                float64  `json:"window"`
	W                     float64  `json:"w"`
	Phi                   float64  `json:"phi"`
	StandingDelay         *float64 `json:"standingDelay,omitempty"`
	RequiredStandingDelay float64  `json:"requiredStandingDelay"`
	Rests                 *bool    `json:"rests,omitempty"`
	FixThreshold          *float64 `json:"fixThreshold,omitempty"`
	FixWindow             *float64 `json:"fixWindow,omitempty"` // longest window that rests at today's threshold
	LatencyTarget         *float64 `json:"latencyTarget,omitempty"`
	LatencyHeld           *bool    `json:"latencyHeld,omitempty"`
	WindowProof           float64  `json:"windowProofStandingDelay"`
	eval                  *rules.BacklogEval
	sim                   *simulate.Result
}

type retryLaw struct {
	lawHead
	Signal        string  `json:"signal"` // cpu or rate
	Amplification float64 `json:"amplification"`
	TrapTarget    float64 `json:"trapTarget"`
	Target        float64 `json:"target"`
	Protected     bool    `json:"protected"`
	Trapped       bool    `json:"trapped"`
	// FixTarget is the largest target below 1/A in the metric's unit: a
	// percent for CPU, the per-pod threshold for a rate.
	FixTarget *float64 `json:"fixTargetValue,omitempty"`
}

type ceilingLaw struct {
	lawHead
	Ceiling       float64  `json:"ceiling"`
	Defaulted     bool     `json:"ceilingDefaulted,omitempty"` // KEDA's default maxReplicaCount
	CeilingFloor  *float64 `json:"ceilingFloor,omitempty"`     // M* = A·λ/c
	CeilingTop    *float64 `json:"ceilingTop,omitempty"`       // 0.8·N_max
	Peak          *float64 `json:"scalabilityPeak,omitempty"`
	Amplification *float64 `json:"amplification,omitempty"`
	Demand        *float64 `json:"demand,omitempty"`
	PodRate       *float64 `json:"podRate,omitempty"`
	Trapped       bool     `json:"trapped"`
	BandEmpty     bool     `json:"bandEmpty"`
	OverPeak      bool     `json:"overPeak"`
	eval          *rules.CeilingEval
}

type boundLaw struct {
	lawHead
	AdmissionBound float64 `json:"admissionBound"`
	ClientTimeout  float64 `json:"clientTimeout"`
}

// auditSignal is one metric or trigger of an autoscaler.
type auditSignal struct {
	Type         string   `json:"type"`   // cpu, backlog, rate or other
	Metric       string   `json:"metric"` // HPA metric type or KEDA trigger type
	Utilization  *float64 `json:"utilization,omitempty"`
	ThresholdKey string   `json:"thresholdKey,omitempty"`
	Threshold    *float64 `json:"threshold,omitempty"`
	Defaulted    bool     `json:"thresholdDefaulted,omitempty"`
	Mode         string   `json:"mode,omitempty"`
}

type auditTarget struct {
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	Found bool   `json:"found"`
	File  string `json:"file,omitempty"`
	Line  int    `json:"line,omitempty"`
}

type auditFinding struct {
	Rule       string `json:"rule"`
	Severity   string `json:"severity"`
	File       string `json:"file"`
	Line       int    `json:"line"`
	Message    string `json:"message"`
	Suppressed string `json:"suppressed,omitempty"` // the justification, when suppressed
}

type auditInput struct {
	Value  float64 `json:"value"`
	Text   string  `json:"text"`
	Origin string  `json:"origin"`
}

// auditRow is one autoscaler: what every output format shows.
type auditRow struct {
	File          string                `json:"file"`
	Line          int                   `json:"line"`
	Object        *objectRef            `json:"object"`
	Target        auditTarget           `json:"scaleTarget"`
	PodRate       *float64              `json:"podRate,omitempty"`
	Signals       []auditSignal         `json:"signals"`
	Verdict       verdict               `json:"verdict"`
	MarginPercent *float64              `json:"marginPercent,omitempty"`
	Growth        *growthLaw            `json:"growth,omitempty"`
	Latency       []*latencyLaw         `json:"latency,omitempty"`
	Retry         *retryLaw             `json:"retry,omitempty"`
	Ceiling       *ceilingLaw           `json:"ceiling,omitempty"`
	Bound         *boundLaw             `json:"bound,omitempty"`
	Unknown       []string              `json:"unknown,omitempty"` // laws that apply but could not be evaluated
	Missing       []missingLaw          `json:"missing,omitempty"`
	Findings      []auditFinding        `json:"findings,omitempty"`
	Inputs        map[string]auditInput `json:"inputs,omitempty"`

	eval *rules.Evaluation
	// laws is every law's verdict, including unknown and n/a.
	laws map[string]verdict
}

// law returns a law's head, or nil when it was not evaluated.
func (r *auditRow) law(name string) *lawHead {
	switch name {
	case lawGrowth:
		if r.Growth != nil {
			return &r.Growth.lawHead
		}
	case lawLatency:
		if w := r.worstLatency(); w != nil {
			return &w.lawHead
		}
	case lawRetry:
		if r.Retry != nil {
			return &r.Retry.lawHead
		}
	case lawCeiling:
		if r.Ceiling != nil {
			return &r.Ceiling.lawHead
		}
	case lawBound:
		if r.Bound != nil {
			return &r.Bound.lawHead
		}
	}
	return nil
}

// worstLatency is the backlog metric with the worst verdict and margin.
func (r *auditRow) worstLatency() *latencyLaw {
	var w *latencyLaw
	for _, l := range r.Latency {
		if w == nil || l.Verdict < w.Verdict || (l.Verdict == w.Verdict && less(l.margin(), w.margin())) {
			w = l
		}
	}
	return w
}

// less orders margins ascending with NaN (no margin) last.
func less(a, b float64) bool {
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
func (r *auditRow) Rules() []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, law := range lawOrder {
		if h := r.law(law); h != nil && (h.Verdict == vFail || h.Verdict == vWarn || h.Verdict == vAccepted) {
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

// audit is the result of one audit run.
type audit struct {
	rows   []*auditRow
	files  int
	inputs []string // the paths as given
	rep    *report
}

// counts returns how many rows have each verdict.
func (a *audit) counts() [len(verdictNames)]int {
	var c [len(verdictNames)]int
	for _, r := range a.rows {
		c[r.Verdict]++
	}
	return c
}

func (a *audit) summaryLine() string {
	c := a.counts()
	var parts []string
	for v, n := range c {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, verdict(v)))
		}
	}
	if len(parts) == 0 {
		parts = []string{"nothing to audit"}
	}
	return fmt.Sprintf("%s in %s: %s", plural(len(a.rows), "autoscaler"), plural(a.files, "file"), strings.Join(parts, ", "))
}

type auditOptions struct {
	format     string
	output     string
	configPath string
	namespace  string
	failOn     string
	color      string
	simulate   bool
	quiet      bool
}

var auditFormats = map[string]func(a *audit, w io.Writer, color bool) error{
	"table":    writeAuditTable,
	"markdown": writeAuditMarkdown,
	"json":     writeAuditJSON,
	"csv":      writeAuditCSV,
	"html":     writeAuditHTML,
}

const auditUsage = `Usage: scalelint audit [flags] [PATH...|-]

Tabulate every autoscaler's five numbers (LAWS.md; the seed's "What to
Compute"): the growth factor g and the rounds and time to capacity; the
standing delay against the floor the loop needs, with the margin; the
target against 1/A; the ceiling against its band; the admission bound
against the client timeout; and the inputs that are missing. The inputs
are read and linted as 'scalelint check' reads them (same config, rules
and suppressions).

Rows are sorted worst first: by verdict (fail, warn, accepted = suppressed
or rule off, pass, unknown = no law could be evaluated, n/a = no law
applies), then by the smallest margin of the row's laws (most negative
first; a law's margin is its distance from its boundary relative to the
boundary, negative when it fails),
then by the number of laws that could not be evaluated, then by file and line.

Formats: table (fits 100 columns), markdown (a pull-request comment),
json, csv, html (one self-contained page with pictures).
Exit status: 0, or 1 with --fail-on and a law at or above it; 2 usage,
config or I/O error.

Flags:`

func runAudit(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o auditOptions
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.format, "format", "table", "output format: table, markdown, json, csv or html")
	fs.StringVar(&o.output, "output", "", "write to this file (atomically) instead of stdout")
	fs.StringVar(&o.configPath, "config", "", "configuration file (default: .scalelint.yaml found from the working directory up to the repository root)")
	fs.StringVar(&o.namespace, "namespace", "", "namespace of objects that set none (default: the config's, else \"default\")")
	fs.StringVar(&o.failOn, "fail-on", "none", "exit 1 when a law's verdict is at or above this: fail (error), warn (warning) or none")
	fs.StringVar(&o.color, "color", "auto", "colour the table: auto (on a terminal, unless NO_COLOR is set), always or never")
	fs.BoolVar(&o.simulate, "simulate", true, "html: embed the simulated deployed loop of each backlog consumer whose demand is annotated")
	fs.BoolVar(&o.quiet, "quiet", false, "no summary on stderr")
	paths, code, ok := parseCommand(fs, auditUsage, args, stderr)
	if !ok {
		return code
	}
	if o.format == "text" {
		o.format = "table"
	}
	enc, ok := auditFormats[o.format]
	if !ok {
		fmt.Fprintf(stderr, "scalelint: unknown --format %q (table, markdown, json, csv, html)\n", o.format)
		return exitError
	}
	var failOn verdict
	switch strings.ToLower(o.failOn) {
	case "none", "never", "":
		failOn = -1
	case "fail", "error":
		failOn = vFail
	case "warn", "warning":
		failOn = vWarn
	default:
		fmt.Fprintf(stderr, "scalelint: --fail-on must be fail, warn or none, not %q\n", o.failOn)
		return exitError
	}
	cfg, err := loadConfig(o.configPath, o.namespace)
	if err != nil {
		fmt.Fprintf(stderr, "scalelint: %v\n", err)
		return exitError
	}
	in := loadInputs(paths, stdin, cfg, nil)
	ws := in.ws
	if in.report(stderr) {
		return exitError
	}
	a := runAuditOn(ws, cfg, in.paths, o.format == "html" && o.simulate)

	if o.output == "" {
		color := o.format == "table" && useColor(o.color, stdout)
		if err := enc(a, stdout, color); err != nil {
			fmt.Fprintf(stderr, "scalelint: %v\n", err)
			return exitError
		}
	} else {
		var buf bytes.Buffer
		if err := enc(a, &buf, false); err != nil {
			fmt.Fprintf(stderr, "scalelint: %v\n", err)
			return exitError
		}
		_, statErr := os.Stat(o.output)
		if err := writeFileAtomic(o.output, buf.Bytes()); err != nil {
			fmt.Fprintf(stderr, "scalelint: %v\n", err)
			return exitError
		}
		if os.IsNotExist(statErr) {
			// A new report is readable like any file the user creates
			// (the temporary file it was renamed from is private).
			os.Chmod(o.output, 0o644)
		}
	}
	if !o.quiet && (o.output != "" || o.format != "table") {
		fmt.Fprintln(stderr, a.summaryLine())
	}
	if in.changed(stderr) {
		return exitError
	}
	if failOn >= 0 {
		for _, r := range a.rows {
			for _, v := range r.laws {
				if v <= failOn {
					return exitFindings
				}
			}
		}
	}
	return exitOK
}

// runAuditOn lints the workspace as check does and builds one row per
// autoscaler, sorted worst first. sim runs the deployed-loop simulation
// of the backlog consumers whose demand is known (for the HTML report).
func runAuditOn(ws *workspace.Workspace, cfg *analyzer.Config, inputs []string, sim bool) *audit {
	shared := analyzer.NewShared()
	diags := analyzer.RunWith(context.Background(), ws, rules.All(), cfg, shared)
	rep := newReport(ws, diags, cfg, shared)
	evals := rules.Evaluations(shared, cfg.Defaults)
	a := &audit{rep: rep, files: len(ws.Files), inputs: inputs}

	byObject := map[*manifest.Object][]analyzer.Diagnostic{}
	for _, d := range diags {
		if d.Object != nil {
			byObject[d.Object] = append(byObject[d.Object], d)
		}
	}
	for _, as := range ws.Autoscalers() {
		e := evals.Evaluate(ws, as)
		a.rows = append(a.rows, buildRow(rep, cfg, e, byObject))
	}
	sortRows(a.rows)
	if sim {
		simulateRows(a.rows)
	}
	return a
}

// sortRows orders rows worst first (see the comment at the top).
func sortRows(rows []*auditRow) {
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Verdict != b.Verdict {
			return a.Verdict < b.Verdict
		}
		ma, mb := rowMargin(a), rowMargin(b)
		if ma != mb && !(math.IsNaN(ma) && math.IsNaN(mb)) {
			return less(ma, mb)
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

func rowMargin(r *auditRow) float64 {
	if r.MarginPercent == nil {
		return math.NaN()
	}
	return *r.MarginPercent
}

func ptr[T any](v T) *T { return &v }

// above is the margin of a value that must stay above a boundary,
// (v − boundary)/boundary in percent; below of one that must stay under
// it, (boundary − v)/boundary. Both are negative when the law fails, and
// nil when the boundary is not positive or either is not finite.
func above(v, boundary float64) *float64 {
	if !(boundary > 0) || math.IsInf(v, 0) || math.IsNaN(v) || math.IsInf(boundary, 0) {
		return nil
	}
	return ptr(round6((v - boundary) / boundary * 100))
}

func below(v, boundary float64) *float64 {
	m := above(v, boundary)
	if m != nil {
		*m = round6(-*m)
	}
	return m
}

// minMargin keeps the smaller of two margins.
func minMargin(a, b *float64) *float64 {
	if a == nil || (b != nil && *b < *a) {
		return b
	}
	return a
}

func finitePtr(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return ptr(round6(v))
}

func buildRow(rep *report, cfg *analyzer.Config, e *rules.Evaluation, byObject map[*manifest.Object][]analyzer.Diagnostic) *auditRow {
	as := e.Autoscaler
	o := as.Object
	l := rep.locate(o.NameAt.Pos, o.NameAt.End)
	r := &auditRow{File: l.File, Line: l.Line, Object: rep.objectRef(o), eval: e, laws: map[string]verdict{}}
	r.Target = auditTarget{Kind: as.Target.Kind, Name: as.Target.Name}
	if as.Kind == scaling.ScaledJob {
		r.Target = auditTarget{Kind: "Job", Name: "(per trigger)"}
	}
	if t := e.Target; t != nil && t.Object != nil {
		tl := rep.locate(t.Object.NameAt.Pos, t.Object.NameAt.End)
		r.Target.Found, r.Target.File, r.Target.Line = true, tl.File, tl.Line
	}
	if c, ok := e.Inputs["pod-rate"]; ok {
		r.PodRate = ptr(round6(c.Value))
	}
	for _, m := range as.Metrics {
		s := auditSignal{Type: m.Signal.String(), Metric: m.Type, Mode: m.Mode}
		if m.Resource != "" && (m.Type == "Resource" || m.Type == "ContainerResource") {
			s.Metric = m.Type + " " + m.Resource
		}
		if m.Signal == scaling.SignalCPU && m.Utilization.V > 0 {
			s.Utilization = ptr(m.Utilization.V)
		}
		if m.Signal == scaling.SignalBacklog || m.Signal == scaling.SignalRate {
			s.ThresholdKey, s.Threshold, s.Defaulted = m.ThresholdKey, ptr(m.Threshold.V), !m.Threshold.Set
		}
		r.Signals = append(r.Signals, s)
	}
	r.Inputs = map[string]auditInput{}
	for name, in := range e.Inputs {
		if in.Origin == scaling.FromBuiltin {
			continue
		}
		r.Inputs[name] = auditInput{Value: round6(in.Value), Text: in.Text, Origin: in.Origin.String()}
	}

	// Findings check reports on the autoscaler and on its target.
	var diags []analyzer.Diagnostic
	diags = append(diags, byObject[o]...)
	if e.Target != nil && e.Target.Object != nil {
		diags = append(diags, byObject[e.Target.Object]...)
	}
	for _, d := range diags {
		dl := rep.locate(d.Pos, d.End)
		f := auditFinding{Rule: d.Rule, Severity: d.Severity.String(), File: dl.File, Line: dl.Line, Message: d.Message}
		if d.Suppression != nil {
			f.Suppressed = d.Suppression.Justification
			if f.Suppressed == "" {
				f.Suppressed = d.Suppression.Kind
			}
		}
		r.Findings = append(r.Findings, f)
	}
	sev := func(rule string, fallback verdict) (verdict, string) {
		return lawSeverity(cfg, o, byObject[o], rule, fallback)
	}

	if g := e.Growth; g != nil {
		gl := &growthLaw{G: round6(g.G), Tolerance: g.Tolerance, Target: float64(g.TargetPercent) / 100, Limit: round6(g.Limit),
			Request: round6(g.Request), Trapped: g.Trapped, eval: g}
		gl.Rule, gl.Verdict = "tolerance-trap", vPass
		gl.MarginPercent = above(g.G, 1+g.Tolerance)
		if g.Trapped {
			gl.Verdict, gl.Note = sev("tolerance-trap", vFail)
			if g.FixTarget >= 1 {
				gl.FixTarget = ptr(g.FixTarget)
			}
		}
		if g.HasOverload {
			gl.Overload = ptr(g.Overload)
			if !g.Trapped {
				gl.Rounds = ptr(g.Rounds)
			}
			if g.HasDeadTime {
				gl.DeadTime, gl.MetricWindow = ptr(g.DeadTime), ptr(g.MetricWindow)
				gl.TimeToCapacity = finitePtr(g.TimeToCapacity)
				if g.HasDeadline {
					gl.CapacityDeadline = ptr(g.Deadline)
					if !g.Trapped {
						gl.MarginPercent = minMargin(gl.MarginPercent, below(g.TimeToCapacity, g.Deadline))
						if g.TimeToCapacity > g.Deadline {
							gl.Rule = "scale-up-rounds"
							gl.Verdict, gl.Note = sev("scale-up-rounds", vWarn)
						}
					}
				}
			}
		}
		r.Growth = gl
	}
	for _, b := range e.Backlog {
		ll := &latencyLaw{Metric: b.Metric.Index, Trigger: b.Metric.Type, ThresholdKey: b.Metric.ThresholdKey, Threshold: round6(b.Threshold),
			DeadTime: b.DeadTime, SamplingDelay: b.SamplingDelay, Window: b.Window, W: round6(b.W), Phi: round6(b.Phi),
			RequiredStandingDelay: round6(b.Required), WindowProof: round6(b.WindowProof), eval: b}
		ll.Rule, ll.Verdict = "latency-floor", vPass
		if b.HasPodRate {
			ll.PodRate = ptr(round6(b.PodRate))
		}
		if b.HasPodRate && b.Threshold > 0 {
			ll.StandingDelay = ptr(round6(b.StandingDelay))
			ll.Rests = ptr(b.Rests)
			ll.MarginPercent = above(b.StandingDelay, b.Required)
			ll.FixThreshold = finitePtr(b.FixThreshold(cfg.Option(rules.LatencyFloor, o.File().Path, "margin")))
			if b.FixWindowOK && !b.FixWindowUnlimited {
				ll.FixWindow = ptr(round6(math.Floor(b.FixWindow)))
			}
			if !b.Rests {
				ll.Verdict, ll.Note = sev("latency-floor", vFail)
			}
		} else {
			ll.Verdict, ll.Note = vUnknown, "needs scalelint.dev/pod-rate"
		}
		if b.HasLatencyTarget {
			ll.LatencyTarget, ll.LatencyHeld = ptr(b.LatencyTarget), ptr(b.LatencyHeld)
			ll.MarginPercent = minMargin(ll.MarginPercent, above(b.LatencyTarget, b.Required))
			if !b.LatencyHeld {
				v, note := sev("latency-target", vFail)
				if v < ll.Verdict || ll.Verdict == vUnknown {
					ll.Rule, ll.Verdict, ll.Note = "latency-target", v, note
				}
			} else if ll.Verdict == vUnknown {
				ll.Rule, ll.Verdict, ll.Note = "latency-target", vPass, ""
			}
		}
		r.Latency = append(r.Latency, ll)
	}
	if rt := e.Retry; rt != nil {
		rl := &retryLaw{Signal: rt.Signal.String(), Amplification: round6(rt.Amplification), TrapTarget: round6(rt.TrapTarget),
			Target: round6(rt.Target), Protected: rt.Protected, Trapped: rt.Trapped}
		rl.Rule, rl.Verdict = "retry-trap", vPass
		if rt.FixTarget > 0 {
			rl.FixTarget = ptr(round6(rt.FixTarget))
		}
		if rt.Protected {
			rl.Note = "an admission bound shorter than the client timeout removes the debt"
		} else {
			rl.MarginPercent = below(rt.Target, rt.TrapTarget)
		}
		if rt.Trapped {
			fallback := vFail
			if rt.Signal == scaling.SignalCPU {
				fallback = vWarn
			}
			rl.Verdict, rl.Note = sev("retry-trap", fallback)
		}
		r.Retry = rl
	}
	if c := e.Ceiling; c != nil {
		cl := &ceilingLaw{Ceiling: c.Ceiling, Defaulted: !as.Max.Set && as.Kind != scaling.HPA, Trapped: c.Trapped,
			BandEmpty: c.BandEmpty, OverPeak: c.OverPeak, eval: c}
		cl.Rule, cl.Verdict = "ceiling-trap", vPass
		if c.HasFloor {
			cl.CeilingFloor, cl.Amplification = ptr(round6(c.Floor)), ptr(round6(c.Amplification))
			cl.Demand, cl.PodRate = ptr(round6(c.Demand)), ptr(round6(c.PodRate))
			cl.MarginPercent = above(c.Ceiling, c.Floor)
		}
		if c.HasTop {
			cl.CeilingTop = ptr(round6(c.Top))
			cl.Peak = ptr(round6(c.Top / 0.8))
			if in, ok := e.Inputs["scalability-peak"]; ok {
				cl.Peak = ptr(round6(in.Value))
			}
			cl.MarginPercent = minMargin(cl.MarginPercent, below(c.Ceiling, c.Top))
		}
		// The worst of the three findings decides.
		type cand struct {
			fails    bool
			rule     string
			fallback verdict
		}
		for _, k := range []cand{
			{c.HasFloor && c.Trapped, "ceiling-trap", vFail},
			{c.HasFloor && c.HasTop && c.BandEmpty, "empty-ceiling-band", vFail},
			{c.HasTop && c.OverPeak, "ceiling-over-peak", vWarn},
		} {
			if !k.fails {
				continue
			}
			v, note := sev(k.rule, k.fallback)
			if cl.Verdict == vPass || v < cl.Verdict {
				cl.Rule, cl.Verdict, cl.Note = k.rule, v, note
			}
		}
		if cl.Verdict == vPass && !c.HasFloor {
			cl.Rule = "ceiling-over-peak"
		}
		r.Ceiling = cl
	}
	if b := e.Bound; b != nil {
		bl := &boundLaw{AdmissionBound: b.Bound, ClientTimeout: b.Timeout}
		bl.Rule, bl.Verdict = "bound-exceeds-timeout", vPass
		bl.MarginPercent = below(b.Bound, b.Timeout)
		if !b.Shorter {
			bl.Verdict, bl.Note = sev("bound-exceeds-timeout", vFail)
		}
		r.Bound = bl
	}

	// Missing inputs and the laws they leave unknown.
	unknown := map[string]bool{}
	for _, x := range e.Missing {
		ml := missingLaw{Law: x.Law, Why: x.Why}
		for _, n := range x.Needs {
			ml.Needs = append(ml.Needs, scaling.Prefix+n)
		}
		r.Missing = append(r.Missing, ml)
		if law := lawOf(x.Law); law != "" {
			unknown[law] = true
		}
	}
	for _, law := range lawOrder {
		if h := r.law(law); h != nil {
			r.laws[law] = h.Verdict
			continue
		}
		if unknown[law] {
			r.laws[law] = vUnknown
			r.Unknown = append(r.Unknown, law)
		} else {
			r.laws[law] = vNA
		}
	}
	// A law that holds but whose other half is unknown (rounds without an
	// overload, a ceiling without its floor) still counts as evaluated.
	r.Verdict = vNA
	anyUnknown := false
	for _, law := range lawOrder {
		v := r.laws[law]
		if v == vUnknown {
			anyUnknown = true
			continue
		}
		if v < r.Verdict {
			r.Verdict = v
		}
		if h := r.law(law); h != nil && h.MarginPercent != nil {
			r.MarginPercent = minMargin(r.MarginPercent, ptr(*h.MarginPercent))
		}
	}
	if r.Verdict == vNA && anyUnknown {
		r.Verdict = vUnknown
	}
	return r
}

// lawSeverity is the verdict of a failing law as check reports it: the
// severity of the rule's unsuppressed finding on the object (error: fail,
// warning: warn, info: pass); accepted when the finding is suppressed or
// the rule is off for the file; fallback when check reported nothing.
func lawSeverity(cfg *analyzer.Config, o *manifest.Object, diags []analyzer.Diagnostic, rule string, fallback verdict) (verdict, string) {
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
			return vFail, ""
		case analyzer.Warning:
			return vWarn, ""
		default:
			return vPass, rule + " is configured as info"
		}
	}
	if suppressed != "" {
		return vAccepted, "suppressed: " + suppressed
	}
	if a, ok := rules.ByName(rule); ok {
		if _, _, on := cfg.RuleSetting(a, o.File().Path); !on {
			return vAccepted, rule + " is off in the configuration"
		}
	}
	return fallback, ""
}
