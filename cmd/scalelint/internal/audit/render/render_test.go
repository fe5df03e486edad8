package render

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit/audittest"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/load"
	"github.com/scalelint/scalelint/rules/laws"
)

// wellFormed fails unless s parses as XML.
func wellFormed(t *testing.T, what, s string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("%s: not well-formed XML: %v\n%s", what, err, s)
		}
	}
}

func mustContain(t *testing.T, what, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s does not show %q", what, w)
		}
	}
}

// The pictures show the numbers they are drawn from.
func TestAuditSVGNumbers(t *testing.T) {
	a := audittest.Fixture(t, false)

	orders := audittest.RowNamed(t, a, "orders-consumer")
	if len(orders.Latency) != 1 {
		t.Fatalf("orders-consumer: %d backlog laws", len(orders.Latency))
	}
	l := orders.Latency[0]
	phi := phiSVG(l)
	wellFormed(t, "Φ curve", phi)
	// τ = 90 s, W = 300 s, s = 10 s: τ_eff = 100 s, w = 3.1; the floor is
	// the one check reports (89.5 s), the fix its suggested threshold.
	mustContain(t, "the hunting consumer's Φ curve", phi,
		"needs "+asecs(l.RequiredStandingDelay), "needs 89.5s", "τ_eff = 100s", "w = 3.1", "Φ(w) = 0.895",
		"has D = T/c = 1s (-99%)", "fix: lagThreshold 985", "e: rests at any window")
	if strings.Contains(phi, "or window") {
		t.Error("no window rests at a 1 s standing delay, but the curve offers one")
	}

	// A consumer that hunts at 60 s (the kit of "The Delay a Window
	// Demands", Yuriy Polyulya: τ = 90 s, default window) rests at its threshold with a shorter window: the curve shows
	// both fixes.
	kit := audittest.Of(t, false, writeRepo(t, map[string]string{"kit.yaml": `apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: kit
  annotations: {scalelint.dev/dead-time: "90s", scalelint.dev/pod-rate: "10"}
spec:
  scaleTargetRef: {name: kit}
  triggers:
  - type: kafka
    metadata: {topic: t, lagThreshold: "600"}
`}))
	kl := audittest.RowNamed(t, kit, "kit").Latency[0]
	want, ok, _ := laws.LongestRestingWindow(60, 90, 10)
	if !ok || kl.FixWindow == nil || float64(*kl.FixWindow) != math.Floor(want) {
		t.Fatalf("kit: fix window %v, want %v", kl.FixWindow, want)
	}
	phi = phiSVG(kl)
	wellFormed(t, "Φ curve", phi)
	mustContain(t, "the kit's Φ curve", phi, "has D = T/c = 60s", "fix: lagThreshold "+anum(*kl.FixThreshold),
		"or window "+asecs(math.Floor(want)))

	invoice := audittest.RowNamed(t, a, "invoice-consumer")
	phi = phiSVG(invoice.Latency[0])
	wellFormed(t, "Φ curve", phi)
	mustContain(t, "the resting consumer's Φ curve", phi, "needs 89.5s", "has D = T/c = 100s (+12%)", "promise 120s")
	if strings.Contains(phi, "fix:") {
		t.Error("a resting consumer needs no fix")
	}

	ledger := audittest.RowNamed(t, a, "ledger-api")
	band := ceilingSVG(ledger.Ceiling)
	wellFormed(t, "ceiling band", band)
	// The worked example of an empty band (rules/laws/README.md §4.4):
	// A = 3, λ = 50, c = 10: M* = 15 above 0.8 × 18 = 14.4.
	mustContain(t, "the empty band", band, "M* = A·λ/c = 3·50/10 = 15", "0.8·N_max = 14.4", "N_max = 18",
		"maxReplicas 16", "band (15, 14.4] is empty")

	catalog := audittest.RowNamed(t, a, "catalog-api")
	band = ceilingSVG(catalog.Ceiling)
	mustContain(t, "the healthy band", band, "M* = A·λ/c = 2·100/20 = 10", "0.8·N_max = 40", "maxReplicas 30",
		"ceiling 30 inside the band (10, 40]", "safe band")
	stairs := stairsSVG(catalog.Growth)
	wellFormed(t, "staircase", stairs)
	mustContain(t, "the healthy staircase", stairs, "a 10× overload at g = 2.5", "2 rounds × (45s + 30s) = 150s",
		"capacity k·u*·r/ℓ = 4×", "deadline 300s")

	store := audittest.RowNamed(t, a, "storefront")
	stairs = stairsSVG(store.Growth)
	wellFormed(t, "staircase", stairs)
	// "The Barrier the Scaler Cannot Hold" (Yuriy Polyulya): "fifteen
	// rounds for a thirtyfold overload at the API's default target"; 15 ×
	// (90 s + 30 s) = 1,800 s (rules/laws/README.md §1).
	mustContain(t, "the storefront's staircase", stairs, "a 30× overload at g = 1.25", "15 rounds × (90s + 30s) = 1800s",
		">15</text>", ">14</text>", "capacity k·u*·r/ℓ = 24×", "overload k = 30×", "deadline 600s")
	if n := strings.Count(stairs, " L"); n < 2*15 {
		t.Errorf("the staircase has %d segments, want a step per round", n)
	}

	checkout := audittest.RowNamed(t, a, "checkout-api")
	stairs = stairsSVG(checkout.Growth)
	mustContain(t, "the trapped staircase", stairs, "g = 1.053 ≤ 1 + tolerance = 1.1", "never")
}

// writeRepo writes files into a temporary directory and returns it.
func writeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Every line of the table fits 100 columns, on the fixture and on the real
// corpus.
func TestAuditTableWidth(t *testing.T) {
	for _, dir := range []string{filepath.Join(audittest.RepoRoot(t), "testdata", "audit", "repo"), filepath.Join(audittest.RepoRoot(t), "testdata", "realworld", "real")} {
		var b bytes.Buffer
		if err := writeTable(&b, audittest.Of(t, false, dir), Options{}); err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(b.String(), "\n") {
			if n := utf8.RuneCountInString(line); n > auditTableWidth {
				t.Errorf("%s: line %d is %d columns: %q", filepath.Base(dir), i+1, n, line)
			}
		}
	}
}

// The HTML report is one self-contained file: no network, and its one
// script allowed by hash.
func TestAuditHTMLSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := writeHTML(&b, audittest.Fixture(t, true), Options{}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	sum := sha256.Sum256([]byte(auditJS))
	mustContain(t, "the page", html.UnescapeString(page), `script-src 'sha256-`+base64.StdEncoding.EncodeToString(sum[:])+`'`, "default-src 'none'",
		"<script>"+auditJS+"</script>")
	if n := strings.Count(page, "<script"); n != 1 {
		t.Errorf("%d scripts, want the page's own", n)
	}
	for _, rx := range []string{`(?i)<link\b`, `(?i)\bsrc\s*=`, `(?i)@import`, `(?i)url\(`, `(?i)href="(https?:)?//`, `(?i)<iframe`} {
		if m := regexp.MustCompile(rx).FindString(page); m != "" {
			t.Errorf("the page loads something: %q", m)
		}
	}
	// The simulated run of the hunting consumer is embedded; the resting
	// one's too (both have an annotated demand).
	if n := strings.Count(page, `class="pic sim"`); n != 2 {
		t.Errorf("%d simulations embedded, want 2", n)
	}
	// Every inline SVG is well-formed.
	for _, svg := range regexp.MustCompile(`(?s)<svg .*?</svg>`).FindAllString(page, -1) {
		wellFormed(t, "an inline SVG", svg)
	}
}

// Text from manifests is escaped in every format.
func TestAuditEscapesManifestText(t *testing.T) {
	evil := `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: "<img src=x onerror=alert(1)>"
  namespace: "=cmd|'/c calc'!A1"
  annotations:
    scalelint.dev/retries: "2"
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: "</script><script>alert(2)</script>"}
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`
	a := audittest.Of(t, false, writeRepo(t, map[string]string{"evil.yaml": evil}))
	var h, md, c bytes.Buffer
	if err := writeHTML(&h, a, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<img src=x", "<script>alert", "</script><script>"} {
		if strings.Contains(h.String(), bad) {
			t.Errorf("the HTML holds %q unescaped", bad)
		}
	}
	mustContain(t, "the HTML", h.String(), "&lt;img src=x onerror=alert(1)&gt;")
	writeMarkdown(&md, a, Options{})
	if strings.Contains(md.String(), "<img") || strings.Contains(md.String(), "<script") {
		t.Errorf("the markdown holds HTML:\n%s", md.String())
	}
	if strings.Contains(md.String(), "=cmd|") {
		t.Errorf("the markdown holds an unescaped pipe:\n%s", md.String())
	}
	writeCSV(&c, a, Options{})
	recs, err := csv.NewReader(&c).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	if ns := recs[1][col["namespace"]]; ns != `'=cmd|'/c calc'!A1` {
		t.Errorf("a formula namespace is not neutralised in CSV: %q", ns)
	}
}

// BenchmarkAudit compares an audit with the lint it is built on, on the
// real corpus or on the tree SCALELINT_BENCH_CORPUS names (such as
// gen_corpus.py's 10,000 services): loading is shared, so the difference
// is the audit's own cost.
func BenchmarkAudit(b *testing.B) {
	dir := os.Getenv("SCALELINT_BENCH_CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "..", "testdata", "realworld", "real")
	}
	cfg := analyzer.DefaultConfig()
	load := func() *auditWorkspace {
		in, _ := load.Read([]string{dir}, strings.NewReader(""), load.Options{Config: cfg})
		if in.Files == 0 {
			b.Fatalf("no files in %s: %v", dir, in.Errs)
		}
		return &auditWorkspace{in}
	}
	b.Run("check", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			w := load()
			b.StartTimer()
			w.in.Lint(context.Background(), nil)
		}
	})
	for _, format := range []string{"table", "json", "html"} {
		b.Run("audit-"+format, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				w := load()
				b.StartTimer()
				a := audit.Run(w.in, audit.Options{Simulate: format == "html"})
				Write(io.Discard, a, format, Options{})
			}
		})
	}
}

type auditWorkspace struct{ in *load.Inputs }

// TestAuditJSONStreamMatchesEncoder: the audit's JSON, written a row at a
// time, is byte for byte what encoding/json (the independent reference)
// writes for the whole document, for the fixture repository and for an
// audit with no rows.
func TestAuditJSONStreamMatchesEncoder(t *testing.T) {
	for _, a := range []*audit.Audit{audittest.Fixture(t, false), {Files: 3}} {
		c := a.Counts()
		whole := jsonDoc{Version: 1, Summary: jsonSummary{Files: a.Files, Autoscalers: a.Autoscalers, Rows: len(a.Rows),
			Fail: c[audit.Fail], Warn: c[audit.Warn], Accepted: c[audit.Accepted], Pass: c[audit.Pass], Partial: c[audit.Partial], Unknown: c[audit.Unknown], NotApplicable: c[audit.NA]},
			Autoscalers: []jsonRow{}}
		for _, r := range a.Rows {
			whole.Autoscalers = append(whole.Autoscalers, jsonRow{Row: r, Rules: r.Rules()})
		}
		want := encoderJSON(t, whole)
		var got bytes.Buffer
		if err := writeJSON(&got, a, Options{}); err != nil {
			t.Fatal(err)
		}
		if got.String() != want {
			t.Errorf("%d rows: streamed JSON differs from encoding/json's:\n--- streamed\n%.3000s\n--- encoder\n%.3000s", len(a.Rows), got.String(), want)
		}
	}
}

// jsonDoc is the JSON output's whole document, the reference the
// streamed output is compared with.
type jsonDoc struct {
	Version     int         `json:"version"`
	Summary     jsonSummary `json:"summary"`
	Autoscalers []jsonRow   `json:"autoscalers"`
}

// encoderJSON is v as encoding/json writes it with a two-space indent and
// no HTML escaping: the reference the streaming writer must match.
func encoderJSON(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestAuditNeutralisesMentionsAndEscapes: a name holding "@org/team" does
// not mention the team in the Markdown comment, and one holding a
// terminal escape sequence, a carriage return or a bidirectional
// override reaches the terminal table escaped.
func TestAuditNeutralisesMentionsAndEscapes(t *testing.T) {
	src := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: \"x@org/team\\e[2J\\rfake\\u202e\"\n" +
		"spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: \"@someone\\e]8;;http://evil\\a\"}\n  maxReplicas: 10\n"
	a := audittest.Of(t, false, writeRepo(t, map[string]string{"m.yaml": src}))
	var md, tb bytes.Buffer
	writeMarkdown(&md, a, Options{})
	if regexp.MustCompile(`@[A-Za-z0-9]`).MatchString(md.String()) {
		t.Errorf("the markdown holds a live mention:\n%s", md.String())
	}
	mustContain(t, "the markdown", md.String(), "@\u200borg/team")
	if err := writeTable(&tb, a, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"\x1b", "\r", "\a", "\u202e"} {
		if strings.Contains(tb.String(), bad) {
			t.Errorf("the table holds %q raw:\n%q", bad, tb.String())
		}
	}
	mustContain(t, "the table", tb.String(), `\x1b`)
}

// TestGrowthFactorDigits: the audit writes g with four significant digits
// (format.Sig), more where they would round it onto or across 1 +
// tolerance (format.Apart), and a g below 0.001 whole.
func TestGrowthFactorDigits(t *testing.T) {
	for _, c := range []struct {
		g, tolerance float64
		want         string
	}{
		{100.0 / 95, 0.1, "1.053"}, // rules/laws/README.md §1.4
		{1.25, 0.1, "1.25"},
		{1.09999, 0.1, "1.09999"}, // Sig: "1.1", onto the bound
		{1.10004, 0.1, "1.10004"}, // Sig: "1.1", below a g that escapes
		{1.0000001, 0, "1.0000001"},
		{1.0 / 3000, 0.1, "0.0003333"},
		{1.1 + 5e-10, 0.1, "1.1"}, // equal to the laws (1e-9)
	} {
		if got := gnum(c.g, c.tolerance); got != c.want {
			t.Errorf("gnum(%v, %v) = %q, want %q", c.g, c.tolerance, got, c.want)
		}
	}
}
