package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README's rule and annotation tables and rules/README.md are
// generated from the rules' Doc and the annotation specs; these tests fail
// when they drift (-update regenerates them).

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
	path := filepath.Join(repoRoot(t), "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	want := replaceBetween(t, doc, "<!-- BEGIN RULES (generated from each rule's Doc; a test fails when it drifts) -->",
		"<!-- END RULES -->", RulesTable("rules/README.md#"))
	want = replaceBetween(t, want, "<!-- BEGIN ANNOTATIONS (generated from scaling.Annotations; a test fails when it drifts) -->",
		"<!-- END ANNOTATIONS -->", AnnotationsTable())
	if want == doc {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's generated tables drifted from the rules; run go test ./cmd/scalelint -run README -update")
}

func TestRulesReferenceIsCurrent(t *testing.T) {
	path := filepath.Join(repoRoot(t), "rules", "README.md")
	want := RulesReference()
	got, err := os.ReadFile(path)
	if err == nil && string(got) == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("rules/README.md is not the generated reference; run go test ./cmd/scalelint -run RulesReference -update")
}
