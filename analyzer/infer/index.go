package infer

import (
	"slices"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/traffic"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// link is one route that reaches a workload's pods.
type link struct {
	view  *traffic.View
	route *traffic.Route
	// via is the Service the route reaches the pods through (nil for a
	// Canary, which names its workload).
	via *manifest.Object
	// maybe is set when the route may not reach these pods: an Istio
	// subset whose DestinationRule is not among the inputs. Such a link
	// may lower a lower bound (on A) but never an upper bound (τ_out).
	maybe bool
	// controller names the opted-in controller whose default the route
	// is ("" for what the manifests write).
	controller string
	// deps are the other objects the link was made from (the HTTPRoute a
	// policy applies to), beside view and via: an edit to any of them may
	// change it (Readers).
	deps []*manifest.Object
}

// index links every traffic view of a workspace to the workloads it
// reaches.
type index struct {
	byWorkload map[*manifest.Object][]link
	// ignored are Linkerd routes a ServiceProfile overrides, by workload.
	ignored map[*manifest.Object][]link
	// unprovided are the routes of Canaries that name no spec.provider,
	// by workload, as Flagger's default provider would write them, when
	// the repository does not opt into that default: Flagger's
	// -mesh-provider flag decides them, so they are only noted
	// (byWorkload holds them with nothing read; linkCanary).
	unprovided map[*manifest.Object][]link
}

type indexKey struct{ controllers string }

// indexOf returns the workspace's index, built once per workspace.
func indexOf(ws *workspace.Workspace, opts Options) *index {
	return ws.Derive(indexKey{opts.key()}, func() any { return build(ws, opts) }).(*index)
}

type builder struct {
	ws        *workspace.Workspace
	opts      Options
	idx       *index
	views     []*traffic.View
	workloads []*manifest.Object // objects with a pod template
}

func build(ws *workspace.Workspace, opts Options) *index {
	b := &builder{ws: ws, opts: opts, idx: &index{byWorkload: map[*manifest.Object][]link{}, ignored: map[*manifest.Object][]link{},
		unprovided: map[*manifest.Object][]link{}}}
	for _, o := range ws.AllObjects().All() {
		if !traffic.Is(o) {
			continue // a kind check, without the object's memo lock: the language server builds this on every edit
		}
		if v := traffic.FromObject(o); v != nil {
			b.views = append(b.views, v)
		}
	}
	if len(b.views) == 0 {
		return b.idx // the common case: no traffic configuration at all
	}
	for _, o := range ws.AllObjects().All() {
		// A Rollout with a workloadRef runs, and is selected by the
		// labels of, the template of the object it names (PodsOf).
		if w, _ := ws.PodsOf(o); w != nil && w.HasTemplate {
			b.workloads = append(b.workloads, o)
		}
	}
	for _, v := range b.views {
		switch {
		case v.Service != nil:
			for i := range v.Routes {
				b.linkService(v, &v.Routes[i], v.Object, "")
			}
		case v.Canary != nil:
			b.linkCanary(v)
		case v.BackendTrafficPolicy != nil:
			b.linkPolicy(v)
		case v.HTTPRoute != nil && b.governed(v):
			// linked through the policies that govern it (linkPolicy)
		default:
			for i := range v.Routes {
				for _, d := range b.withDefaults(v, &v.Routes[i]) {
					b.linkRoute(v, d.route, d.controller)
				}
			}
		}
	}
	return b.idx
}

// linkRoute links a route through each of its backends; deps are the
// objects besides v the route was read from.
func (b *builder) linkRoute(v *traffic.View, r *traffic.Route, controller string, deps ...*manifest.Object) {
	for _, be := range r.Backends {
		for _, svc := range b.services(v.Object, be) {
			sv := traffic.FromObject(svc)
			maybe := false
			var subset map[string]string
			if be.Subset != "" {
				labels, found := b.subset(v.Object, svc, be.Subset)
				if !found {
					maybe = true
				} else if labels == nil {
					continue // a subset that is not defined selects nothing
				}
				subset = labels
			}
			b.linkService(v, r, svc, controller, linkOpts{maybe: maybe, subset: subset, service: sv, deps: deps})
		}
	}
}

type linkOpts struct {
	maybe   bool
	subset  map[string]string
	service *traffic.View
	deps    []*manifest.Object
}

// linkService links a route to the workloads a Service selects.
func (b *builder) linkService(v *traffic.View, r *traffic.Route, svc *manifest.Object, controller string, lo ...linkOpts) {
	var o linkOpts
	if len(lo) > 0 {
		o = lo[0]
	}
	sv := o.service
	if sv == nil {
		sv = traffic.FromObject(svc)
	}
	if sv == nil || sv.Service == nil || len(sv.Service.Selector) == 0 {
		return
	}
	linkerd := r.Impl == "linkerd"
	for _, w := range b.workloads {
		if !b.ws.Linkable(svc, w) {
			continue
		}
		wv, _ := b.ws.PodsOf(w)
		if !wv.HasLabels(sv.Service.Selector) || (len(o.subset) > 0 && !wv.HasLabels(o.subset)) {
			continue
		}
		l := link{view: v, route: r, via: svc, maybe: o.maybe, controller: controller, deps: o.deps}
		if linkerd && b.hasServiceProfile(svc) {
			b.idx.ignored[w] = append(b.idx.ignored[w], l)
			continue
		}
		b.idx.byWorkload[w] = append(b.idx.byWorkload[w], l)
	}
}

// services returns the Services a backend names: of that name, in the
// backend's namespace (the routing object's when it names none), near the
// routing object.
func (b *builder) services(from *manifest.Object, be traffic.Backend) []*manifest.Object {
	var out []*manifest.Object
	for _, s := range b.ws.Named("Service", be.Name) {
		if s.Group != "" || s == from {
			continue
		}
		if be.Namespace == "" {
			if !b.ws.Linkable(from, s) {
				continue
			}
		} else if !slices.Contains(b.ws.Namespaces(s), be.Namespace) || !b.ws.DeployedTogether(from, s) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// subset returns the labels of an Istio subset of a Service: found is
// false when no DestinationRule for the Service is among the inputs, and
// labels nil when one is and defines no such subset.
func (b *builder) subset(from, svc *manifest.Object, name string) (labels map[string]string, found bool) {
	for _, v := range b.views {
		dr := v.DestinationRule
		if dr == nil || dr.Host.Name != svc.Name {
			continue
		}
		ns := dr.Host.Namespace
		if (ns == "" && !b.ws.Linkable(v.Object, svc)) || (ns != "" && !slices.Contains(b.ws.Namespaces(svc), ns)) {
			continue
		}
		found = true
		if l, ok := dr.Subsets[name]; ok {
			if l == nil {
				l = map[string]string{}
			}
			return l, true
		}
	}
	return nil, found
}

// hasServiceProfile reports whether a Linkerd ServiceProfile describes a
// Service (Linkerd then ignores its retry and timeout annotations).
func (b *builder) hasServiceProfile(svc *manifest.Object) bool {
	for _, v := range b.views {
		if p := v.ServiceProfile; p != nil && p.Service == svc.Name && slices.Contains(b.ws.Namespaces(svc), p.Namespace) {
			return true
		}
	}
	return false
}

// linkCanary links a Flagger Canary to the workload its targetRef names.
// A Canary without spec.provider is routed by the provider Flagger's
// -mesh-provider flag names, installation configuration the manifests do
// not show: unless the repository opts into Flagger's default
// (flagger-istio), its routes (read as that default writes them) are kept
// apart to be reported as not counted, and in their place the workload
// gets routes with nothing read from them: they still reach the pods, and
// under a provider that ignores spec.service.retries they amplify nothing,
// so they lower the least factor over the routes to 1 (a lower bound on A
// must hold whatever the flag says) and bound no timeout.
func (b *builder) linkCanary(v *traffic.View) {
	c := v.Canary
	routes, controller := v.Routes, ""
	var unread []traffic.Route
	if c.Provider == "" {
		if b.opts.has(flaggerDefault) {
			routes, controller = optedRoutes(v), flaggerDefault
		} else {
			routes, unread = unreadRoutes(v), v.Routes
		}
	}
	for _, w := range b.ws.Named(c.Target.Kind, c.Target.Name) {
		if wv := b.ws.Workload(w); wv != nil && b.ws.Linkable(v.Object, w) {
			for i := range routes {
				b.idx.byWorkload[w] = append(b.idx.byWorkload[w], link{view: v, route: &routes[i], controller: controller})
			}
			for i := range unread {
				b.idx.unprovided[w] = append(b.idx.unprovided[w], link{view: v, route: &unread[i]})
			}
		}
	}
}

// unreadRoutes returns a Canary's routes as they reach the pods when its
// provider is not known: the backends only, no retry and no timeout.
func unreadRoutes(v *traffic.View) []traffic.Route {
	out := make([]traffic.Route, len(v.Routes))
	for i, r := range v.Routes {
		out[i] = traffic.Route{Backends: r.Backends}
	}
	return out
}

// optedRoutes returns a Canary's routes with their sources saying they are
// read as Flagger's default provider writes them, by opt-in.
func optedRoutes(v *traffic.View) []traffic.Route {
	const as = " (no spec.provider: as Flagger's default mesh provider " + traffic.DefaultProvider + " writes it, opted in: infer.controllers)"
	out := make([]traffic.Route, len(v.Routes))
	for i, r := range v.Routes {
		r.Timeouts = append([]traffic.Timeout(nil), r.Timeouts...)
		for j := range r.Timeouts {
			r.Timeouts[j].Source += as
		}
		if r.Retry != nil {
			rt := *r.Retry
			rt.Source += as
			r.Retry = &rt
		}
		out[i] = r
	}
	return out
}

// linkPolicy links an Envoy Gateway BackendTrafficPolicy through the
// HTTPRoutes it targets, or the HTTPRoutes attached to the Gateways it
// targets.
func (b *builder) linkPolicy(v *traffic.View) {
	p := v.BackendTrafficPolicy
	for _, rv := range b.policyRoutes(v.Object, p) {
		for _, rule := range rv.Routes {
			for i := range v.Routes {
				r := v.Routes[i] // the policy, applied to this rule's backends
				r.Backends = rule.Backends
				r.Timeouts = append(append([]traffic.Timeout(nil), r.Timeouts...), rule.Timeouts...)
				b.linkRoute(v, &r, "", rv.Object)
			}
		}
	}
}

// governed reports whether a BackendTrafficPolicy applies to an
// HTTPRoute: Envoy Gateway then implements its rules with the policy's
// retries, and the route is linked through the policy.
func (b *builder) governed(rv *traffic.View) bool {
	for _, v := range b.views {
		if p := v.BackendTrafficPolicy; p != nil && slices.Contains(b.policyRoutes(v.Object, p), rv) {
			return true
		}
	}
	return false
}

// policyRoutes returns the HTTPRoutes a policy applies to.
func (b *builder) policyRoutes(from *manifest.Object, p *traffic.BackendTrafficPolicy) []*traffic.View {
	var out []*traffic.View
	for _, t := range p.Targets {
		if t.Group != "gateway.networking.k8s.io" {
			continue
		}
		for _, rv := range b.views {
			hr := rv.HTTPRoute
			if hr == nil || rv.Object.Group != "gateway.networking.k8s.io" || !b.ws.Linkable(from, rv.Object) {
				continue
			}
			switch t.Kind {
			case "HTTPRoute":
				if rv.Object.Name == t.Name {
					out = append(out, rv)
				}
			case "Gateway":
				for _, pr := range hr.Parents {
					if pr.Kind == "Gateway" && pr.Name == t.Name {
						out = append(out, rv)
						break
					}
				}
			}
		}
	}
	return out
}

// globalKinds are the traffic kinds whose objects bear on links they are
// not part of: a DestinationRule's subsets, a ServiceProfile that
// overrides Linkerd's annotations, the Gateways and GatewayClasses that
// decide which controller's defaults apply, a BackendTrafficPolicy that
// governs routes. An edit to one may change any workload's links.
var globalKinds = map[string]bool{"DestinationRule": true, "ServiceProfile": true, "Gateway": true, "GatewayClass": true,
	"BackendTrafficPolicy": true}

// Readers returns the workloads whose inferred inputs read one of objs,
// in the workspace's index (built if it was not): those linked through
// one of them (as the route, the Service, or an object the route was
// read from), or every linked workload when one of objs is of a kind
// that bears on links it is not part of. A language server that lints
// again only what an edit reaches asks it of the workspaces before and
// after the edit: the union covers links made, changed and broken.
func Readers(ws *workspace.Workspace, opts Options, objs []*manifest.Object) []*manifest.Object {
	touched := map[*manifest.Object]bool{}
	global := false
	for _, o := range objs {
		if traffic.Is(o) {
			touched[o] = true
			global = global || globalKinds[o.Kind]
		}
	}
	if len(touched) == 0 {
		return nil // no traffic object: nothing inferred reads them
	}
	idx := indexOf(ws, opts)
	var out []*manifest.Object
	for _, m := range []map[*manifest.Object][]link{idx.byWorkload, idx.ignored, idx.unprovided} {
		for w, links := range m {
			for _, l := range links {
				if global || touched[l.view.Object] || touched[l.via] || slices.ContainsFunc(l.deps, func(d *manifest.Object) bool { return touched[d] }) {
					out = append(out, w)
					break
				}
			}
		}
	}
	return out
}
