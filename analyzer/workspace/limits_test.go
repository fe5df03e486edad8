package workspace

import (
	"errors"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// TestLoadFIFO: a FIFO at a manifest's path (named directly, as a caller
// of LoadReleased may, or a file replaced by one after the walk listed
// it) is never opened for a read that waits for a writer: it is an error
// at once ("not a regular file"), and the other files are loaded.
func TestLoadFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "stuck.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.yaml")
	if err := os.WriteFile(good, []byte("apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var files []*manifest.File
	var errs []error
	go func() {
		defer close(done)
		files, errs = LoadReleased(token.NewFileSet(), []string{fifo, good}, manifest.Options{})
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second): // a hang detector
		// Unblock a read that waits (the regression) so the test ends.
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		t.Fatal("LoadReleased waited on a FIFO")
	}
	if len(errs) != 1 || !errors.Is(errs[0].(*WalkError).Err, ErrNotRegular) || errs[0].(*WalkError).Path != fifo {
		t.Errorf("errors %v, want %s: not a regular file", errs, fifo)
	}
	if len(files) != 1 || files[0].Path != good || len(files[0].Problems()) != 0 {
		t.Errorf("files %v", files)
	}
}

// TestLoadTimeLimit: a file whose reading and parsing outlasts the time
// limit (here 1ns: any) is refused with an input-limit problem saying so,
// by the parser itself, which parses no document after the deadline.
func TestLoadTimeLimit(t *testing.T) {
	dir := t.TempDir()
	slow := filepath.Join(dir, "slow.yaml")
	if err := os.WriteFile(slow, []byte("apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := manifest.Options{Limits: manifest.Limits{Timeout: time.Nanosecond}}
	files, errs := LoadReleased(token.NewFileSet(), []string{slow}, opts)
	if len(errs) != 0 || len(files) != 1 {
		t.Fatalf("files %d, errors %v", len(files), errs)
	}
	ps := files[0].Problems()
	if len(ps) != 1 || ps[0].Rule != "input-limit" || !strings.Contains(ps[0].Message, "longer than the time limit of 1ns") {
		t.Fatalf("problems %+v", ps)
	}
	for _, d := range files[0].Docs {
		if d.Parsed() && len(d.Objects()) > 0 {
			t.Errorf("document %d parsed after the deadline", d.Index)
		}
	}
}

// TestWalkSkipsPseudoFS: a walk does not enter a pseudo-filesystem, and
// says which it skipped; /proc, where the running system has one.
func TestWalkSkipsPseudoFS(t *testing.T) {
	m := parseMountinfo([]byte("22 27 0:21 / /proc rw,relatime - proc proc rw\n" +
		"23 27 0:22 / /sys rw,relatime - sysfs sysfs rw\n" +
		"30 27 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n" +
		"31 27 0:40 / /mnt/with\\040space rw - tmpfs tmpfs rw\n" +
		"32 27 0:41 / /run/x\\040y rw - cgroup2 cgroup2 rw\n"))
	if want := (pseudoMounts{"/proc", "/sys", "/run/x y"}); strings.Join(m, "|") != strings.Join(want, "|") {
		t.Errorf("pseudo mounts %q, want %q", m, want)
	}
	if !m.holds("/proc") || !m.holds("/proc/1/fd") || m.holds("/procfs") || m.holds("/") {
		t.Error("holds")
	}
	if _, err := os.Stat("/proc/self/mountinfo"); err != nil {
		t.Log("no /proc/self/mountinfo here: the walk of /proc is not checked")
		return
	}
	r := WalkWith(t.Context(), []string{"/proc"}, WalkOptions{})
	if len(r.Paths) != 0 || len(r.Skipped) != 1 || r.Skipped[0] != "/proc" {
		t.Errorf("walk of /proc: %d files, skipped %q", len(r.Paths), r.Skipped)
	}
}

// TestWalkCap: a walk stops at MaxFiles, or before MaxBytes, and says so.
func TestWalkCap(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.yaml", "b.yaml", "c.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("a: 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := WalkWith(t.Context(), []string{dir}, WalkOptions{MaxFiles: 2})
	if len(r.Paths) != 2 || !r.Capped || len(r.Errs) != 0 {
		t.Errorf("paths %q, capped %v, errors %v", r.Paths, r.Capped, r.Errs)
	}
	r = WalkWith(t.Context(), []string{dir}, WalkOptions{MaxFiles: 3})
	if len(r.Paths) != 3 || r.Capped {
		t.Errorf("paths %q, capped %v", r.Paths, r.Capped)
	}
	// Three files of 5 bytes: 12 bytes hold two of them.
	r = WalkWith(t.Context(), []string{dir}, WalkOptions{MaxBytes: 12})
	if len(r.Paths) != 2 || !r.Capped || r.Bytes != 10 {
		t.Errorf("paths %q, capped %v, bytes %d", r.Paths, r.Capped, r.Bytes)
	}
}
