package workspace

import (
	"testing"

	"github.com/scalelint/scalelint/analyzer/traffic"
)

const service = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n"

// Services are many in a repository and rarely bear on a law: the parser
// skips them (they cost most of a large repository's parse) unless one
// mentions a mesh's retry annotations, or a route may name them.
func TestServicesParsedOnlyWhenNeeded(t *testing.T) {
	count := func(ws *Workspace) (n int) {
		for _, o := range ws.AllObjects().All() {
			if o.Kind == "Service" {
				n++
			}
		}
		return n
	}
	plain := build(t, map[string]string{"d.yaml": deploy, "svc.yaml": service}, Options{})
	if n := count(plain); n != 0 {
		t.Errorf("a Service is parsed without a route that may name it (%d)", n)
	}
	linkerd := build(t, map[string]string{"d.yaml": deploy, "svc.yaml": service,
		"api.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: api\n  annotations: {retry.linkerd.io/limit: \"2\"}\nspec:\n  selector: {app: api}\n"}, Options{})
	if n := count(linkerd); n != 1 {
		t.Errorf("%d Services parsed; want the one with Linkerd annotations", n)
	}
	routed := build(t, map[string]string{"d.yaml": deploy, "svc.yaml": service,
		"vs.yaml": "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: web\nspec:\n  http: [{route: [{destination: {host: web}}]}]\n"}, Options{})
	if n := count(routed); n != 1 {
		t.Errorf("%d Services parsed; a VirtualService may name it", n)
	}
	for _, o := range routed.AllObjects().All() {
		if v := traffic.FromObject(o); o.Kind == "VirtualService" && (v == nil || len(v.Routes) != 1 || len(v.Routes[0].Backends) != 1) {
			t.Errorf("VirtualService view %+v", v)
		}
	}
}
