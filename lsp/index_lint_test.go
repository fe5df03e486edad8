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

// TestEditDuringWholeLint: documents opened and edited while the
// workspace is linted whole (held inside that lint), after the index is
// done or after a configuration change, do not restart that lint: the
// workspace is linted whole once, and the edits' lints derive from that
// lint once it is done (the edited document linted again on top of it).
// The final publications are those of a lint from scratch of the final
// texts and settings, and the document's versions never go back.
func TestEditDuringWholeLint(t *testing.T) {
	for _, tc := range []struct{ name, settings string }{
		{"the index's lint", ""},
		{"a configuration change's lint", `{"scalelint": {"rules": {"latency-floor": "warning"}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := workspaceDir(t, "workspace")
			c := newClient(t, Options{})
			var mu sync.Mutex
			armed := tc.settings == "" // count and hold from the index on, or from the change on
			full, lints := 0, 0
			held, release := make(chan struct{}), make(chan struct{})
			c.srv.testHook = func(ctx context.Context, method string) {
				mu.Lock()
				defer mu.Unlock()
				if !armed {
					return
				}
				switch method {
				case testHookFullLint:
					full++
					if full == 1 {
						close(held)
						mu.Unlock()
						select {
						case <-release:
						case <-ctx.Done():
						}
						mu.Lock()
					}
				case testHookLint:
					lints++
				}
			}
			c.initialize(dir, "")
			var u uri.URI
			if tc.settings != "" {
				u = c.open("consumer.yaml", "")
				c.waitFor(u, "the complete findings", func(p publication) bool { return p.Version == 1 && p.has("latency-floor") })
				mu.Lock()
				armed = true
				mu.Unlock()
				c.notify(protocol.MethodWorkspaceDidChangeConfiguration, `{"settings": `+tc.settings+`}`)
			}
			select {
			case <-held: // the whole lint runs
			case <-time.After(waitTimeout):
				t.Fatalf("no lint of the whole workspace started\nserver log:\n%s", c.log)
			}
			if u == "" {
				u = c.open("consumer.yaml", "")
			}
			c.edit(u, `lagThreshold: "10"`, `lagThreshold: "20"`)
			last := c.edit(u, `lagThreshold: "20"`, `lagThreshold: "30"`)
			// Let an edit's lint start (they are not debounced) before the
			// whole lint goes on.
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
				t.Errorf("the workspace was linted whole %d times; want once (not restarted by the edits)", full)
			}
			mu.Unlock()
			prev := int32(0)
			for _, p := range c.published(u) {
				if p.Version < prev {
					t.Errorf("version %d published after version %d", p.Version, prev)
				}
				prev = p.Version
			}

			want := lintFromScratch(t, dir, tc.settings, map[string]string{pathOf(u): c.texts[u]})
			if !strings.Contains(protocolJSON(t, want[pathOf(u)]), "latency-floor") {
				t.Fatalf("the full lint is not the one this test is about: %v", publication{Diagnostics: want[pathOf(u)]}.rules())
			}
			for _, d := range want[pathOf(u)] {
				if tc.settings != "" && d.Code == protocol.String("latency-floor") && d.Severity != protocol.DiagnosticSeverityWarning {
					t.Fatalf("the lint from scratch did not take the settings: latency-floor at severity %d", d.Severity)
				}
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
		})
	}
}

// lintFromScratch lints the files of dir (texts given by path replace
// the disk's) in a server of its own, with the editor's settings (the
// params of didChangeConfiguration; "": none), and returns every file's
// findings.
func lintFromScratch(t *testing.T, dir, settings string, texts map[string]string) map[string][]protocol.Diagnostic {
	t.Helper()
	fresh := NewServer(Options{Debounce: -1, Log: io.Discard})
	if settings != "" {
		st, err := parseSettings([]byte(settings))
		if err != nil {
			t.Fatal(err)
		}
		fresh.mu.Lock()
		fresh.applySettingsLocked(context.Background(), st)
		fresh.mu.Unlock()
	}
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
