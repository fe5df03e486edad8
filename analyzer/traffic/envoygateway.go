package traffic

import (
	"fmt"
	"strings"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// BackendTrafficPolicy is an Envoy Gateway BackendTrafficPolicy: the
// Gateways or routes it applies to.
type BackendTrafficPolicy struct {
	Targets []Ref
}

// Envoy Gateway's semantics (https://github.com/envoyproxy/gateway/blob/main/api/v1alpha1/retry_types.go
// and timeout_types.go): a retry block retries numRetries times (2 when
// unset) on retryOn.triggers (when unset: connect-failure, refused-stream,
// unavailable, cancelled, 503, none of which covers a timed-out try),
// each try limited by perRetry.timeout; timeout.http.requestTimeout bounds
// the whole response. Its Route has no backends: the policy applies to
// what its targets route.
func readBackendTrafficPolicy(o *manifest.Object, v *View) {
	spec := get(o.Root(), "spec")
	p := &BackendTrafficPolicy{}
	if t := get(spec, "targetRef"); t != nil {
		p.Targets = append(p.Targets, readRef(o, t, "gateway.networking.k8s.io", ""))
	}
	for _, t := range items(get(spec, "targetRefs")) {
		p.Targets = append(p.Targets, readRef(o, t, "gateway.networking.k8s.io", ""))
	}
	v.BackendTrafficPolicy = p
	where := fmt.Sprintf("BackendTrafficPolicy %s", o.Name)
	r := Route{Impl: "envoy-gateway"}
	if d := duration(o, get(spec, "timeout", "http"), "requestTimeout"); d.Set && d.V > 0 {
		r.Timeouts = append(r.Timeouts, Timeout{d, where + " timeout.http.requestTimeout"})
	}
	if k, rn := entry(spec, "retry"); rn != nil {
		rt := &Retry{Source: where + " retry", RetriesAt: o.FieldOf(k, rn), Retries: 2,
			On: "connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes(503)"}
		if n := integer(o, rn, "numRetries"); n.Set {
			rt.Retries, rt.RetriesAt = int(n.V), n.At
		}
		var on []string
		for _, t := range items(get(rn, "retryOn", "triggers")) {
			on = append(on, str(t))
		}
		if len(on) > 0 {
			rt.On = strings.Join(on, ",")
		}
		rt.PerTry = duration(o, get(rn, "perRetry"), "timeout")
		switch {
		case rt.Retries == 0:
			rt.Why = "numRetries 0: no retries"
		case !rt.PerTry.Set || rt.PerTry.V <= 0:
			rt.Why = "no perRetry.timeout: a try ends only with the request timeout, which ends the request, so no retry re-sends work in progress"
		case !retriesTimeouts(rt.On):
			rt.Why = fmt.Sprintf("retryOn triggers %q have none of 5xx, gateway-error, reset: Envoy does not retry a try that timed out", rt.On)
		default:
			rt.AfterTimeout = true
			r.Timeouts = append(r.Timeouts, Timeout{rt.PerTry, where + " retry.perRetry.timeout"})
		}
		r.Retry = rt
	}
	v.Routes = append(v.Routes, r)
}
