//go:build linux

package main

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// TestFilesystemInputs runs the binary over a tree built to trip a
// directory walk: a symlink loop, a dangling symlink, a symlink to a file
// outside the tree, a FIFO, links to devices, names with spaces and
// non-ASCII characters, a tree 300 directories deep, and entries that
// cannot be read. Everything readable must be linted, every run must end
// within hangLimit without crashing, each path that cannot be read and
// was named (or, for unreadable entries, found) must be reported on
// stderr by its path, and the exit status must be 2 whenever a path could
// not be read (an I/O error), with what could be read linted all the same.
func TestFilesystemInputs(t *testing.T) {
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	write := func(rel, data string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		must(os.MkdirAll(filepath.Dir(p), 0o755))
		must(os.WriteFile(p, []byte(data), 0o644))
	}
	must(os.Mkdir(filepath.Join(root, ".git"), 0o755)) // the config search stops here
	deep := "w/" + strings.Repeat("d/", 300) + "deep.yaml"
	readable := []string{"w/ok.yaml", "w/with space/a b.yaml", "w/é/é.yaml", "w/中文/中文.yaml", "w/😀/😀 x.yaml", deep}
	for _, f := range readable {
		write(f, hostileHPA)
	}
	outside := filepath.Join(t.TempDir(), "outside.yaml")
	must(os.WriteFile(outside, []byte(hostileHPA), 0o644))
	w := filepath.Join(root, "w")
	must(os.Symlink(outside, filepath.Join(w, "outside.yaml"))) // a link to a file outside the tree: read
	readable = append(readable, "w/outside.yaml")
	must(os.Mkdir(filepath.Join(w, "loop"), 0o755))
	must(os.Symlink(".", filepath.Join(w, "loop", "a")))                      // dir/a -> dir
	must(os.Symlink("self.yaml", filepath.Join(w, "self.yaml")))              // a loop with a manifest's name
	must(os.Symlink("nowhere.yaml", filepath.Join(w, "dangling.yaml")))       // a dangling link
	must(syscall.Mkfifo(filepath.Join(w, "fifo.yaml"), 0o644))                // no one ever writes it
	must(os.Symlink("fifo.yaml", filepath.Join(w, "fifo-link.yaml")))         // a link to it
	must(os.Symlink("/dev/zero", filepath.Join(w, "zero.yaml")))              // a device, found in the walk
	must(os.Symlink(filepath.Join(w, "loop"), filepath.Join(w, "back.yaml"))) // a link to a directory

	// Entries that cannot be read. chmod 000 denies reads only to a user
	// without CAP_DAC_OVERRIDE: the tests may run as root, where it does
	// not, so a real read decides. Without the denial, the unreadable file
	// is a dangling symlink named on the command line (ENOENT) and the
	// unreadable directory a path through a file (w/ok.yaml/sub: ENOTDIR),
	// neither of which root can read either.
	probe := filepath.Join(t.TempDir(), "probe")
	must(os.WriteFile(probe, []byte("x"), 0o644))
	must(os.Chmod(probe, 0))
	_, err := os.ReadFile(probe)
	readsDenied := err != nil
	unreadableFile, unreadableDir := "w/dangling.yaml", "w/ok.yaml/sub"
	if readsDenied {
		unreadableFile, unreadableDir = "w/secret.yaml", "w/locked"
		write(unreadableFile, hostileHPA)
		write(unreadableDir+"/inside.yaml", hostileHPA)
		must(os.Chmod(filepath.Join(root, unreadableFile), 0))
		must(os.Chmod(filepath.Join(root, unreadableDir), 0))
		t.Cleanup(func() { os.Chmod(filepath.Join(root, unreadableDir), 0o755) }) // so TempDir can remove it
	}
	t.Logf("reads of mode 000 denied: %v; unreadable file %s, directory %s", readsDenied, unreadableFile, unreadableDir)

	// linted returns the files with findings, sorted: every readable
	// file has one (its target is not among the inputs).
	linted := func(rep jsonOut) []string {
		seen := map[string]bool{}
		var out []string
		for _, d := range rep.Diagnostics {
			if !seen[d.File] {
				seen[d.File] = true
				out = append(out, d.File)
			}
		}
		sort.Strings(out)
		return out
	}
	sort.Strings(readable)
	all := strings.Join(readable, "\n")

	t.Run("walk", func(t *testing.T) {
		r := runBinary(t, root, hangLimit, "check", "--format", "json", "w")
		want := exitOK // the walk skips links and special files; an unreadable entry is an I/O error
		if readsDenied {
			want = exitError
		}
		rep := r.checkOutcome(t, want)
		if got := strings.Join(linted(rep), "\n"); got != all {
			t.Errorf("linted:\n%s\nwant:\n%s\nstderr:\n%s", got, all, r.stderr)
		}
		if rep.Summary.Files != len(readable) {
			t.Errorf("summary counts %d files, want %d (each once)", rep.Summary.Files, len(readable))
		}
		if readsDenied {
			for _, p := range []string{unreadableFile, unreadableDir} {
				if !strings.Contains(r.stderr, p+": permission denied") {
					t.Errorf("stderr does not report %s:\n%s", p, r.stderr)
				}
			}
		}
		t.Logf("walk: exit %d, %d files, %d KiB, %.2fs", r.exit, rep.Summary.Files, r.maxRSS, r.wall.Seconds())
	})

	t.Run("unreadable-named", func(t *testing.T) {
		r := runBinary(t, root, hangLimit, "check", "--format", "json", "w", unreadableFile, unreadableDir)
		rep := r.checkOutcome(t, exitError)
		if got := strings.Join(linted(rep), "\n"); got != all {
			t.Errorf("linted:\n%s\nwant:\n%s", got, all)
		}
		for _, p := range []string{unreadableFile, unreadableDir} {
			if !strings.Contains(r.stderr, "scalelint: "+p+": ") {
				t.Errorf("stderr does not report %s:\n%s", p, r.stderr)
			}
		}
	})

	// Each named alone: nothing can be read, so exit 2, naming the path
	// and why; named with a readable file: reported, the file linted, and
	// exit 2 still.
	named := []struct{ path, why string }{
		{"w/fifo.yaml", "not a regular file"},
		{"w/fifo-link.yaml", "not a regular file"},
		{"/dev/null", "not a regular file"},
		{"/dev/zero", "not a regular file"},
		{"w/zero.yaml", "not a regular file"},
		{"w/self.yaml", "too many levels of symbolic links"},
		{"w/dangling.yaml", "no such file or directory"},
		{"w/ok.yaml/inside.yaml", "not a directory"},
		{unreadableFile, ""},
		{unreadableDir, ""},
	}
	for _, n := range named {
		t.Run("named "+n.path, func(t *testing.T) {
			r := runBinary(t, root, hangLimit, "check", "--format", "json", n.path)
			r.checkOutcome(t, exitError)
			if want := "scalelint: " + n.path + ": " + n.why; !strings.Contains(r.stderr, want) {
				t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
			}
			r = runBinary(t, root, hangLimit, "check", "--format", "json", n.path, "w/ok.yaml")
			rep := r.checkOutcome(t, exitError)
			if got := linted(rep); len(got) != 1 || got[0] != "w/ok.yaml" {
				t.Errorf("linted %q, want w/ok.yaml", got)
			}
			if want := "scalelint: " + n.path + ": " + n.why; !strings.Contains(r.stderr, want) {
				t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
			}
		})
	}

	t.Run("deep path", func(t *testing.T) {
		r := runBinary(t, root, hangLimit, "check", "--format", "json", deep)
		rep := r.checkOutcome(t, exitOK)
		if got := linted(rep); len(got) != 1 || got[0] != deep {
			t.Errorf("linted %q, want %s", got, deep)
		}
	})
	if _, err := os.Stat(filepath.Join(root, deep)); errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the deep tree was not built: %v", err)
	}
}
