package traffic

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// Canary is a Flagger Canary: it names its workload and autoscaler
// exactly, and generates the traffic objects of its provider.
type Canary struct {
	Target     Ref // spec.targetRef
	Autoscaler Ref // spec.autoscalerRef (Kind "" when none)
	// Provider is spec.provider as written ("" when unset).
	Provider string
}

// DefaultProvider is the provider a Canary without spec.provider is read
// as, Flagger's -mesh-provider default (cmd/flagger/main.go). That flag is
// installation configuration the manifests do not show, so the routes of
// such a Canary are read as this provider writes them but bound nothing
// unless the repository says its Flagger runs with the default
// (infer.controllers: flagger-istio; package infer).
const DefaultProvider = "istio"

// Flagger copies spec.service.retries and spec.service.timeout into the
// VirtualService it generates for the istio provider, and into the
// HTTPProxy's retryPolicy and timeoutPolicy for contour
// (https://github.com/fluxcd/flagger/blob/main/pkg/router/istio.go and
// contour.go). Of the other providers, appmesh also reads both and
// gatewayapi the timeout (appmesh.go, gateway_api.go); scalelint reads
// neither, and the rest do not read them.
func readCanary(o *manifest.Object, v *View) {
	spec := get(o.Root(), "spec")
	c := &Canary{Target: readRef(o, get(spec, "targetRef"), "apps", "Deployment"), Provider: str(get(spec, "provider"))}
	provider := c.Provider
	if provider == "" {
		provider = DefaultProvider
	}
	if a := get(spec, "autoscalerRef"); a != nil {
		c.Autoscaler = readRef(o, a, "", "")
	}
	v.Canary = c
	svc := get(spec, "service")
	where := fmt.Sprintf("Canary %s spec.service", o.Name)
	r := Route{Impl: provider, Backends: []Backend{{Kind: c.Target.Kind, Name: c.Target.Name, At: c.Target.At}}}
	switch provider {
	case "istio":
		timeout := duration(o, svc, "timeout")
		if timeout.Set && timeout.V > 0 {
			r.Timeouts = append(r.Timeouts, Timeout{timeout, where + ".timeout"})
		}
		if k, rn := entry(svc, "retries"); rn != nil {
			r.Retry = istioRetry(o, k, rn, timeout, where)
			if r.Retry.PerTry.Set && r.Retry.Retries > 0 {
				r.Timeouts = append(r.Timeouts, Timeout{r.Retry.PerTry, where + ".retries.perTryTimeout"})
			}
		}
	case "contour":
		// ... and timeout into its timeoutPolicy.response.
		if d := contourDuration(o, svc, "timeout"); d.Set {
			r.Timeouts = append(r.Timeouts, Timeout{d, where + ".timeout"})
		}
		if k, rn := entry(svc, "retries"); rn != nil {
			// Flagger maps attempts, perTryTimeout and retryOn onto
			// Contour's count, perTryTimeout and retryOn.
			r.Retry = contourRetryFromIstio(o, o.FieldOf(k, rn), rn, where+".retries")
		}
	}
	v.Routes = append(v.Routes, r)
}

// ServiceProfile is a Linkerd ServiceProfile, named after the FQDN of the
// Service it describes; while one exists, Linkerd ignores the Service's
// retry and timeout annotations.
type ServiceProfile struct{ Service, Namespace string }

func readServiceProfile(o *manifest.Object, v *View) {
	b, _ := istioHost(o.Name) // name.namespace.svc.cluster.local
	v.ServiceProfile = &ServiceProfile{Service: b.Name, Namespace: b.Namespace}
}

// contourRetryFromIstio reads a Canary's istio-shaped retries as Flagger
// writes them into a Contour retryPolicy (makeRetryPolicy): attempts as
// count (Contour reads 0 and 1 as 1), retryOn split at commas.
func contourRetryFromIstio(o *manifest.Object, at manifest.Field, rn *yaml.Node, where string) *Retry {
	rt := &Retry{Source: where, RetriesAt: at, Retries: 1, On: "5xx"}
	if a := integer(o, rn, "attempts"); a.Set && a.V > 1 {
		rt.Retries, rt.RetriesAt = int(a.V), a.At
	}
	rt.On = str(get(rn, "retryOn"))
	if d := duration(o, rn, "perTryTimeout"); d.Set && d.V > 0 {
		rt.PerTry = d
	}
	if rt.On == "" {
		rt.Why = "retryOn unset: Flagger writes an empty condition, which Contour's CRD refuses"
		return rt
	}
	envoyRetriesAfterTimeout(rt)
	return rt
}
