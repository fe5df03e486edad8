package lsp

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestEditDuringIndexLint: documents opened and edited while the lint of
// the freshly indexed workspace runs (held inside it) do not restart it:
// the workspace is linted whole once, and the edits' lints derive from
// that lint once it is done (the edited document linted again on top of
// it). The final publications are those of a lint from scratch of the
// final texts, and the document's versions never go back.
func TestEditDuringIndexLint(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	c := newClient(t, Options{})
	var mu sync.Mutex
	full, lints := 0, 0
	held, release := make(chan struct{}), make(chan struct{})
	c.srv.testHook = func(ctx context.Context, method string) {
		switch method {
		case testHookFullLint:
			mu.Lock()
			full++
			first := full == 1
			mu.Unlock()
			if first {
				close(held)
				select {
				case <-release:
				case <-ctx.Done():
				}
			}
		case testHookLint:
			mu.Lock()
			lints++
			mu.Unlock()
		}
	}
	c.initialize(dir, "")
	select {
	case <-held: // the index is done, its lint runs
	case <-time.After(waitTimeout):
		t.Fatalf("the index's lint did not start\nserver log:\n%s", c.log)
	}
	u := c.open("consumer.yaml", "")
	c.edit(u, `lagThreshold: "10"`, `lagThreshold: "20"`)
	last := c.edit(u, `lagThreshold: "20"`, `lagThreshold: "30"`)
	// Let the edits' lints start (they are not debounced) before the
	// index's lint goes on.
	for deadline := time.Now().Add(waitTimeout); ; time.Sleep(time.Millisecond) {
		mu.Lock()
		n := lints
		mu.Unlock()
		if n >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no lint of an edit started")
		}
	}
	close(release)
	final := c.waitVersion(u, last)

	mu.Lock()
	if full != 1 {
		t.Errorf("the workspace was linted whole %d times; want once (the index's lint, not restarted by the edits)", full)
	}
	mu.Unlock()
	prev := int32(0)
	for _, p := range c.published(u) {
		if p.Version < prev {
			t.Errorf("version %d published after version %d", p.Version, prev)
		}
		prev = p.Version
	}

	want := lintFromScratch(t, dir, map[string]string{pathOf(u): c.texts[u]})
	if !strings.Contains(protocolJSON(t, want[pathOf(u)]), "latency-floor") {
		t.Fatalf("the full lint is not the one this test is about: %v", publication{Diagnostics: want[pathOf(u)]}.rules())
	}
	if got := protocolJSON(t, final.Diagnostics); got != protocolJSON(t, want[pathOf(u)]) {
		t.Errorf("the edited document's findings differ from a full lint\ngot:  %s\nwant: %s", got, protocolJSON(t, want[pathOf(u)]))
	}
	c.mu.Lock()
	latest := map[string][]protocol.Diagnostic{}
	for v, p := range c.latest {
		latest[pathOf(v)] = p.Diagnostics
	}
	c.mu.Unlock()
	for p, items := range want {
		if got, w := protocolJSON(t, latest[p]), protocolJSON(t, items); got != w {
			t.Errorf("%s: the last publication differs from a full lint\ngot:  %s\nwant: %s", filepath.Base(p), got, w)
		}
	}
}

// lintFromScratch lints the files of dir (texts given by path replace
// the disk's) in a server of its own, and returns every file's findings.
func lintFromScratch(t *testing.T, dir string, texts map[string]string) map[string][]protocol.Diagnostic {
	t.Helper()
	fresh := NewServer(Options{Debounce: -1, Log: io.Discard})
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		text, ok := texts[p]
		if !ok {
			text = mustRead(t, p)
		}
		fresh.setDiskLocked(p, fresh.cache.newHandle(p, uri.File(p), 0, false, []byte(text)))
	}
	fresh.mu.Lock()
	snap := fresh.newSnapshotLocked()
	fresh.mu.Unlock()
	return fileDiagnosticsOf(t, snap)
}
