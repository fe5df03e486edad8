package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit/audittest"
)

// kafkaSO is a ScaledObject with a backlog trigger whose threshold KEDA
// reads as a float64 (gcp-pubsub's value: kafka's lagThreshold is an
// int64, and KEDA refuses "1e300" there); annotations and the threshold
// are the case's.
func kafkaSO(name, annotations, threshold string) string {
	return fmt.Sprintf(`apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: %s
  annotations: {scalelint.dev/dead-time: "90s", %s}
spec:
  scaleTargetRef: {name: %s}
  triggers:
  - type: gcp-pubsub
    metadata: {subscriptionName: t, value: %q}
`, name, annotations, name, threshold)
}

// extremeRepo holds manifests whose numbers are valid (the parsers
// accept them) but overflow the laws' arithmetic, or are tiny.
func extremeRepo(t *testing.T) *audit.Audit {
	return audittest.Of(t, false, writeRepo(t, map[string]string{
		// T/c = 1e300/1e-9 overflows: the standing delay is +Inf, and
		// so is its margin over the 89.5 s floor.
		"overflow.yaml": kafkaSO("overflow", `scalelint.dev/pod-rate: "1e-9"`, "1e300"),
		// T/c = 1e299 is finite, but over a floor of about 5e-9 s (a
		// dead time and a sampling delay of 1 ns: τ_eff·Φ(w) ≤ e·2 ns)
		// the margin, 1e299/5e-9·100, overflows.
		"margin.yaml": kafkaSO("margin", `scalelint.dev/pod-rate: "10", scalelint.dev/sampling-delay: "1ns", scalelint.dev/dead-time: "1ns"`, "1e300"),
		// A rate target T/c = 1e300/1e-9 = +Inf against 1/A = 1/3: the
		// retry trap, with a margin of −Inf.
		"rate.yaml": `apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: rate
  annotations: {scalelint.dev/signal: rate, scalelint.dev/pod-rate: "1e-9", scalelint.dev/retries: "2"}
spec:
  scaleTargetRef: {name: rate}
  triggers:
  - type: prometheus
    metadata: {serverAddress: "http://p:9090", query: "sum(rate(x[1m]))", threshold: "1e300"}
`,
		// A pod rate of 1e-9: c is written so, never "0".
		"tiny.yaml": kafkaSO("tiny", `scalelint.dev/pod-rate: "1e-9"`, "10"),
	}))
}

// Every format writes an audit whose numbers overflowed: JSON and CSV
// the unbounded values as "Infinity" and "-Infinity" (format.Float), the
// table, Markdown and HTML as ∞, and none strconv's "+Inf" or a doubled
// sign. Was: `--format json` failed ("json: unsupported value: +Inf") and
// wrote nothing; the table showed "++Inf%".
func TestAuditExtremeNumbers(t *testing.T) {
	a := extremeRepo(t)
	out := map[string]string{}
	for _, f := range []string{"table", "markdown", "json", "csv", "html"} {
		var b bytes.Buffer
		if err := Write(&b, a, f, Options{}); err != nil {
			t.Fatalf("--format %s: %v", f, err)
		}
		out[f] = b.String()
		if m := regexp.MustCompile(`[-+]Inf\b|\bNaN\b|[-+][-+][0-9∞I]`).FindString(out[f]); m != "" {
			t.Errorf("--format %s writes a non-finite number as strconv does, or a doubled sign: %q", f, m)
		}
	}

	// The JSON reads back, with the unbounded values where they belong.
	var doc struct {
		Autoscalers []struct {
			Object        struct{ Name string }
			MarginPercent any
			Latency       []struct{ StandingDelay, MarginPercent any }
			Retry         *struct{ Target, MarginPercent any }
		}
	}
	if err := json.Unmarshal([]byte(out["json"]), &doc); err != nil {
		t.Fatalf("the JSON does not parse: %v\n%s", err, out["json"])
	}
	got := map[string]string{}
	for _, r := range doc.Autoscalers {
		n := r.Object.Name
		got[n+" margin"] = fmt.Sprint(r.MarginPercent)
		if len(r.Latency) > 0 {
			got[n+" standingDelay"] = fmt.Sprint(r.Latency[0].StandingDelay)
			got[n+" latency margin"] = fmt.Sprint(r.Latency[0].MarginPercent)
		}
		if r.Retry != nil {
			got[n+" retry target"], got[n+" retry margin"] = fmt.Sprint(r.Retry.Target), fmt.Sprint(r.Retry.MarginPercent)
		}
	}
	for k, want := range map[string]string{
		"overflow standingDelay": "Infinity", "overflow latency margin": "Infinity", "overflow margin": "Infinity",
		"margin latency margin": "Infinity",
		"rate retry target":     "Infinity", "rate retry margin": "-Infinity", "rate margin": "-Infinity",
	} {
		if got[k] != want {
			t.Errorf("JSON %s = %s, want %q", k, got[k], want)
		}
	}
	// A finite margin stays a JSON number: tiny's, (10/1e-9 − 89.49)/89.49.
	for _, r := range doc.Autoscalers {
		if _, ok := r.MarginPercent.(float64); r.Object.Name == "tiny" && !ok {
			t.Errorf("tiny's margin is %#v, want a number", r.MarginPercent)
		}
	}

	for _, c := range []struct{ format, want string }{
		{"table", "+∞%"}, {"table", "∞≥89.5s"}, {"markdown", "+∞%"}, {"markdown", "-∞%"}, {"html", "+∞%"}, {"html", "-∞%"},
		{"csv", ",Infinity,"}, {"csv", ",-Infinity,"},
		// 1e-9 with three significant digits (format.Sig): was "0".
		{"markdown", "c = 1e-9/s per pod"}, {"html", "c = 1e-9/s per pod"}, {"csv", ",0.000000001,"},
	} {
		if !strings.Contains(out[c.format], c.want) {
			t.Errorf("--format %s does not show %q", c.format, c.want)
		}
	}
	if m := regexp.MustCompile(`c = 0/s`).FindString(out["markdown"] + out["html"]); m != "" {
		t.Errorf("a pod rate of 1e-9 is written %q", m)
	}
	if r := audittest.RowNamed(t, a, "overflow"); r.Latency[0].StandingDelay == nil || !math.IsInf(float64(*r.Latency[0].StandingDelay), 1) {
		t.Errorf("overflow: standing delay %v, want +Inf", r.Latency[0].StandingDelay)
	}
}

// The staircase of a growth factor just above 1 draws at most maxSteps
// steps and says how many rounds each stands for. A tolerance of 0 and a
// target of 1,000,000,000% with a limit 10,000,001 times the request
// (1,000,000,100%): g = 1 + 1e-7, and a 10× overload needs
// ln(10/g)/ln(g) ≈ 23 million rounds
// (rules/laws/README.md §1). Was: a step per round, 46 million path
// segments (565 MB of HTML in 80 s).
func TestAuditStairsBounded(t *testing.T) {
	a := audittest.Of(t, false, writeRepo(t, map[string]string{"web.yaml": `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
  annotations: {scalelint.dev/dead-time: "90s", scalelint.dev/overload: "10"}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  behavior: {scaleUp: {tolerance: 0}}
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 1000000000}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: x
        resources: {requests: {cpu: "1m"}, limits: {cpu: "10000001m"}}
`}))
	g := audittest.RowNamed(t, a, "web").Growth
	want := int(math.Ceil(math.Log(10/(1+1e-7)) / math.Log(1+1e-7))) // computed here, apart from rules/laws
	if g == nil || g.Rounds == nil || math.Abs(float64(*g.Rounds-want)) > 1 {
		t.Fatalf("rounds %v, want about %d", g, want)
	}
	stairs := stairsSVG(g)
	wellFormed(t, "staircase", stairs)
	if n := strings.Count(stairs, " L"); n > 2*maxSteps+2 {
		t.Errorf("the staircase has %d segments, over 2×%d steps + 2", n, maxSteps)
	}
	per := (*g.Rounds + maxSteps - 1) / maxSteps
	mustContain(t, "the long staircase", stairs, fmt.Sprintf("%d rounds × (90s + 30s)", *g.Rounds), fmt.Sprintf("a step drawn is %d rounds", per),
		">"+fmt.Sprint(*g.Rounds)+"<") // the last step is labelled with the rounds
}
