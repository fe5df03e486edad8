package rules

import (
	"context"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// TestLocalRules checks what Analyzer.Local promises (the language
// server publishes local findings before it has read the other files):
// for every file of every rule fixture (rules/testdata/*.txtar, without
// renders), the local rules' findings on the file linted alone are
// exactly their findings on it in the fixture's whole workspace. Every
// rule runs in both, so a suppression naming any rule is known; only the
// local rules' findings are compared.
func TestLocalRules(t *testing.T) {
	archives, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	local := 0
	for _, a := range All() {
		if a.Local {
			local++
		}
	}
	if local == 0 {
		t.Fatal("no rule is marked Local: the test tests nothing")
	}
	compared := map[string]int{}
	for _, path := range archives {
		ar, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(ar.Files, func(f txtar.File) bool {
			b := filepath.Base(f.Name)
			return b == "Chart.yaml" || strings.HasPrefix(b, "kustomization.") ||
				(analyzer.IsConfigName(f.Name) && f.Name != ".scalelint.yaml")
		}) {
			continue // renders and scoped configurations: out of this check
		}
		cfg := analyzer.DefaultConfig()
		var inputs []txtar.File
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".golden") {
				continue // a fix's expected result
			}
			if f.Name == ".scalelint.yaml" {
				if cfg, err = analyzer.ParseConfig(f.Name, f.Data, All()); err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				continue
			}
			inputs = append(inputs, f)
		}
		whole := localFindings(t, cfg, inputs)
		for _, f := range inputs {
			alone := localFindings(t, cfg, []txtar.File{f})
			var want []string
			for _, k := range whole {
				if strings.HasPrefix(k, f.Name+":") {
					want = append(want, k)
				}
			}
			if !slices.Equal(alone, want) {
				t.Errorf("%s: %s: the local findings of the file alone differ from those in the whole workspace\nalone: %q\nwhole: %q", path, f.Name, alone, want)
			}
			for _, k := range alone {
				compared[strings.Fields(k)[1]]++
			}
		}
	}
	for _, a := range All() {
		if a.Local && compared[a.Name] == 0 && a != analyzer.InvalidSuppression {
			t.Errorf("no fixture shows local rule %s firing: its locality is not checked", a.Name)
		}
	}
}

// localFindings lints files as the command line does and returns the
// local rules' unsuppressed findings as "file:line:col rule message",
// sorted.
func localFindings(t *testing.T, cfg *analyzer.Config, inputs []txtar.File) []string {
	t.Helper()
	fset := token.NewFileSet()
	var files []*manifest.File
	for _, f := range inputs {
		mf := manifest.Parse(fset, f.Name, f.Data, manifest.Options{Eager: manifest.IsReadKind})
		if mf.NotManifest() == "" {
			files = append(files, mf)
		}
	}
	ws := workspace.New(fset, files, workspace.Options{DefaultNamespace: cfg.Namespace,
		NamespaceOf: func(f *manifest.File) string { return cfg.For(f.Path).Namespace }})
	var out []string
	for _, d := range analyzer.Run(context.Background(), ws, All(), cfg) {
		a, ok := ByName(d.Rule)
		if !ok || !a.Local || d.Suppression != nil {
			continue
		}
		f := ws.FileOf(d.Pos)
		line, col := f.Position(d.Pos)
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s %s", f.Path, line, col, d.Rule, d.Severity, d.Message))
	}
	slices.Sort(out)
	return out
}
