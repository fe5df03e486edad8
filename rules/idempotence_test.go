package rules

import (
	"context"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// fixOnce applies the safe fixes of one run over files (name -> text),
// as check --fix does (analyzer.PlanFixes with FirstSafeFix, every file
// allowed), and returns the new texts and how many fixes it applied.
func fixOnce(files map[string][]byte) (map[string][]byte, int) {
	fset := token.NewFileSet()
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var parsed []*manifest.File
	for _, n := range names {
		parsed = append(parsed, manifest.Parse(fset, n, files[n], manifest.Options{Eager: manifest.IsReadKind}))
	}
	ws := workspace.New(fset, parsed, workspace.Options{})
	diags := analyzer.Run(context.Background(), ws, All(), nil)
	var shown []analyzer.Diagnostic
	for _, d := range diags {
		if d.Suppression == nil {
			shown = append(shown, d)
		}
	}
	edits, taken := analyzer.PlanFixes(ws, shown, analyzer.FirstSafeFix, nil)
	out := map[string][]byte{}
	for n, text := range files {
		out[n] = text
	}
	for f, es := range edits {
		out[f.Path] = analyzer.ApplyEdits(f.Text(), es)
	}
	return out, len(taken)
}

// checkIdempotent fixes files once, then again: the second run must find
// no safe fix (a fix run twice is a no-op the second time; the tab fix
// used to need a pass per tab).
func checkIdempotent(t *testing.T, name string, files map[string][]byte) int {
	t.Helper()
	once, n := fixOnce(files)
	if n == 0 {
		return 0
	}
	twice, m := fixOnce(once)
	if m != 0 {
		var changed []string
		for f := range twice {
			if string(twice[f]) != string(once[f]) {
				changed = append(changed, f)
			}
		}
		t.Errorf("%s: after %d safe fixes, a second run applies %d more (in %s)", name, n, m, strings.Join(changed, ", "))
	}
	return n
}

// TestFixIdempotent runs the safe fixes twice on every rule fixture (its
// files as one workspace) and every file of the real-world corpus.
func TestFixIdempotent(t *testing.T) {
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if len(fixtures) < 20 {
		t.Fatalf("only %d fixtures", len(fixtures))
	}
	applied := 0
	for _, p := range fixtures {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".yaml") || strings.HasSuffix(f.Name, ".yml") || strings.HasSuffix(f.Name, ".json") {
				files[f.Name] = f.Data
			}
		}
		applied += checkIdempotent(t, p, files)
	}
	corpus := 0
	err := filepath.WalkDir(filepath.Join("..", "testdata", "realworld"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !workspace.IsManifestName(p) {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		applied += checkIdempotent(t, p, map[string][]byte{p: data})
		corpus++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if corpus < 300 || applied == 0 {
		t.Fatalf("%d corpus files, %d fixes applied: the corpus or the fixtures moved", corpus, applied)
	}
	t.Logf("%d fixtures and %d corpus files; %d safe fixes applied, none left after", len(fixtures), corpus, applied)
}
