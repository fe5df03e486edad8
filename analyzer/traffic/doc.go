// Package traffic reads what traffic configuration says about requests to
// a workload: the retries a proxy makes and the timeouts after which it
// gives up, from Services (Linkerd and Kong annotations), Istio
// VirtualServices and DestinationRules, Gateway API HTTPRoutes, Gateways
// and GatewayClasses, Linkerd ServiceProfiles, Contour HTTPProxies, Envoy
// Gateway BackendTrafficPolicies, Ingresses (ingress-nginx annotations)
// and Flagger Canaries.
//
// Data flow: manifest.Object (node tree, while it is at hand)
//
//	-> FromObject: a View of one object, memoized on it like the scaling
//	   views, every value with the Field it was read from
//
// Nothing here links an object to a workload or evaluates a law: package
// infer links views to autoscalers through Services and their selectors,
// and decides what each view soundly bounds.
package traffic
