package fix

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
)

// TestWriteFixedRefusesChangedFile: a file that changed between the read
// and the write is not overwritten; a read-only one is refused.
func TestWriteFixedRefusesChangedFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.yaml")
	must(t, os.WriteFile(p, []byte("a: 1\n"), 0o644))
	f := manifest.Parse(token.NewFileSet(), p, []byte("a: 1\n"), manifest.Options{})
	must(t, os.WriteFile(p, []byte("a: 2\n"), 0o644)) // someone edits it meanwhile
	err := write(f, []byte("a: 3\n"))
	if err == nil || !strings.Contains(err.Error(), "changed since scalelint read it") {
		t.Fatalf("err %v", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "a: 2\n" {
		t.Errorf("file overwritten: %q", got)
	}
	must(t, os.WriteFile(p, []byte("a: 1\n"), 0o444))
	must(t, os.Chmod(p, 0o444))
	err = write(f, []byte("a: 3\n"))
	if err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("read-only file: err %v", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "a: 1\n" {
		t.Errorf("read-only file changed: %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestUnifiedDiffSeparatesChanges(t *testing.T) {
	src := []byte("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n")
	d := unifiedDiff("x", src, []analyzer.FileEdit{{Start: 2, End: 3, NewText: "B"}, {Start: 24, End: 25, NewText: "M"}})
	want := "--- a/x\n+++ b/x\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -10,5 +10,5 @@\n j\n k\n l\n-m\n+M\n n\n"
	if d != want {
		t.Errorf("diff:\n%s\nwant:\n%s", d, want)
	}
}

// TestDiffQuotesOddNames: a file name holding a line feed (or a quote, a
// backslash, a control character) is quoted in the headers as git quotes
// it, so the name cannot forge a header line; plain names are not.
func TestDiffQuotesOddNames(t *testing.T) {
	src := []byte("a\n")
	edits := []analyzer.FileEdit{{Start: 0, End: 1, NewText: "b"}}
	for name, want := range map[string]string{
		"x.yaml":               "--- a/x.yaml\n+++ b/x.yaml\n",
		"x\n+++ b/victim.yaml": "--- \"a/x\\n+++ b/victim.yaml\"\n+++ \"b/x\\n+++ b/victim.yaml\"\n",
		`q"\.yaml`:             `--- "a/q\"\\.yaml"` + "\n" + `+++ "b/q\"\\.yaml"` + "\n",
		"t\tab\x1b.yaml":       `--- "a/t\tab\033.yaml"` + "\n" + `+++ "b/t\tab\033.yaml"` + "\n",
		"é.yaml":               "--- a/é.yaml\n+++ b/é.yaml\n",
	} {
		d := unifiedDiff(name, src, edits)
		if !strings.HasPrefix(d, want) {
			t.Errorf("%q: headers\n%s\nwant\n%s", name, d, want)
		}
		if strings.Count(d, "\n+++ ") != 1 {
			t.Errorf("%q: the name forged a header:\n%s", name, d)
		}
	}
}

// must fails the test when setting up its files fails: a write or a
// permission change that did not happen would test something else.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
