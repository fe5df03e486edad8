package workspace

import (
	"fmt"
	"go/token"
	"testing"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// BenchmarkNew builds the workspace of n services (a Deployment and its
// HPA in a directory each) from files parsed once: what check's index
// phase does after loading, which has built the objects' views already
// (the first New builds them here; they are memoized). Run it with -cpu
// 1,2 to see what the parts New reads on every core save.
func BenchmarkNew(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			fset := token.NewFileSet()
			var files []*manifest.File
			for i := 0; i < n; i++ {
				files = append(files,
					manifest.Parse(fset, fmt.Sprintf("s%05d/deploy.yaml", i), fmt.Appendf(nil, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: s%d\n", i), manifest.Options{Eager: manifest.IsReadKind}),
					manifest.Parse(fset, fmt.Sprintf("s%05d/hpa.yaml", i), fmt.Appendf(nil, "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: s%d\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: s%d}\n  maxReplicas: 3\n", i, i), manifest.Options{Eager: manifest.IsReadKind}))
			}
			New(fset, files, Options{})
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				New(fset, files, Options{})
			}
		})
	}
}
