package analyzertest

import (
	"go/token"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
)

func parse(t *testing.T, text string) ([]*expectation, error) {
	t.Helper()
	f := manifest.Parse(token.NewFileSet(), "a.yaml", []byte(text), manifest.Options{})
	return parseExpectations("rule.txtar", f)
}

// TestExpectations: the forms of a "# want" comment, read as written.
func TestExpectations(t *testing.T) {
	exps, err := parse(t, "a: 1\n# want +2 \"two\" col=3 g=1.05\nb: 2\nc: 3 # want `three` \"and\"\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(exps) != 3 {
		t.Fatalf("%d expectations, want 3", len(exps))
	}
	if e := exps[0]; e.line != 4 || e.col != 3 || e.rx.String() != "two" || e.facts["g"] != "1.05" {
		t.Errorf("+2 col=3 g=1.05: line %d col %d rx %q facts %v", e.line, e.col, e.rx, e.facts)
	}
	if e := exps[1]; e.line != 4 || e.col != 0 || e.rx.String() != "three" {
		t.Errorf("trailing want: line %d col %d rx %q", e.line, e.col, e.rx)
	}
}

// TestExpectationErrors: a malformed "# want" is an error at its file and
// line. Before, a column or line offset that did not parse was dropped
// (col=x matched any column, +x this line) and the fixture passed.
func TestExpectationErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"a: 1 # want col=x \"m\"\n", `rule.txtar: a.yaml:1: bad want column "col=x"`},
		{"a: 1 # want col=0 \"m\"\n", `rule.txtar: a.yaml:1: bad want column "col=0"`},
		{"a: 1\n# want +x \"m\"\nb: 2\n", `rule.txtar: a.yaml:2: bad want line offset "+x"`},
		{"a: 1\n# want +0 \"m\"\n", `rule.txtar: a.yaml:2: bad want line offset "+0"`},
		{"a: 1 # want g=high \"m\"\n", `rule.txtar: a.yaml:1: bad want fact "g=high"`},
		{"a: 1 # want =1 \"m\"\n", `rule.txtar: a.yaml:1: bad want fact "=1"`},
		{"a: 1 # want colx \"m\"\n", `rule.txtar: a.yaml:1: bad want token "colx"`},
		{"a: 1 # want severity=warn \"m\"\n", `rule.txtar: a.yaml:1: bad want severity "severity=warn"`},
		{"a: 1 # want severity=fatal \"m\"\n", `rule.txtar: a.yaml:1: bad want severity "severity=fatal"`},
		{"a: 1 # want \"unterminated\n", `rule.txtar: a.yaml:1: bad want string`},
		{"a: 1 # want \"(\"\n", `rule.txtar: a.yaml:1: error parsing regexp`},
		{"a: 1 # want col=3\n", `rule.txtar: a.yaml:1: want without a quoted message`},
	} {
		_, err := parse(t, c.text)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %s…", c.text, err, c.want)
		}
	}
}

// TestExpectationSeverity: severity=S matches only a diagnostic of that
// severity, so a fixture can pin a rule's choice of severity, not only
// its message.
func TestExpectationSeverity(t *testing.T) {
	exps, err := parse(t, "a: 1 # want severity=warning \"fight\"\n")
	if err != nil {
		t.Fatal(err)
	}
	if exps[0].sev != analyzer.Warning {
		t.Fatalf("severity %v, want warning", exps[0].sev)
	}
	d := analyzer.Diagnostic{Message: "they fight", Severity: analyzer.Error}
	if match(exps, "a.yaml", 1, 1, d) {
		t.Error("an error matched severity=warning")
	}
	d.Severity = analyzer.Warning
	if !match(exps, "a.yaml", 1, 1, d) {
		t.Error("a warning did not match severity=warning")
	}
}
