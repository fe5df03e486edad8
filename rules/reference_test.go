package rules

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The repository README's rule and annotation tables and rules/README.md
// are generated from the rules' documentation and the annotation specs;
// these tests fail when they drift, and -update regenerates them.

// updating reports whether -update was given (the flag is analyzertest's,
// which rewrites fixture goldens; here it rewrites the generated files).
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func replaceBetween(t *testing.T, doc, begin, end, content string) string {
	t.Helper()
	i := strings.Index(doc, begin)
	j := strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("markers %q ... %q not found", begin, end)
	}
	i += len(begin)
	return doc[:i] + "\n" + content + doc[j:]
}

func TestREADMETablesMatchRules(t *testing.T) {
	path := filepath.Join("..", "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	want := replaceBetween(t, doc, "<!-- BEGIN RULES (generated from each rule's Doc; a test fails when it drifts) -->",
		"<!-- END RULES -->", Table("rules/README.md#"))
	want = replaceBetween(t, want, "<!-- BEGIN ANNOTATIONS (generated from scaling.Annotations; a test fails when it drifts) -->",
		"<!-- END ANNOTATIONS -->", AnnotationsTable())
	if want == doc {
		return
	}
	if updating() {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's generated tables drifted from the rules; run go test ./rules -run README -update")
}

func TestRulesReferenceIsCurrent(t *testing.T) {
	path := "README.md"
	want := Reference()
	got, err := os.ReadFile(path)
	if err == nil && string(got) == want {
		return
	}
	if updating() {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("rules/README.md is not the generated reference; run go test ./rules -run RulesReference -update")
}

// Every rule's URL is an anchor of the generated reference.
func TestRuleURLsResolve(t *testing.T) {
	anchors := headingAnchors(Reference())
	for _, a := range All() {
		_, anchor, _ := strings.Cut(a.URL, "#")
		if !anchors[anchor] {
			t.Errorf("%s: URL %s has no heading in rules/README.md", a.Name, a.URL)
		}
	}
}
