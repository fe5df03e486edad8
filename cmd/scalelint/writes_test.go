//go:build linux

package main

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tests here write through the binary to what a path may be (issue
// 15 items 2, 6 and 7): --output, --write-baseline and --fix must never
// replace a device, a FIFO, a symbolic link or an input, must keep hard
// links and modes, and --fix over several files must report what is left
// in their new text.

// fixableKEDA has one safe fix: its lagThreshold, a number where KEDA
// wants a string, is quoted.
const fixableKEDA = `apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: orders
spec:
  scaleTargetRef: {name: orders}
  triggers:
  - type: kafka
    metadata: {topic: orders, lagThreshold: 10}
`

// runWrite runs the binary in dir, within hangLimit.
func runWrite(t *testing.T, dir string, args ...string) (stdout, stderr string, exit int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("scalelint %s: no result within %s", strings.Join(args, " "), hangLimit)
	}
	if cmd.ProcessState == nil {
		t.Fatalf("scalelint %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// writesDir returns a directory holding in.yaml (hostileHPA) and .git.
func writesDir(t *testing.T) string {
	return hostileDir(t, "in.yaml", []byte(hostileHPA))
}

func readString(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noTemporaryFiles fails when a temporary file of WriteFile is left in dir.
func noTemporaryFiles(t *testing.T, dir string) {
	t.Helper()
	left, _ := filepath.Glob(filepath.Join(dir, ".scalelint-*.tmp"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestOutputToDevices: --output to a character device (/dev/null) keeps
// the device (as root, a rename over it made it a world-writable regular
// file), and --output /dev/stdout and --write-baseline /dev/stdout print
// on the binary's standard output (a pipe here) instead of replacing the
// link. As root, the device is a null device made for the test, so that
// a regression cannot replace the system's /dev/null; as anyone else,
// /dev/null itself, which a rename could not replace (the temporary file
// cannot even be made in /dev) but the write must reach.
func TestOutputToDevices(t *testing.T) {
	dir := writesDir(t)
	null := "/dev/null"
	if os.Geteuid() == 0 {
		null = filepath.Join(t.TempDir(), "null")
		if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, int(unix1x3())); err != nil {
			t.Fatalf("making a null device: %v", err)
		}
	}
	before, err := os.Stat(null)
	if err != nil {
		t.Fatal(err)
	}
	if _, errb, exit := runWrite(t, dir, "check", "--format", "json", "--output", null, "in.yaml"); exit != 0 {
		t.Fatalf("exit %d: %s", exit, errb)
	}
	after, err := os.Stat(null)
	if err != nil || after.Mode() != before.Mode() || after.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("%s is now %v (was %v)", null, after.Mode(), before.Mode())
	}
	out, errb, exit := runWrite(t, dir, "check", "--format", "json", "--output", "/dev/stdout", "in.yaml")
	if exit != 0 || !strings.Contains(out, `"unresolved-scale-target"`) {
		t.Errorf("--output /dev/stdout: exit %d, stdout %q, stderr %s", exit, out, errb)
	}
	out, errb, exit = runWrite(t, dir, "check", "--write-baseline", "/dev/stdout", "in.yaml")
	if exit != 0 || !strings.Contains(out, `"findings"`) {
		t.Errorf("--write-baseline /dev/stdout: exit %d, stdout %q, stderr %s", exit, out, errb)
	}
	out, _, exit = runWrite(t, dir, "check", "--format", "json", "--output", "-", "in.yaml")
	if exit != 0 || !strings.Contains(out, `"unresolved-scale-target"`) {
		t.Errorf("--output -: exit %d, stdout %q", exit, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Error(`--output - wrote a file named "-"`)
	}
	noTemporaryFiles(t, dir)
}

// TestOutputToFIFO: a FIFO given as --output is written, not replaced.
func TestOutputToFIFO(t *testing.T) {
	dir := writesDir(t)
	fifo := filepath.Join(dir, "report.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo) // waits for the writer
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if _, errb, exit := runWrite(t, dir, "check", "--format", "json", "--output", fifo, "in.yaml"); exit != 0 {
		t.Fatalf("exit %d: %s", exit, errb)
	}
	select {
	case s := <-got:
		if !strings.Contains(s, `"unresolved-scale-target"`) {
			t.Errorf("the FIFO's reader got %q", s)
		}
	case <-time.After(hangLimit):
		t.Fatal("nothing was written to the FIFO")
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is now %v", st.Mode())
	}
}

// TestOutputThroughLinks: a symbolic link given as --output stays a link
// and its target gets the report, also when the target does not exist
// yet; a file with another hard link is written in place, so both names
// show the report.
func TestOutputThroughLinks(t *testing.T) {
	dir := writesDir(t)
	target := filepath.Join(dir, "reports", "out.json")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("reports/out.json", filepath.Join(dir, "link.json")); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // dangling, then pointing at the file written
		if _, errb, exit := runWrite(t, dir, "check", "--format", "json", "--output", "link.json", "in.yaml"); exit != 0 {
			t.Fatalf("exit %d: %s", exit, errb)
		}
		if st, err := os.Lstat(filepath.Join(dir, "link.json")); err != nil || st.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("link.json is no longer a link: %v", st.Mode())
		}
		if !strings.Contains(readString(t, target), `"unresolved-scale-target"`) {
			t.Fatalf("the link's target holds %q", readString(t, target))
		}
	}
	hard := filepath.Join(dir, "hard.json")
	if err := os.Link(target, hard); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(target, 0o640); err != nil {
		t.Fatal(err)
	}
	if _, errb, exit := runWrite(t, dir, "check", "--format", "sarif", "--output", target, "in.yaml"); exit != 0 {
		t.Fatalf("exit %d: %s", exit, errb)
	}
	a, b := readString(t, target), readString(t, hard)
	if a != b || !strings.Contains(a, `"$schema"`) {
		t.Errorf("the hard links differ or hold no SARIF:\n%.200s\n%.200s", a, b)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", st.Mode().Perm())
	}
	noTemporaryFiles(t, dir)
	noTemporaryFiles(t, filepath.Dir(target))
}

// TestOutputIsAnInput: an --output or --write-baseline that names a file
// read (directly, through a link or a hard link, or the configuration) is
// refused with exit status 2, and the file is left as it was.
func TestOutputIsAnInput(t *testing.T) {
	dir := writesDir(t)
	in := filepath.Join(dir, "in.yaml")
	if err := os.Symlink("in.yaml", filepath.Join(dir, "alias.yaml.out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(in, filepath.Join(dir, "hard.out")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".scalelint.yaml"), []byte("namespace: shop\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "--format", "json", "--output", "in.yaml", "in.yaml"},
		{"check", "--format", "json", "--output", "alias.yaml.out", "."},
		{"check", "--format", "json", "--output", "hard.out", "."},
		{"check", "--write-baseline", "in.yaml", "."},
		{"check", "--format", "json", "--output", ".scalelint.yaml", "in.yaml"},
		{"audit", "--output", "in.yaml", "."},
		{"check", "--cpuprofile", "in.yaml", "in.yaml"},
	} {
		_, errb, exit := runWrite(t, dir, args...)
		if exit != 2 || !strings.Contains(errb, "is one of the inputs") {
			t.Errorf("scalelint %s: exit %d, stderr %q", strings.Join(args, " "), exit, errb)
		}
	}
	if got := readString(t, in); got != hostileHPA {
		t.Errorf("the input was changed:\n%s", got)
	}
}

// TestOutputOddNames: --output DIR is an error that names DIR (not a
// temporary file), and a backslash in a name is a character of the name
// on Linux, for --output and --fix alike.
func TestOutputOddNames(t *testing.T) {
	dir := writesDir(t)
	if err := os.Mkdir(filepath.Join(dir, "outdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, errb, exit := runWrite(t, dir, "check", "--format", "json", "--output", "outdir", "in.yaml")
	if exit != 2 || !strings.Contains(errb, "outdir: is a directory") || strings.Contains(errb, ".scalelint-") {
		t.Errorf("--output outdir: exit %d, stderr %q", exit, errb)
	}
	noTemporaryFiles(t, dir)
	if _, errb, exit := runWrite(t, dir, "check", "--format", "json", "--output", `a\b.json`, "in.yaml"); exit != 0 {
		t.Fatalf(`--output a\b.json: exit %d: %s`, exit, errb)
	}
	if !strings.Contains(readString(t, filepath.Join(dir, `a\b.json`)), `"version"`) {
		t.Error(`a\b.json holds no report`)
	}
	odd := filepath.Join(dir, `x\y.yaml`)
	if err := os.WriteFile(odd, []byte(fixableKEDA), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errb, exit := runWrite(t, dir, "check", "--fix", `x\y.yaml`); exit != 0 {
		t.Fatalf(`--fix x\y.yaml: exit %d: %s`, exit, errb)
	}
	if !strings.Contains(readString(t, odd), `lagThreshold: "10"`) {
		t.Errorf(`x\y.yaml was not fixed:\n%s`, readString(t, odd))
	}
	noTemporaryFiles(t, dir)
}

// TestFixThroughLinks: --fix of a manifest named through a symbolic link
// fixes the file the link points to and leaves the link a link; a
// manifest with another hard link is fixed in place (both names show the
// fix); the file's mode is kept.
func TestFixThroughLinks(t *testing.T) {
	dir := hostileDir(t, "real.yaml", []byte(fixableKEDA))
	real := filepath.Join(dir, "real.yaml")
	if err := os.Chmod(real, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.yaml", filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	if _, errb, exit := runWrite(t, dir, "check", "--fix", "link.yaml"); exit != 0 {
		t.Fatalf("exit %d: %s", exit, errb)
	}
	if st, err := os.Lstat(filepath.Join(dir, "link.yaml")); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("link.yaml is no longer a link")
	}
	if !strings.Contains(readString(t, real), `lagThreshold: "10"`) {
		t.Errorf("the link's target was not fixed:\n%s", readString(t, real))
	}
	if st, _ := os.Stat(real); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", st.Mode().Perm())
	}

	dir = hostileDir(t, "a.yaml", []byte(fixableKEDA))
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml.orig")
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	if _, errb, exit := runWrite(t, dir, "check", "--fix", "a.yaml"); exit != 0 {
		t.Fatalf("exit %d: %s", exit, errb)
	}
	sa, _ := os.Stat(a)
	sb, _ := os.Stat(b)
	if !os.SameFile(sa, sb) || !strings.Contains(readString(t, b), `lagThreshold: "10"`) {
		t.Errorf("the hard link was broken or not fixed:\n%s", readString(t, b))
	}
	noTemporaryFiles(t, dir)
}

// TestFixSeveralFiles: --fix over several files reports what is left in
// their new text: no "changed while scalelint read it" about its own
// edits (the text of a fixed file was read again for a note that points
// into it, or for a second format), snippets that show the lines, and exit
// status 0 when what is left is below --fail-on; a second run finds
// nothing more to fix.
func TestFixSeveralFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b", "c"} {
		so := strings.Replace(strings.Replace(fixableKEDA, "name: orders\nspec", "name: s"+n+"\nspec", 1), "{name: orders}", "{name: w"+n+"}", 1)
		// A workload whose finding has a note in the ScaledObject's file.
		w := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: w" + n + "\nspec:\n  replicas: 3\n"
		for name, data := range map[string]string{n + ".yaml": so, "w" + n + ".yaml": w} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	out, errb, exit := runWrite(t, dir, "check", "--fix", "--format", "sarif", "--output", "x.sarif", "--format", "text", ".")
	if exit != 0 || strings.Contains(errb, "changed while") || !strings.Contains(errb, "fixed 3 findings in 3 files") {
		t.Fatalf("exit %d, stderr %q", exit, errb)
	}
	// Each workload's finding shows its line.
	if n := strings.Count(out, "   6 |   replicas: 3"); n != 3 {
		t.Errorf("%d snippets of line 6, want 3:\n%s", n, out)
	}
	out, errb, exit = runWrite(t, dir, "check", "--diff", "a.yaml", "b.yaml", "c.yaml")
	if exit != 0 || out != "" {
		t.Errorf("a second run still has fixes: exit %d\n%s%s", exit, out, errb)
	}
}

// unix1x3 is the device number of the null device (major 1, minor 3), as
// Linux encodes it for mknod.
func unix1x3() uint64 { return 1<<8 | 3 }

// TestTextOutputEscapes: a file name holding a terminal escape sequence,
// a carriage return or a bidirectional override is printed escaped, in
// findings, notes, errors and the summary alike.
func TestTextOutputEscapes(t *testing.T) {
	name := "a\x1b[2J\rb\u202ec.yaml"
	dir := hostileDir(t, name, []byte(hostileHPA))
	if err := syscall.Mkfifo(filepath.Join(dir, "f\x1b]0;x\a.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errb, exit := runWrite(t, dir, "check", "--color", "never", name, "f\x1b]0;x\a.yaml")
	if exit != 2 {
		t.Errorf("exit %d, want 2 (the FIFO is not a regular file)", exit)
	}
	for _, s := range []string{out, errb} {
		for _, bad := range []string{"\x1b", "\r", "\a", "\u202e"} {
			if strings.Contains(s, bad) {
				t.Errorf("%q printed raw:\n%q", bad, s)
			}
		}
	}
	if !strings.Contains(out, `a\x1b[2J\x0db\u202ec.yaml:12:11`) || !strings.Contains(errb, `f\x1b]0;x\x07.yaml: not a regular file`) {
		t.Errorf("the names are not shown escaped:\n%s\n%s", out, errb)
	}
}
