package manifest

import (
	"go/token"
	"strings"
	"testing"
	"time"

	"github.com/scalelint/scalelint/analyzer/manifest/internal/fastyaml"
)

// TestNodeBudgetRefusesBeforeBuilding: a flat flow sequence of more nodes
// than the file's budget is refused at the line where the count passes
// it, with a message that says what was counted (not "alias expansion":
// it has no alias), and no tree is built for it.
func TestNodeBudgetRefusesBeforeBuilding(t *testing.T) {
	src := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  x: [" + strings.Repeat("1,", 5000) + "1]\n"
	f := Parse(token.NewFileSet(), "big.yaml", []byte(src), Options{Limits: Limits{MaxFileNodes: 1000}})
	ps := f.Problems()
	if len(ps) != 1 || ps[0].Rule != "input-limit" || !strings.Contains(ps[0].Message, "more than 1000 YAML nodes (keys, values and items") {
		t.Fatalf("problems %+v", ps)
	}
	if line, _ := f.Position(ps[0].Pos); line != 6 {
		t.Errorf("refused at line %d, want 6 (the sequence)", line)
	}
	d := f.Docs[0]
	if d.root != nil || d.arena != nil || len(d.objects) != 0 {
		t.Errorf("a tree was built for the refused document: root %v, objects %d", d.root != nil, len(d.objects))
	}
}

// TestNodeBudgetIsPerFile: documents draw from one budget per file; the
// first that would pass it is refused with the rest, and those parsed
// before keep their objects.
func TestNodeBudgetIsPerFile(t *testing.T) {
	doc := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  x: [" + strings.Repeat("1,", 300) + "1]\n"
	src := doc + "---\n" + doc + "---\n" + doc + "---\n" + doc
	f := Parse(token.NewFileSet(), "c.yaml", []byte(src), Options{Limits: Limits{MaxFileNodes: 1000}})
	var parsed int
	for _, d := range f.Docs {
		parsed += len(d.Objects())
	}
	// Each document counts what fastyaml.NodeBound counts for it (the
	// first carries no "---"; the marker adds nothing).
	per, _ := fastyaml.NodeBound([]byte(doc), 1<<30)
	if fit := 1000 / per; parsed != fit || fit != 3 {
		t.Errorf("%d objects parsed, want %d (%d nodes each in 1000); the test wants 3", parsed, fit, per)
	}
	ps := f.Problems()
	if len(ps) != 1 || ps[0].Rule != "input-limit" {
		t.Fatalf("problems %+v", ps)
	}
	if line, _ := f.Position(ps[0].Pos); line != 3*7+6 {
		t.Errorf("refused at line %d, want %d", line, 3*7+6)
	}
}

// TestParseStopsAtTheDeadline: once the file's time is up, Parse parses
// no further document and says why, where it stopped.
func TestParseStopsAtTheDeadline(t *testing.T) {
	src := "a: 1\n---\nb: 2\n"
	f := Parse(token.NewFileSet(), "t.yaml", []byte(src), Options{Deadline: time.Now().Add(-time.Second), Limits: Limits{Timeout: 3 * time.Second}})
	ps := f.Problems()
	if len(ps) != 1 || ps[0].Rule != "input-limit" || !strings.Contains(ps[0].Message, "longer than the time limit of 3s") {
		t.Fatalf("problems %+v", ps)
	}
	for _, d := range f.Docs {
		if d.root != nil {
			t.Errorf("document %d parsed after the deadline", d.Index)
		}
	}
	// A document asked for later (on first use) is not parsed either:
	// the file was refused from there on.
	if objs := f.Docs[1].Objects(); len(objs) != 0 {
		t.Errorf("objects after the deadline: %d", len(objs))
	}
}

// TestNodeLimitWording: an object over the decode's node limit without
// an alias is refused as large, not as alias expansion; with aliases, as
// alias expansion.
func TestNodeLimitWording(t *testing.T) {
	hpa := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: w\nspec:\n  maxReplicas: 3\n  scaleTargetRef: {kind: Deployment, name: w}\n  x: ["
	for _, c := range []struct{ src, want string }{
		{hpa + strings.Repeat("1,", 200) + "1]\n", "this object has more than 100 nodes (keys, values and items); refused"},
		{strings.Replace(hpa, "spec:", "a: &a [1,2,3,4,5,6,7,8,9,10]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nspec:", 1) + "*b]\n", "alias expansion makes this object larger than 100 nodes"},
	} {
		f := Parse(token.NewFileSet(), "h.yaml", []byte(c.src), Options{Limits: Limits{MaxNodes: 100}})
		var msgs []string
		for _, o := range f.Docs[0].Objects() {
			o.Typed()
		}
		for _, p := range f.Problems() {
			msgs = append(msgs, p.Message)
		}
		if !strings.Contains(strings.Join(msgs, "\n"), c.want) {
			t.Errorf("problems %q, want %q", msgs, c.want)
		}
	}
}

// TestDepthPastTheParsersLimit: with a configured maxDepth above yaml.v3's
// own limit (10,000), a deeper document is refused at the parser's limit,
// and the message says that limit, not the configured one.
func TestDepthPastTheParsersLimit(t *testing.T) {
	src := "a: " + strings.Repeat("[", 200000) + strings.Repeat("]", 200000) + "\n"
	f := Parse(token.NewFileSet(), "deep.yaml", []byte(src), Options{Limits: Limits{MaxDepth: 10000000}})
	ps := f.Problems()
	if len(ps) != 1 || ps[0].Message != "document nests deeper than 10000 levels here, the YAML parser's own limit; not linted" {
		t.Fatalf("problems %+v", ps)
	}
	if _, col := f.Position(ps[0].Pos); col != 3+10001 {
		t.Errorf("at column %d, want %d (the bracket that opens level 10,001)", col, 3+10001)
	}
}

// TestUTF32 is reported as UTF-32, not UTF-16 (its little-endian mark
// starts with UTF-16's) nor as binary.
func TestUTF32(t *testing.T) {
	for _, bom := range [][]byte{{0xFF, 0xFE, 0, 0}, {0, 0, 0xFE, 0xFF}} {
		data := append(append([]byte(nil), bom...), 'a', 0, 0, 0)
		ps := Parse(token.NewFileSet(), "u.yaml", data, Options{}).Problems()
		if len(ps) != 1 || !strings.Contains(ps[0].Message, "UTF-32 encoded") {
			t.Errorf("% x: %+v", bom, ps)
		}
	}
}
