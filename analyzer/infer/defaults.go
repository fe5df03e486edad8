package infer

import (
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/traffic"
)

// withDefaults returns a route as an opted-in controller serves it: what
// the manifests leave to the controller filled in with its defaults (the
// route unchanged, and "", when no opted-in controller serves it). An
// explicit value always wins over a default; a default bounds only where
// no explicit value replaces it along the route.
func (b *builder) withDefaults(v *traffic.View, r *traffic.Route) []defaulted {
	same := []defaulted{{r, ""}}
	if len(b.opts.Controllers) == 0 {
		return same
	}
	switch {
	case v.Ingress != nil:
		return b.ingressDefaults(v, r)
	case v.HTTPProxy != nil && b.opts.has("contour"):
		if hasSource(r.Timeouts, ".timeoutPolicy.response") {
			return same
		}
		d := *r
		d.Timeouts = append(append([]traffic.Timeout(nil), r.Timeouts...),
			defaultTimeout(v.Object, 15, "HTTPProxy "+v.Object.Name+": Contour's default timeoutPolicy.response 15s (opted in: infer.controllers)"))
		return []defaulted{{&d, "contour"}}
	case v.HTTPRoute != nil && v.Object.Group == "gateway.networking.k8s.io" && b.opts.has("envoy-gateway"):
		if hasSource(r.Timeouts, ".timeouts.request") || !b.servedByEnvoyGateway(v) {
			return same
		}
		d := *r
		d.Timeouts = append(append([]traffic.Timeout(nil), r.Timeouts...),
			defaultTimeout(v.Object, 15, "HTTPRoute "+v.Object.Name+": Envoy Gateway's default request timeout 15s (opted in: infer.controllers)"))
		return []defaulted{{&d, "envoy-gateway"}}
	}
	return same
}

type defaulted struct {
	route      *traffic.Route
	controller string
}

func (b *builder) ingressDefaults(v *traffic.View, r *traffic.Route) []defaulted {
	in := v.Ingress
	same := []defaulted{{r, ""}}
	class := in.Class
	if class == "" && b.onlyIngressController("ingress-nginx") {
		class = "nginx" // the one ingress controller opted in serves classless Ingresses
	}
	switch {
	case class == "nginx" && b.opts.has("ingress-nginx"):
		d := *r
		read := 60.0
		if in.Explicit["nginx.ingress.kubernetes.io/proxy-read-timeout"] {
			if len(r.Timeouts) > 0 {
				read = r.Timeouts[0].V
			}
		} else {
			d.Timeouts = append(append([]traffic.Timeout(nil), r.Timeouts...),
				defaultTimeout(v.Object, read, "Ingress "+v.Object.Name+": ingress-nginx's default proxy-read-timeout 60s (opted in: infer.controllers)"))
		}
		if !in.Explicit["nginx.ingress.kubernetes.io/proxy-next-upstream"] && !in.Explicit["nginx.ingress.kubernetes.io/proxy-next-upstream-tries"] {
			d.Retry = &traffic.Retry{Retries: 2, AfterTimeout: true, On: "error timeout (idempotent requests)",
				PerTry: traffic.Value{V: read, Set: true}, RetriesAt: v.Object.KindAt,
				Source: "Ingress " + v.Object.Name + ": ingress-nginx's default proxy-next-upstream \"error timeout\", proxy-next-upstream-tries 3 (opted in: infer.controllers)"}
		}
		return []defaulted{{&d, "ingress-nginx"}}
	case class == "kong" && b.opts.has("kong"):
		// Per backend: a Service's konghq.com annotations are explicit.
		var out []defaulted
		for _, be := range r.Backends {
			d := *r
			d.Backends = []traffic.Backend{be}
			if !b.kongAnnotated(v.Object, be) {
				d.Timeouts = append(append([]traffic.Timeout(nil), r.Timeouts...),
					defaultTimeout(v.Object, 60, "Ingress "+v.Object.Name+": Kong's default read timeout 60s (opted in: infer.controllers)"))
				d.Retry = &traffic.Retry{Retries: 5, AfterTimeout: true, On: "error, timeout", PerTry: traffic.Value{V: 60, Set: true},
					RetriesAt: v.Object.KindAt, Source: "Ingress " + v.Object.Name + ": Kong's default retries 5 (opted in: infer.controllers)"}
			}
			out = append(out, defaulted{&d, "kong"})
		}
		return out
	case class == "alb" && b.opts.has("aws-alb"):
		if len(r.Timeouts) > 0 {
			return same
		}
		d := *r
		d.Timeouts = []traffic.Timeout{defaultTimeout(v.Object, 60, "Ingress "+v.Object.Name+": the AWS Application Load Balancer's default idle timeout 60s (opted in: infer.controllers)")}
		return []defaulted{{&d, "aws-alb"}}
	}
	return same
}

// onlyIngressController reports whether name is the one Ingress
// controller opted in.
func (b *builder) onlyIngressController(name string) bool {
	n := 0
	for _, c := range []string{"ingress-nginx", "kong", "aws-alb"} {
		if b.opts.has(c) {
			n++
		}
	}
	return n == 1 && b.opts.has(name)
}

// kongAnnotated reports whether the Service a backend names carries
// Kong's annotations (its own link then says what Kong does).
func (b *builder) kongAnnotated(from *manifest.Object, be traffic.Backend) bool {
	for _, s := range b.services(from, be) {
		if sv := traffic.FromObject(s); sv != nil {
			for _, sr := range sv.Routes {
				if sr.Impl == "kong" {
					return true
				}
			}
		}
	}
	return false
}

// servedByEnvoyGateway reports whether an HTTPRoute attaches to a Gateway
// of Envoy Gateway's, and no BackendTrafficPolicy sets its timeout.
func (b *builder) servedByEnvoyGateway(v *traffic.View) bool {
	served := false
	for _, p := range v.HTTPRoute.Parents {
		if p.Kind == "Gateway" && b.envoyGateway(v.Object, p) {
			served = true
		}
	}
	if !served {
		return false
	}
	for _, pv := range b.views {
		if p := pv.BackendTrafficPolicy; p != nil && len(pv.Routes) > 0 && len(pv.Routes[0].Timeouts) > 0 {
			for _, rv := range b.policyRoutes(pv.Object, p) {
				if rv == v {
					return false
				}
			}
		}
	}
	return true
}

// envoyGateway reports whether a Gateway a route attaches to is Envoy
// Gateway's: its GatewayClass names Envoy Gateway's controller, or the
// Gateway or its class is not among the inputs (the repository opted
// into Envoy Gateway's defaults).
func (b *builder) envoyGateway(from *manifest.Object, p traffic.Ref) bool {
	for _, gv := range b.views {
		g := gv.Gateway
		if g == nil || gv.Object.Name != p.Name {
			continue
		}
		if p.Namespace == "" && !b.ws.Linkable(from, gv.Object) {
			continue
		}
		for _, cv := range b.views {
			if c := cv.GatewayClass; c != nil && cv.Object.Name == g.ClassName {
				return c.Controller == envoyGatewayController
			}
		}
		return true
	}
	return true
}

func defaultTimeout(o *manifest.Object, v float64, source string) traffic.Timeout {
	return traffic.Timeout{Value: traffic.Value{V: v, Set: true, At: o.KindAt}, Source: source}
}

func hasSource(ts []traffic.Timeout, suffix string) bool {
	for _, t := range ts {
		if len(t.Source) >= len(suffix) && t.Source[len(t.Source)-len(suffix):] == suffix {
			return true
		}
	}
	return false
}
