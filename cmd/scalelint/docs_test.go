package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// `scalelint rules --format markdown` prints the rules reference, which
// rules/README.md holds (package rules generates it and fails when the file
// drifts); this checks the command prints that same file.
func TestRulesMarkdownIsTheReference(t *testing.T) {
	want, err := os.ReadFile(filepath.Join(repoRoot(t), "rules", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := exec.Command(binary, "rules", "--format", "markdown").Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("scalelint rules --format markdown differs from rules/README.md; run go test ./rules -run RulesReference -update")
	}
}
