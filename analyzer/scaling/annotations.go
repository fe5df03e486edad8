package scaling

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/suggest"
)

// Prefix is the annotation prefix of every law input.
const Prefix = "scalelint.dev/"

// ValueKind is the syntax of an annotation value.
type ValueKind int

const (
	Duration ValueKind = iota // 90s, 1m30s, 1.5m, or a bare number of seconds
	Number                    // a positive number
	IntList                   // non-negative integers separated by commas: 2 or 2,2
	Enum                      // one of a fixed set of words
)

// AnnotationSpec describes one scalelint.dev annotation: the single source
// of its documentation for the README, hover and completion.
type AnnotationSpec struct {
	Name    string // without the prefix
	Kind    ValueKind
	Symbol  string // the law's symbol
	Doc     string
	Example string
	Default string   // built-in default, "" when none
	Min     float64  // smallest accepted number (inclusive unless MinOpen)
	MinOpen bool     // the minimum itself is refused
	Words   []string // for Enum
}

// Annotations lists every scalelint.dev annotation: the inputs of the laws
// (rules/laws/README.md, "Symbols"), with their syntax and defaults.
var Annotations = []AnnotationSpec{
	{Name: "dead-time", Kind: Duration, Symbol: "τ", Example: "90s", MinOpen: true,
		Doc: "Dead time: from ordering a pod to its first served request (scheduling, image pull, start, readiness)."},
	{Name: "sampling-delay", Kind: Duration, Symbol: "s", Example: "10s", Default: "10s",
		Doc: "Sampling delay the deployed loop adds to both branches (sync period and metric refresh)."},
	{Name: "metric-window", Kind: Duration, Symbol: "m", Example: "30s", Default: "30s",
		Doc: "Metric window added to every scale-up round (15 s sync + 15 s metrics resolution)."},
	{Name: "overload", Kind: Number, Symbol: "k", Example: "10", MinOpen: true,
		Doc: "Design overload: the largest sudden load, as a multiple of the load before it."},
	{Name: "capacity-deadline", Kind: Duration, Example: "5m", MinOpen: true,
		Doc: "Time by which capacity must meet the design overload; scale-up-rounds warns past it."},
	{Name: "pod-rate", Kind: Number, Symbol: "c", Example: "10", MinOpen: true,
		Doc: "Rate one pod serves, in the unit of the scaling signal (messages/s for a backlog trigger, requests/s for a rate)."},
	{Name: "demand", Kind: Number, Symbol: "λ", Example: "2000", MinOpen: true,
		Doc: "Design peak demand, in the same unit as pod-rate."},
	{Name: "retries", Kind: IntList, Symbol: "A = Π(1+rᵢ)", Example: "2,2",
		Doc: "Retries per attempt at each layer of callers, outermost first: 2 is one layer retrying twice (A = 3); 2,2 is a retrying gateway in front (A = 9)."},
	{Name: "retry-amplification", Kind: Number, Symbol: "A", Example: "3", Min: 1,
		Doc: "Retry amplification A directly (work per first attempt once every attempt fails), when retry budgets or limiters set it rather than retry counts."},
	{Name: "client-timeout", Kind: Duration, Symbol: "τ_out", Example: "10s", MinOpen: true,
		Doc: "Client timeout: the shortest among the clients whose abandoned work the service would do."},
	{Name: "admission-bound", Kind: Duration, Symbol: "b", Example: "5s", MinOpen: true,
		Doc: "Admission bound: the queue admits work only while it holds at most this many seconds of current capacity."},
	{Name: "scalability-peak", Kind: Number, Symbol: "N_max", Example: "18", MinOpen: true,
		Doc: "Scalability peak: the pod count past which throughput falls."},
	{Name: "latency-target", Kind: Duration, Symbol: "ℓ_acc", Example: "2m", MinOpen: true,
		Doc: "Latency the team promises for a queue consumer: how long a message may wait."},
	{Name: "signal", Kind: Enum, Example: "backlog", Words: []string{"backlog", "rate"},
		Doc: "What an External, Prometheus or metrics-api metric measures: backlog (waiting work; the latency floor applies) or rate (first attempts or requests per second; debt-blind for the retry trap)."},
}

// SpecOf returns the spec of an annotation name (without the prefix).
func SpecOf(name string) (AnnotationSpec, bool) {
	for _, s := range Annotations {
		if s.Name == name {
			return s, true
		}
	}
	return AnnotationSpec{}, false
}

// AnnotationNames lists the names of every annotation, sorted.
func AnnotationNames() []string {
	var out []string
	for _, s := range Annotations {
		out = append(out, s.Name)
	}
	sort.Strings(out)
	return out
}

// Input is one law input with where it came from.
type Input struct {
	Name   string
	Value  float64 // seconds for durations; the number otherwise; A for retries
	List   []int   // retries
	Text   string  // the value as written
	Origin Origin
	Object *manifest.Object // the object whose annotation (or inferred field) gave it
	At     manifest.Field   // the annotation's value, with its key; the inferred field
	// Bound says how Value relates to the true quantity: Exact for what an
	// annotation or the configuration states, AtLeast or AtMost for what
	// is inferred from other fields (FromInference). A rule may fire from
	// a lower bound only where the law is violated at that bound, and an
	// upper bound only softens (see Sound).
	Bound Bound
	// Source says, for people, what an inferred input was read from:
	// "readinessProbe of container api", "VirtualService reviews
	// http[0].retries"; Object and At locate it.
	Source string
	// From names the source in a few words for a message, beside the
	// position: "readinessProbe", "VirtualService reviews http[0].retries".
	From string
	// Line is the line of At when it was read with the file at hand (0:
	// ask the file, manifest.File.LineOf).
	Line int
	// Upper is the most the quantity can be when an inferred lower bound
	// has an upper end too (useCachedMetrics adds up to one polling
	// interval to the sampling delay); 0 when there is none.
	Upper float64
}

// Origin says where an input came from.
type Origin int

const (
	FromAutoscaler Origin = iota // an annotation on the autoscaler
	FromTarget                   // an annotation on the scale target
	FromConfig                   // the repository's configured default
	FromBuiltin                  // scalelint's built-in default
	FromInference                // read from other fields of the manifests (Source says which)
)

func (o Origin) String() string {
	return [...]string{"autoscaler annotation", "target annotation", "configured default", "built-in default", "inferred"}[o]
}

// ParseValue parses an annotation value by the syntax of its name.
func ParseValue(spec AnnotationSpec, text string) (Input, error) {
	in := Input{Name: spec.Name, Text: text}
	t := strings.TrimSpace(text)
	switch spec.Kind {
	case Duration:
		d, err := ParseDuration(t)
		if err != nil {
			return in, err
		}
		in.Value = d
	case Number:
		f, err := strconv.ParseFloat(t, 64)
		if errors.Is(err, strconv.ErrRange) {
			// A number past any float64 ("1e400"): ParseFloat gives ±Inf,
			// which CheckMagnitude calls too large.
			err = nil
		} else if math.IsInf(f, 0) {
			err = strconv.ErrSyntax // written "Inf": not a number
		}
		if err != nil || math.IsNaN(f) {
			return in, fmt.Errorf("%q is not a number", text)
		}
		if err := CheckMagnitude(f); err != nil {
			return in, fmt.Errorf("%q %v", text, err)
		}
		in.Value = f
	case IntList:
		for _, part := range strings.Split(t, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(part))
			if err != nil || n < 0 {
				return in, fmt.Errorf("%q is not a list of retry counts (non-negative integers separated by commas, such as 2 or 2,2)", text)
			}
			in.List = append(in.List, n)
		}
		a := 1.0
		for _, r := range in.List {
			a *= 1 + float64(r) // in float: 1+r overflows int for r = MaxInt
		}
		if a > MaxMagnitude {
			return in, fmt.Errorf("%q amplifies work more than %g times; no retry policy does", text, MaxMagnitude)
		}
		in.Value = a
		return in, nil
	case Enum:
		for _, w := range spec.Words {
			if strings.EqualFold(t, w) {
				in.Text = w
				return in, nil
			}
		}
		return in, fmt.Errorf("%q is not one of %s", text, strings.Join(spec.Words, ", "))
	}
	if in.Value < spec.Min || (spec.MinOpen && in.Value <= spec.Min) {
		if spec.MinOpen {
			return in, fmt.Errorf("%s must be greater than %g, got %q", spec.Name, spec.Min, text)
		}
		return in, fmt.Errorf("%s must be at least %g, got %q", spec.Name, spec.Min, text)
	}
	return in, nil
}

// Law inputs lie between MinMagnitude and MaxMagnitude (or are 0): past
// them the laws' products overflow to infinity and their differences to
// NaN, and no real service has such a rate, demand or peak.
const (
	MaxMagnitude = 1e15
	MinMagnitude = 1e-9
)

// maxDuration is the longest duration: time.Duration's (about 292 years).
const maxDuration = time.Duration(math.MaxInt64)

// CheckMagnitude refuses a number outside the range the laws compute with.
func CheckMagnitude(f float64) error {
	switch a := math.Abs(f); {
	case a > MaxMagnitude:
		return fmt.Errorf("is too large (at most %g)", MaxMagnitude)
	case a > 0 && a < MinMagnitude:
		return fmt.Errorf("is too small (at least %g when not 0)", MinMagnitude)
	}
	return nil
}

// ParseDuration reads a duration in seconds: Go and Kubernetes forms (90s,
// 1m30s, 1.5m, 500ms, 1h) or a bare number meaning seconds.
func ParseDuration(s string) (float64, error) {
	if s == "" {
		return 0, fmt.Errorf("empty duration")
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return 0, fmt.Errorf("%q is not a duration of zero or more seconds", s)
		}
		if f > maxDuration.Seconds() {
			return 0, fmt.Errorf("%q is longer than 2562047h (about 292 years), the longest duration Kubernetes and Go express", s)
		}
		if f > 0 && f < MinMagnitude {
			return 0, fmt.Errorf("%q is shorter than a nanosecond", s)
		}
		return f, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration (such as 90s, 1m30s, 1.5m, or a number of seconds)", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("%q is negative; a duration must be zero or more", s)
	}
	return d.Seconds(), nil
}

// ReadAnnotations parses the scalelint.dev annotations of an object. It
// returns the inputs it could read (nil when there are none) and a problem
// for every unknown key (a typo) and malformed value, positioned at the
// annotation.
func ReadAnnotations(o *manifest.Object, origin Origin) (map[string]Input, []manifest.Problem) {
	var out map[string]Input // nil for the many objects with none: every workload and autoscaler keeps it
	var problems []manifest.Problem
	present := map[string]bool{}
	for _, a := range o.Annotations {
		present[a.Key] = true
	}
	for _, a := range o.Annotations {
		if !strings.HasPrefix(a.Key, Prefix) {
			continue
		}
		name := strings.TrimPrefix(a.Key, Prefix)
		spec, ok := SpecOf(name)
		if !ok {
			msg := fmt.Sprintf("unknown annotation %q", a.Key)
			fix := ""
			if s := suggest.Closest(name, AnnotationNames()); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", Prefix+s)
				if !present[Prefix+s] {
					fix = Prefix + s // renaming onto an existing key would duplicate it
				}
			}
			problems = append(problems, manifest.Problem{Rule: "invalid-annotation", Pos: a.At.KeyPos(), End: a.At.KeyEnd(),
				Message: msg, Object: o, Suggestion: fix})
			continue
		}
		in, err := ParseValue(spec, a.Value)
		if err != nil {
			problems = append(problems, manifest.Problem{Rule: "invalid-annotation", Pos: a.At.Pos, End: a.At.End,
				Message: fmt.Sprintf("%s%s: %v", Prefix, name, err), Object: o})
			continue
		}
		in.Origin, in.Object, in.At = origin, o, a.At
		// The line now, while the file's line table is at hand (a view
		// is built as its file is read): a finding that cites the
		// annotation must not read the file again for it.
		in.Line = o.File().LineOf(a.At.Start())
		if out == nil {
			out = map[string]Input{}
		}
		out[name] = in
	}
	return out, problems
}

// LineOf returns the line an input was read or annotated at, 0 when it
// has no position.
func (in Input) LineOf() int {
	if in.Line > 0 {
		return in.Line
	}
	if in.Object == nil || !in.At.IsValid() {
		return 0
	}
	return in.Object.File().LineOf(in.At.Start())
}
