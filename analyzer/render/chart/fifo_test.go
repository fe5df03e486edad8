//go:build unix

package chart

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/scalelint/scalelint/analyzer/render"
)

// TestFIFOsNotWaitedOn: a chart's files are read as every file scalelint
// reads (workspace.ReadWhole): a FIFO where a chart has its .helmignore,
// or named as a values file, is refused at once ("not a regular file"),
// never opened for a read that waits for a writer. The chart still
// renders with its defaults.
func TestFIFOsNotWaitedOn(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "chart")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(chartsDir, "helm-create"))); err != nil {
		t.Fatal(err)
	}
	ignore := filepath.Join(dir, ".helmignore")
	if err := os.Remove(ignore); err != nil {
		t.Fatal(err)
	}
	values := filepath.Join(t.TempDir(), "values.yaml")
	for _, p := range []string{ignore, values} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type result struct {
		c        *Chart
		problems []render.Problem
		out      *render.Output
		set      []render.Problem
	}
	done := make(chan result, 1)
	go func() {
		var r result
		if r.c, r.problems = Load(dir, LoadOptions{}); r.c != nil {
			r.out, r.set = r.c.Render(context.Background(), ValueSet{Name: "fifo", Files: []string{values}}, Options{})
		}
		done <- r
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(20 * time.Second): // a hang detector
		// Unblock the reads that wait (the regression) so the test ends.
		for _, p := range []string{ignore, values} {
			if w, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
		}
		t.Fatal("a chart's FIFO was waited on")
	}
	if r.c == nil || len(r.problems) != 0 {
		t.Fatalf("Load: %v, want the chart with no problem (a .helmignore that cannot be read is none)", r.problems)
	}
	if r.out != nil || len(r.set) != 1 || !strings.Contains(r.set[0].Message, "not a regular file") {
		t.Errorf("a FIFO as values file: %v, want one problem saying it is not a regular file", r.set)
	}
	renderSet(t, r.c, r.c.ValueSets()[0]) // the defaults render
}
