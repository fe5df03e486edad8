package infer

import "strings"

// Controller is a data-plane controller whose defaults a repository may
// opt into (.scalelint.yaml infer.controllers): they apply to its traffic
// objects where the manifests leave a value to the controller.
type Controller struct {
	Name    string
	Applies string // which objects are the controller's
	Default string // what is assumed, in words
	Source  string // where the default is read from
}

// Controllers are the defaults scalelint knows, each read from its
// project's source or documentation.
var Controllers = []Controller{
	{Name: "ingress-nginx", Applies: "Ingresses of class nginx (or of no class)",
		Default: "proxy-next-upstream \"error timeout\" and proxy-next-upstream-tries 3 (2 retries after a timeout, idempotent requests), proxy-read-timeout 60 s",
		Source:  "https://github.com/kubernetes/ingress-nginx/blob/main/internal/ingress/controller/config/config.go"},
	{Name: "kong", Applies: "Ingresses of class kong",
		Default: "retries 5 (a request that timed out is retried), read timeout 60 s",
		Source:  "https://developer.konghq.com/gateway/entities/service/ and https://developer.konghq.com/support/kong-proxy-latency-exceeds-timeout-limit-specified-on-service/"},
	{Name: "aws-alb", Applies: "Ingresses of class alb",
		Default: "idle timeout 60 s (no retries)",
		Source:  "https://repost.aws/knowledge-center/eks-http-504-errors"},
	{Name: "contour", Applies: "HTTPProxies",
		Default: "timeoutPolicy.response 15 s (no retries without a retryPolicy)",
		Source:  "https://github.com/projectcontour/contour/blob/main/apis/projectcontour/v1/httpproxy.go"},
	{Name: "envoy-gateway", Applies: "HTTPRoutes attached to Gateways whose GatewayClass is Envoy Gateway's (or not among the inputs)",
		Default: "request timeout 15 s (no retries without a BackendTrafficPolicy)",
		Source:  "https://github.com/envoyproxy/gateway/blob/main/internal/gatewayapi/route.go"},
	{Name: flaggerDefault, Applies: "Flagger Canaries without spec.provider",
		Default: "Flagger runs with its default -mesh-provider istio: spec.service.retries and timeout are read as the VirtualService it generates",
		Source:  "https://github.com/fluxcd/flagger/blob/main/cmd/flagger/main.go and https://github.com/fluxcd/flagger/blob/main/pkg/router/istio.go"},
}

// flaggerDefault opts into Flagger's default mesh provider for Canaries
// that name none.
const flaggerDefault = "flagger-istio"

// ControllerNames lists the names Controllers accepts.
func ControllerNames() []string {
	var out []string
	for _, c := range Controllers {
		out = append(out, c.Name)
	}
	return out
}

// Options are the inference settings of a run.
type Options struct {
	// Controllers are the controllers whose defaults apply (by name).
	Controllers []string
}

func (o Options) has(name string) bool {
	for _, c := range o.Controllers {
		if c == name {
			return true
		}
	}
	return false
}

func (o Options) key() string { return strings.Join(o.Controllers, ",") }

// Envoy Gateway's GatewayClass controller name (its GatewayClass docs).
const envoyGatewayController = "gateway.envoyproxy.io/gatewayclass-controller"
