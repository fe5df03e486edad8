// Package infer reads, from what manifests already hold, sound bounds on
// the law inputs nobody annotates: a lower bound on the dead time from
// the scale target's probes, the sampling delay KEDA's cached metrics add,
// a lower bound on the retry amplification A and an upper bound on the
// client timeout from the traffic configuration that routes to the
// target's pods.
//
// Data flow: workspace (immutable)
//
//	-> index (once per workspace, Workspace.Derive): every traffic view
//	   (package traffic) linked exactly to workloads: a route's backend ->
//	   the Service of that name in the route's namespace -> the workloads
//	   whose pod template labels its selector matches; a Flagger Canary ->
//	   its targetRef (its spec.service read only under a spec.provider
//	   that writes it, or Flagger's default by opt-in: controllers.go); an
//	   Envoy Gateway BackendTrafficPolicy -> the routes of its targets
//	-> For(autoscaler): scaling.Inputs, each FromInference with its Bound
//	   and Source, and Notes on what was found and not counted
//
// The inputs are used only in the direction their bound is sound: a rule
// may fire from a lower bound on τ or A only when the law is violated at
// that bound, and from an upper bound on τ_out only where a shorter
// timeout could not help; an upper bound never makes a law hold. An
// annotation or a .scalelint.yaml default always wins (scaling.MergeInferred).
package infer
