package lsp

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/uri"

	"github.com/scalelint/scalelint/rules"
)

// earlyConsumer is testdata/workspace's consumer.yaml with a misspelt
// annotation: invalid-annotation, a local finding. Its scale target is in
// deployment.yaml, which the held index has not read: a lint of the open
// document alone that published every finding would report it missing
// (unresolved-scale-target, as `scalelint check consumer.yaml` does).
func earlyConsumer(t *testing.T, dir string) string {
	text := mustRead(t, filepath.Join(dir, "consumer.yaml"))
	out := strings.Replace(text, "    scalelint.dev/pod-rate: \"10\"\n", "    scalelint.dev/pod-rate: \"10\"\n    scalelint.dev/dead-tme: \"90s\"\n", 1)
	if out == text {
		t.Fatal("the fixture changed: no pod-rate annotation to add after")
	}
	return out
}

// holdIndexRead makes the client's server hold its index runs after the
// walk, before any file is read, until release is closed; walked is
// closed when the first run gets there.
func holdIndexRead(c *testClient) (walked, release chan struct{}) {
	walked, release = make(chan struct{}), make(chan struct{})
	first := true
	c.srv.testHook = func(ctx context.Context, method string) {
		if method == testHookIndexRead {
			if first {
				first = false
				close(walked)
			}
			select {
			case <-release:
			case <-ctx.Done():
			}
		}
	}
	return walked, release
}

// localOnly reports the first finding of a publication whose rule is not
// local, if any.
func localOnly(p publication) (string, bool) {
	for _, r := range p.rules() {
		if a, ok := rules.ByName(r); !ok || !a.Local {
			return r, false
		}
	}
	return "", true
}

// TestEarlyLint: while the index is read (held after its walk), the open
// document gets its local findings, for each version, and nothing that
// files not yet read could change (no unresolved-scale-target: its target
// is one of them); once the index is done, the document's findings are
// exactly those of a lint of the whole workspace from scratch.
func TestEarlyLint(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	c := newClient(t, Options{})
	walked, release := holdIndexRead(c)
	c.initialize(dir, "")
	<-walked
	u := c.open("consumer.yaml", earlyConsumer(t, dir))
	for v := int32(1); ; {
		p := c.waitVersion(u, v)
		if !p.has("invalid-annotation") {
			t.Errorf("version %d: the local finding was not published while indexing: %v", v, p.rules())
		}
		if r, ok := localOnly(p); !ok {
			t.Errorf("version %d: %s published before the index was read: %v", v, r, p.rules())
		}
		if v == 2 {
			break
		}
		v = c.edit(u, `lagThreshold: "10"`, `lagThreshold: "20"`) // an edit while indexing
	}
	close(release)
	final := c.waitFor(u, "the complete findings", func(p publication) bool { return p.Version == 2 && p.has("latency-floor") })
	for _, p := range c.published(u) {
		if p.At.Before(final.At) {
			if r, ok := localOnly(p); !ok {
				t.Errorf("version %d: %s published before the index was complete: %v", p.Version, r, p.rules())
			}
		}
	}

	// A lint from scratch of the same texts: the open document's, and
	// the disk's for the other files.
	fresh := NewServer(Options{Debounce: -1, Log: io.Discard})
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		text := []byte(mustRead(t, p))
		if p == pathOf(u) {
			text = []byte(c.texts[u])
		}
		fresh.setDiskLocked(p, fresh.cache.newHandle(p, uri.File(p), 0, false, text))
	}
	fresh.mu.Lock()
	full := fresh.newSnapshotLocked()
	fresh.mu.Unlock()
	want := protocolJSON(t, fileDiagnosticsOf(t, full)[pathOf(u)])
	if got := protocolJSON(t, final.Diagnostics); got != want {
		t.Errorf("the findings after the index differ from a full lint\ngot:  %s\nwant: %s", got, want)
	}
	if !strings.Contains(want, "latency-floor") || strings.Contains(want, "unresolved-scale-target") {
		t.Errorf("the full lint is not the one this test is about: %s", want)
	}
}

// TestEarlyLintWithheld: nothing is published for an open document before
// the index is complete when files not yet read could change how it is
// read: a configuration file the walk met and the server has not loaded
// (it could turn a rule off, or exclude the file), or a kustomization
// whose directory holds the document (its build reads it).
func TestEarlyLintWithheld(t *testing.T) {
	for _, tc := range []struct{ name, file, text string }{
		{"configuration file inside", "sub/.scalelint.yaml", "rules:\n  invalid-annotation: off\n"},
		{"kustomization above", "kustomization.yaml", "resources:\n- consumer.yaml\n- deployment.yaml\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := workspaceDir(t, "workspace")
			p := filepath.Join(dir, tc.file)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			c := newClient(t, Options{})
			walked, release := holdIndexRead(c)
			c.initialize(dir, "")
			<-walked
			u := c.open("consumer.yaml", earlyConsumer(t, dir))
			// The early lint, when the walk allows one, is scheduled before
			// the hold: with the plan it was given, the document is not
			// one it lints.
			c.srv.mu.Lock()
			run, snap := c.srv.index, c.srv.snap
			c.srv.mu.Unlock()
			if e := run.early.Load(); e != nil {
				open := map[string]bool{}
				for q := range snap.files.over {
					open[q] = true
				}
				if !e.rendered(pathOf(u), earlyOpenPlan(open)) {
					t.Errorf("the open document would be linted before the index")
				}
			}
			close(release)
			// Every publication is a complete one: it holds latency-floor,
			// which no lint before the index publishes.
			c.waitFor(u, "the complete findings", func(p publication) bool {
				_, local := localOnly(p)
				return p.Version == 1 && !local
			})
			for _, p := range c.published(u) {
				if _, local := localOnly(p); local {
					t.Errorf("published before the index was complete: %v", p.rules())
				}
			}
		})
	}
}
