package analyzer_test

import (
	"fmt"
	"go/token"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// TestSortDiagnosticsMatchesStableSort checks SortDiagnostics against an
// independent computation of its documented order: sort.SliceStable by
// file path, position, rule, end and message, then exact duplicates
// (same position, end, rule and message) dropped. The files are given
// to the FileSet out of path order (z.yaml first), so that position
// order and path order disagree; shuffled input with duplicates and
// ties on every key.
func TestSortDiagnosticsMatchesStableSort(t *testing.T) {
	fset := token.NewFileSet()
	var files []*manifest.File
	for _, name := range []string{"z.yaml", "a.yaml", "m/b.yaml"} {
		files = append(files, manifest.Parse(fset, name, []byte("a: 1\nb: 2\nc: 3\n"), manifest.Options{}))
	}
	ws := workspace.New(fset, files, workspace.Options{})
	r := rand.New(rand.NewPCG(1, 2))
	var diags []analyzer.Diagnostic
	for i := 0; i < 3000; i++ {
		f := files[r.IntN(len(files))]
		pos := f.Tok.Pos(r.IntN(4) * 4)
		diags = append(diags, analyzer.Diagnostic{
			Pos: pos, End: pos + token.Pos(r.IntN(2)),
			Rule:    []string{"r1", "r2"}[r.IntN(2)],
			Message: []string{"m1", "m2", "m3"}[r.IntN(3)],
			Field:   string(rune('a' + i%26)), // tells apart duplicates kept and dropped: the first stays
		})
	}
	want := slices.Clone(diags)
	path := func(d analyzer.Diagnostic) string { return ws.FileOf(d.Pos).Path }
	sort.SliceStable(want, func(i, j int) bool {
		a, b := want[i], want[j]
		switch {
		case path(a) != path(b):
			return path(a) < path(b)
		case a.Pos != b.Pos:
			return a.Pos < b.Pos
		case a.Rule != b.Rule:
			return a.Rule < b.Rule
		case a.End != b.End:
			return a.End < b.End
		}
		return a.Message < b.Message
	})
	want = slices.CompactFunc(want, func(a, b analyzer.Diagnostic) bool {
		return a.Pos == b.Pos && a.End == b.End && a.Rule == b.Rule && a.Message == b.Message
	})
	got := analyzer.SortDiagnostics(ws, diags)
	if len(got) != len(want) {
		t.Fatalf("got %d diagnostics, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Pos != want[i].Pos || got[i].End != want[i].End || got[i].Rule != want[i].Rule || got[i].Message != want[i].Message || got[i].Field != want[i].Field {
			t.Fatalf("diagnostic %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if len(want) >= len(diags) || len(want) < 40 {
		t.Fatalf("the input has %d diagnostics, %d distinct: the test needs duplicates and many distinct ones", len(diags), len(want))
	}
}

// BenchmarkSortDiagnostics sorts 10,000 diagnostics over 1,000 files,
// shuffled: about what check sorts, twice, at 10,000 services (8-11 ms
// a sort on a loaded 2-core machine).
func BenchmarkSortDiagnostics(b *testing.B) {
	fset := token.NewFileSet()
	var files []*manifest.File
	for i := 0; i < 1000; i++ {
		files = append(files, manifest.Parse(fset, fmt.Sprintf("s%04d/hpa.yaml", (i*7919)%1000), []byte("a: 1\nb: 2\nc: 3\n"), manifest.Options{}))
	}
	ws := workspace.New(fset, files, workspace.Options{})
	r := rand.New(rand.NewPCG(1, 2))
	var diags []analyzer.Diagnostic
	for i := 0; i < 10000; i++ {
		pos := files[r.IntN(len(files))].Tok.Pos(r.IntN(4) * 4)
		diags = append(diags, analyzer.Diagnostic{Pos: pos, End: pos + 1, Rule: "r", Message: fmt.Sprint(i)})
	}
	in := make([]analyzer.Diagnostic, len(diags))
	b.ReportAllocs()
	for b.Loop() {
		copy(in, diags)
		analyzer.SortDiagnostics(ws, in)
	}
}
