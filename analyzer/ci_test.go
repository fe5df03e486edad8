package analyzer

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCIFuzzList: .ci/fuzz check passes on the repository, and fails,
// naming the target, when a fuzz target is renamed, removed or added
// without its list being updated. Before, .ci/run skipped a listed target
// it could not find (a grep -q guard) and knew nothing of unlisted ones: a
// renamed target dropped out of the fuzz smoke test in silence.
func TestCIFuzzList(t *testing.T) {
	// A copy of .ci/fuzz and of every test file that holds a fuzz target.
	root := filepath.Join("..")
	dir := t.TempDir()
	copyFile := func(rel string, mode fs.FileMode) {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), data, mode); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(filepath.Join(".ci", "fuzz"), 0o755)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(data, []byte("\nfunc Fuzz")) {
			rel, _ := filepath.Rel(root, p)
			copyFile(rel, 0o644)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	check := func() (string, error) {
		out, err := exec.Command("bash", filepath.Join(dir, ".ci", "fuzz"), "check").CombinedOutput()
		return string(out), err
	}
	if out, err := check(); err != nil {
		t.Fatalf(".ci/fuzz check on the repository: %v\n%s", err, out)
	}
	edit := func(rel, old, new string) {
		p := filepath.Join(dir, rel)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(old)) {
			t.Fatalf("%s: %q not found", rel, old)
		}
		if err := os.WriteFile(p, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fuzzCheck := filepath.Join("rules", "fuzz_test.go")
	for _, c := range []struct {
		name, old, new string
		want           []string // in the output
	}{
		{"renamed", "func FuzzCheck(", "func FuzzCheckAll(", []string{"not listed", "./rules:FuzzCheckAll"}},
		{"removed", "func FuzzCheck(", "func fuzzCheck(", []string{"not found", "./rules:FuzzCheck"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			edit(fuzzCheck, c.old, c.new)
			defer edit(fuzzCheck, c.new, c.old)
			out, err := check()
			if err == nil {
				t.Fatalf("passed:\n%s", out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
	t.Run("added", func(t *testing.T) {
		p := filepath.Join(dir, "lsp", "new_test.go")
		if err := os.WriteFile(p, []byte("package lsp\n\nimport \"testing\"\n\nfunc FuzzNew(f *testing.F) {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(p)
		out, err := check()
		if err == nil || !strings.Contains(out, "./lsp:FuzzNew") {
			t.Fatalf("a new target not in the list: %v\n%s", err, out)
		}
	})
}

// TestCINeed: .ci/need passes for a command that exists, and for one that
// does not, when it cannot install (here: no apt-get on PATH), names the
// package to install and fails: a missing tool never skips a test in
// silence. Installing (root with apt-get) is what `bash .ci/run` on a fresh
// machine exercises.
func TestCINeed(t *testing.T) {
	need := filepath.Join("..", ".ci", "need")
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bash, need, "bash", "bash").CombinedOutput(); err != nil {
		t.Errorf(".ci/need bash bash: %v\n%s", err, out)
	}
	// A PATH with id and nothing else: no apt-get.
	bin := t.TempDir()
	id, err := exec.LookPath("id")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(id, filepath.Join(bin, "id")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, need, "scalelint-no-such-command", "scalelint-no-such-package")
	cmd.Env = append(os.Environ(), "PATH="+bin)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "apt-get install -y scalelint-no-such-package") {
		t.Errorf("a missing command without apt-get: %v\n%s", err, out)
	}
}
