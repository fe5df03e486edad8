package traffic

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// HTTPRoute is a Gateway API HTTPRoute (or Linkerd's policy.linkerd.io
// one): the parents it attaches to (Gateways, or a Service for mesh
// traffic).
type HTTPRoute struct {
	Parents []Ref
	// Linkerd is set when Linkerd retry or timeout annotations are on the
	// route: they override the parent Service's.
	Linkerd bool
}

// Gateway is a Gateway API Gateway.
type Gateway struct{ ClassName string }

// GatewayClass is a Gateway API GatewayClass: the controller that
// implements its Gateways.
type GatewayClass struct{ Controller string }

// Gateway API semantics (https://github.com/kubernetes-sigs/gateway-api/blob/main/apis/v1/httproute_types.go):
// rules[].timeouts.request bounds the whole request, backendRequest each
// request to a backend (0s disables either); rules[].retry (experimental)
// leaves which failures are retried, and whether a backendRequest timeout
// is, to the implementation ("implementation-specific"), so a route's own
// retries are never counted toward A. backendRefs default to kind Service
// in the route's namespace.
func readHTTPRoute(o *manifest.Object, v *View) {
	root := o.Root()
	spec := get(root, "spec")
	hr := &HTTPRoute{}
	for _, p := range items(get(spec, "parentRefs")) {
		hr.Parents = append(hr.Parents, readRef(o, p, "gateway.networking.k8s.io", "Gateway"))
	}
	v.HTTPRoute = hr
	ann := annotations(o, root)
	// Linkerd reads the annotations of routes whose parent is a Service
	// (mesh traffic); a Gateway's implementation does not.
	lr, hasLinkerd := linkerdRoute(ann, "HTTPRoute "+o.Name)
	meshParent := false
	for _, p := range hr.Parents {
		meshParent = meshParent || (p.Group == "" && p.Kind == "Service")
	}
	hasLinkerd = hasLinkerd && meshParent
	hr.Linkerd = hasLinkerd
	for i, rule := range items(get(spec, "rules")) {
		where := fmt.Sprintf("HTTPRoute %s rules[%d]", o.Name, i)
		r := Route{Impl: "gateway-api"}
		for _, b := range items(get(rule, "backendRefs")) {
			ref := readRef(o, b, "", "Service")
			if ref.Group == "" && ref.Kind == "Service" && ref.Name != "" {
				r.Backends = append(r.Backends, Backend{Kind: "Service", Name: ref.Name, Namespace: ref.Namespace, At: ref.At})
			}
		}
		t := get(rule, "timeouts")
		for _, k := range []string{"request", "backendRequest"} {
			if d := duration(o, t, k); d.Set && d.V > 0 {
				r.Timeouts = append(r.Timeouts, Timeout{d, where + ".timeouts." + k})
			}
		}
		if rk, rn := entry(rule, "retry"); rn != nil {
			rt := &Retry{Source: where + ".retry", RetriesAt: o.FieldOf(rk, rn),
				Why: "Gateway API retries are implementation-specific: which failures are retried, and whether a timed-out try is, depends on the implementation"}
			if a := integer(o, rn, "attempts"); a.Set {
				rt.Retries, rt.RetriesAt = int(a.V), a.At
			}
			r.Retry = rt
		}
		if hasLinkerd {
			r.Impl = "linkerd"
			if lr.Retry != nil {
				r.Retry = lr.Retry
			}
			r.Timeouts = append(r.Timeouts, lr.Timeouts...)
		}
		v.Routes = append(v.Routes, r)
	}
}

// readRef reads an object reference (parentRefs, backendRefs, targetRefs)
// with the defaults its API gives.
func readRef(o *manifest.Object, n *yaml.Node, group, kind string) Ref {
	r := Ref{Group: group, Kind: kind}
	if g := get(n, "group"); g != nil {
		r.Group = str(g)
	}
	if k := str(get(n, "kind")); k != "" {
		r.Kind = k
	}
	r.Namespace = str(get(n, "namespace"))
	r.At, _ = fieldValue(o, n, "name")
	r.Name = str(get(n, "name"))
	return r
}

func readGateway(o *manifest.Object, v *View) {
	v.Gateway = &Gateway{ClassName: str(get(o.Root(), "spec", "gatewayClassName"))}
}

func readGatewayClass(o *manifest.Object, v *View) {
	v.GatewayClass = &GatewayClass{Controller: str(get(o.Root(), "spec", "controllerName"))}
}
