//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/output"
)

// TestHostileInputs runs inputs built to break a YAML linter through the
// real binary (`check --format json .` in a directory holding only the
// input) and, for what the parser alone decides, through manifest.Parse.
// Each must end within hangLimit (a hang detector, not a performance
// assertion), exit 0 or 1 without crashing, stay under a peak memory
// derived from the input (rssBound), and either report a positioned
// diagnostic with the expected rule and a message naming the problem, or
// read the input correctly: the same findings as a plain twin (CRLF
// against LF, with a BOM against without). With -v it prints the table
// of input, rule, position, peak RSS and wall time.
//
// Regression cases of bugs these inputs found are marked "was:".
func TestHostileInputs(t *testing.T) {
	var table []string
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			data := c.data()
			dir := hostileDir(t, c.file, data)
			r := runBinary(t, dir, hangLimit, "check", "--format", "json", ".")
			rep := r.checkOutcome(t, 0, 1)
			bound := rssBound(t, data)
			if r.maxRSS > bound {
				t.Errorf("peak RSS %d KiB, over the bound of %d KiB for %d bytes in %d documents", r.maxRSS, bound, len(data), documents(data))
			}
			got := "(none)"
			switch {
			case c.twin != nil:
				twinDir := hostileDir(t, c.file, c.twin())
				tr := runBinary(t, twinDir, hangLimit, "check", "--format", "json", ".")
				twin := tr.checkOutcome(t, 0, 1)
				if a, b := findings(rep), findings(twin); a != b {
					t.Errorf("findings differ from the twin's:\n--- input\n%s--- twin\n%s", a, b)
				}
				if r.exit != tr.exit {
					t.Errorf("exit %d, the twin's %d", r.exit, tr.exit)
				}
				got = fmt.Sprintf("read as its twin (%d findings)", len(rep.Diagnostics))
			default:
				d, ok := c.want.find(rep)
				if !ok {
					t.Fatalf("no %s at %d:%d matching %q; findings:\n%s", c.want.rule, c.want.line, c.want.col, c.want.msg, findings(rep))
				}
				if d.File != c.file {
					t.Errorf("finding in %q, want %q", d.File, c.file)
				}
				got = fmt.Sprintf("%s %d:%d", d.Rule, d.Line, d.Column)
			}
			if len(rep.Diagnostics) > c.maxFindings && c.maxFindings >= 0 {
				t.Errorf("%d findings, want at most %d (a follow-on finding?):\n%s", len(rep.Diagnostics), c.maxFindings, findings(rep))
			}
			if c.parse {
				checkParse(t, c, data)
			}
			if c.audit {
				checkAudit(t, dir, bound)
			}
			row := fmt.Sprintf("%-26s %-44s exit %d  %7d KiB  %6.2fs", c.name, got, r.exit, r.maxRSS, r.wall.Seconds())
			t.Log(row)
			table = append(table, row)
		})
	}
	t.Logf("hostile inputs (peak RSS bound: the binary's own, %d KiB, + 32 MiB + 20 x size + 4 KiB x documents):\n%-26s %-44s %-7s  %11s  %7s\n%s",
		baseRSS(t), "input", "outcome", "exit", "peak RSS", "wall", strings.Join(table, "\n"))
}

// hangLimit bounds every run: past it the run is a hang.
const hangLimit = 10 * time.Second

// rssBound is the peak memory allowed for an input, in KiB: generous (a
// detector of blow-ups, not a performance assertion) and linear in what
// the input holds, over the binary's own footprint measured in the same
// run (baseRSS: it grows with the libraries linked, the Helm and
// kustomize ones among them, and with how much of the binary the kernel
// maps at once). Documents are counted apart because each costs a few KiB
// whatever its size, and there are at most 10,000 of them.
func rssBound(t *testing.T, data []byte) int64 {
	return baseRSS(t) + 32<<10 + 20*int64(len(data))/1024 + 4*int64(documents(data))
}

var (
	baseOnce sync.Once
	base     int64
)

// baseRSS is the peak RSS of `scalelint version`, in KiB: the smallest of
// three runs.
func baseRSS(t *testing.T) int64 {
	baseOnce.Do(func() {
		for i := 0; i < 3; i++ {
			r := runBinary(t, t.TempDir(), hangLimit, "version")
			if base == 0 || r.maxRSS < base {
				base = r.maxRSS
			}
		}
	})
	return base
}

func documents(data []byte) int {
	return bytes.Count(data, []byte("\n---")) + 1
}

// expect is a diagnostic a case must produce.
type expect struct {
	rule      string
	line, col int
	msg       string // a regular expression the message must match
}

func (e expect) find(rep jsonOut) (output.JSONDiagnostic, bool) {
	re := regexp.MustCompile(e.msg)
	for _, d := range rep.Diagnostics {
		if d.Rule == e.rule && d.Line == e.line && d.Column == e.col && re.MatchString(d.Message) {
			return d, true
		}
	}
	return output.JSONDiagnostic{}, false
}

type hostileCase struct {
	name string
	file string // the input's name in its directory
	data func() []byte
	// Either want, a positioned diagnostic, or twin, an input that must
	// be read with the same findings.
	want expect
	twin func() []byte
	// maxFindings bounds the findings (-1: no bound): an input refused or
	// broken in one place must not bring findings about what it hides.
	maxFindings int
	// parse runs manifest.Parse on the input too and expects want among
	// its problems (a rule the parser reports).
	parse bool
	// audit runs `audit --format json` and `audit --format html` on the
	// input too, with the same bounds (checkAudit).
	audit bool
}

// hostileHPA is a valid HPA whose only finding is that its target is not
// among the inputs (info, at 12:11), so every other finding is the input's.
const hostileHPA = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
  namespace: shop
  annotations:
    scalelint.dev/dead-time: "90s"
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Resource
    resource:
      name: cpu
      target: {type: Utilization, averageUtilization: 95}
`

// hostileKEDA is a ScaledObject whose latency floor the laws evaluate
// (an error at 13:45) from its two annotations.
const hostileKEDA = `apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: orders
  namespace: shop
  annotations:
    scalelint.dev/dead-time: "90s"
    scalelint.dev/pod-rate: "10"
spec:
  scaleTargetRef: {name: orders}
  triggers:
  - type: kafka
    metadata: {topic: orders, lagThreshold: "10"}
`

func kedaWith(old, new string) func() []byte {
	if !strings.Contains(hostileKEDA, old) {
		panic("hostileKEDA has no " + old)
	}
	return func() []byte { return []byte(strings.Replace(hostileKEDA, old, new, 1)) }
}

// kedaWith2 is kedaWith with two replacements.
func kedaWith2(old, new, old2, new2 string) func() []byte {
	first := kedaWith(old, new)
	if !strings.Contains(hostileKEDA, old2) {
		panic("hostileKEDA has no " + old2)
	}
	return func() []byte { return bytes.Replace(first(), []byte(old2), []byte(new2), 1) }
}

// unboundedRate is a rate target of 1e300 over a pod rate of 1e-9 under
// retries (A = 3): T/c overflows.
const unboundedRate = `apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: orders
  namespace: shop
  annotations:
    scalelint.dev/signal: rate
    scalelint.dev/pod-rate: "1e-9"
    scalelint.dev/retries: "2"
spec:
  scaleTargetRef: {name: orders}
  triggers:
  - type: prometheus
    metadata: {serverAddress: "http://p:9090", query: "sum(rate(x[1m]))", threshold: "1e300"}
`

// millionsOfRounds is a growth factor of 1 + 1e-7 (utilization
// 1,000,000,100% against a target of 1,000,000,000%, tolerance 0): a 10×
// overload needs ln(10/g)/ln(g) = 23,025,852 rounds.
const millionsOfRounds = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
  namespace: shop
  annotations:
    scalelint.dev/dead-time: "90s"
    scalelint.dev/overload: "10"
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  minReplicas: 2
  maxReplicas: 10
  behavior:
    scaleUp:
      tolerance: 0
  metrics:
  - type: Resource
    resource:
      name: cpu
      target: {type: Utilization, averageUtilization: 1000000000}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: x
        resources:
          requests: {cpu: "1m"}
          limits: {cpu: "10000001m"}
`

func hpaWith(old, new string) func() []byte {
	if !strings.Contains(hostileHPA, old) {
		panic("hostileHPA has no " + old)
	}
	return func() []byte { return []byte(strings.Replace(hostileHPA, old, new, 1)) }
}

// stallingQuantity is 300 digits and an exponent of 10^10, which wraps
// past int32 inside resource.ParseQuantity.
var stallingQuantity = "1" + strings.Repeat("0", 300) + "E000000010000000000"

func text(s string) func() []byte { return func() []byte { return []byte(s) } }

// aliasBomb is a "billion laughs": nine levels of nine aliases, 9^9
// strings once expanded, in about 800 bytes.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString(`a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	prev := "a"
	for _, c := range "bcdefghi" {
		refs := strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ",")
		fmt.Fprintf(&b, "%c: &%c [%s]\n", c, c, refs)
		prev = string(c)
	}
	return b.String()
}

// mergeBomb is the same with "<<" merge keys: each level merges the one
// below nine times, so a naive merge reads 9^11 mappings.
func mergeBomb() string {
	var b strings.Builder
	b.WriteString("m0: &m0 {k: v}\n")
	for i := 1; i <= 11; i++ {
		refs := strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*m%d,", i-1), 9), ",")
		fmt.Fprintf(&b, "m%d: &m%d {<<: [%s]}\n", i, i, refs)
	}
	return b.String()
}

func indent(s, by string) string {
	return by + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+by) + "\n"
}

func utf16Bytes(s string, bigEndian bool) []byte {
	out := []byte{0xFF, 0xFE}
	if bigEndian {
		out = []byte{0xFE, 0xFF}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

func hostileCases() []hostileCase {
	hpa := text(hostileHPA)
	deepBlock := func() []byte {
		var b strings.Builder
		for i := 0; i < 300; i++ {
			fmt.Fprintf(&b, "%sk%d:\n", strings.Repeat("  ", i), i)
		}
		b.WriteString(strings.Repeat("  ", 300) + "v\n")
		return []byte(b.String())
	}
	cases := []hostileCase{
		{name: "png", data: func() []byte {
			return append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0, 1, 2, 0xff}, 64)...)
		}, want: expect{"yaml-syntax", 3, 1, "NUL byte.*binary"}, parse: true},
		{name: "elf", data: func() []byte { return append([]byte("\x7fELF\x02\x01\x01\x00"), make([]byte, 120)...) },
			want: expect{"yaml-syntax", 1, 8, "NUL byte.*binary"}, parse: true},
		// was: "invalid leading UTF-8 octet" at 1:1.
		{name: "invalid-utf8", data: func() []byte {
			return bytes.Replace([]byte(hostileHPA), []byte("name: web\n  namespace"), []byte("name: w\xffb\n  namespace"), 1)
		},
			want: expect{"yaml-syntax", 4, 10, `invalid UTF-8: byte 0xFF`}, parse: true},
		{name: "nul-byte", data: hpaWith("minReplicas: 2", "minReplicas: 2\x00"),
			want: expect{"yaml-syntax", 13, 17, "NUL byte"}, parse: true},
		{name: "utf8-bom", data: func() []byte { return append([]byte("\xEF\xBB\xBF"), hostileHPA...) }, twin: hpa},
		{name: "utf16le-bom", data: func() []byte { return utf16Bytes(hostileHPA, false) },
			want: expect{"yaml-syntax", 1, 1, "UTF-16"}, parse: true},
		{name: "utf16be-bom", data: func() []byte { return utf16Bytes(hostileHPA, true) },
			want: expect{"yaml-syntax", 1, 1, "UTF-16"}, parse: true},
		{name: "crlf", data: text(strings.ReplaceAll(hostileHPA, "\n", "\r\n")), twin: hpa},
		{name: "lone-cr", data: text(strings.ReplaceAll(hostileHPA, "\n", "\r")), twin: hpa},
		{name: "tab-indentation", data: hpaWith("  minReplicas", "\tminReplicas"),
			want: expect{"yaml-syntax", 13, 1, "tab character"}, parse: true},
		{name: "duplicate-key", data: hpaWith("  maxReplicas: 10\n", "  maxReplicas: 10\n  maxReplicas: 20\n"),
			want: expect{"invalid-field", 15, 3, `duplicate key "maxReplicas" \(first at line 14\)`}, parse: true},
		// was: also "maxReplicas 0 must be at least 1" (replica-bounds).
		{name: "huge-integer", data: hpaWith("maxReplicas: 10", "maxReplicas: 99999999999999999999"),
			want: expect{"invalid-field", 14, 16, "99999999999999999999 does not fit"}, maxFindings: 2, parse: true},
		{name: "int32-overflow", data: hpaWith("minReplicas: 2", "minReplicas: 2147483648"),
			want: expect{"invalid-field", 13, 16, "2147483648 does not fit"}, maxFindings: 2, parse: true},
		{name: "nan", data: hpaWith("maxReplicas: 10", "maxReplicas: .nan"),
			want: expect{"invalid-field", 14, 16, `\.nan is not a number`}, parse: true},
		{name: "inf", data: hpaWith("averageUtilization: 95", "averageUtilization: .inf"),
			want: expect{"invalid-field", 19, 55, `\.inf is not a number`}, parse: true},
		{name: "negative-duration", data: hpaWith(`dead-time: "90s"`, `dead-time: "-5s"`),
			want: expect{"invalid-annotation", 7, 30, `"-5s" is negative`}},
		{name: "absurd-duration", data: hpaWith(`dead-time: "90s"`, `dead-time: "1e400s"`),
			want: expect{"invalid-annotation", 7, 30, `"1e400s" is not a duration`}},
		// was: exit 2, "json: unsupported value: NaN", and no report.
		{name: "huge-bare-duration", data: kedaWith(`dead-time: "90s"`, `dead-time: "1e308"`),
			want: expect{"invalid-annotation", 7, 30, `"1e308" is longer than 2562047h`}},
		// was: exit 2, "json: unsupported value: NaN", and no report.
		{name: "tiny-duration", data: kedaWith(`dead-time: "90s"`, `dead-time: "5e-324"`),
			want: expect{"invalid-annotation", 7, 30, `"5e-324" is shorter than a nanosecond`}},
		// was: exit 2, "json: unsupported value: NaN", and no report.
		{name: "huge-pod-rate", data: kedaWith(`pod-rate: "10"`, `pod-rate: "1e308"`),
			want: expect{"invalid-annotation", 8, 29, `"1e308" is too large \(at most 1e\+15\)`}},
		// Valid numbers whose arithmetic overflows. was: `audit --format
		// json` exit 2, "json: unsupported value: +Inf", and no report.
		// T/c = 1e300/1e-9 = +Inf: the standing delay and its margin.
		{name: "unbounded-standing-delay", data: kedaWith2(`lagThreshold: "10"`, `lagThreshold: "1e300"`, `pod-rate: "10"`, `pod-rate: "1e-9"`),
			want: expect{"unresolved-scale-target", 10, 26, "not among the inputs"}, audit: true},
		// T/c = 1e299 is finite, its margin over a floor of a few ns is not.
		{name: "overflowing-margin", data: kedaWith2(`lagThreshold: "10"`, `lagThreshold: "1e300"`, `dead-time: "90s"`, `dead-time: "1ns"`+"\n    scalelint.dev/sampling-delay: \"1ns\""),
			want: expect{"unresolved-scale-target", 11, 26, "not among the inputs"}, audit: true},
		// A rate target T/c = +Inf against 1/A = 1/3: the fact and the
		// margin are unbounded.
		// The threshold 1e300 is written so (was its 301 digits).
		{name: "unbounded-rate-target", data: text(unboundedRate), want: expect{"retry-trap", 14, 86, `rate target ∞% \(threshold 1e\+300 / pod rate 1e-9\)`}, audit: true},
		// was: the audit's staircase drew each of 23,025,852 rounds (g = 1 +
		// 1e-7: a tolerance of 0, a target of 1e9 %, a limit 10,000,001
		// times the request): 565 MB of HTML in 80 s.
		{name: "millions-of-rounds", data: text(millionsOfRounds),
			// g = 1.0000001 against a tolerance of 0 is written so (was "g = 1").
			want: expect{"scale-up-rounds", 23, 55, `a 10x overload needs 23025852 rounds at growth factor g = 1\.0000001`}, audit: true},
		// was: also "scaleTargetRef names no target" and "maxReplicas 0".
		{name: "billion-laughs", data: hpaWith("spec:\n", "x:\n"+indent(aliasBomb(), "  ")+"spec:\n"),
			want: expect{"input-limit", 15, 10, `alias expansion makes this object larger than 1000000 nodes`}, maxFindings: 1, parse: true},
		// Found by FuzzClassifyTrigger: was a hang in resource.ParseQuantity
		// (10 raised to an exponent wrapped past int32), in the rules for a
		// trigger threshold and in the typed decode for a quantity field.
		{name: "stalling-threshold", data: kedaWith(`lagThreshold: "10"`, `lagThreshold: "`+stallingQuantity+`"`),
			want: expect{"invalid-field", 13, 45, fmt.Sprintf("a number %d characters long: scalelint reads numbers of at most %d", len(stallingQuantity), manifest.MaxQuantityLen)}, maxFindings: 2, parse: true},
		{name: "stalling-short-target", data: hpaWith("target: {type: Utilization, averageUtilization: 95}", `target: {type: AverageValue, averageValue: "10000000000000000000E10000000000"}`),
			want: expect{"invalid-field", 19, 50, `exponent 10000000000 is past any float64`}, maxFindings: 2, parse: true},
		{name: "stalling-annotation", data: kedaWith(`pod-rate: "10"`, `pod-rate: "`+stallingQuantity+`"`),
			want: expect{"invalid-annotation", 8, 29, `is too large \(at most 1e\+15\)`}, maxFindings: 2},
		{name: "stalling-target", data: hpaWith("target: {type: Utilization, averageUtilization: 95}", `target: {type: AverageValue, averageValue: "`+stallingQuantity+`"}`),
			want: expect{"invalid-field", 19, 50, fmt.Sprintf("a number %d characters long", len(stallingQuantity))}, maxFindings: 2, parse: true},
		// was: a hang (9^11 merges).
		{name: "merge-key-bomb", data: hpaWith("spec:\n", "x:\n"+indent(mergeBomb(), "  ")+"spec:\n  <<: *m11\n"),
			want: expect{"invalid-field", 8, 1, `unknown field "x"`}, parse: true},
		// was: yaml-syntax "exceeded max depth of 10000" at 1:1.
		{name: "deep-flow", data: text("a: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n"),
			want: expect{"input-limit", 1, 260, "nests deeper than 256 levels"}, parse: true},
		{name: "deep-block", data: deepBlock,
			want: expect{"input-limit", 257, 513, "nests deeper than 256 levels"}, parse: true},
		// was: 691 MB peak RSS (a 32 KiB slab pair held per document).
		{name: "20000-documents", data: text(strings.Repeat("a: 1\n---\n", 19999) + "a: 1\n"),
			want: expect{"input-limit", 20000, 1, "20000 documents, over the limit of 10000"}, parse: true},
		{name: "over-10MiB", data: func() []byte {
			return append([]byte(hostileHPA), "# "+strings.Repeat("x", 10<<20)+"\n"...)
		}, want: expect{"input-limit", 1, 1, "over the size limit of 10485760 bytes"}, maxFindings: 1, parse: true},
		{name: "5MiB-scalar", data: hpaWith(`dead-time: "90s"`, `dead-time: "90s"`+"\n    example.com/blob: "+strings.Repeat("y", 5<<20)),
			twin: hpaWith(`dead-time: "90s"`, `dead-time: "90s"`+"\n    example.com/blob: z")},
		{name: "empty", data: text(""), twin: text("")},
		{name: "only-comments", data: text("# one\n# two\n"), twin: text("")},
		{name: "only-marker", data: text("---\n"), twin: text("")},
		{name: "scalar-document", data: text("just a string\n"), twin: text("")},
		{name: "sequence-document", data: text("- a\n- b: c\n"), twin: text("")},
		{name: "non-scalar-keys", data: hpaWith("spec:\n", "? [a, b]\n: c\nspec:\n"),
			want: expect{"invalid-field", 8, 3, "a mapping key must be a scalar, found a sequence"}, parse: true},
		{name: "anchors-and-aliases", data: func() []byte {
			s := strings.Replace(hostileHPA, "  name: web\n", "  name: &nm web\n", 1)
			return []byte(strings.Replace(s, "    name: web\n", "    name: *nm\n", 1))
		}, twin: hpa},
		{name: "merge-key", data: hpaWith("    apiVersion: apps/v1\n", "    <<: {apiVersion: apps/v1}\n"), twin: hpa},
		{name: "long-key-1000", data: hpaWith(`dead-time: "90s"`, `dead-time: "90s"`+"\n    example.com/"+strings.Repeat("k", 1000)+": v"),
			twin: hpaWith(`dead-time: "90s"`, `dead-time: "90s"`+"\n    example.com/k: v")},
		// Issue 15. was: the HPA after an empty document dropped, "0 autoscalers".
		{name: "empty-doc-then-hpa", data: text("---\n---\n" + hostileHPA), twin: text("#\n#\n" + hostileHPA)},
		// was: dropped too (cat a.yaml b.yaml, b.yaml starting with a BOM).
		{name: "bom-after-marker", data: text("---\n\ufeff" + hostileHPA), twin: text("---\n" + hostileHPA)},
		// was: the HPA after a "---" between lone CRs dropped.
		{name: "lone-cr-two-docs", data: text(strings.ReplaceAll("a: 1\n---\n"+hostileHPA, "\n", "\r")), twin: text("a: 1\n---\n" + hostileHPA)},
		{name: "bom-before-key", data: hpaWith("spec:\n", "\ufeffspec:\n"),
			want: expect{"yaml-syntax", 8, 1, `byte order mark \(U\+FEFF\) at the start of a line`}, parse: true},
		// was: 1.1 GB peak, 1.6 s, and 2.3 GB for six such files in a tree.
		{name: "flat-flow-10MiB", data: func() []byte {
			return []byte(hostileHPA + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  x: [" + strings.Repeat("1,", 5<<20-400) + "1]\n")
		}, want: expect{"input-limit", 26, 3, `more than 2000000 YAML nodes \(keys, values and items, counted before they are built\)`}, maxFindings: 2, parse: true},
		// was: "alias expansion" for a sequence without an alias. The count
		// passes 2,000,000 at line 1,999,991: 15 for the document and the
		// five lines of its head (fastyaml.NodeBound: 2 for the document,
		// 3 for "apiVersion: v1" with its mapping, 2, 2 for an empty value,
		// 3 with the nested mapping, 2 for "items:", 2 for the first entry
		// with its sequence), then one an entry.
		{name: "block-seq-2.6M", data: func() []byte {
			return []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\nitems:\n" + strings.Repeat("- 1\n", 2600000))
		}, want: expect{"input-limit", 1999991, 1, `more than 2000000 YAML nodes`}, maxFindings: 1, parse: true},
		// was: silent (the rules skipped a value they could not read).
		{name: "hex-integer", data: hpaWith("minReplicas: 2", "minReplicas: 0x28"),
			want: expect{"replica-bounds", 13, 16, "minReplicas 40 is above maxReplicas 10"}},
		{name: "null-integer", data: hpaWith("maxReplicas: 10", "maxReplicas: ~"),
			want: expect{"replica-bounds", 14, 16, "maxReplicas is null"}},
		// was: the object's JSON broken by a Go escape: no target, no metrics.
		{name: "control-char-key", data: hpaWith(`dead-time: "90s"`, `dead-time: "90s"`+"\n    \"x\\x01y\": z"),
			twin: hpaWith(`dead-time: "90s"`, `dead-time: "90s"`+"\n    xy: z")},
		// was: not an HPA.
		{name: "binary-kind", data: hpaWith("kind: HorizontalPodAutoscaler", "kind: !!binary SG9yaXpvbnRhbFBvZEF1dG9zY2FsZXI="), twin: hpa},
		// was: "UTF-16".
		{name: "utf32le-bom", data: func() []byte { return append([]byte{0xFF, 0xFE, 0, 0}, 'a', 0, 0, 0) },
			want: expect{"yaml-syntax", 1, 1, "UTF-32"}, parse: true},
		// was: "could not find expected ':'".
		{name: "long-key-1MiB", data: func() []byte { return []byte(hostileHPA + strings.Repeat("k", 1<<20) + ": v\n") },
			want: expect{"yaml-syntax", 20, 1, "key longer than 1024 characters"}, parse: true},
	}
	for i := range cases {
		if cases[i].file == "" {
			cases[i].file = "in.yaml"
		}
		if cases[i].maxFindings == 0 {
			cases[i].maxFindings = -1
		}
	}
	return cases
}

// TestHostileTree: six files of ten megabytes of flat flow sequence in
// one tree (2.3 GB peak before the node limit) stay within the peak
// memory one of them is allowed: the node count refuses each before a
// node exists, and four files at most are read at once.
func TestHostileTree(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	data := []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  x: [" + strings.Repeat("1,", 5<<20-400) + "1]\n")
	for i := 0; i < 6; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("flow%d.yaml", i)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := runBinary(t, dir, hangLimit, "check", "--format", "json", ".")
	rep := r.checkOutcome(t, 1)
	if len(rep.Diagnostics) != 6 {
		t.Errorf("%d findings, want one refusal a file:\n%s", len(rep.Diagnostics), findings(rep))
	}
	if bound := rssBound(t, data); r.maxRSS > bound {
		t.Errorf("peak RSS %d KiB, over the bound of one such file, %d KiB", r.maxRSS, bound)
	}
	t.Logf("six 10 MiB flat sequences: %d KiB peak, %.2fs", r.maxRSS, r.wall.Seconds())
}

// TestHostileReads: what is read besides the files named goes through the
// same limits: stdin from /dev/zero is read up to the size limit and
// refused (it grew past 2.6 GB); --config and --baseline naming a device
// or a FIFO are refused at once (850 MB for /dev/zero; a FIFO no one
// writes hung).
func TestHostileReads(t *testing.T) {
	dir := hostileDir(t, "in.yaml", []byte(hostileHPA))
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	defer zero.Close()
	r := runBinaryWith(t, dir, zero, hangLimit, "check", "--format", "json", "-")
	rep := r.checkOutcome(t, 1)
	if d, ok := (expect{"input-limit", 1, 1, "over the size limit of 10485760 bytes"}).find(rep); !ok || d.File != "<stdin>" {
		t.Errorf("stdin from /dev/zero: %s", findings(rep))
	}
	if bound := rssBound(t, make([]byte, 10<<20)); r.maxRSS > bound {
		t.Errorf("stdin from /dev/zero: peak RSS %d KiB, over %d KiB", r.maxRSS, bound)
	}
	t.Logf("stdin from /dev/zero: %d KiB peak, %.2fs", r.maxRSS, r.wall.Seconds())
	fifo := filepath.Join(dir, "cfg.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "--config", "/dev/zero", "in.yaml"},
		{"check", "--config", "cfg.fifo", "in.yaml"},
		{"check", "--baseline", "/dev/zero", "in.yaml"},
		{"check", "--baseline", "cfg.fifo", "in.yaml"},
	} {
		r := runBinary(t, dir, hangLimit, args...)
		r.checkOutcome(t, 2)
		if !strings.Contains(r.stderr, "not a regular file") || !strings.Contains(r.stderr, args[1]+":") {
			t.Errorf("scalelint %s: %s", strings.Join(args, " "), r.stderr)
		}
		t.Logf("%s %s: %d KiB peak, %.2fs", args[1], args[2], r.maxRSS, r.wall.Seconds())
	}
}

// findings lists a report's findings without their file, one a line.
func findings(rep jsonOut) string {
	var b strings.Builder
	for _, d := range rep.Diagnostics {
		fmt.Fprintf(&b, "%d:%d-%d:%d %s %s: %s\n", d.Line, d.Column, d.EndLine, d.EndColumn, d.Severity, d.Rule, d.Message)
	}
	return b.String()
}

// hostileDir returns a new directory holding data as name, and a .git
// directory so the configuration search stops there.
func hostileDir(t *testing.T, name string, data []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// checkParse runs manifest.Parse on data (every document parsed) within
// hangLimit and expects c.want among its problems.
func checkParse(t *testing.T, c hostileCase, data []byte) {
	t.Helper()
	type found struct {
		probs []string
		ok    bool
	}
	done := make(chan found, 1)
	go func() {
		f := manifest.Parse(token.NewFileSet(), c.file, data, manifest.Options{})
		re := regexp.MustCompile(c.want.msg)
		var res found
		for _, p := range f.Problems() {
			line, col := f.Position(p.Pos)
			res.probs = append(res.probs, fmt.Sprintf("%s %d:%d %s", p.Rule, line, col, p.Message))
			if p.Rule == c.want.rule && line == c.want.line && col == c.want.col && re.MatchString(p.Message) {
				res.ok = true
			}
		}
		done <- res
	}()
	select {
	case res := <-done:
		if !res.ok {
			t.Errorf("manifest.Parse: no %s at %d:%d matching %q; problems:\n%s", c.want.rule, c.want.line, c.want.col, c.want.msg, strings.Join(res.probs, "\n"))
		}
	case <-time.After(hangLimit):
		t.Fatalf("manifest.Parse did not return within %s", hangLimit)
	}
}

// checkAudit runs `audit --format json` and `audit --format html` in dir
// under the bounds of check's run: no hang, no crash, exit 0 or 1 (a
// failing law), the peak RSS under bound, and JSON that parses.
func checkAudit(t *testing.T, dir string, bound int64) {
	t.Helper()
	for _, f := range []string{"json", "html"} {
		r := runBinary(t, dir, hangLimit, "audit", "--format", f, ".")
		cmdLine := "scalelint " + strings.Join(r.args, " ")
		switch {
		case r.timedOut:
			t.Fatalf("%s: no result within %s (a hang)", cmdLine, hangLimit)
		case r.exit != 0 && r.exit != 1 || strings.Contains(r.stderr, "panic:"):
			t.Fatalf("%s: exit %d; stderr:\n%s", cmdLine, r.exit, r.stderr)
		case r.maxRSS > bound:
			t.Errorf("%s: peak RSS %d KiB, over the bound of %d KiB", cmdLine, r.maxRSS, bound)
		}
		if f == "json" && !json.Valid([]byte(r.stdout)) {
			t.Errorf("%s: invalid JSON:\n%.2000s", cmdLine, r.stdout)
		}
		if f == "html" && !strings.HasSuffix(strings.TrimSpace(r.stdout), "</html>") {
			t.Errorf("%s: the page is not whole (%d bytes)", cmdLine, len(r.stdout))
		}
	}
}

// binRun is one run of the binary.
type binRun struct {
	args           []string
	exit           int
	stdout, stderr string
	wall           time.Duration
	maxRSS         int64 // KiB: the binary's peak resident set
	timedOut       bool
}

// gnuTime measures the binary's peak memory. ProcessState.SysUsage()
// cannot: Go starts a child with vfork (CLONE_VM), and the kernel's exec
// records the high-water mark of the memory it leaves (the test
// process's, shared until then) into the child's ru_maxrss, so a child
// started by a test that has held 100 MB reports at least 100 MB. GNU
// time forks the binary from its own small process and prints the
// binary's ru_maxrss.
const gnuTime = "/usr/bin/time"

// runBinary runs the binary in dir under GNU time; the run, and every
// process it started, is killed after limit.
func runBinary(t *testing.T, dir string, limit time.Duration, args ...string) binRun {
	t.Helper()
	return runBinaryWith(t, dir, nil, limit, args...)
}

// runBinaryWith is runBinary with stdin read from a file (nil: none).
func runBinaryWith(t *testing.T, dir string, stdin *os.File, limit time.Duration, args ...string) binRun {
	t.Helper()
	if _, err := os.Stat(gnuTime); err != nil {
		t.Fatalf("%s is needed to measure peak memory (%v): install the Debian package \"time\"", gnuTime, err)
	}
	rssFile := filepath.Join(t.TempDir(), "maxrss")
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, gnuTime, append([]string{"-f", "%M", "-o", rssFile, binary}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.Dir = dir
	if stdin != nil {
		cmd.Stdin = stdin
	}
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := binRun{args: args, wall: time.Since(start), stdout: out.String(), stderr: errb.String(), timedOut: ctx.Err() != nil}
	if cmd.ProcessState == nil {
		t.Fatalf("running scalelint %s: %v", strings.Join(args, " "), err)
	}
	r.exit = cmd.ProcessState.ExitCode()
	if r.timedOut {
		return r
	}
	// The last line is %M; a line before it says "Command terminated by
	// signal N" when the binary was killed.
	report, err := os.ReadFile(rssFile)
	if err != nil {
		t.Fatalf("reading %s's report: %v", gnuTime, err)
	}
	lines := strings.Split(strings.TrimSpace(string(report)), "\n")
	if _, err := fmt.Sscan(lines[len(lines)-1], &r.maxRSS); err != nil {
		t.Fatalf("%s's report %q: %v", gnuTime, report, err)
	}
	if strings.Contains(string(report), "terminated by signal") {
		r.exit = -1
		r.stderr += string(report)
	}
	return r
}

// checkOutcome fails the test on a hang, a crash or an exit status not
// among allowed, and returns the JSON report (none when exit 2 printed
// none: nothing could be read).
func (r binRun) checkOutcome(t *testing.T, allowed ...int) jsonOut {
	t.Helper()
	cmdLine := "scalelint " + strings.Join(r.args, " ")
	if r.timedOut {
		t.Fatalf("%s: no result within %s (a hang); stderr:\n%s", cmdLine, hangLimit, r.stderr)
	}
	if strings.Contains(r.stderr, "panic:") || strings.Contains(r.stderr, "fatal error:") || r.exit < 0 {
		t.Fatalf("%s crashed (exit %d):\n%s", cmdLine, r.exit, r.stderr)
	}
	ok := false
	for _, a := range allowed {
		ok = ok || r.exit == a
	}
	if !ok {
		t.Fatalf("%s: exit %d, want one of %v; stderr:\n%s", cmdLine, r.exit, allowed, r.stderr)
	}
	var rep jsonOut
	if r.exit == exitError && r.stdout == "" {
		return rep // nothing could be read
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%s: invalid JSON (exit %d): %v\n%.2000s\nstderr:\n%s", cmdLine, r.exit, err, r.stdout, r.stderr)
	}
	if want := min(rep.Summary.Errors, 1); r.exit != exitError && r.exit != want {
		t.Errorf("%s: exit %d with %d errors, want %d", cmdLine, r.exit, rep.Summary.Errors, want)
	}
	return rep
}
