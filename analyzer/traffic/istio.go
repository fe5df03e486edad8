package traffic

import (
	"fmt"
	"math"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// VirtualService is an Istio VirtualService.
type VirtualService struct {
	Gateways []string // spec.gateways; none means the mesh's sidecars
}

// DestinationRule is an Istio DestinationRule: the subsets of a host.
type DestinationRule struct {
	Host    Backend
	Subsets map[string]map[string]string // subset name -> pod labels
}

// Istio's retry semantics (https://github.com/istio/api/blob/master/networking/v1alpha3/virtual_service.proto,
// HTTPRetry; https://github.com/istio/istio/blob/master/pilot/pkg/networking/core/route/retry/retry.go,
// ConvertPolicy): without a retries block Envoy gets Istio's default
// policy, 2 retries on connect-failure, refused-stream, unavailable,
// cancelled and 503, which never re-sends a request the service is still
// working on; attempts 0 disables retries; attempts N is N retries, on
// retryOn (that same default list when unset), each try limited by
// perTryTimeout (by default the route's timeout, which ends the request).
// Envoy retries a per-try timeout only under 5xx, gateway-error or reset
// (https://www.envoyproxy.io/docs/envoy/latest/configuration/http/http_filters/router_filter#x-envoy-retry-on).
const istioDefaultRetryOn = "connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes(503)"

// envoyMaxBackoff is Envoy's default longest wait between retries: 10 ×
// the 25 ms base interval.
const envoyMaxBackoff = 0.25

func readVirtualService(o *manifest.Object, v *View) {
	root := o.Root()
	spec := get(root, "spec")
	vs := &VirtualService{}
	for _, g := range items(get(spec, "gateways")) {
		vs.Gateways = append(vs.Gateways, str(g))
	}
	v.VirtualService = vs
	for i, h := range items(get(spec, "http")) {
		where := fmt.Sprintf("VirtualService %s http[%d]", o.Name, i)
		r := Route{Impl: "istio"}
		for _, d := range items(get(h, "route")) {
			dst := get(d, "destination")
			at, hn := fieldValue(o, dst, "host")
			if b, ok := istioHost(str(hn)); ok {
				b.Subset, b.At = str(get(dst, "subset")), at
				r.Backends = append(r.Backends, b)
			}
		}
		timeout := duration(o, h, "timeout")
		if timeout.Set && timeout.V > 0 {
			r.Timeouts = append(r.Timeouts, Timeout{timeout, where + ".timeout"})
		}
		rk, rn := entry(h, "retries")
		r.Retry = istioRetry(o, rk, rn, timeout, where)
		if r.Retry.PerTry.Set && r.Retry.Retries > 0 {
			r.Timeouts = append(r.Timeouts, Timeout{r.Retry.PerTry, where + ".retries.perTryTimeout"})
		}
		v.Routes = append(v.Routes, r)
	}
}

// istioRetry reads an Istio HTTPRetry (a VirtualService's, or a Flagger
// Canary's, which Flagger copies into the VirtualService it generates).
// routeTimeout ends every try: retries that cannot start before it are
// not counted.
func istioRetry(o *manifest.Object, key, n *yaml.Node, routeTimeout Value, where string) *Retry {
	if n == nil {
		return &Retry{Retries: 2, On: istioDefaultRetryOn, Source: where,
			Why: "no retries block: Istio's default retries (2, on connection failures and 503) never re-send a request the service is still working on"}
	}
	rt := &Retry{Source: where + ".retries", RetriesAt: o.FieldOf(key, n), On: istioDefaultRetryOn}
	attempts := integer(o, n, "attempts")
	if attempts.Set {
		rt.RetriesAt = attempts.At
	}
	if !attempts.Set || attempts.V <= 0 {
		rt.Why = "attempts is 0 or unset: Istio disables retries"
		return rt
	}
	rt.Retries = int(attempts.V)
	if on := str(get(n, "retryOn")); on != "" {
		rt.On = on
	}
	rt.PerTry = duration(o, n, "perTryTimeout")
	backoff := envoyMaxBackoff
	if b := duration(o, n, "backoff"); b.Set {
		backoff = 10 * b.V
	}
	if envoyRetriesAfterTimeout(rt) {
		rt.Retries = retriesWithin(rt.Retries, rt.PerTry.V, backoff, routeTimeout)
	}
	return rt
}

// envoyRetriesAfterTimeout decides, for a route Envoy serves (Istio,
// Contour, Flagger's Contour routes), whether a try that timed out is
// retried: only with a per-try timeout and a retry condition that covers
// it. It sets rt.AfterTimeout, or rt.Why when not, and returns the former.
func envoyRetriesAfterTimeout(rt *Retry) bool {
	switch {
	case !rt.PerTry.Set || rt.PerTry.V <= 0:
		rt.Why = "no perTryTimeout: a try ends only with the route's timeout, which ends the request, so no retry re-sends work in progress"
	case !retriesTimeouts(rt.On):
		rt.Why = fmt.Sprintf("retryOn %q has none of 5xx, gateway-error, reset: Envoy does not retry a try that timed out", rt.On)
	default:
		rt.AfterTimeout = true
	}
	return rt.AfterTimeout
}

// retriesTimeouts reports whether Envoy retry conditions cover a per-try
// timeout.
func retriesTimeouts(on string) bool {
	for _, c := range strings.Split(on, ",") {
		switch strings.TrimSpace(c) {
		case "5xx", "gateway-error", "reset":
			return true
		}
	}
	return false
}

// retriesWithin is the number of retries sure to start before the route's
// timeout ends the request: the k-th retry starts after k tries that timed
// out and k waits of at most maxBackoff each.
func retriesWithin(retries int, perTry, maxBackoff float64, route Value) int {
	if !route.Set || route.V <= 0 {
		return retries
	}
	k := int(math.Ceil(route.V/(perTry+maxBackoff))) - 1
	return max(0, min(retries, k))
}

// istioHost reads a destination host as a Service: a short name (the
// VirtualService's namespace) or name.namespace.svc.cluster.local.
// Other hosts (external names, partial names) name no Service here.
func istioHost(h string) (Backend, bool) {
	if h == "" || strings.ContainsAny(h, "*/") {
		return Backend{}, false
	}
	if !strings.Contains(h, ".") {
		return Backend{Kind: "Service", Name: h}, true
	}
	if name, rest, ok := strings.Cut(h, "."); ok {
		if ns, tail, ok := strings.Cut(rest, "."); ok && tail == "svc.cluster.local" {
			return Backend{Kind: "Service", Name: name, Namespace: ns}, true
		}
	}
	return Backend{}, false
}

func readDestinationRule(o *manifest.Object, v *View) {
	spec := get(o.Root(), "spec")
	at, hn := fieldValue(o, spec, "host")
	b, _ := istioHost(str(hn))
	b.At = at
	dr := &DestinationRule{Host: b, Subsets: map[string]map[string]string{}}
	for _, s := range items(get(spec, "subsets")) {
		if name := str(get(s, "name")); name != "" {
			dr.Subsets[name] = stringMap(get(s, "labels"))
		}
	}
	v.DestinationRule = dr
}
