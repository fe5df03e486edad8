package analyzer

import (
	"go/token"
	"testing"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// TestPlanFixes: a fix is taken whole or not at all, in the diagnostics'
// order; a later fix that overlaps a taken one (or inserts at the same
// place) is skipped whole, and so is one that reaches a refused file.
func TestPlanFixes(t *testing.T) {
	fset := token.NewFileSet()
	a := manifest.Parse(fset, "a.yaml", []byte("a: 1\nb: 2\nc: 3\n"), manifest.Options{})
	b := manifest.Parse(fset, "b.yaml", []byte("x: 1\n"), manifest.Options{})
	ws := workspace.New(fset, []*manifest.File{a, b}, workspace.Options{})
	at := func(f *manifest.File, off int) token.Pos { return f.Tok.Pos(off) }
	edit := func(f *manifest.File, start, end int, text string) TextEdit {
		return TextEdit{Pos: at(f, start), End: at(f, end), NewText: text}
	}
	fix := func(safe bool, es ...TextEdit) []SuggestedFix {
		return []SuggestedFix{{Message: "Fix it", Edits: es, Safe: safe}}
	}
	diags := []Diagnostic{
		{SuggestedFixes: fix(true, edit(a, 3, 4, "10"))},                      // 0: a's "1"
		{SuggestedFixes: fix(true, edit(a, 8, 9, "20"), edit(a, 3, 4, "11"))}, // 1: overlaps 0 in its second edit
		{SuggestedFixes: fix(true, edit(a, 13, 14, "30"))},                    // 2: c's "3"
		{SuggestedFixes: fix(true, edit(a, 0, 0, "# x\n"))},                   // 3: an insertion
		{SuggestedFixes: fix(true, edit(a, 0, 0, "# y\n"))},                   // 4: a second one at the same place
		{SuggestedFixes: fix(true, edit(b, 3, 4, "2"), edit(a, 9, 9, "!"))},   // 5: reaches b, refused
		{SuggestedFixes: fix(false, edit(a, 8, 9, "22"))},                     // 6: not safe
	}
	onlyA := func(f *manifest.File) bool { return f == a }
	edits, taken := PlanFixes(ws, diags, FirstSafeFix, onlyA)
	for i, want := range []bool{true, false, true, true, false, false, false} {
		if taken[i] != want {
			t.Errorf("diagnostic %d taken %v, want %v", i, taken[i], want)
		}
	}
	if len(edits[b]) != 0 {
		t.Errorf("edits in a refused file: %v", edits[b])
	}
	if got, want := string(ApplyEdits(a.Text(), edits[a])), "# x\na: 10\nb: 2\nc: 30\n"; got != want {
		t.Errorf("applied:\n%s\nwant:\n%s", got, want)
	}

	// Every first fix, every file: the unsafe one is taken too, and b's.
	edits, taken = PlanFixes(ws, diags, FirstFix, nil)
	if !taken[5] || !taken[6] || taken[1] {
		t.Errorf("taken %v", taken)
	}
	if got, want := string(ApplyEdits(a.Text(), edits[a])), "# x\na: 10\nb: 22!\nc: 30\n"; got != want {
		t.Errorf("applied:\n%q\nwant:\n%q", got, want)
	}
	if got := string(ApplyEdits(b.Text(), edits[b])); got != "x: 2\n" {
		t.Errorf("b: %q", got)
	}
}
