package traffic

import (
	"fmt"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// HTTPProxy is a Contour HTTPProxy.
type HTTPProxy struct{}

// Contour's semantics (https://github.com/projectcontour/contour/blob/main/apis/projectcontour/v1/httpproxy.go,
// RetryPolicy and TimeoutPolicy; internal/dag/policy.go, retryPolicy and
// retryOn): a retryPolicy's count is the number of retries (-1 disables
// them, 0 or unset is 1), retryOn defaults to 5xx, perTryTimeout is a Go
// duration (invalid or unset: no per-try timeout); timeoutPolicy.response
// bounds the response ("infinity" disables it; 15 s, Envoy's default, when
// unset).
func readHTTPProxy(o *manifest.Object, v *View) {
	v.HTTPProxy = &HTTPProxy{}
	for i, route := range items(get(o.Root(), "spec", "routes")) {
		where := fmt.Sprintf("HTTPProxy %s routes[%d]", o.Name, i)
		r := Route{Impl: "contour"}
		for _, s := range items(get(route, "services")) {
			at, n := fieldValue(o, s, "name")
			if name := str(n); name != "" {
				r.Backends = append(r.Backends, Backend{Kind: "Service", Name: name, At: at})
			}
		}
		if d := contourDuration(o, get(route, "timeoutPolicy"), "response"); d.Set {
			r.Timeouts = append(r.Timeouts, Timeout{d, where + ".timeoutPolicy.response"})
		}
		if k, rp := entry(route, "retryPolicy"); rp != nil {
			r.Retry = contourRetry(o, o.FieldOf(k, rp), rp, where+".retryPolicy")
			if r.Retry.Retries > 0 && r.Retry.PerTry.Set {
				r.Timeouts = append(r.Timeouts, Timeout{r.Retry.PerTry, where + ".retryPolicy.perTryTimeout"})
			}
		}
		v.Routes = append(v.Routes, r)
	}
}

// contourRetry reads a Contour RetryPolicy (an HTTPProxy's, or the one
// Flagger generates from a Canary with the contour provider).
func contourRetry(o *manifest.Object, at manifest.Field, rp *yaml.Node, where string) *Retry {
	rt := &Retry{Source: where, RetriesAt: at, Retries: 1, On: "5xx"}
	if c := signedInteger(o, rp, "count"); c.Set {
		rt.RetriesAt = c.At
		switch {
		case c.V == -1:
			rt.Retries = 0
			rt.Why = "count -1: Contour disables retries"
			return rt
		case c.V > 1:
			rt.Retries = int(c.V)
		}
	}
	var on []string
	for _, c := range items(get(rp, "retryOn")) {
		on = append(on, str(c))
	}
	if len(on) > 0 {
		rt.On = strings.Join(on, ",")
	}
	if t := str(get(rp, "perTryTimeout")); t != "" {
		if d, err := time.ParseDuration(t); err == nil && d > 0 {
			pat, _ := fieldValue(o, rp, "perTryTimeout")
			rt.PerTry = Value{V: d.Seconds(), Set: true, At: pat, Text: t}
		}
	}
	envoyRetriesAfterTimeout(rt)
	return rt
}

// contourDuration reads a Contour timeout: a Go duration, or "infinity".
func contourDuration(o *manifest.Object, m *yaml.Node, key string) Value {
	at, n := fieldValue(o, m, key)
	t := str(n)
	if t == "" || t == "infinity" || t == "infinite" {
		return Value{}
	}
	d, err := time.ParseDuration(t)
	if err != nil || d <= 0 {
		return Value{}
	}
	return Value{V: d.Seconds(), Set: true, At: at, Text: t}
}
