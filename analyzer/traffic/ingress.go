package traffic

import (
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// Ingress is a Kubernetes Ingress: its class, which says which controller
// serves it, and the annotations of that controller.
type Ingress struct {
	Class string // spec.ingressClassName, else the kubernetes.io/ingress.class annotation
	// Explicit lists the controller annotations written (by key), for the
	// controller defaults package infer applies when they are absent.
	Explicit map[string]bool
}

const nginxPrefix = "nginx.ingress.kubernetes.io/"

// ingress-nginx's semantics (https://github.com/kubernetes/ingress-nginx/blob/main/internal/ingress/controller/config/config.go
// and docs/user-guide/nginx-configuration/annotations.md): nginx passes a
// request to the next upstream on the conditions of proxy-next-upstream
// ("error timeout" by default, a cluster ConfigMap may change it), at most
// proxy-next-upstream-tries times in all, the first try included (3 by
// default, 0 unlimited); a "timeout" there includes proxy-read-timeout
// (60 s by default), and nginx passes only idempotent requests on once
// they were sent. Only an Ingress that writes both the conditions and the
// tries gives a count: defaults may be changed by the cluster.
func readIngress(o *manifest.Object, v *View) {
	root := o.Root()
	spec := get(root, "spec")
	ann := annotations(o, root)
	in := &Ingress{Class: str(get(spec, "ingressClassName")), Explicit: map[string]bool{}}
	if in.Class == "" {
		in.Class = ann["kubernetes.io/ingress.class"].Value
	}
	for k := range ann {
		if strings.HasPrefix(k, nginxPrefix) || strings.HasPrefix(k, "alb.ingress.kubernetes.io/") || strings.HasPrefix(k, kongPrefix) {
			in.Explicit[k] = true
		}
	}
	v.Ingress = in
	r := Route{Impl: in.Class}
	switch {
	case nginxClass(in.Class):
		r.Impl = "ingress-nginx"
	case in.Class == "alb":
		r.Impl = "alb"
	}
	addBackend := func(b *yaml.Node) {
		svc := get(b, "service")
		at, n := fieldValue(o, svc, "name")
		if n == nil { // extensions/v1beta1 and networking.k8s.io/v1beta1
			at, n = fieldValue(o, b, "serviceName")
		}
		if name := str(n); name != "" {
			r.Backends = append(r.Backends, Backend{Kind: "Service", Name: name, At: at})
		}
	}
	if b := get(spec, "defaultBackend"); b != nil {
		addBackend(b)
	} else if b := get(spec, "backend"); b != nil {
		addBackend(b)
	}
	for _, rule := range items(get(spec, "rules")) {
		for _, p := range items(get(rule, "http", "paths")) {
			addBackend(get(p, "backend"))
		}
	}
	where := fmt.Sprintf("Ingress %s", o.Name)
	if in.Class == "alb" {
		// The AWS Load Balancer Controller's load-balancer-attributes:
		// an explicit idle timeout bounds how long the ALB waits for a
		// response (https://kubernetes-sigs.github.io/aws-load-balancer-controller/latest/guide/ingress/annotations/).
		if a, ok := ann["alb.ingress.kubernetes.io/load-balancer-attributes"]; ok {
			for _, kv := range strings.Split(a.Value, ",") {
				k, val, _ := strings.Cut(strings.TrimSpace(kv), "=")
				if n, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64); k == "idle_timeout.timeout_seconds" && err == nil && n > 0 {
					r.Timeouts = append(r.Timeouts, Timeout{Value{V: float64(n), Set: true, At: a.At, Text: val},
						where + " annotation alb.ingress.kubernetes.io/load-balancer-attributes idle_timeout.timeout_seconds"})
				}
			}
		}
	}
	if !nginxClass(in.Class) {
		v.Routes = append(v.Routes, r)
		return
	}
	if a, ok := ann[nginxPrefix+"proxy-read-timeout"]; ok {
		if n, err := strconv.ParseInt(a.Value, 10, 64); err == nil && n > 0 {
			r.Timeouts = append(r.Timeouts, Timeout{Value{V: float64(n), Set: true, At: a.At, Text: a.Value}, where + " annotation " + nginxPrefix + "proxy-read-timeout"})
		}
	}
	cond, hasCond := ann[nginxPrefix+"proxy-next-upstream"]
	tries, hasTries := ann[nginxPrefix+"proxy-next-upstream-tries"]
	if hasCond || hasTries {
		rt := &Retry{Source: where + " annotations " + nginxPrefix + "proxy-next-upstream*", RetriesAt: firstValid(tries.At, cond.At), On: cond.Value}
		n, err := strconv.ParseInt(tries.Value, 10, 32)
		switch {
		case !hasCond:
			rt.Why = "proxy-next-upstream is not written: its conditions are the cluster's ConfigMap's"
		case !hasTries:
			rt.Why = "proxy-next-upstream-tries is not written: the count is the cluster's ConfigMap's"
		case err != nil || n < 0:
			rt.Why = fmt.Sprintf("proxy-next-upstream-tries %q is not a count ingress-nginx reads", tries.Value)
		case n == 0:
			rt.Why = "proxy-next-upstream-tries 0: as many tries as there are upstreams, which no manifest bounds"
		case !hasWord(cond.Value, "timeout"):
			rt.Why = fmt.Sprintf("proxy-next-upstream %q has no timeout: nginx does not pass a request that timed out on", cond.Value)
		default:
			rt.Retries, rt.AfterTimeout = int(n)-1, n > 1
			rt.On += " (idempotent requests)"
			rt.PerTry = Value{V: 60, Set: true, Text: "60 (ingress-nginx's default proxy-read-timeout)"}
			if len(r.Timeouts) > 0 {
				rt.PerTry = r.Timeouts[0].Value
			}
		}
		r.Retry = rt
	}
	v.Routes = append(v.Routes, r)
}

// nginxClass reports whether an ingress class is ingress-nginx's ("nginx",
// the controller's default class name) or unset (the annotations written
// then say which controller the Ingress is for).
func nginxClass(c string) bool { return c == "" || c == "nginx" }

func hasWord(s, w string) bool {
	for _, f := range strings.Fields(s) {
		if f == w {
			return true
		}
	}
	return false
}
