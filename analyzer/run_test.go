package analyzer

import (
	"context"
	"fmt"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// TestPlanForSharesByElements: RunWith derives its maps once per list of
// rules (planFor), matching a list by its elements; a list with other
// rules gets its own plan, with its own names.
func TestPlanForSharesByElements(t *testing.T) {
	a := &Analyzer{Name: "plan-a", Run: func(*Pass) error { return nil }}
	b := &Analyzer{Name: "plan-b", Run: func(*Pass) error { return nil }}
	p := planFor([]*Analyzer{a, b})
	if q := planFor(slices.Clone([]*Analyzer{a, b})); q != p {
		t.Errorf("a new list of the same rules got a new plan")
	}
	q := planFor([]*Analyzer{a})
	if q == p {
		t.Fatalf("a list of other rules got the plan of [a b]")
	}
	if !slices.Equal(q.names, []string{"plan-a"}) || q.byName["plan-b"] != nil || q.known["plan-b"] {
		t.Errorf("plan of [a] = names %v, byName %v, known %v; want plan-a alone", q.names, q.byName, q.known)
	}
	if !q.known[InvalidSuppression.Name] || q.meta[UnusedSuppression.Name] != UnusedSuppression {
		t.Errorf("plan of [a] does not know the suppression rules: known %v, meta %v", q.known, q.meta)
	}
}

// TestRunWithRulePanic: a rule that panics yields an internal-error
// finding and the other rules' findings stand, in a run of one file as in
// a run of several.
func TestRunWithRulePanic(t *testing.T) {
	boom := &Analyzer{Name: "boom", Run: func(*Pass) error { panic("kaboom") }}
	each := &Analyzer{Name: "each-file", Run: func(p *Pass) error {
		for _, f := range p.Workspace.Files().All() {
			p.Report(Diagnostic{Pos: f.Tok.Pos(0), End: f.Tok.Pos(0), Message: "seen " + f.Path})
		}
		return nil
	}}
	for _, n := range []int{1, 9} {
		t.Run(fmt.Sprint(n, " files"), func(t *testing.T) {
			fset := token.NewFileSet()
			var files []*manifest.File
			for i := range n {
				text := fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c%d\n", i)
				files = append(files, manifest.Parse(fset, fmt.Sprintf("c%d.yaml", i), []byte(text), manifest.Options{}))
			}
			ws := workspace.New(fset, files, workspace.Options{})
			diags := RunWith(context.Background(), ws, []*Analyzer{boom, each}, nil, nil)
			var panics, seen int
			for _, d := range diags {
				switch {
				case d.Rule == "boom" && strings.Contains(d.Message, "internal error in rule boom: panic: kaboom"):
					panics++
				case d.Rule == "each-file" && strings.HasPrefix(d.Message, "seen "):
					seen++
				default:
					t.Errorf("unexpected finding %s: %s", d.Rule, d.Message)
				}
			}
			if panics != 1 || seen != n {
				t.Errorf("got %d internal errors and %d findings of each-file; want 1 and %d", panics, seen, n)
			}
		})
	}
}
