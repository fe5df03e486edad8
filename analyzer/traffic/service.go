package traffic

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// Service is a Kubernetes Service: the pods it selects, and the policies
// its annotations ask proxies to apply to requests addressed to it.
type Service struct {
	Name     string
	Selector map[string]string // spec.selector; nil selects no pods by label
}

var linkerdPrefixes = []string{"retry.linkerd.io/", "timeout.linkerd.io/"}

const kongPrefix = "konghq.com/"

func readService(o *manifest.Object, v *View) {
	root := o.Root()
	v.Service = &Service{Name: o.Name, Selector: stringMap(get(root, "spec", "selector"))}
	ann := annotations(o, root)
	self := Backend{Kind: "Service", Name: o.Name, At: o.NameAt}
	if r, ok := linkerdRoute(ann, "Service "+o.Name); ok {
		r.Backends = []Backend{self}
		v.Routes = append(v.Routes, r)
	}
	if r, ok := kongRoute(ann, "Service "+o.Name); ok {
		r.Backends = []Backend{self}
		v.Routes = append(v.Routes, r)
	}
}

// linkerdRoute reads Linkerd's retry and timeout annotations (Linkerd
// 2.16+, on a Service or an HTTPRoute), as the policy controller parses
// them (policy-controller/k8s/index/src/outbound/index/http.rs,
// parse_http_retry; https://linkerd.io/2/reference/retries/): the limit is
// the number of retries, 1 once any retry annotation is set;
// retry.linkerd.io/timeout is a per-try timeout after which the request
// "is cancelled and retried"; timeout.linkerd.io/request and /response
// abandon the request. A ServiceProfile for the Service overrides them
// (package infer checks that).
func linkerdRoute(ann map[string]annotation, owner string) (Route, bool) {
	limit, hasLimit := ann["retry.linkerd.io/limit"]
	tmo, hasTmo := ann["retry.linkerd.io/timeout"]
	cond, hasCond := ann["retry.linkerd.io/http"]
	r := Route{Impl: "linkerd"}
	found := false
	if hasLimit || hasTmo || hasCond {
		found = true
		rt := &Retry{Retries: 1, On: cond.Value, Source: owner + " annotations retry.linkerd.io/*"}
		rt.RetriesAt = firstValid(limit.At, tmo.At, cond.At)
		if hasLimit {
			n, err := strconv.ParseUint(limit.Value, 10, 16)
			switch {
			case err != nil:
				rt.Why = fmt.Sprintf("retry.linkerd.io/limit %q is not a count Linkerd reads", limit.Value)
			default:
				// 0 is counted as no retry: whether Linkerd reads it as
				// none or as its default of 1, a lower bound on A may not
				// count one.
				rt.Retries = int(n)
			}
		}
		if hasTmo {
			if d, ok := parseLinkerdDuration(tmo.Value); ok && d > 0 {
				rt.PerTry = Value{V: d, Set: true, At: tmo.At, Text: tmo.Value}
			} else if !ok {
				rt.Why = fmt.Sprintf("retry.linkerd.io/timeout %q is not a duration Linkerd reads", tmo.Value)
			}
		}
		switch {
		case rt.Why != "":
		case rt.PerTry.Set:
			rt.AfterTimeout = true
			r.Timeouts = append(r.Timeouts, Timeout{rt.PerTry, owner + " annotation retry.linkerd.io/timeout"})
		default:
			rt.Why = "no retry.linkerd.io/timeout: Linkerd retries failed responses only, never a request still in progress"
		}
		r.Retry = rt
	}
	for _, k := range []string{"timeout.linkerd.io/request", "timeout.linkerd.io/response"} {
		if a, ok := ann[k]; ok {
			found = true
			if d, ok := parseLinkerdDuration(a.Value); ok && d > 0 {
				r.Timeouts = append(r.Timeouts, Timeout{Value{V: d, Set: true, At: a.At, Text: a.Value}, owner + " annotation " + k})
			}
		}
	}
	return r, found
}

// parseLinkerdDuration reads a Linkerd duration: a number with a unit
// (ms, s, m, h, d).
func parseLinkerdDuration(s string) (float64, bool) {
	if strings.HasSuffix(s, "d") {
		n, err := strconv.ParseFloat(strings.TrimSuffix(s, "d"), 64)
		return n * 86400, err == nil && n >= 0
	}
	d, err := time.ParseDuration(s)
	return d.Seconds(), err == nil && d >= 0
}

// Kong's defaults for a Service (https://docs.konghq.com/gateway/latest/key-concepts/services/,
// the Service entity: retries 5, read_timeout 60000 ms).
const (
	kongDefaultRetries     = 5
	kongDefaultReadTimeout = 60
)

// kongRoute reads the Kong Ingress Controller's explicit annotations on a
// Service: konghq.com/retries (Kong retries a request that failed to
// proxy, a read timeout included) and konghq.com/read-timeout (in
// milliseconds; 60 s when unset), the time after which Kong gives up on a
// response and, with retries, sends the request again.
func kongRoute(ann map[string]annotation, owner string) (Route, bool) {
	retries, hasRetries := ann[kongPrefix+"retries"]
	read, hasRead := ann[kongPrefix+"read-timeout"]
	if !hasRetries && !hasRead {
		return Route{}, false
	}
	r := Route{Impl: "kong"}
	perTry := Value{V: kongDefaultReadTimeout, Set: true, Text: "60000 (Kong's default)"}
	if hasRead {
		ms, err := strconv.ParseInt(read.Value, 10, 64)
		if err == nil && ms > 0 {
			perTry = Value{V: float64(ms) / 1000, Set: true, At: read.At, Text: read.Value}
			r.Timeouts = append(r.Timeouts, Timeout{perTry, owner + " annotation konghq.com/read-timeout"})
		}
	}
	if hasRetries {
		rt := &Retry{RetriesAt: retries.At, PerTry: perTry, On: "error, timeout", Source: owner + " annotation konghq.com/retries"}
		n, err := strconv.ParseInt(retries.Value, 10, 32)
		switch {
		case err != nil || n < 0:
			rt.Why = fmt.Sprintf("konghq.com/retries %q is not a count Kong reads", retries.Value)
		default:
			rt.Retries, rt.AfterTimeout = int(n), n > 0
		}
		r.Retry = rt
	}
	return r, true
}

func firstValid(fs ...manifest.Field) manifest.Field {
	for _, f := range fs {
		if f.IsValid() {
			return f
		}
	}
	return manifest.Field{}
}
