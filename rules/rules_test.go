package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer/analyzertest"
)

// TestRules runs every rule's fixture, rules/testdata/RULE.txtar. A rule
// without a fixture fails.
func TestRules(t *testing.T) {
	for _, a := range All() {
		t.Run(a.Name, func(t *testing.T) {
			path := filepath.Join("testdata", a.Name+".txtar")
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("rule %s has no fixture %s", a.Name, path)
			}
			res := analyzertest.Run(t, path, All(), a)
			if len(res.Diagnostics) == 0 {
				t.Errorf("fixture %s never shows the rule firing", path)
			}
		})
	}
}

// TestRuleFiles checks the layout: a rule lives in rules/NAME.go with '-'
// turned into '_' (the two suppression rules live with the driver code
// that reports them, in analyzer/directive.go): that file declares the
// Analyzer whose Name is the rule's.
func TestRuleFiles(t *testing.T) {
	for _, a := range All() {
		file := strings.ReplaceAll(a.Name, "-", "_") + ".go"
		if strings.HasSuffix(a.Name, "-suppression") {
			file = filepath.Join("..", "analyzer", "directive.go")
		}
		names, err := analyzerNames(file, nil)
		if err != nil {
			t.Errorf("rule %s: %v", a.Name, err)
			continue
		}
		if !names[a.Name] {
			t.Errorf("rule %s is not defined in %s", a.Name, file)
		}
	}
}

// analyzerNames parses a Go file (src as parser.ParseFile takes it) and
// returns the Name of every analyzer.Analyzer literal in it, written as a
// string literal: the file's layout and formatting do not matter.
func analyzerNames(file string, src any) (map[string]bool, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok || !isAnalyzerType(lit.Type) {
			return true
		}
		for _, e := range lit.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			key, ok := kv.Key.(*ast.Ident)
			val, isLit := kv.Value.(*ast.BasicLit)
			if ok && key.Name == "Name" && isLit && val.Kind == token.STRING {
				if s, err := strconv.Unquote(val.Value); err == nil {
					names[s] = true
				}
			}
		}
		return true
	})
	return names, nil
}

// isAnalyzerType reports whether a literal's type is analyzer.Analyzer
// (Analyzer inside package analyzer).
func isAnalyzerType(e ast.Expr) bool {
	switch t := e.(type) {
	case *ast.SelectorExpr:
		x, ok := t.X.(*ast.Ident)
		return ok && x.Name == "analyzer" && t.Sel.Name == "Analyzer"
	case *ast.Ident:
		return t.Name == "Analyzer"
	}
	return false
}

// TestAnalyzerNames: TestRuleFiles finds a rule's Name however the file is
// formatted. Before, it looked for the text `Name:     "NAME"`, gofmt's
// alignment in one layout of the literal: another field order, or the
// literal not gofmt-aligned, failed it.
func TestAnalyzerNames(t *testing.T) {
	src := `package rules

var A = &analyzer.Analyzer{Name: "one-rule", Doc: analyzer.Doc{Title: "x"}}

var B = &analyzer.Analyzer{
	Severity: analyzer.Error,
	Name: "two-rule",
}

var notARule = struct{ Name string }{Name: "three-rule"}
`
	names, err := analyzerNames("x.go", src)
	if err != nil {
		t.Fatal(err)
	}
	if !names["one-rule"] || !names["two-rule"] || names["three-rule"] || len(names) != 2 {
		t.Errorf("names = %v, want one-rule and two-rule", names)
	}
	names, err = analyzerNames("y.go", "package analyzer\n\nvar U = &Analyzer{Name: \"unused-suppression\"}\n")
	if err != nil || !names["unused-suppression"] {
		t.Errorf("inside package analyzer: %v, %v", names, err)
	}
}
