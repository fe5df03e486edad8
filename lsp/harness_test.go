package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// waitTimeout bounds every wait of a test for the server. It is a
// deadline against hangs, not a performance assertion.
const waitTimeout = 20 * time.Second

// publication is one textDocument/publishDiagnostics the client received.
type publication struct {
	URI         uri.URI
	Version     int32
	HasVersion  bool
	Diagnostics []protocol.Diagnostic
	At          time.Time
}

// rules returns the codes of the diagnostics.
func (p publication) rules() []string {
	var out []string
	for _, d := range p.Diagnostics {
		if c, ok := d.Code.(protocol.String); ok {
			out = append(out, string(c))
		}
	}
	return out
}

func (p publication) has(rule string) bool {
	for _, r := range p.rules() {
		if r == rule {
			return true
		}
	}
	return false
}

// testClient drives a Server in process over a pipe, as an editor would:
// the server's real handler chain and codec, the protocol over the wire.
type testClient struct {
	t      testing.TB
	srv    *Server
	conn   jsonrpc2.Conn
	log    *syncBuffer
	dir    string
	nextV  map[uri.URI]int32
	texts  map[uri.URI]string
	cancel context.CancelFunc
	done   chan struct{}
	// raw is the client's end of the pipe: rawFrame writes bytes on it,
	// past the client's framer (wire-level abuse).
	raw rawConn
	// shutdownFirst and serveErr are what Serve returned, once done is
	// closed; for a server process (srv nil), whether it exited with
	// status 0, and Wait's error.
	shutdownFirst bool
	serveErr      error

	mu            sync.Mutex
	cond          *sync.Cond
	pubs          []publication
	latest        map[uri.URI]publication
	messages      []protocol.ShowMessageParams
	registrations []protocol.Registration
	refreshes     int
	configuration string // the answer to workspace/configuration
	// rawResponses are the responses read whose id the client's conn did
	// not make (string, null, or a number from rawID): answers to frames
	// written with rawFrame.
	rawResponses []rawResponse
}

// rawConn is the client's end of the pipe: a net.Pipe end for a server in
// process, the write end of its standard input for a server process.
type rawConn interface {
	io.WriteCloser
	SetWriteDeadline(time.Time) error
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newClient starts a server connected to a new client. dir is the
// workspace (copied from testdata/workspace when "" is not given).
func newClient(t testing.TB, opts Options) *testClient {
	return newClientStream(t, opts, NewStream)
}

// newClientStream is newClient with the server's end of the pipe framed
// by stream.
func newClientStream(t testing.TB, opts Options, stream func(io.ReadWriteCloser) jsonrpc2.Stream) *testClient {
	log := &syncBuffer{}
	if opts.Log == nil {
		opts.Log = log
	}
	if opts.Debounce == 0 {
		opts.Debounce = -1
	}
	opts.LogLevel = -8 // everything, into the buffer
	srv := NewServer(opts)
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &testClient{t: t, srv: srv, log: log, latest: map[uri.URI]publication{},
		nextV: map[uri.URI]int32{}, texts: map[uri.URI]string{}, cancel: cancel, done: make(chan struct{})}
	c.cond = sync.NewCond(&c.mu)
	c.raw = b
	go func() {
		defer close(c.done)
		c.shutdownFirst, c.serveErr = srv.Serve(ctx, stream(a))
	}()
	c.conn = jsonrpc2.NewConn(tapStream{jsonrpc2.NewHeaderStream(b), c}, jsonrpc2.WithCodec(codec{}))
	c.conn.Go(ctx, c.handle)
	t.Cleanup(func() {
		cancel()
		c.conn.Close()
		a.Close()
		select {
		case <-c.done:
		case <-time.After(5 * time.Second):
			t.Errorf("server did not stop")
		}
	})
	return c
}

// newProcessClient starts `scalelint lsp` from the binary at bin as a
// child process and connects a new client to its standard input and
// output: the server as it ships, with the framing its main chose. srv is
// nil; log collects the process's stderr (debug level).
func newProcessClient(t testing.TB, bin string) *testClient {
	t.Helper()
	inR, inW, err := os.Pipe() // the server's stdin
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe() // the server's stdout
	if err != nil {
		t.Fatal(err)
	}
	log := &syncBuffer{}
	cmd := exec.Command(bin, "lsp", "--log-level", "debug")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close() // the child has its copies
	outW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	c := &testClient{t: t, log: log, latest: map[uri.URI]publication{},
		nextV: map[uri.URI]int32{}, texts: map[uri.URI]string{}, cancel: cancel, done: make(chan struct{})}
	c.cond = sync.NewCond(&c.mu)
	c.raw = inW
	go func() {
		defer close(c.done)
		c.serveErr = cmd.Wait()
		c.shutdownFirst = c.serveErr == nil
	}()
	c.conn = jsonrpc2.NewConn(tapStream{jsonrpc2.NewHeaderStream(pipeEnds{outR, inW}), c}, jsonrpc2.WithCodec(codec{}))
	c.conn.Go(ctx, c.handle)
	t.Cleanup(func() {
		cancel()
		c.conn.Close()
		inW.Close() // the server exits when its input closes
		select {
		case <-c.done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-c.done
			t.Errorf("the server process did not exit when its input closed")
		}
		outR.Close()
	})
	return c
}

// pipeEnds joins the read end of the server's stdout and the write end of
// its stdin into the client's stream.
type pipeEnds struct {
	io.Reader
	io.WriteCloser
}

// buildScalelint builds the scalelint binary into a temporary directory
// and returns its path.
func buildScalelint(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "scalelint")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", bin, "github.com/scalelint/scalelint/cmd/scalelint").CombinedOutput()
	if err != nil {
		t.Fatalf("go build ./cmd/scalelint: %v\n%s", err, out)
	}
	statModule(t)
	return bin
}

// statModule stats every file of the module (but .git and node_modules).
// go test caches a result by the test's package and its dependencies,
// and by the files inside the module the test opens or stats; a binary
// built by a test depends on packages that lsp does not import
// (cmd/scalelint and what only it imports, files it embeds), so without
// this a cached result would survive a change to them.
func statModule(t testing.TB) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			_, err = os.Stat(p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// handle answers the server's requests and records its notifications.
func (c *testClient) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	switch req.Method() {
	case protocol.MethodTextDocumentPublishDiagnostics:
		var p protocol.PublishDiagnosticsParams
		if err := protocol.Unmarshal(req.Params(), &p); err != nil {
			return nil, err
		}
		// go.lsp.dev/protocol sizes each decoded array by the bytes left
		// in the whole message (up to 4,096 elements): every diagnostic's
		// relatedInformation of a long publication holds up to ~400 KB.
		// Keep exact copies, or the history of a few hundred edits holds
		// half a gigabyte and the benchmarks time its garbage collection.
		for i := range p.Diagnostics {
			p.Diagnostics[i].RelatedInformation = slices.Clone(p.Diagnostics[i].RelatedInformation)
		}
		p.Diagnostics = slices.Clone(p.Diagnostics)
		pub := publication{URI: p.URI, Diagnostics: p.Diagnostics, At: time.Now()}
		pub.Version, pub.HasVersion = p.Version.Get()
		c.mu.Lock()
		c.pubs = append(c.pubs, pub)
		c.latest[p.URI] = pub
		c.cond.Broadcast()
		c.mu.Unlock()
	case protocol.MethodWindowShowMessage:
		var p protocol.ShowMessageParams
		if err := protocol.Unmarshal(req.Params(), &p); err != nil {
			return nil, err
		}
		c.mu.Lock()
		c.messages = append(c.messages, p)
		c.cond.Broadcast()
		c.mu.Unlock()
	case protocol.MethodClientRegisterCapability:
		var p protocol.RegistrationParams
		if err := protocol.Unmarshal(req.Params(), &p); err != nil {
			return nil, err
		}
		c.mu.Lock()
		c.registrations = append(c.registrations, p.Registrations...)
		c.cond.Broadcast()
		c.mu.Unlock()
		return nil, nil
	case protocol.MethodWorkspaceConfiguration:
		c.mu.Lock()
		conf := c.configuration
		c.mu.Unlock()
		if conf == "" {
			conf = "null"
		}
		return jsonrpc2.RawMessage("[" + conf + "]"), nil
	case protocol.MethodWorkspaceDiagnosticRefresh:
		c.mu.Lock()
		c.refreshes++
		c.cond.Broadcast()
		c.mu.Unlock()
		return nil, nil
	default:
		if req.IsCall() {
			return nil, jsonrpc2.ErrMethodNotFound
		}
	}
	return nil, nil
}

// call sends a request. params may be a JSON string (sent verbatim).
func (c *testClient) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	if s, ok := params.(string); ok {
		params = jsonrpc2.RawMessage(s)
	}
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

func (c *testClient) mustCall(method string, params, result any) {
	c.t.Helper()
	if err := c.call(method, params, result); err != nil {
		c.t.Fatalf("%s: %v\nserver log:\n%s", method, err, c.log)
	}
}

func (c *testClient) notify(method string, params any) {
	c.t.Helper()
	if s, ok := params.(string); ok {
		params = jsonrpc2.RawMessage(s)
	}
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// initialize initializes the server on a workspace folder with options.
func (c *testClient) initialize(dir string, initOptions string) *protocol.InitializeResult {
	c.t.Helper()
	c.dir = dir
	params := map[string]any{
		"processId": nil,
		"rootUri":   string(uri.File(dir)),
		"capabilities": map[string]any{
			"workspace": map[string]any{
				"workspaceEdit":         map[string]any{"documentChanges": true},
				"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true},
				"configuration":         true,
			},
			"textDocument": map[string]any{
				"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": true},
				"hover":              map[string]any{"contentFormat": []string{"markdown"}},
			},
		},
	}
	if dir == "" {
		params["rootUri"] = nil
	}
	if initOptions != "" {
		params["initializationOptions"] = json.RawMessage(initOptions)
	}
	raw, _ := json.Marshal(params)
	var res protocol.InitializeResult
	c.mustCall(protocol.MethodInitialize, string(raw), &res)
	c.notify(protocol.MethodInitialized, "{}")
	return &res
}

// workspaceDir copies testdata/workspace (or the named testdata folder)
// into a temporary directory.
func workspaceDir(t testing.TB, name string) string {
	dir := t.TempDir()
	src := filepath.Join("testdata", name)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// open opens a file of the workspace (its disk text unless text is given)
// at version 1.
func (c *testClient) open(name, text string) uri.URI {
	c.t.Helper()
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(c.dir, name)
	}
	if text == "" {
		data, err := os.ReadFile(path)
		if err != nil {
			c.t.Fatal(err)
		}
		text = string(data)
	}
	u := uri.File(path)
	c.nextV[u] = 1
	c.texts[u] = text
	c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "yaml", Version: 1, Text: text}})
	return u
}

// edit replaces the first occurrence of old with new in an open document
// with one incremental change, and returns the new version.
func (c *testClient) edit(u uri.URI, old, new string) int32 {
	c.t.Helper()
	text := c.texts[u]
	i := strings.Index(text, old)
	if i < 0 {
		c.t.Fatalf("edit: %q not in %s", old, u)
	}
	m := NewMapper([]byte(text))
	return c.change(u, []protocol.TextEdit{{Range: m.Range(i, i+len(old)), NewText: new}})
}

// change applies edits (non-overlapping, any order) to an open document
// and sends them as incremental changes, last first.
func (c *testClient) change(u uri.URI, edits []protocol.TextEdit) int32 {
	c.t.Helper()
	sorted := append([]protocol.TextEdit(nil), edits...)
	// Apply from the end so earlier ranges stay valid.
	for i := 0; i < len(sorted); i++ {
		for j := i + 1; j < len(sorted); j++ {
			a, b := sorted[i].Range.Start, sorted[j].Range.Start
			if b.Line > a.Line || (b.Line == a.Line && b.Character > a.Character) {
				sorted[i], sorted[j] = sorted[j], sorted[i]
			}
		}
	}
	var changes []protocol.TextDocumentContentChangeEvent
	for _, e := range sorted {
		changes = append(changes, &protocol.TextDocumentContentChangePartial{Range: e.Range, Text: e.NewText})
	}
	return c.changeVersion(u, c.nextV[u]+1, changes)
}

// changeVersion sends content changes with a version of the caller's
// choice, after applying them to the client's copy of the document.
func (c *testClient) changeVersion(u uri.URI, v int32, changes []protocol.TextDocumentContentChangeEvent) int32 {
	c.t.Helper()
	out, err := applyChanges([]byte(c.texts[u]), changes)
	if err != nil {
		c.t.Fatal(err)
	}
	c.texts[u] = string(out)
	c.nextV[u] = v
	c.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: v},
		ContentChanges: changes})
	return v
}

// waitFor waits until cond holds for the latest publication of u.
func (c *testClient) waitFor(u uri.URI, what string, cond func(publication) bool) publication {
	c.t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var p publication
	if !c.await(func() bool {
		var ok bool
		p, ok = c.latest[u]
		return ok && cond(p)
	}) {
		c.t.Fatalf("timed out waiting for %s on %s; last publication: version %d %v\nserver log:\n%s", what, u, p.Version, p.rules(), c.log)
	}
	return p
}

// waitUntil waits until done (called with c.mu held) returns true.
func (c *testClient) waitUntil(what string, done func() bool) {
	c.t.Helper()
	c.mu.Lock()
	ok := c.await(done)
	c.mu.Unlock()
	if !ok {
		c.t.Fatalf("timed out waiting for %s\nserver log:\n%s", what, c.log)
	}
}

// await waits, with c.mu held, until done (called with c.mu held)
// returns true, and reports whether it did within waitTimeout.
func (c *testClient) await(done func() bool) bool {
	deadline := time.Now().Add(waitTimeout)
	timer := time.AfterFunc(waitTimeout, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	for !done() {
		if time.Now().After(deadline) {
			return false
		}
		c.cond.Wait()
	}
	return true
}

// waitVersion waits for the publication of an open document's version.
func (c *testClient) waitVersion(u uri.URI, v int32) publication {
	c.t.Helper()
	return c.waitFor(u, fmt.Sprintf("version %d", v), func(p publication) bool { return p.HasVersion && p.Version == v })
}

// published returns every publication for u so far.
func (c *testClient) published(u uri.URI) []publication {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []publication
	for _, p := range c.pubs {
		if p.URI == u {
			out = append(out, p)
		}
	}
	return out
}

// rpcCode returns the JSON-RPC error code of err.
func rpcCode(err error) jsonrpc2.Code {
	var e *jsonrpc2.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

// textOf returns the text of a range of a document the client holds.
func (c *testClient) textOf(u uri.URI, r protocol.Range) string {
	m := NewMapper([]byte(c.texts[u]))
	return c.texts[u][m.Offset(r.Start):m.Offset(r.End)]
}

// positionOf returns the position of the first occurrence of s (plus
// delta bytes) in an open document.
func (c *testClient) positionOf(u uri.URI, s string, delta int) protocol.Position {
	c.t.Helper()
	i := strings.Index(c.texts[u], s)
	if i < 0 {
		c.t.Fatalf("%q not in %s", s, u)
	}
	return NewMapper([]byte(c.texts[u])).Position(i + delta)
}

// applyEdit applies a workspace edit's changes to the open document u and
// sends them; it returns the new version.
func (c *testClient) applyEdit(u uri.URI, we *protocol.WorkspaceEdit) int32 {
	c.t.Helper()
	var edits []protocol.TextEdit
	for _, dc := range we.DocumentChanges {
		tde, ok := dc.(*protocol.TextDocumentEdit)
		if !ok || tde.TextDocument.URI != u {
			c.t.Fatalf("unexpected document change %#v", dc)
		}
		if tde.TextDocument.Version == nil || *tde.TextDocument.Version != c.nextV[u] {
			c.t.Fatalf("edit for version %v, document at %d", tde.TextDocument.Version, c.nextV[u])
		}
		for _, e := range tde.Edits {
			switch e := e.(type) {
			case *protocol.TextEdit:
				edits = append(edits, *e)
			case *protocol.SnippetTextEdit:
				edits = append(edits, protocol.TextEdit{Range: e.Range, NewText: e.Snippet.Value})
			default:
				c.t.Fatalf("unexpected edit %T", e)
			}
		}
	}
	for cu, es := range we.Changes {
		if cu != u {
			c.t.Fatalf("edit of another document %s", cu)
		}
		edits = append(edits, es...)
	}
	return c.change(u, edits)
}

// rawIDBase is where the numeric ids of raw frames start: the client's
// conn numbers its own calls from 1 and never gets this far in a test.
const rawIDBase = 1_000_000

// rawResponse is a response to a raw frame: its id (invalid for null),
// and its error or result.
type rawResponse struct {
	ID     jsonrpc2.ID
	Err    error
	Result string
}

// tapStream is the client's stream: it records the responses to raw
// frames on their way to the client's conn (which drops them, as it made
// no such call), and keeps the framer's fast path.
type tapStream struct {
	jsonrpc2.Stream
	c *testClient
}

func (t tapStream) ReadFrame(ctx context.Context) ([]byte, int64, error) {
	b, n, err := t.Stream.(frameStream).ReadFrame(ctx)
	if err == nil {
		t.tap(b)
	}
	return b, n, err
}

func (t tapStream) tap(b []byte) {
	msgs := []json.RawMessage{b}
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("[")) {
		msgs = nil
		json.Unmarshal(b, &msgs) // a batch response
	}
	for _, m := range msgs {
		msg, err := jsonrpc2.DecodeMessage(m)
		if err != nil {
			continue
		}
		r, ok := msg.(*jsonrpc2.Response)
		if !ok {
			continue
		}
		if num, isNum := r.ID().Number(); isNum && num >= 1 && num < rawIDBase {
			continue // the client's own call
		}
		t.c.mu.Lock()
		t.c.rawResponses = append(t.c.rawResponses, rawResponse{ID: r.ID(), Err: r.Err(), Result: string(r.Result())})
		t.c.cond.Broadcast()
		t.c.mu.Unlock()
	}
}

func (t tapStream) WriteFrame(ctx context.Context, data []byte) (int64, error) {
	return t.Stream.(frameStream).WriteFrame(ctx, data)
}

// rawFrame writes bytes as they are on the client's end of the pipe, past
// its framer: frame builds a well-framed message from a body.
func (c *testClient) rawFrame(b string) {
	c.t.Helper()
	c.raw.SetWriteDeadline(time.Now().Add(waitTimeout))
	if _, err := c.raw.Write([]byte(b)); err != nil {
		c.t.Fatalf("raw write: %v", err)
	}
}

// frame frames a body with an honest Content-Length header.
func frame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// waitRaw waits for a response to raw frames, from the from-th on, that
// matches.
func (c *testClient) waitRaw(from int, what string, match func(rawResponse) bool) rawResponse {
	c.t.Helper()
	return c.waitRawN(from, 1, what, match)[0]
}

// waitRawN waits for n responses to raw frames, from the from-th on, that
// match.
func (c *testClient) waitRawN(from, n int, what string, match func(rawResponse) bool) []rawResponse {
	c.t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var got []rawResponse
	if !c.await(func() bool {
		got = nil
		for _, r := range c.rawResponses[min(from, len(c.rawResponses)):] {
			if match(r) {
				got = append(got, r)
			}
		}
		return len(got) >= n
	}) {
		c.t.Fatalf("timed out waiting for %s; raw responses: %+v\nserver log:\n%s", what, c.rawResponses[min(from, len(c.rawResponses)):], c.log)
	}
	return got
}

// rawSince returns the responses to raw frames from the from-th on.
func (c *testClient) rawSince(from int) []rawResponse {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]rawResponse(nil), c.rawResponses[min(from, len(c.rawResponses)):]...)
}
