package traffic

import (
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// FuzzFromObject: a traffic object of any shape (a sequence where a
// mapping is expected, aliases, numbers for strings) is read leniently,
// never with a panic, and every value it reads is finite and not negative.
func FuzzFromObject(f *testing.F) {
	paths, _ := filepath.Glob("../infer/testdata/*.txtar")
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		for _, file := range txtar.Parse(data).Files {
			f.Add(file.Data)
		}
	}
	f.Add([]byte("apiVersion: networking.istio.io/v1\nkind: VirtualService\nspec: {http: [{route: 3, retries: [1], timeout: {a: b}}]}\n"))
	f.Add([]byte("apiVersion: v1\nkind: Service\nmetadata: {annotations: [retry.linkerd.io/limit]}\nspec: {selector: [a]}\n"))
	f.Add([]byte("apiVersion: projectcontour.io/v1\nkind: HTTPProxy\nspec: {routes: [{retryPolicy: {count: -2, perTryTimeout: -1s}}]}\n"))
	f.Add([]byte("a: &x {kind: Canary}\napiVersion: flagger.app/v1beta1\nkind: Canary\nspec: {service: *x, targetRef: *x}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := manifest.Parse(token.NewFileSet(), "f.yaml", data, manifest.Options{})
		var objs []*manifest.Object
		for _, d := range file.Docs {
			objs = append(objs, d.Objects()...)
		}
		for _, o := range objs {
			v := FromObject(o)
			if v == nil {
				continue
			}
			for _, r := range v.Routes {
				if rt := r.Retry; rt != nil && (rt.Retries < 0 || rt.PerTry.V < 0) {
					t.Fatalf("retry %+v", rt)
				}
				for _, tm := range r.Timeouts {
					if !(tm.V > 0) {
						t.Fatalf("timeout %+v", tm)
					}
				}
			}
		}
	})
}
