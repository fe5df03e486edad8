package rules

import (
	"os"
	"path/filepath"
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
// that reports them, in analyzer/directive.go).
func TestRuleFiles(t *testing.T) {
	for _, a := range All() {
		file := strings.ReplaceAll(a.Name, "-", "_") + ".go"
		if strings.HasSuffix(a.Name, "-suppression") {
			file = filepath.Join("..", "analyzer", "directive.go")
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("rule %s: %v", a.Name, err)
			continue
		}
		if !strings.Contains(string(src), `Name:     "`+a.Name+`"`) {
			t.Errorf("rule %s is not defined in %s", a.Name, file)
		}
	}
}
