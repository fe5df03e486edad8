package workspace

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// TestLoadTimeLimit: a file whose read never ends (a FIFO no one writes,
// named directly, as a caller of LoadReleased may) is refused with an input-limit
// problem once the time limit passes, and the other files are loaded.
func TestLoadTimeLimit(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "stuck.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.yaml")
	if err := os.WriteFile(good, []byte("apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := manifest.Options{Limits: manifest.Limits{Timeout: 200 * time.Millisecond}}
	start := time.Now()
	files, errs := LoadReleased(token.NewFileSet(), []string{fifo, good}, opts)
	elapsed := time.Since(start)
	// Unblock the abandoned read so the test leaves nothing behind.
	if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
		w.Close()
	}
	if len(errs) != 0 || len(files) != 2 {
		t.Fatalf("files %d, errors %v", len(files), errs)
	}
	ps := files[0].Problems()
	if files[0].Path != fifo || len(ps) != 1 || ps[0].Rule != "input-limit" || !strings.Contains(ps[0].Message, "time limit of 200ms") {
		t.Fatalf("stuck file: %s %+v", files[0].Path, ps)
	}
	if len(files[1].Problems()) != 0 {
		t.Errorf("good file: %+v", files[1].Problems())
	}
	if elapsed > 5*time.Second { // a hang detector, not a speed check
		t.Errorf("LoadReleased waited %v for a file limited to 200ms", elapsed)
	}
}
