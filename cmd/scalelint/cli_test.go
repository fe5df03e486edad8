package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/initgc"
)

// The CLI scripts in testdata/cli run the built binary. Each archive has:
//
//	-- cmd --       the arguments, one command per archive (shell-like words)
//	-- exit --      the expected exit status
//	-- stdin --     optional standard input
//	-- stdout --    the expected standard output (JSON and SARIF compared
//	                after normalising; -update rewrites it)
//	-- stderr --    optional regular expressions, one per line, that stderr must match
//	-- other files  the working directory
//
// The archive's comment says what is tested.

var update = flag.Bool("update", false, "rewrite golden outputs of CLI scripts")

var binary string

// buildTags are the build tags of every scalelint binary the project
// builds (README, "Install"): kustomize_disable_go_plugin_support leaves
// out the Go plugin loader kustomize's library imports and scalelint never
// uses. The tests measure the binary users get.
const buildTags = "kustomize_disable_go_plugin_support"

func TestMain(m *testing.M) {
	// As main does: the tests call run in this process, with the
	// collector back on.
	initgc.Restore()
	flag.Parse()
	dir, err := os.MkdirTemp("", "scalelint-cli")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "scalelint")
	if runtime.GOOS == "windows" {
		binary += ".exe"
	}
	build := exec.Command("go", "build", "-tags", buildTags, "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building scalelint:", err)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// repoRoot is the module root, from this package's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// cliScripts returns the CLI scripts, testdata/cli/*.txtar; none is a
// failure.
func cliScripts(t *testing.T) []string {
	t.Helper()
	scripts, err := filepath.Glob(filepath.Join(repoRoot(t), "testdata", "cli", "*.txtar"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no CLI scripts: %v", err)
	}
	return scripts
}

func TestCLIScripts(t *testing.T) {
	for _, path := range cliScripts(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			runScript(t, path)
		})
	}
}

// splitWords splits a command line on blanks, honouring double quotes.
func splitWords(s string) []string {
	var out []string
	var cur strings.Builder
	inQuote, has := false, false
	for _, r := range s {
		switch {
		case r == '"':
			inQuote, has = !inQuote, true
		case (r == ' ' || r == '\t' || r == '\n') && !inQuote:
			if has {
				out = append(out, cur.String())
				cur.Reset()
				has = false
			}
		default:
			cur.WriteRune(r)
			has = true
		}
	}
	if has {
		out = append(out, cur.String())
	}
	return out
}

type scriptRun struct {
	dir            string
	stdout, stderr string
	exit           int
}

// execScript extracts an archive's files into a temporary directory and
// runs its command there.
func execScript(t *testing.T, ar *txtar.Archive) scriptRun {
	t.Helper()
	return execScriptWith(t, ar, nil)
}

// execScriptWith is execScript calling prepare, when not nil, with the
// directory and the command's arguments once the files are in place and
// before the command runs.
func execScriptWith(t *testing.T, ar *txtar.Archive, prepare func(dir string, args []string)) scriptRun {
	t.Helper()
	dir := t.TempDir()
	var cmdLine, stdin string
	for _, f := range ar.Files {
		switch f.Name {
		case "cmd":
			cmdLine = strings.TrimSpace(string(f.Data))
		case "stdin":
			stdin = string(f.Data)
		case "exit", "stdout", "stderr":
		default:
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A .git directory stops the config search at the script's root.
	must(t, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
	args := splitWords(cmdLine)
	if prepare != nil {
		prepare(dir, args)
	}
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return scriptRun{dir: dir, stdout: out.String(), stderr: errb.String(), exit: code}
}

func runScript(t *testing.T, path string) {
	runScriptWith(t, path, nil, *update)
}

// runScriptWith runs a CLI script and checks its exit status, stderr and
// stdout; prepare is execScriptWith's, and update rewrites the script's
// golden stdout when it differs.
func runScriptWith(t *testing.T, path string, prepare func(dir string, args []string), update bool) scriptRun {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res := execScriptWith(t, ar, prepare)
	files := map[string]*txtar.File{}
	for i := range ar.Files {
		files[ar.Files[i].Name] = &ar.Files[i]
	}
	if f, ok := files["exit"]; ok {
		want, _ := strconv.Atoi(strings.TrimSpace(string(f.Data)))
		if res.exit != want {
			t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", res.exit, want, res.stdout, res.stderr)
		}
	}
	if f, ok := files["stderr"]; ok {
		for _, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
			if line == "" {
				continue
			}
			if !regexp.MustCompile(line).MatchString(res.stderr) {
				t.Errorf("stderr does not match %q:\n%s", line, res.stderr)
			}
		}
	}
	f, ok := files["stdout"]
	if !ok {
		return res
	}
	got := normalizeOutput(res.stdout)
	want := normalizeOutput(string(f.Data))
	if got == want {
		return res
	}
	if update {
		f.Data = []byte(got)
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return res
	}
	t.Errorf("stdout differs (run with -update to accept):\n--- got\n%s\n--- want\n%s", got, want)
	return res
}

// normalizeOutput re-indents JSON documents (so goldens compare by
// content, not layout) and leaves other text as is. In SARIF it drops
// what depends on the machine (the working directory's URI) and replaces
// the rules' metadata, the same in every log, by their count.
func normalizeOutput(s string) string {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		var v any
		if err := json.Unmarshal([]byte(t), &v); err == nil {
			if m, ok := v.(map[string]any); ok && m["version"] == "2.1.0" {
				for _, run := range m["runs"].([]any) {
					r := run.(map[string]any)
					delete(r, "originalUriBaseIds")
					driver := r["tool"].(map[string]any)["driver"].(map[string]any)
					if rs, ok := driver["rules"].([]any); ok {
						driver["rules"] = len(rs)
					}
					driver["version"] = "VERSION"
				}
			}
			b, _ := json.MarshalIndent(v, "", "  ")
			return string(b) + "\n"
		}
	}
	return strings.TrimRight(s, "\n") + "\n"
}

// must fails the test when setting up its files fails: a write or a
// permission change that did not happen would test something else.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
