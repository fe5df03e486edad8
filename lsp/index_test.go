package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestInitializeAnswersWhileIndexing: initialize is answered while the
// workspace index is still being built (held here by the test hook), and
// a request that arrives meanwhile waits for the index and reads the open
// document over it: the definition of a scale target in another file is
// found, which a snapshot without the disk files cannot give.
func TestInitializeAnswersWhileIndexing(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	release, indexing, arrived := make(chan struct{}), make(chan struct{}), make(chan struct{})
	c := newClient(t, Options{})
	c.srv.testHook = func(ctx context.Context, method string) {
		switch method {
		case testHookIndex:
			close(indexing)
			<-release
		case protocol.MethodTextDocumentDefinition:
			close(arrived)
		}
	}
	c.initialize(dir, "") // answered although the index is held
	<-indexing
	u := c.open("consumer.yaml", "")
	got := make(chan protocol.LocationSlice, 1)
	go func() {
		var locs protocol.LocationSlice
		if err := c.call(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: c.positionOf(u, "    name: orders", 12)}}, &locs); err != nil {
			t.Error(err)
		}
		got <- locs
	}()
	<-arrived
	// No lint of a snapshot without the index: it would report the
	// Deployment as missing. (A lint that ran anyway could also publish
	// later than this check; it never publishes before the index.)
	if ps := c.published(u); len(ps) != 0 {
		t.Errorf("diagnostics published before the index was built: %+v", ps)
	}
	close(release)
	locs := <-got
	if len(locs) != 1 || locs[0].URI != uri.File(filepath.Join(dir, "deployment.yaml")) {
		t.Fatalf("definition = %+v", locs)
	}
	p := c.waitVersion(u, 1)
	if p.has("unresolved-scale-target") {
		t.Errorf("the target was reported missing: %v", p.rules())
	}
}

// TestIndexCap: the index reads at most maxIndexedFiles files, and
// maxIndexedBytes bytes, and says so when a workspace holds more.
func TestIndexCap(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	if err := os.WriteFile(filepath.Join(dir, "third.yaml"), []byte("apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Options{})
	c.initialize(dir, `{"maxIndexedFiles": 2}`)
	c.waitUntil("the cap reported", func() bool {
		for _, m := range c.messages {
			if m.Type == protocol.MessageTypeWarning && strings.Contains(m.Message, "only the first 2 files (0 MiB) were indexed") {
				return true
			}
		}
		return false
	})
	if !strings.Contains(c.log.String(), "capped=true") {
		t.Errorf("the log does not say the index was capped:\n%s", c.log)
	}
	// And by bytes: a cap one byte above the first two files (in walk
	// order) holds those two, not the third.
	var two int64
	for _, n := range []string{"consumer.yaml", "deployment.yaml"} {
		st, err := os.Stat(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		two += st.Size()
	}
	c = newClient(t, Options{})
	c.initialize(dir, fmt.Sprintf(`{"maxIndexedBytes": %d}`, two+1))
	c.waitUntil("the byte cap reported", func() bool {
		for _, m := range c.messages {
			if m.Type == protocol.MessageTypeWarning && strings.Contains(m.Message, "only the first 2 files (0 MiB) were indexed") {
				return true
			}
		}
		return false
	})
}

// TestWatchedFIFO: a watched-file event for a FIFO (a manifest replaced by
// one) does not open it for a read that waits for a writer, with the
// server's lock held: every request after it would block. The next
// request is answered, and the FIFO is not indexed.
func TestWatchedFIFO(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	c := newClient(t, Options{})
	c.initialize(dir, "")
	u := c.open("consumer.yaml", "")
	c.waitVersion(u, 1)
	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unblockFIFO(fifo) })
	answered := make(chan error, 1)
	go func() {
		if err := c.conn.Notify(context.Background(), protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{
			Changes: []protocol.FileEvent{{URI: uri.File(fifo), Type: protocol.FileChangeTypeCreated}}}); err != nil {
			answered <- err
			return
		}
		var h *protocol.Hover
		answered <- c.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: c.positionOf(u, "lagThreshold", 0)}}, &h)
	}()
	select {
	case err := <-answered:
		if err != nil {
			t.Fatalf("hover after a FIFO's watched-file event: %v", err)
		}
	case <-time.After(waitTimeout):
		unblockFIFO(fifo)
		t.Fatal("no answer after a FIFO's watched-file event: the server blocked opening it")
	}
	if c.srv.current().files.get(fifo) != nil {
		t.Error("the FIFO is in the index")
	}
}

// unblockFIFO opens a FIFO for writing without waiting and closes it, so
// that a reader blocked on it (a regression) returns.
func unblockFIFO(path string) {
	if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		f.Close()
	}
}

// TestIndexNodeLimit: the index parses within the configuration's node
// limit as the CLI does: a file of more nodes is refused with the limit's
// own words.
func TestIndexNodeLimit(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	if err := os.WriteFile(filepath.Join(dir, ".scalelint.yaml"), []byte("limits:\n  maxNodes: 1000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  x: ["+strings.Repeat("1,", 5000)+"1]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Options{})
	c.initialize(dir, "")
	c.waitFor(uri.File(big), "the node limit", func(p publication) bool {
		for _, d := range p.Diagnostics {
			if strings.Contains(string(d.Message.(protocol.String)), "more than 1000 YAML nodes") {
				return true
			}
		}
		return false
	})
}

// TestConfigErrorShownOnce: an error in .scalelint.yaml is shown once,
// not again each time the server reconfigures (settings changed after
// initialize), and again only after it was fixed and broken anew.
func TestConfigErrorShownOnce(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	cfg := filepath.Join(dir, ".scalelint.yaml")
	if err := os.WriteFile(cfg, []byte("rulez: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Options{})
	c.initialize(dir, "")
	c.notify(protocol.MethodWorkspaceDidChangeConfiguration, `{"settings": {"namespace": "x"}}`)
	c.notify(protocol.MethodWorkspaceDidChangeConfiguration, `{"settings": {"namespace": "y"}}`)
	u := c.open("consumer.yaml", "")
	c.waitVersion(u, 1) // every notification before it was handled
	count := func() int {
		c.mu.Lock()
		defer c.mu.Unlock()
		n := 0
		for _, m := range c.messages {
			if strings.Contains(m.Message, `unknown key "rulez"`) {
				n++
			}
		}
		return n
	}
	c.waitUntil("the configuration error shown", func() bool {
		for _, m := range c.messages {
			if strings.Contains(m.Message, `unknown key "rulez"`) {
				return true
			}
		}
		return false
	})
	if n := count(); n != 1 {
		t.Errorf("the configuration error was shown %d times, want once", n)
	}
}
