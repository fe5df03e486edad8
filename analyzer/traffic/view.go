package traffic

import (
	"github.com/scalelint/scalelint/analyzer/manifest"
)

// Retry is one retry policy of a proxy: how many times it re-sends a
// request, and whether it does so after a per-try timeout, the one case
// in which it re-sends work the service may still be doing (a retry on a
// refused connection or a 503 re-sends work nobody started).
type Retry struct {
	Retries   int            // retries after the first attempt
	RetriesAt manifest.Field // where the count is written (or the policy)
	PerTry    Value          // the per-try timeout
	On        string         // the retry conditions, as written or defaulted
	// AfterTimeout reports that a per-try timeout is retried: a per-try
	// timeout is set and a condition covers it. Only then does the policy
	// count toward the retry amplification A.
	AfterTimeout bool
	// Why says why the policy does not re-send work after a timeout ("").
	Why string
	// Source names the policy for people: "VirtualService reviews
	// http[0].retries".
	Source string
}

// Timeout is a request timeout of a proxy or client: the caller abandons
// the request after it, so the client timeout τ_out is at most this.
type Timeout struct {
	Value
	Source string // "VirtualService reviews http[0].timeout"
}

// Route is one rule that sends requests to backends, with its policies.
type Route struct {
	// Impl names what applies the policies: istio, linkerd, kong,
	// gateway-api, contour, envoy-gateway, ingress-nginx, alb.
	Impl     string
	Backends []Backend
	Retry    *Retry // nil: no retry policy is written
	Timeouts []Timeout
}

// Backend is a Service (or, for a Canary, a workload) a route sends to.
type Backend struct {
	Kind      string // "Service", or the workload kind for a Canary
	Name      string
	Namespace string // "" means the routing object's namespace
	Subset    string // an Istio DestinationRule subset
	At        manifest.Field
}

// Ref is a reference to another object by kind and name.
type Ref struct {
	Group, Kind, Name, Namespace string
	At                           manifest.Field
}

// View is what one traffic object says. Exactly one of the kind fields is
// set; the others are nil.
type View struct {
	Object *manifest.Object
	// Routes are the object's route rules (for a Service, the policy its
	// annotations apply to requests addressed to it).
	Routes []Route

	Service              *Service
	VirtualService       *VirtualService
	DestinationRule      *DestinationRule
	HTTPRoute            *HTTPRoute
	Gateway              *Gateway
	GatewayClass         *GatewayClass
	ServiceProfile       *ServiceProfile
	HTTPProxy            *HTTPProxy
	BackendTrafficPolicy *BackendTrafficPolicy
	Ingress              *Ingress
	Canary               *Canary
}

type kindKey struct{ group, kind string }

// readers are the kinds this package reads, by API group and kind.
var readers = map[kindKey]func(o *manifest.Object, v *View){
	{"", "Service"}: readService,
	{"networking.istio.io", "VirtualService"}:         readVirtualService,
	{"networking.istio.io", "DestinationRule"}:        readDestinationRule,
	{"gateway.networking.k8s.io", "HTTPRoute"}:        readHTTPRoute,
	{"policy.linkerd.io", "HTTPRoute"}:                readHTTPRoute,
	{"gateway.networking.k8s.io", "Gateway"}:          readGateway,
	{"gateway.networking.k8s.io", "GatewayClass"}:     readGatewayClass,
	{"linkerd.io", "ServiceProfile"}:                  readServiceProfile,
	{"projectcontour.io", "HTTPProxy"}:                readHTTPProxy,
	{"gateway.envoyproxy.io", "BackendTrafficPolicy"}: readBackendTrafficPolicy,
	{"networking.k8s.io", "Ingress"}:                  readIngress,
	{"extensions", "Ingress"}:                         readIngress,
	{"flagger.app", "Canary"}:                         readCanary,
}

// Kinds lists the kinds read, for the workspace: every one but Service is
// parsed as its file is read; a Service only when it mentions a mesh's
// annotations, or when a route may name it (NeedsServices).
func init() {
	for k := range readers {
		if k.kind != "Service" {
			manifest.RegisterEagerKind(k.group, k.kind)
		}
	}
	manifest.RegisterEagerMention("Service", linkerdPrefixes...)
	manifest.RegisterEagerMention("Service", kongPrefix)
}

// Is reports whether the object is of a kind this package reads.
func Is(o *manifest.Object) bool {
	// The kinds first, without hashing: the language server asks this of
	// every object of the workspace on each edit (package infer's index),
	// and most are of none of these kinds.
	switch o.Kind {
	case "Service", "VirtualService", "DestinationRule", "HTTPRoute", "Gateway", "GatewayClass",
		"ServiceProfile", "HTTPProxy", "BackendTrafficPolicy", "Ingress", "Canary":
	default:
		return false
	}
	_, ok := readers[kindKey{o.Group, o.Kind}]
	return ok
}

// RoutesToServices reports whether an object of this kind may route to
// Services by name: the workspace then parses the Services it skipped.
func RoutesToServices(o *manifest.Object) bool {
	switch o.Kind {
	case "VirtualService", "DestinationRule", "HTTPRoute", "HTTPProxy", "Ingress":
		return Is(o)
	}
	return false
}

type viewKey struct{}

// FromObject returns the view of a traffic object, nil for other objects.
// The view is built once per object (while its tree is at hand, as the
// workspace prepares each file) and shared: callers must not change it.
func FromObject(o *manifest.Object) *View {
	read, ok := readers[kindKey{o.Group, o.Kind}]
	if !ok {
		return nil
	}
	return o.Memo(viewKey{}, func() any {
		v := &View{Object: o}
		read(o, v)
		return v
	}).(*View)
}
