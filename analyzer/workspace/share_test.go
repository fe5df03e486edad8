package workspace

import (
	"fmt"
	"go/token"
	"testing"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace/chunked"
)

// services returns a workspace of n services, each a Deployment and the
// HPA that scales it in a directory of its own, and a function that
// parses service i's HPA file again with another maxReplicas: an edit.
func services(n int) (*Workspace, func(i, max int) map[string][]*manifest.File) {
	fset := token.NewFileSet()
	parse := func(p, src string) *manifest.File {
		return manifest.Parse(fset, p, []byte(src), manifest.Options{Eager: manifest.IsReadKind})
	}
	hpaOf := func(i, max int) (string, string) {
		return fmt.Sprintf("s%05d/hpa.yaml", i), fmt.Sprintf("apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: s%d\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: s%d}\n  maxReplicas: %d\n", i, i, max)
	}
	var files []*manifest.File
	for i := 0; i < n; i++ {
		files = append(files, parse(fmt.Sprintf("s%05d/deploy.yaml", i), fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: s%d\n", i)))
		files = append(files, parse(hpaOf(i, 3)))
	}
	return New(fset, files, Options{}), func(i, max int) map[string][]*manifest.File {
		p, src := hpaOf(i, max)
		return map[string][]*manifest.File{p: {parse(p, src)}}
	}
}

// unshared counts the indexes at which two lists of one length hold
// their elements in different memory (Slice of one element is the
// list's own storage): the elements a derived list copied.
func unshared[T any](a, b chunked.List[T]) int {
	n := 0
	for i := 0; i < a.Len(); i++ {
		if &a.Slice(i, i+1)[0] != &b.Slice(i, i+1)[0] {
			n++
		}
	}
	return n
}

// TestWithSharesLists checks that a workspace With makes for an edit of
// one file shares its lists (files, objects, autoscalers) with its base
// but for the chunks the edit touched: a splice rebuilds the chunk of
// the replaced element, and the next one when that chunk came out too
// small, each under 3·chunked.Size/2 elements. Copying a list whole, as
// With did, copied tens of thousands of pointers per language server
// edit.
func TestWithSharesLists(t *testing.T) {
	ws, edit := services(1000) // 2,000 files and objects, 1,000 autoscalers
	next, ok := ws.With(edit(500, 7))
	if !ok {
		t.Fatal("With built the workspace from scratch")
	}
	const most = 3 * chunked.Size
	check := func(what string, n, lenA, lenB, copied int) {
		if lenA != n || lenB != n {
			t.Fatalf("%s: %d and %d, want %d", what, lenA, lenB, n)
		}
		if copied > most {
			t.Errorf("%s: %d of %d copied, want at most %d (two chunks)", what, copied, n, most)
		}
	}
	check("files", 2000, ws.Files().Len(), next.Files().Len(), unshared(ws.Files(), next.Files()))
	check("objects", 2000, ws.Objects().Len(), next.Objects().Len(), unshared(ws.Objects(), next.Objects()))
	check("autoscalers", 1000, ws.Autoscalers().Len(), next.Autoscalers().Len(), unshared(ws.Autoscalers(), next.Autoscalers()))
	if a := next.AutoscalersIn("s00500/hpa.yaml"); len(a) != 1 || a[0].Max.V != 7 {
		t.Fatalf("the edited autoscaler: %v", a)
	}
}

// BenchmarkWith measures the workspace an edit of one file derives
// (With), at 1,000 and 10,000 services: what it allocates (B/op) is what
// a language server's edit leaves to the collector, and should not grow
// with the workspace.
func BenchmarkWith(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ws, edit := services(n)
			edits := []map[string][]*manifest.File{edit(n/2, 7), edit(n/2, 9)}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				next, _ := ws.With(edits[i%2])
				ws = next
			}
		})
	}
}
