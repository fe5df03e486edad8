package rules

import (
	"context"
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// FuzzCheck runs the whole pipeline (parse, workspace, every rule,
// suppressions) on one file: never a panic (a rule's panic would surface
// as an "internal error" diagnostic, which fails too), and every
// diagnostic, related place and fix lies inside the file.
func FuzzCheck(f *testing.F) {
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	for _, p := range fixtures {
		if ar, err := txtar.ParseFile(p); err == nil {
			for _, file := range ar.Files {
				f.Add(file.Data)
			}
		}
	}
	if data, err := os.ReadFile(filepath.Join("..", "testdata", "examples", "shop", "checkout", "hpa.yaml")); err == nil {
		f.Add(data)
	}
	all := All()
	f.Fuzz(func(t *testing.T, data []byte) {
		fset := token.NewFileSet()
		file := manifest.Parse(fset, "f.yaml", data, manifest.Options{Eager: manifest.IsReadKind, Limits: manifest.Limits{MaxNodes: 20000}})
		ws := workspace.New(fset, []*manifest.File{file}, workspace.Options{})
		inside := func(what string, p, e token.Pos) {
			if !p.IsValid() {
				return
			}
			po, eo := file.Tok.Offset(p), file.Tok.Offset(e)
			if po < 0 || eo > len(data) || eo < po {
				t.Fatalf("%s [%d, %d) outside the file of %d bytes", what, po, eo, len(data))
			}
		}
		for _, d := range analyzer.Run(context.Background(), ws, all, nil) {
			if len(d.Message) > 15 && d.Message[:15] == "internal error " {
				t.Fatalf("%s", d.Message)
			}
			inside(d.Rule, d.Pos, d.End)
			for _, r := range d.Related {
				inside(d.Rule+" related", r.Pos, r.End)
			}
			for _, fx := range d.SuggestedFixes {
				for _, e := range fx.Edits {
					inside(d.Rule+" fix", e.Pos, e.End)
				}
			}
		}
	})
}
