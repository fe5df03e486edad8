package infer

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/traffic"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// Result is what the manifests bound of one autoscaler's law inputs.
type Result struct {
	// Inputs are the inferred inputs by annotation name, each
	// FromInference with its Bound and Source: dead-time (at least),
	// sampling-delay (at least, with an upper end), retry-amplification
	// (at least), client-timeout (at most).
	Inputs scaling.Inputs
	// Notes are what was found and not counted, and why: a retry policy
	// that never re-sends work in progress, a Linkerd annotation a
	// ServiceProfile overrides.
	Notes []Note
}

// Note is one finding of the inference that bounds nothing.
type Note struct {
	Law    string // the rule it would have served
	Text   string
	Object *manifest.Object
	At     manifest.Field
}

// For infers the inputs of an autoscaler from the workspace. It is a pure
// function of the workspace (the traffic links are built once per
// workspace) and cheap without traffic configuration.
func For(ws *workspace.Workspace, a *scaling.Autoscaler, opts Options) Result {
	res := Result{Inputs: scaling.Inputs{}}
	r := ws.Target(a)
	if w := r.Pods; w != nil && w.HasTemplate {
		res.Inputs["dead-time"] = w.DeadTimeFloor()
	} else {
		res.Inputs["dead-time"] = scaling.Input{Name: "dead-time", Text: "0s", Bound: scaling.AtLeast, Origin: scaling.FromInference,
			Object: a.Object, At: a.Target.At, From: "no pod template",
			Source: "the scale target's pod template is not among the inputs: the dead time is at least 0"}
	}
	res.cachedMetrics(a)
	if r.Object != nil {
		res.traffic(indexOf(ws, opts), r.Object)
	}
	res.Notes = dedupNotes(res.Notes)
	return res
}

// dedupNotes drops repeated notes (one route reaches the pods through
// several Services, or several routes share a policy).
func dedupNotes(ns []Note) []Note {
	seen := map[string]bool{}
	out := ns[:0]
	for _, n := range ns {
		k := n.Law + "\x00" + n.Text
		if !seen[k] {
			seen[k] = true
			out = append(out, n)
		}
	}
	return out
}

// cachedMetrics: with useCachedMetrics, KEDA answers the HPA from a cache
// refreshed every pollingInterval, so the HPA reads values up to one
// interval old: the sampling delay lies between its default and that
// plus the interval (KEDA's scaledobject-spec.md, "useCachedMetrics").
// The lower end is the one rules fire from.
func (res *Result) cachedMetrics(a *scaling.Autoscaler) {
	if a.Kind != scaling.ScaledObject {
		return
	}
	for _, m := range a.Metrics {
		if !m.CachedMetrics {
			continue
		}
		spec, _ := scaling.SpecOf("sampling-delay")
		base, err := scaling.ParseValue(spec, spec.Default)
		if err != nil {
			return
		}
		in := scaling.Input{Name: "sampling-delay", Value: base.Value, Bound: scaling.AtLeast, Origin: scaling.FromInference,
			Object: a.Object, At: m.At, Text: spec.Default, From: "useCachedMetrics"}
		if poll := a.PollingInterval; poll.Invalid {
			// Not an int32 (invalid-field): the upper end is not known.
			in.Source = fmt.Sprintf("trigger %s sets useCachedMetrics: the HPA reads values up to one pollingInterval old, and spec.pollingInterval is not an integer KEDA accepts: the sampling delay is at least %gs",
				m.Type, base.Value)
		} else {
			in.Upper = base.Value + poll.V
			in.Source = fmt.Sprintf("trigger %s sets useCachedMetrics: the HPA reads values up to pollingInterval %gs old, so the sampling delay is between %gs and %gs",
				m.Type, poll.V, base.Value, base.Value+poll.V)
		}
		res.Inputs["sampling-delay"] = in
		return
	}
}

// traffic bounds A from below and τ_out from above from the links to a
// workload. A counts a route's retries only when they re-send work after
// a timeout, and is the least factor over every route that may reach the
// pods (a caller through a route without retries amplifies nothing);
// τ_out is at most the shortest timeout of a route that surely reaches
// them (τ_out is the shortest among the callers).
func (res *Result) traffic(idx *index, w *manifest.Object) {
	links := idx.byWorkload[w]
	for _, l := range idx.ignored[w] {
		res.Notes = append(res.Notes, Note{Law: "retry-trap", Object: l.view.Object, At: l.view.Object.KindAt,
			Text: fmt.Sprintf("%s: a ServiceProfile for Service %s overrides Linkerd's retry and timeout annotations", routeName(l), l.via.Name)})
	}
	for _, l := range idx.unprovided[w] {
		if l.route.Retry == nil && len(l.route.Timeouts) == 0 {
			continue
		}
		law := "retry-trap"
		if l.route.Retry == nil {
			law = "bound-exceeds-timeout"
		}
		res.Notes = append(res.Notes, Note{Law: law, Object: l.view.Object, At: l.view.Object.KindAt,
			Text: fmt.Sprintf("Canary %s names no spec.provider: Flagger's -mesh-provider flag, which the manifests do not show, decides what its spec.service.retries and timeout become (infer.controllers: [%s] reads them as the default provider %s writes them)",
				l.view.Object.Name, flaggerDefault, traffic.DefaultProvider)})
	}
	if len(links) == 0 {
		return
	}
	sort.SliceStable(links, func(i, j int) bool { return linkOrder(links[i]) < linkOrder(links[j]) })
	// A: the least factor over the routes.
	least, leastAt := math.Inf(1), -1
	for i, l := range links {
		f := 1.0
		if rt := l.route.Retry; rt != nil && rt.AfterTimeout && rt.Retries > 0 {
			f = 1 + float64(rt.Retries)
		}
		if f < least {
			least, leastAt = f, i
		}
		if rt := l.route.Retry; rt != nil && rt.Why != "" {
			res.Notes = append(res.Notes, Note{Law: "retry-trap", Object: l.view.Object, At: rt.RetriesAt, Text: rt.Source + ": " + rt.Why})
		}
	}
	if least > 1 {
		l := links[leastAt]
		rt := l.route.Retry
		res.Inputs["retry-amplification"] = scaling.Input{Name: "retry-amplification", Value: least, List: []int{rt.Retries},
			Text: fmt.Sprint(rt.Retries), Bound: scaling.AtLeast, Origin: scaling.FromInference, Object: l.view.Object, At: rt.RetriesAt,
			Source: retrySource(l, len(links)), From: rt.Source}
	}
	// τ_out: the shortest timeout of a route that surely reaches the pods.
	best := math.Inf(1)
	var bestT traffic.Timeout
	var bestL link
	for _, l := range links {
		if l.maybe {
			continue
		}
		for _, t := range l.route.Timeouts {
			if t.Set && t.V > 0 && t.V < best {
				best, bestT, bestL = t.V, t, l
			}
		}
	}
	if !math.IsInf(best, 1) {
		res.Inputs["client-timeout"] = scaling.Input{Name: "client-timeout", Value: best, Text: bestT.Text, Bound: scaling.AtMost,
			Origin: scaling.FromInference, Object: bestL.view.Object, At: bestT.At, From: bestT.Source,
			Source: bestT.Source + via(bestL) + ": a caller gives up after it, so the client timeout is at most this"}
	}
}

// retrySource describes the retry policy a lower bound on A comes from.
func retrySource(l link, routes int) string {
	rt := l.route.Retry
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d %s after a per-try timeout", rt.Source, rt.Retries, plural(rt.Retries, "retry", "retries"))
	if rt.PerTry.Set {
		fmt.Fprintf(&b, " of %gs", rt.PerTry.V)
	}
	if rt.On != "" {
		fmt.Fprintf(&b, " (retry on %s)", rt.On)
	}
	b.WriteString(via(l))
	if routes > 1 {
		fmt.Fprintf(&b, "; the least of the %d routes that reach these pods", routes)
	}
	return b.String()
}

func via(l link) string {
	if l.via == nil {
		return ""
	}
	return ", through Service " + l.via.Name
}

func routeName(l link) string {
	if l.route.Retry != nil && l.route.Retry.Source != "" {
		return l.route.Retry.Source
	}
	return l.view.Object.Kind + " " + l.view.Object.Name
}

// linkOrder sorts links by where their object is written, so the first of
// equal bounds is the same whatever the index's order.
func linkOrder(l link) string {
	f := l.view.Object.File()
	return fmt.Sprintf("%s\x00%012d", f.Path, int(l.view.Object.At.Pos))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
