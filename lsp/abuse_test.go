package lsp

// The tests in this file abuse a running server the way a broken or
// hostile client would, and after each abuse check that the server still
// works: it answers a hover on the Kafka lagThreshold of
// testdata/workspace's consumer.yaml, and an edit of that threshold to a
// resting value and back to a hunting one publishes the diagnostics of
// each text (latency-floor gone, then back). See healthy.
//
// Regression tests, for the bugs these cases found (each case says which):
//
//   - wire: every frame that was not a JSON-RPC message (invalid JSON, a
//     value that is not an object, no method, an id of a wrong type) and
//     every malformed header ended the connection: Serve returned.
//     Fixed in server.go (Serve reads through tolerantStream) and
//     stream.go (NewStream: the framing, recovered after garbage and
//     after a Content-Length that lied; no allocation of a declared
//     length).
//   - params: params that do not decode were answered ParseError, which
//     is for JSON that does not parse; now InvalidParams (server.go:
//     safely).
//   - completion at a line past the end of the document, or in a
//     document whose lines end in "\r", panicked (index out of range;
//     answered InternalError). Fixed in completion.go.
//   - lifecycle: requests before initialize were served, a second
//     initialize replaced the workspace, requests after shutdown were
//     served. Fixed in server.go (admit).

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// The threshold the health check edits: "10" hunts (latency-floor), "985"
// rests.
const (
	hunting = `lagThreshold: "10"`
	resting = `lagThreshold: "985"`
)

// startAbuse starts a server on a copy of testdata/workspace, its end of
// the pipe framed by stream (NewStream when nil), its testHook hooks',
// and opens consumer.yaml, whose threshold hunts.
func startAbuse(t *testing.T, stream func(io.ReadWriteCloser) jsonrpc2.Stream, hooks *hooks) (*testClient, uri.URI) {
	t.Helper()
	if stream == nil {
		stream = NewStream
	}
	c := newClientStream(t, Options{}, stream)
	if hooks != nil {
		c.srv.testHook = hooks.hook // before the first message: no race
	}
	return c, c.openConsumer()
}

// openConsumer initializes the server on a copy of testdata/workspace and
// opens consumer.yaml, whose threshold hunts.
func (c *testClient) openConsumer() uri.URI {
	c.t.Helper()
	c.initialize(workspaceDir(c.t, "workspace"), "")
	u := c.open("consumer.yaml", "")
	if p := c.waitVersion(u, 1); len(p.Diagnostics) != 1 || !p.has("latency-floor") {
		c.t.Fatalf("consumer.yaml: %v, want latency-floor", p.rules())
	}
	return u
}

// step runs f as a subtest with c reporting to it.
func (c *testClient) step(t *testing.T, name string, f func(t *testing.T)) {
	t.Helper()
	t.Run(name, func(t *testing.T) {
		parent := c.t
		c.t = t
		defer func() { c.t = parent }()
		f(t)
	})
}

// serverText returns the server's text of an open document ("" and false
// when it is not open).
func (c *testClient) serverText(u uri.URI) (string, bool) {
	c.srv.mu.Lock()
	defer c.srv.mu.Unlock()
	h, ok := c.srv.overlays[pathOf(u)]
	if !ok {
		return "", false
	}
	return string(h.content), true
}

// hoverParams is the JSON of a hover on the threshold of u.
func (c *testClient) hoverParams(u uri.URI) string {
	c.t.Helper()
	p := c.positionOf(u, hunting, 16)
	return fmt.Sprintf(`{"textDocument":{"uri":%q},"position":{"line":%d,"character":%d}}`, u, p.Line, p.Character)
}

// healthy checks that the server works: the server's text of u is the
// client's (for a server in process); a hover on the threshold shows the
// latency-floor finding; the threshold set to a resting value publishes
// no diagnostics, set back to a hunting one publishes latency-floor, each
// with its version.
func (c *testClient) healthy(u uri.URI) {
	c.t.Helper()
	if !strings.Contains(c.texts[u], hunting) {
		c.t.Fatalf("the document lost its threshold:\n%s", c.texts[u])
	}
	var h *protocol.Hover
	c.mustCall(protocol.MethodTextDocumentHover, c.hoverParams(u), &h)
	// Answered: every notification sent before it has been applied.
	if c.srv != nil {
		if got, ok := c.serverText(u); !ok || got != c.texts[u] {
			c.t.Fatalf("the server's text of %s is not the client's:\n%s\n---\n%s", u, got, c.texts[u])
		}
	}
	if h == nil {
		c.t.Fatalf("no hover on the threshold\nserver log:\n%s", c.log)
	}
	if mc, ok := h.Contents.(*protocol.MarkupContent); !ok || !strings.Contains(mc.Value, "latency-floor") {
		c.t.Fatalf("hover on the threshold: %#v", h.Contents)
	}
	v := c.edit(u, hunting, resting)
	if p := c.waitVersion(u, v); len(p.Diagnostics) != 0 {
		c.t.Fatalf("resting threshold, version %d: %v, want none", v, p.rules())
	}
	v = c.edit(u, resting, hunting)
	if p := c.waitVersion(u, v); len(p.Diagnostics) != 1 || !p.has("latency-floor") {
		c.t.Fatalf("hunting threshold, version %d: %v, want latency-floor", v, p.rules())
	}
}

// req is the frame body of a hover request on the threshold of u with the
// id given as JSON.
func (c *testClient) req(u uri.URI, id string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"textDocument/hover","params":%s}`, id, c.hoverParams(u))
}

// wantResp is a response expected to raw frames: its id (null when
// invalid) and error code (0 for a result, which for a hover on the
// threshold must show latency-floor).
type wantResp struct {
	id   jsonrpc2.ID
	code jsonrpc2.Code
}

var nullID jsonrpc2.ID

func sid(s string) jsonrpc2.ID { return jsonrpc2.NewStringID(s) }

// wireCase is bytes written on the wire as they are, and the responses
// they must get.
type wireCase struct {
	name string
	// raw returns the bytes to write.
	raw  func(c *testClient, u uri.URI) string
	want []wantResp
	// resync: the case needs NewStream's framing (jsonrpc2's header
	// framer cannot find a header after garbage, or allocates the
	// declared length).
	resync bool
	// check, if set, runs instead of writing raw.
	check func(t *testing.T, c *testClient, u uri.URI)
}

func notif(method string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q}`, method)
}

func wireCases() []wireCase {
	const parse, invalid = jsonrpc2.ParseError, jsonrpc2.InvalidRequest
	lit := func(s string) func(*testClient, uri.URI) string {
		return func(*testClient, uri.URI) string { return s }
	}
	return []wireCase{
		// Frames that are not JSON-RPC messages: answered with an error
		// (id null, as JSON-RPC 2.0 says when the id cannot be known).
		// Before: each one ended the connection (jsonrpc2's read loop
		// stops on a frame it cannot decode).
		{name: "invalid JSON", raw: func(c *testClient, u uri.URI) string {
			return frame(`{"jsonrpc":"2.0","id":"w-json","method":"textDocument/hover","params":{"textDocument":`)
		}, want: []wantResp{{nullID, parse}}},
		{name: "JSON values that are not objects", raw: lit(frame(`42`) + frame(`"textDocument/hover"`) + frame(`null`) + frame(`true`)),
			want: []wantResp{{nullID, invalid}, {nullID, invalid}, {nullID, invalid}, {nullID, invalid}}},
		{name: "empty batch", raw: lit(frame(`[]`)), want: []wantResp{{nullID, invalid}}},
		{name: "truncated batch", raw: lit(frame(`[{"jsonrpc":"2.0","method":"$/abuse"},`)), want: []wantResp{{nullID, parse}}},
		{name: "request without method", raw: lit(frame(`{"jsonrpc":"2.0","id":"w-nomethod","params":{}}`)), want: []wantResp{{nullID, invalid}}},
		{name: "method not a string", raw: lit(frame(`{"jsonrpc":"2.0","id":"w-method","method":42,"params":{}}`)), want: []wantResp{{nullID, invalid}}},
		{name: "ids of wrong types", raw: func(c *testClient, u uri.URI) string {
			return frame(c.req(u, `{"n":1}`)) + frame(c.req(u, `1.5`)) + frame(c.req(u, `true`)) + frame(c.req(u, `["w"]`)) + frame(c.req(u, `99999999999999999999`))
		}, want: []wantResp{{nullID, invalid}, {nullID, invalid}, {nullID, invalid}, {nullID, invalid}, {nullID, invalid}}},
		{name: "no jsonrpc 2.0 member", raw: func(c *testClient, u uri.URI) string {
			return frame(strings.Replace(c.req(u, `"w-v1"`), `"jsonrpc":"2.0",`, ``, 1)) +
				frame(strings.Replace(c.req(u, `"w-v2"`), `"2.0"`, `"1.0"`, 1))
		}, want: []wantResp{{nullID, invalid}, {nullID, invalid}}},
		// Well-formed but unusual messages: served as JSON-RPC says.
		{name: "unusual ids", raw: func(c *testClient, u uri.URI) string {
			return frame(c.req(u, `"w-\u00e9\"\\"`)) + frame(c.req(u, `9223372036854775807`)) + frame(c.req(u, `-1`)) + frame(c.req(u, `null`))
		}, want: []wantResp{{sid("w-é\"\\"), 0}, {jsonrpc2.NewNumberID(9223372036854775807), 0}, {jsonrpc2.NewNumberID(-1), 0}}},
		{name: "duplicate ids in flight", raw: func(c *testClient, u uri.URI) string {
			return frame(c.req(u, `"w-dup"`)) + frame(c.req(u, `"w-dup"`))
		}, want: []wantResp{{sid("w-dup"), 0}, {sid("w-dup"), 0}}},
		{name: "responses nobody asked for", raw: lit(frame(`{"jsonrpc":"2.0","id":"w-r1","result":{"x":1}}`) +
			frame(`{"jsonrpc":"2.0","id":"w-r2","error":{"code":-32000,"message":"no"}}`) + frame(`{"jsonrpc":"2.0","id":null,"result":null}`))},
		{name: "a notification sent as a request", raw: func(c *testClient, u uri.URI) string {
			return frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":"w-save","method":"textDocument/didSave","params":{"textDocument":{"uri":%q}}}`, u))
		}, want: []wantResp{{sid("w-save"), 0}}},

		// Framing. Before: every malformed header ended the connection.
		{name: "header line without a colon", raw: func(c *testClient, u uri.URI) string {
			return "this is not a header\r\n" + frame(c.req(u, `"w-colon"`))
		}, want: []wantResp{{sid("w-colon"), 0}}},
		{name: "lower-case header, bare line feeds, other headers", raw: func(c *testClient, u uri.URI) string {
			body := c.req(u, `"w-lf"`)
			return fmt.Sprintf("content-length: %d\nContent-Type: application/vscode-jsonrpc; charset=utf-8\nX-Abuse: 1\n\n%s", len(body), body)
		}, want: []wantResp{{sid("w-lf"), 0}}},
		{name: "blank lines between messages", raw: func(c *testClient, u uri.URI) string {
			return "\r\n\r\n\n" + frame(c.req(u, `"w-blank"`))
		}, want: []wantResp{{sid("w-blank"), 0}}},
		{name: "Content-Length 0", raw: func(c *testClient, u uri.URI) string {
			return "Content-Length: 0\r\n\r\n" + frame(c.req(u, `"w-zero"`))
		}, want: []wantResp{{sid("w-zero"), 0}}},
		{name: "two Content-Length headers, the last one right", raw: func(c *testClient, u uri.URI) string {
			body := c.req(u, `"w-two"`)
			return fmt.Sprintf("Content-Length: 5\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
		}, want: []wantResp{{sid("w-two"), 0}}},

		// Framing that loses the framing: the server skips to the next
		// header, even when it is glued to the end of garbage. The
		// message the garbage belongs to is lost (nothing can find its
		// start); the ones after it are served.
		{name: "binary garbage without a line break", resync: true, raw: func(c *testClient, u uri.URI) string {
			return "\x00\xff\xfe\x01garbage" + frame(c.req(u, `"w-binary"`))
		}, want: []wantResp{{sid("w-binary"), 0}}},
		{name: "a megabyte of garbage without a line break", resync: true, raw: func(c *testClient, u uri.URI) string {
			return strings.Repeat("A", 1<<20) + frame(c.req(u, `"w-mega"`))
		}, want: []wantResp{{sid("w-mega"), 0}}},
		{name: "header without Content-Length", resync: true, raw: func(c *testClient, u uri.URI) string {
			return "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + c.req(u, `"w-nolength"`)
		}},
		{name: "Content-Length not a number", resync: true, raw: func(c *testClient, u uri.URI) string {
			return "Content-Length: twelve\r\n\r\n" + c.req(u, `"w-nan"`)
		}},
		{name: "negative Content-Length", resync: true, raw: func(c *testClient, u uri.URI) string {
			return "Content-Length: -5\r\n\r\n" + c.req(u, `"w-negative"`)
		}},
		{name: "Content-Length shorter than the body", resync: true, raw: func(c *testClient, u uri.URI) string {
			// The server reads 10 bytes (not JSON: ParseError); the rest
			// of the body is garbage before the next header.
			return "Content-Length: 10\r\n\r\n" + c.req(u, `"w-short"`)
		}, want: []wantResp{{nullID, parse}}},
		{name: "Content-Length longer than the body", resync: true, check: longerThanBody},
		{name: "Content-Length of 1 GiB", resync: true, check: hugeLength("1073741824")},
		{name: "Content-Length past every integer", resync: true, check: hugeLength("999999999999999999999999999999")},
	}
}

// longerThanBody: a Content-Length 30 bytes longer than the body. By the
// framing, the body is those 30 bytes longer: the server must wait for
// them (it cannot tell a lie from a slow client, and a timeout would cut
// a slow client's message), and the wait must hold up nothing but the
// reading: a request read before it is answered, a lint runs and
// publishes. The next 30 bytes the client sends complete the body, which
// is then not JSON (ParseError); what is left of that next message is
// garbage before the following header, where the framing is recovered.
// Closing the stream while the server waits is the other way out (Serve
// returns: see TestAbuseDisconnect); a new server working proves nothing
// about this one.
func longerThanBody(t *testing.T, c *testClient, u uri.URI) {
	from := len(c.rawSince(0))
	before := frame(c.req(u, `"w-before-lie"`))
	v := c.edit(u, hunting, resting)
	body := notif("$/abuse/lie")
	c.rawFrame(before + fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body)+30, body))
	// While the server's reader waits for the 30 bytes:
	if p := c.waitVersion(u, v); len(p.Diagnostics) != 0 {
		t.Fatalf("version %d: %v, want none", v, p.rules())
	}
	r := c.waitRaw(from, "the answer to the request before the lie", func(r rawResponse) bool { return r.ID == sid("w-before-lie") })
	if r.Err != nil {
		t.Fatalf("w-before-lie: %v", r.Err)
	}
	// The message whose first 30 bytes complete the body is lost.
	c.rawFrame(frame(notif("$/abuse/sacrificed")))
	c.waitRaw(from, "ParseError for the completed body", func(r rawResponse) bool { return !r.ID.IsValid() && rpcCode(r.Err) == jsonrpc2.ParseError })
	v = c.edit(u, resting, hunting)
	if p := c.waitVersion(u, v); !p.has("latency-floor") {
		t.Fatalf("version %d: %v, want latency-floor", v, p.rules())
	}
}

// hugeLength: a Content-Length the server must not allocate. Before,
// jsonrpc2's framer allocated any length up to 1 GiB at once, then waited
// for it. Now a length over maxMessageSize is refused unread (its body is
// garbage before the next header) and the buffer of one under it grows
// with the bytes that arrive.
//
// Against a server process (TestAbuseWireBinary) only the health check
// runs: the process's allocations are not this one's MemStats. Before,
// the binary framed with jsonrpc2's header stream and waited for the
// gigabyte forever: no health check was answered.
func hugeLength(n string) func(t *testing.T, c *testClient, u uri.URI) {
	return func(t *testing.T, c *testClient, u uri.URI) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		c.rawFrame("Content-Length: " + n + "\r\n\r\n" + c.req(u, `"w-huge"`))
		c.healthy(u) // the body was skipped: the server read past it
		if c.srv == nil {
			return
		}
		runtime.ReadMemStats(&after)
		// A body buffer grown by doubling up to maxMessageSize allocates
		// under 2×maxMessageSize in all; twice that again leaves room for
		// the rest of the process (a health check, the harness), and is
		// a quarter of the 1 GiB the old framer took at once.
		if d := after.TotalAlloc - before.TotalAlloc; d > 4*maxMessageSize {
			t.Errorf("Content-Length %s: %d MiB allocated", n, d>>20)
		}
	}
}

// runWire runs the wire cases on one server.
func runWire(t *testing.T, c *testClient, u uri.URI, all bool) {
	for _, wc := range wireCases() {
		if wc.resync && !all {
			continue
		}
		c.step(t, wc.name, func(t *testing.T) {
			from := len(c.rawSince(0))
			if wc.check != nil {
				wc.check(t, c, u)
			} else {
				c.rawFrame(wc.raw(c, u))
			}
			count := map[wantResp]int{}
			for _, w := range wc.want {
				count[w]++
			}
			for w, n := range count {
				c.waitRawN(from, n, fmt.Sprintf("%d responses with id %v, code %d", n, w.id, w.code), func(r rawResponse) bool {
					return r.ID == w.id && rpcCode(r.Err) == w.code
				})
			}
			c.healthy(u)
			// Exactly the responses wanted (answers to raw frames come
			// before the health check's own, on the same wire).
			if wc.check != nil {
				return
			}
			got := c.rawSince(from)
			if len(got) != len(wc.want) {
				t.Fatalf("responses %+v, want %+v", got, wc.want)
			}
			for _, r := range got {
				if r.Err == nil && r.ID != nullID && !strings.Contains(r.Result, "latency-floor") && r.ID != sid("w-save") {
					t.Errorf("response %v: %.200s, want the threshold's hover", r.ID, r.Result)
				}
			}
		})
	}
	if t.Failed() {
		return
	}
	select {
	case <-c.done:
		t.Fatalf("the server stopped: %v", c.serveErr)
	default:
	}
}

// TestAbuseWire: malformed JSON-RPC and malformed framing on the wire,
// through NewStream (what `scalelint lsp` should speak over).
func TestAbuseWire(t *testing.T) {
	c, u := startAbuse(t, nil, nil)
	runWire(t, c, u, true)
}

// TestAbuseWireBinary: the same abuse against `scalelint lsp` as it
// ships, built here and spoken to over its standard input and output.
// Before, the binary framed with jsonrpc2's header stream, not NewStream:
// the cases above passed in process while the binary lost its framing
// after garbage and waited forever for the body of a 1 GiB Content-Length.
func TestAbuseWireBinary(t *testing.T) {
	c := newProcessClient(t, buildScalelint(t))
	u := c.openConsumer()
	runWire(t, c, u, true)
}

// TestAbuseWireJSONRPC2Framer: the same abuse, minus the cases that need
// NewStream's framing, through jsonrpc2's own header framer: Serve
// survives malformed messages and headers on any stream.
func TestAbuseWireJSONRPC2Framer(t *testing.T) {
	c, u := startAbuse(t, jsonrpc2.NewHeaderStream, nil)
	runWire(t, c, u, false)
}

// TestAbuseParams: params of wrong types, null, an array, unknown fields,
// negative numbers; requests answer InvalidParams (before: ParseError),
// notifications are dropped; unknown fields are ignored.
func TestAbuseParams(t *testing.T) {
	c, u := startAbuse(t, nil, nil)
	doc := fmt.Sprintf(`{"uri":%q}`, u)
	pos := func() string {
		p := c.positionOf(u, hunting, 16)
		return fmt.Sprintf(`{"line":%d,"character":%d}`, p.Line, p.Character)
	}
	calls := []struct {
		name, method, params string
		code                 jsonrpc2.Code // 0: a result
	}{
		{"hover: position a string", protocol.MethodTextDocumentHover, `{"textDocument":` + doc + `,"position":"19:22"}`, jsonrpc2.InvalidParams},
		{"hover: null params", protocol.MethodTextDocumentHover, `null`, jsonrpc2.InvalidParams},
		{"hover: params an array", protocol.MethodTextDocumentHover, `[` + doc + `,{"line":18,"character":22}]`, jsonrpc2.InvalidParams},
		{"hover: negative line", protocol.MethodTextDocumentHover, `{"textDocument":` + doc + `,"position":{"line":-1,"character":0}}`, jsonrpc2.InvalidParams},
		{"hover: negative character", protocol.MethodTextDocumentHover, `{"textDocument":` + doc + `,"position":{"line":0,"character":-3}}`, jsonrpc2.InvalidParams},
		{"hover: line past uint32", protocol.MethodTextDocumentHover, `{"textDocument":` + doc + `,"position":{"line":4294967296,"character":0}}`, jsonrpc2.InvalidParams},
		{"hover: fractional line", protocol.MethodTextDocumentHover, `{"textDocument":` + doc + `,"position":{"line":1.5,"character":0}}`, jsonrpc2.InvalidParams},
		{"hover: uri a number", protocol.MethodTextDocumentHover, `{"textDocument":{"uri":7},"position":{"line":0,"character":0}}`, jsonrpc2.InvalidParams},
		{"hover: no textDocument", protocol.MethodTextDocumentHover, `{"position":{"line":0,"character":0}}`, 0},
		{"definition: textDocument a string", protocol.MethodTextDocumentDefinition, `{"textDocument":"consumer.yaml","position":{"line":0,"character":0}}`, jsonrpc2.InvalidParams},
		{"references: context a number", protocol.MethodTextDocumentReferences, `{"textDocument":` + doc + `,"position":{"line":0,"character":0},"context":1}`, jsonrpc2.InvalidParams},
		{"codeAction: range a string", protocol.MethodTextDocumentCodeAction, `{"textDocument":` + doc + `,"range":"all","context":{"diagnostics":[]}}`, jsonrpc2.InvalidParams},
		{"codeAction: diagnostics an object", protocol.MethodTextDocumentCodeAction, `{"textDocument":` + doc + `,"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":{}}}`, jsonrpc2.InvalidParams},
		{"completion: null params", protocol.MethodTextDocumentCompletion, `null`, jsonrpc2.InvalidParams},
		{"inlayHint: params an array", protocol.MethodTextDocumentInlayHint, `[1,2]`, jsonrpc2.InvalidParams},
		{"diagnostic: textDocument null", protocol.MethodTextDocumentDiagnostic, `{"textDocument":null}`, 0},
		{"workspace/symbol: query an array", "workspace/symbol", `{"query":[]}`, jsonrpc2.InvalidParams},
	}
	for _, tc := range calls {
		c.step(t, tc.name, func(t *testing.T) {
			err := c.call(tc.method, tc.params, nil)
			if code := rpcCode(err); code != tc.code || (tc.code == 0 && err != nil) {
				t.Fatalf("%s %s: %v (code %d), want code %d", tc.method, tc.params, err, code, tc.code)
			}
			c.healthy(u)
		})
	}
	c.step(t, "unknown fields are ignored", func(t *testing.T) {
		var h *protocol.Hover
		c.mustCall(protocol.MethodTextDocumentHover, `{"textDocument":{"uri":`+fmt.Sprintf("%q", u)+`,"extra":[1]},"position":`+
			strings.Replace(pos(), "}", `,"z":{"a":null}}`, 1)+`,"workDoneToken":"t","future":{"x":true}}`, &h)
		if h == nil {
			t.Fatal("no hover with unknown fields in the params")
		}
		c.healthy(u)
	})
	notifications := []struct{ name, method, params string }{
		{"didChange: contentChanges a string", protocol.MethodTextDocumentDidChange, `{"textDocument":{"uri":` + fmt.Sprintf("%q", u) + `,"version":99},"contentChanges":"lagThreshold: \"985\""}`},
		{"didChange: version a string", protocol.MethodTextDocumentDidChange, `{"textDocument":{"uri":` + fmt.Sprintf("%q", u) + `,"version":"99"},"contentChanges":[{"text":""}]}`},
		{"didChange: negative character", protocol.MethodTextDocumentDidChange, `{"textDocument":{"uri":` + fmt.Sprintf("%q", u) + `,"version":99},"contentChanges":[{"range":{"start":{"line":0,"character":-1},"end":{"line":0,"character":0}},"text":"x"}]}`},
		// Before: a change whose range did not decode was taken for a
		// whole-document change, its text replacing the document
		// (server.go: safely, text_synchronization.go: checkContentChanges).
		{"didChange: range null", protocol.MethodTextDocumentDidChange, `{"textDocument":{"uri":` + fmt.Sprintf("%q", u) + `,"version":99},"contentChanges":[{"range":null,"text":"x"}]}`},
		{"didChange: range a string", protocol.MethodTextDocumentDidChange, `{"textDocument":{"uri":` + fmt.Sprintf("%q", u) + `,"version":99},"contentChanges":[{"range":"0:0-1:0","text":"x"}]}`},
		{"didChange: fractional line", protocol.MethodTextDocumentDidChange, `{"textDocument":{"uri":` + fmt.Sprintf("%q", u) + `,"version":99},"contentChanges":[{"range":{"start":{"line":0.5,"character":0},"end":{"line":1,"character":0}},"text":"x"}]}`},
		{"didChange: a null change", protocol.MethodTextDocumentDidChange, `{"textDocument":{"uri":` + fmt.Sprintf("%q", u) + `,"version":99},"contentChanges":[null]}`},
		{"didChange: version past int32", protocol.MethodTextDocumentDidChange, `{"textDocument":{"uri":` + fmt.Sprintf("%q", u) + `,"version":2147483648},"contentChanges":[{"text":""}]}`},
		{"didChange: null params", protocol.MethodTextDocumentDidChange, `null`},
		{"didOpen: text a number", protocol.MethodTextDocumentDidOpen, `{"textDocument":{"uri":` + fmt.Sprintf("%q", u) + `,"languageId":"yaml","version":1,"text":12}}`},
		{"didClose: params an array", protocol.MethodTextDocumentDidClose, `[` + doc + `]`},
		{"didChangeConfiguration: settings an array", protocol.MethodWorkspaceDidChangeConfiguration, `{"settings":[1,2,3]}`},
		{"didChangeConfiguration: rules a string", protocol.MethodWorkspaceDidChangeConfiguration, `{"settings":{"scalelint":{"rules":"all"}}}`},
		{"didChangeWatchedFiles: change type 99", protocol.MethodWorkspaceDidChangeWatchedFiles, `{"changes":[{"uri":"file:///nowhere/x.yaml","type":99}]}`},
		{"didChangeWorkspaceFolders: uri a number", protocol.MethodWorkspaceDidChangeWorkspaceFolders, `{"event":{"added":[{"uri":1,"name":"x"}],"removed":[]}}`},
		{"setTrace: unknown value", protocol.MethodSetTrace, `{"value":"loud"}`},
		{"initialized: a string", protocol.MethodInitialized, `"yes"`},
		{"cancelRequest: id an object", protocol.MethodCancelRequest, `{"id":{"x":1}}`},
		{"cancelRequest: null params", protocol.MethodCancelRequest, `null`},
	}
	for _, tc := range notifications {
		c.step(t, tc.name, func(t *testing.T) {
			c.notify(tc.method, tc.params)
			c.healthy(u)
		})
	}
	// The bad configuration was shown to the user, not applied.
	c.mu.Lock()
	msgs := len(c.messages)
	c.mu.Unlock()
	if msgs == 0 {
		t.Errorf("no message shown for the bad settings")
	}
}

// TestAbuseUnknownDocuments: didChange, hover, codeAction, completion,
// definition, references, inlayHint and a diagnostic pull on documents
// never opened (on disk or not, odd URIs) and on closed ones: answered
// with nothing (or from the disk's text), never an error; a change of a
// document that is not open is dropped, and does not open it.
func TestAbuseUnknownDocuments(t *testing.T) {
	c, u := startAbuse(t, nil, nil)
	requests := func(t *testing.T, d uri.URI) {
		t.Helper()
		td := protocol.TextDocumentIdentifier{URI: d}
		at := protocol.TextDocumentPositionParams{TextDocument: td, Position: protocol.Position{Line: 3, Character: 9}}
		r := protocol.Range{End: protocol.Position{Line: 30}}
		for _, call := range []struct {
			method string
			params any
		}{
			{protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: at}},
			{protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: td, Range: r}},
			{protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: at}},
			{protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: at}},
			{protocol.MethodTextDocumentReferences, &protocol.ReferenceParams{TextDocumentPositionParams: at}},
			{protocol.MethodTextDocumentInlayHint, &protocol.InlayHintParams{TextDocument: td, Range: r}},
			{protocol.MethodTextDocumentDiagnostic, &protocol.DocumentDiagnosticParams{TextDocument: td}},
		} {
			var res json.RawMessage
			if err := c.call(call.method, call.params, &res); err != nil {
				t.Errorf("%s on %s: %v", call.method, d, err)
			}
		}
	}
	change := func(d uri.URI, v int32) {
		c.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: d}, Version: v},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: protocol.Range{}, Text: "kind: Oops\n"}}})
	}
	notOpen := func(t *testing.T, d uri.URI) {
		t.Helper()
		if _, ok := c.serverText(d); ok {
			t.Fatalf("%s is open after a change of it while it was not", d)
		}
		for _, p := range c.published(d) {
			if p.HasVersion && p.Version >= 50 {
				t.Errorf("%s published at version %d, which was never opened", d, p.Version)
			}
		}
	}
	never := []uri.URI{
		uri.File(filepath.Join(c.dir, "deployment.yaml")), // on disk, indexed
		uri.File(filepath.Join(c.dir, "missing.yaml")),
		uri.File("/nowhere/at/all.yaml"),
		"untitled:Untitled-1",
		"",
		"file:///%zz/bad%escape.yaml",
		"http://example.com/x.yaml",
		"not a uri at all",
	}
	for _, d := range never {
		c.step(t, fmt.Sprintf("never opened %q", d), func(t *testing.T) {
			change(d, 50)
			requests(t, d)
			c.notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: d}})
			c.notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: d}})
			c.healthy(u)
			notOpen(t, d)
		})
	}
	closed := map[string]string{
		"deployment.yaml":                          "", // in the workspace: back to the disk's text
		filepath.Join(t.TempDir(), "outside.yaml"): "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: lonely\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: missing}\n  maxReplicas: 10\n",
	}
	for name, text := range closed {
		c.step(t, "closed "+filepath.Base(name), func(t *testing.T) {
			d := c.open(name, text)
			c.waitVersion(d, 1)
			c.notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: d}})
			c.waitFor(d, "no versioned publication once closed", func(p publication) bool { return !p.HasVersion })
			change(d, 51)
			requests(t, d)
			c.notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: d}})
			c.healthy(u)
			notOpen(t, d)
			if p := c.latestOf(d); p.HasVersion || (text != "" && len(p.Diagnostics) != 0) {
				t.Errorf("closed %s: last publication version %d (%v) %v", d, p.Version, p.HasVersion, p.rules())
			}
		})
	}
}

// TestAbuseOutOfRange: positions and ranges out of the document (line
// past the end, character past the line, end before start, inside a
// surrogate pair or a multi-byte character) in requests and in
// didChange. Requests answer (InvalidParams for a range that ends before
// it starts); a change's positions are clamped as an editor clamps them
// (past the line: its end; past the text: its end; inside a character:
// before it), and a change whose range ends before it starts is refused
// whole (the document keeps its text and version).
func TestAbuseOutOfRange(t *testing.T) {
	c, u := startAbuse(t, nil, nil)
	// A document with a surrogate pair (🚀: 2 UTF-16 units, 4 bytes) and
	// CJK (注: 1 unit, 3 bytes) on its first line.
	emojiText := "# 🚀x注y\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\ndata:\n  note: \"🚀注\"\n"
	e := c.open(filepath.Join(t.TempDir(), "notes.yaml"), emojiText)
	c.waitVersion(e, 1)
	pos := func(l, ch uint32) protocol.Position { return protocol.Position{Line: l, Character: ch} }
	rng := func(a, b protocol.Position) protocol.Range { return protocol.Range{Start: a, End: b} }
	const huge = 4294967295
	positions := []protocol.Position{pos(10000, 0), pos(0, 10000), pos(huge, huge), pos(18, huge), pos(0, 3), pos(0, 5), pos(6, 10)}
	for _, d := range []uri.URI{u, e} {
		for _, p := range positions {
			c.step(t, fmt.Sprintf("requests at %d:%d of %s", p.Line, p.Character, filepath.Base(string(d))), func(t *testing.T) {
				at := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: d}, Position: p}
				for method, params := range map[string]any{
					protocol.MethodTextDocumentHover:      &protocol.HoverParams{TextDocumentPositionParams: at},
					protocol.MethodTextDocumentCompletion: &protocol.CompletionParams{TextDocumentPositionParams: at},
					protocol.MethodTextDocumentDefinition: &protocol.DefinitionParams{TextDocumentPositionParams: at},
					protocol.MethodTextDocumentReferences: &protocol.ReferenceParams{TextDocumentPositionParams: at},
					protocol.MethodTextDocumentCodeAction: &protocol.CodeActionParams{TextDocument: at.TextDocument, Range: rng(p, pos(huge, huge))},
					protocol.MethodTextDocumentInlayHint:  &protocol.InlayHintParams{TextDocument: at.TextDocument, Range: rng(p, pos(huge, huge))},
				} {
					var res json.RawMessage
					if err := c.call(method, params, &res); err != nil {
						t.Errorf("%s at %+v: %v", method, p, err)
					}
				}
				c.healthy(u)
			})
		}
	}
	// Before: completion at a line past the end of the text, or of a
	// document whose lines end in "\r", indexed past the lines it had
	// split (a panic, answered InternalError). Fixed in completion.go.
	c.step(t, "completion in a document whose lines end in CR", func(t *testing.T) {
		text := "apiVersion: keda.sh/v1alpha1\rkind: ScaledObject\rmetadata:\r  name: cr\r  annotations:\r    scal\r"
		d := c.open(filepath.Join(t.TempDir(), "cr.yaml"), text)
		c.waitVersion(d, 1)
		for _, p := range []protocol.Position{pos(5, 8), pos(7, 0), pos(huge, 0)} {
			var list protocol.CompletionList
			c.mustCall(protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: d}, Position: p}}, &list)
			if p.Line == 5 && len(list.Items) == 0 {
				t.Errorf("no annotation keys offered at %+v", p)
			}
		}
		c.healthy(u)
	})
	c.step(t, "ranges that end before they start", func(t *testing.T) {
		td := protocol.TextDocumentIdentifier{URI: u}
		back := rng(pos(10, 0), pos(2, 0))
		for method, params := range map[string]any{
			protocol.MethodTextDocumentCodeAction: &protocol.CodeActionParams{TextDocument: td, Range: back},
			protocol.MethodTextDocumentInlayHint:  &protocol.InlayHintParams{TextDocument: td, Range: back},
		} {
			if err := c.call(method, params, nil); rpcCode(err) != jsonrpc2.InvalidParams {
				t.Errorf("%s with a reversed range: %v, want InvalidParams", method, err)
			}
		}
		// In a change: refused whole, the text and version kept.
		v := c.nextV[u]
		c.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
			TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: td, Version: v + 1},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{
				&protocol.TextDocumentContentChangePartial{Range: rng(pos(0, 0), pos(0, 0)), Text: "# applied?\n"},
				&protocol.TextDocumentContentChangePartial{Range: back, Text: ""},
			}})
		c.healthy(u) // the server's text is still the client's
		if strings.Contains(c.texts[u], "applied?") {
			t.Fatal("half of a refused change applied")
		}
	})
	// Changes out of range, with what an editor makes of them.
	edits := []struct {
		name string
		r    protocol.Range
		text string
		want string // the text of notes.yaml after the change
	}{
		{"line past the end", rng(pos(100, 0), pos(200, 5)), "# tail\n", emojiText + "# tail\n"},
		{"character past the line", rng(pos(1, 100), pos(1, 200)), " # v1", strings.Replace(emojiText, "apiVersion: v1\n", "apiVersion: v1 # v1\n", 1)},
		{"inside a surrogate pair", rng(pos(0, 3), pos(0, 3)), "A", strings.Replace(emojiText, "# 🚀", "# A🚀", 1)},
		{"from inside a surrogate pair to past the line", rng(pos(0, 3), pos(0, 99)), "B", strings.Replace(emojiText, "# 🚀x注y\n", "# B\n", 1)},
		{"past the end to past the end", rng(pos(huge, huge), pos(huge, huge)), "# end\n", emojiText + "# end\n"},
	}
	for _, ed := range edits {
		c.step(t, "change "+ed.name, func(t *testing.T) {
			// Reset notes.yaml, then the change.
			c.changeVersion(e, c.nextV[e]+1, []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: emojiText}})
			v := c.changeVersion(e, c.nextV[e]+1, []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: ed.r, Text: ed.text}})
			if c.texts[e] != ed.want {
				t.Fatalf("the client's model of the change: %q, want %q", c.texts[e], ed.want)
			}
			p := c.waitVersion(e, v)
			if got, _ := c.serverText(e); got != ed.want {
				t.Fatalf("server's text %q, want %q", got, ed.want)
			}
			if fresh := freshDiagnostics(t, c.dir, "notes.yaml", ed.want); !sameDiagnostics(p.Diagnostics, fresh) {
				t.Errorf("diagnostics %v, a fresh server's %v", p.Diagnostics, fresh)
			}
			c.healthy(u)
		})
	}
}

// freshDiagnostics returns what a new server publishes for text opened as
// name in (a copy of) dir.
func freshDiagnostics(t *testing.T, dir, name, text string) []protocol.Diagnostic {
	t.Helper()
	f := newClient(t, Options{})
	f.initialize(dir, "")
	d := f.open(filepath.Join(t.TempDir(), name), text)
	return f.waitVersion(d, 1).Diagnostics
}

// sameDiagnostics compares diagnostics of two documents of the same name:
// their URIs differ only by directory, so relatedInformation locations are
// compared by file name.
func sameDiagnostics(a, b []protocol.Diagnostic) bool {
	norm := func(ds []protocol.Diagnostic) string {
		ds = append([]protocol.Diagnostic(nil), ds...)
		for i := range ds {
			ri := append([]protocol.DiagnosticRelatedInformation(nil), ds[i].RelatedInformation...)
			for j := range ri {
				ri[j].Location.URI = uri.URI(filepath.Base(string(ri[j].Location.URI)))
			}
			ds[i].RelatedInformation = ri
		}
		out, _ := protocol.Marshal(ds)
		return string(out)
	}
	return norm(a) == norm(b)
}

// TestAbuseVersions: versions going backwards, repeated, zero, negative,
// past int32. The text is the truth: every change is applied in wire
// order whatever its version, and the diagnostics of the text are
// published with the version of the change that made it (the editor drops
// them if it knows better); a version that does not decode drops its
// change.
func TestAbuseVersions(t *testing.T) {
	c, u := startAbuse(t, nil, nil)
	set := func(v int32, from, to string, wantFloor bool) {
		c.t.Helper()
		text := c.texts[u]
		i := strings.Index(text, from)
		if i < 0 {
			c.t.Fatalf("%q not in the document", from)
		}
		m := NewMapper([]byte(text))
		c.changeVersion(u, v, []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: m.Range(i, i+len(from)), Text: to}})
		p := c.waitFor(u, fmt.Sprintf("version %d with latency-floor %v", v, wantFloor), func(p publication) bool {
			return p.HasVersion && p.Version == v && p.has("latency-floor") == wantFloor
		})
		if got, _ := c.serverText(u); got != c.texts[u] {
			c.t.Fatalf("version %d: the server's text is not the client's", v)
		}
		if len(p.Diagnostics) > 1 {
			c.t.Fatalf("version %d: %v", v, p.rules())
		}
	}
	c.step(t, "forwards by a jump", func(t *testing.T) {
		set(20, hunting, resting, false)
		set(40, resting, hunting, true)
		c.healthy(u)
	})
	c.step(t, "backwards", func(t *testing.T) {
		set(15, hunting, resting, false)
		set(5, resting, hunting, true)
		c.healthy(u)
	})
	c.step(t, "repeated", func(t *testing.T) {
		v := c.nextV[u]
		set(v, hunting, resting, false)
		set(v, resting, hunting, true)
		set(v, hunting, resting, false)
		set(v, resting, hunting, true)
		c.healthy(u)
	})
	c.step(t, "zero and negative", func(t *testing.T) {
		set(0, hunting, resting, false)
		set(-7, resting, hunting, true)
		c.healthy(u)
	})
	c.step(t, "largest int32, then back to 1", func(t *testing.T) {
		set(2147483647, hunting, resting, false)
		set(1, resting, hunting, true)
		c.healthy(u)
	})
	c.step(t, "past int32: the change is dropped", func(t *testing.T) {
		c.notify(protocol.MethodTextDocumentDidChange, `{"textDocument":{"uri":`+fmt.Sprintf("%q", u)+`,"version":2147483648},"contentChanges":[{"text":"kind: Dropped\n"}]}`)
		c.healthy(u) // checks the server's text is still the client's
	})
}

// TestAbuseRapidEdits: 1,000 incremental edits sent without waiting
// (typing, deleting, multi-byte text, the threshold rewritten, a line
// break in CRLF) end with the server holding the client's text and
// publishing, for the last version, what a fresh server publishes for
// that text.
//
// It also measures the server's memory: after the first 500 edits and
// after the next 500, the live heap (the client's publication history
// forgotten first) and the parse cache's entries. A server that kept old
// versions would grow by one parse per edit; the bound allows a third of
// that (the race detector's runs vary by up to 1 MiB, a third is 2.7 MiB),
// with a parse's size measured here.
func TestAbuseRapidEdits(t *testing.T) {
	c, u := startAbuse(t, nil, nil)
	rng := rand.New(rand.NewSource(1))
	c.edit(u, "# An order consumer", "# notes: \n# An order consumer")
	// One entry per document held: the open one, and the folder's other
	// file once indexed (counted before the index ended, on a loaded
	// machine, it was missing from the count at the start).
	c.waitIndexed()
	entries0 := c.cacheEntries()
	pieces := []string{"a", "z", " ", "注", "🚀", "é", "\t", "x\r\n# "}
	var last int32
	var heap [2]uint64
	var entries [2]int
	for i := 0; i < 1000; i++ {
		if i == 500 {
			c.waitVersion(u, last)
			heap[0], entries[0] = c.liveHeap(), c.cacheEntries()
		}
		text := c.texts[u]
		m := NewMapper([]byte(text))
		switch i % 4 {
		case 0, 1: // type in the notes line
			start := strings.Index(text, "# notes: ") + len("# notes: ")
			end := strings.Index(text, "# An order consumer")
			// Not inside a character, at the start of a line (before its
			// "#") or between "\r" and "\n": the notes stay comments.
			at := start + rng.Intn(end-start)
			for at > start && (!isRuneStart(text[at]) || text[at-1] == '\n' || text[at-1] == '\r') {
				at--
			}
			last = c.change(u, []protocol.TextEdit{{Range: m.Range(at, at), NewText: pieces[rng.Intn(len(pieces))]}})
		case 2: // delete in the notes line, UTF-16 columns, maybe half a pair
			notes := m.Position(strings.Index(text, "# notes: ")).Line
			line, first := notes, uint32(len("# notes: ")) // never delete the prefix
			if p := m.Position(strings.Index(text, "# An order consumer")); p.Line > line+1 {
				line, first = p.Line-1, 1 // the last notes line, after its "#"
			}
			end := m.Position(m.LineStart(int(line)+1) - 1) // its line break
			a := first + uint32(rng.Intn(int(end.Character-first)+1))
			b := a + uint32(rng.Intn(3))
			last = c.changeVersion(u, c.nextV[u]+1, []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{
				Range: protocol.Range{Start: protocol.Position{Line: line, Character: a}, End: protocol.Position{Line: line, Character: b}}}})
		case 3: // rewrite the threshold
			at := strings.Index(text, `lagThreshold: "`) + len(`lagThreshold: "`)
			end := at + strings.IndexByte(text[at:], '"')
			last = c.change(u, []protocol.TextEdit{{Range: m.Range(at, end), NewText: fmt.Sprint(rng.Intn(2000))}})
		}
	}
	// The last value hunts.
	text := c.texts[u]
	at := strings.Index(text, `lagThreshold: "`) + len(`lagThreshold: "`)
	end := at + strings.IndexByte(text[at:], '"')
	last = c.change(u, []protocol.TextEdit{{Range: NewMapper([]byte(text)).Range(at, end), NewText: "10"}})
	p := c.waitVersion(u, last)
	if got, _ := c.serverText(u); got != c.texts[u] {
		t.Fatalf("after 1,000 edits the server's text differs from the client's:\n%q\n---\n%q", got, c.texts[u])
	}
	heap[1], entries[1] = c.liveHeap(), c.cacheEntries()
	perParse := parseSize(t, c.texts[u])
	grew := int64(heap[1]) - int64(heap[0])
	t.Logf("live heap after 500 edits %d KiB, after 1,000 %d KiB (%+d KiB); parse cache entries %d, %d, %d (at the start); one parse of the document %d KiB",
		heap[0]>>10, heap[1]>>10, grew>>10, entries[0], entries[1], entries0, perParse>>10)
	if entries[0] != entries0 || entries[1] != entries0 {
		t.Errorf("parse cache entries %d after 500 edits, %d after 1,000, want %d as before the edits (one per document held)", entries[0], entries[1], entries0)
	}
	if bound := 500 / 3 * perParse; grew > int64(bound) {
		t.Errorf("the live heap grew by %d KiB over 500 edits, more than %d KiB (a third of one parse per edit)", grew>>10, bound>>10)
	}
	if !p.has("latency-floor") {
		t.Errorf("final diagnostics %v, want latency-floor", p.rules())
	}
	// A fresh server, on the same workspace, given the final text.
	f := newClient(t, Options{})
	f.initialize(c.dir, "")
	fu := f.open("consumer.yaml", c.texts[u])
	fp := f.waitVersion(fu, 1)
	if !sameDiagnostics(p.Diagnostics, fp.Diagnostics) {
		a, _ := protocol.Marshal(p.Diagnostics)
		b, _ := protocol.Marshal(fp.Diagnostics)
		t.Errorf("after 1,000 edits:\n%s\na fresh server:\n%s", a, b)
	}
	// The final text with its notes removed is the fixture's: the health
	// check can edit it.
	c.edit(u, c.texts[u][:strings.Index(c.texts[u], "# An order consumer")], "")
	c.healthy(u)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// goroutines waits until no more goroutines run than base (the server's
// are gone), and fails with their stacks otherwise.
func goroutines(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			var b strings.Builder
			pprof.Lookup("goroutine").WriteTo(&b, 1)
			t.Fatalf("%d goroutines, %d before the server started:\n%s", runtime.NumGoroutine(), base, b.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// baseGoroutines is the number of goroutines once those of earlier tests
// are gone.
func baseGoroutines() int {
	n := runtime.NumGoroutine()
	for i := 0; i < 50; i++ {
		time.Sleep(10 * time.Millisecond)
		if m := runtime.NumGoroutine(); m >= n {
			break
		} else {
			n = m
		}
	}
	return n
}

// waitServed waits for Serve to return.
func (c *testClient) waitServed(t *testing.T) {
	t.Helper()
	select {
	case <-c.done:
	case <-time.After(waitTimeout):
		var b strings.Builder
		pprof.Lookup("goroutine").WriteTo(&b, 1)
		t.Fatalf("Serve did not return\n%s", b.String())
	}
}

// holdMode says how a hold must end.
type holdMode int

const (
	holdUntilCancelled holdMode = iota // the request's context is cancelled
	holdUntilAny                       // cancelled, or released
)

// hold holds the first request (or lint) of method in the server's
// testHook until its context is cancelled or it is released: entered is
// closed when it is held, done gets what it saw (nil, or why it ended
// wrongly).
type hold struct {
	method  string
	mode    holdMode
	entered chan struct{}
	release chan struct{}
	done    chan error
}

func newHold(method string, mode holdMode) *hold {
	return &hold{method: method, mode: mode, entered: make(chan struct{}), release: make(chan struct{}), done: make(chan error, 1)}
}

func (h *hold) hook(ctx context.Context, method string) {
	if method != h.method {
		return
	}
	select {
	case <-h.entered:
		return // held once
	default:
	}
	close(h.entered)
	var err error
	select {
	case <-ctx.Done():
	case <-h.release:
		if h.mode == holdUntilCancelled {
			err = fmt.Errorf("%s released, not cancelled", method)
		}
	case <-time.After(waitTimeout):
		err = fmt.Errorf("%s held past the timeout: its context was not cancelled", method)
	}
	h.done <- err
}

// hooks is the server's testHook: it runs the hold set at the moment.
type hooks struct {
	mu sync.Mutex
	h  *hold
}

func (s *hooks) hook(ctx context.Context, method string) {
	s.mu.Lock()
	h := s.h
	s.mu.Unlock()
	if h != nil {
		h.hook(ctx, method)
	}
}

func (s *hooks) set(h *hold) {
	s.mu.Lock()
	s.h = h
	s.mu.Unlock()
}

// TestAbuseDisconnect: the client disappears (its end of the pipe closed)
// while a request is in flight, and while a lint runs. Serve returns
// without a panic, and every goroutine the server started ends.
func TestAbuseDisconnect(t *testing.T) {
	for _, tc := range []struct {
		name   string
		method string // held by the hook when the client goes
	}{
		{"request in flight", protocol.MethodTextDocumentHover},
		{"lint running", testHookLint},
		{"mid-frame", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := baseGoroutines()
			h := newHold(tc.method, holdUntilAny)
			c := newClient(t, Options{})
			c.srv.testHook = h.hook // before the first message: no race
			c.initialize(workspaceDir(t, "workspace"), "")
			switch tc.method {
			case protocol.MethodTextDocumentHover:
				u := c.open("consumer.yaml", "")
				c.waitVersion(u, 1)
				go c.call(protocol.MethodTextDocumentHover, c.hoverParams(u), nil)
				<-h.entered
			case testHookLint:
				<-h.entered // the lint of the indexed workspace
			default:
				u := c.open("consumer.yaml", "")
				c.waitVersion(u, 1)
				c.rawFrame("Content-Length: 100\r\n\r\n{\"jsonrpc\":")
			}
			c.raw.Close() // the client is gone: its end of the pipe closed
			c.conn.Close()
			if tc.method != "" {
				close(h.release)
				if err := <-h.done; err != nil {
					t.Error(err)
				}
			}
			c.waitServed(t)
			if c.shutdownFirst {
				t.Error("Serve reported a shutdown")
			}
			goroutines(t, base)
			if strings.Contains(c.log.String(), "panicked") {
				t.Errorf("a panic:\n%s", c.log)
			}
		})
	}
}

// TestAbuseCancel: $/cancelRequest for every request the server answers,
// sent before the request, right after it, and while it runs, with string
// and numeric ids: the answer is the result or RequestCancelled (while it
// runs: RequestCancelled), never a hang; the server goes on.
func TestAbuseCancel(t *testing.T) {
	var hk hooks
	c, u := startAbuse(t, nil, &hk)
	doc := fmt.Sprintf(`{"uri":%q}`, u)
	p := c.positionOf(u, hunting, 16)
	at := fmt.Sprintf(`"textDocument":%s,"position":{"line":%d,"character":%d}`, doc, p.Line, p.Character)
	whole := `"range":{"start":{"line":0,"character":0},"end":{"line":100,"character":0}}`
	requests := []struct{ method, params string }{
		{protocol.MethodTextDocumentHover, `{` + at + `}`},
		{protocol.MethodTextDocumentDefinition, `{` + at + `}`},
		{protocol.MethodTextDocumentReferences, `{` + at + `,"context":{"includeDeclaration":true}}`},
		{protocol.MethodTextDocumentCodeAction, `{"textDocument":` + doc + `,` + whole + `,"context":{"diagnostics":[]}}`},
		{protocol.MethodTextDocumentCompletion, `{` + at + `}`},
		{protocol.MethodTextDocumentInlayHint, `{"textDocument":` + doc + `,` + whole + `}`},
		{protocol.MethodTextDocumentDiagnostic, `{"textDocument":` + doc + `}`},
		{"workspace/symbol", `{"query":"orders"}`},
		{"workspace/diagnostic", `{"previousResultIds":[]}`},
		{"workspace/executeCommand", `{"command":"scalelint.nothing"}`},
	}
	n := rawIDBase
	for _, r := range requests {
		c.step(t, r.method, func(t *testing.T) {
			call := func(id string) string {
				return frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, r.method, r.params))
			}
			cancel := func(id string) string {
				return frame(fmt.Sprintf(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":%s}}`, id))
			}
			from := len(c.rawSince(0))
			n += 3
			ids := []string{fmt.Sprintf(`"%s-before"`, r.method), fmt.Sprintf(`"%s-after"`, r.method), fmt.Sprint(n), fmt.Sprint(n + 1)}
			c.rawFrame(cancel(ids[0]) + call(ids[0]) + call(ids[1]) + cancel(ids[1]) + cancel(ids[2]) + call(ids[2]) + call(ids[3]) + cancel(ids[3]))
			for _, id := range ids {
				var want jsonrpc2.ID
				if strings.HasPrefix(id, `"`) {
					want = sid(strings.Trim(id, `"`))
				} else {
					var num int64
					fmt.Sscan(id, &num)
					want = jsonrpc2.NewNumberID(num)
				}
				resp := c.waitRaw(from, "the answer to "+id, func(r rawResponse) bool { return r.ID == want })
				if code := rpcCode(resp.Err); resp.Err != nil && code != protocol.CodeRequestCancelled && code != jsonrpc2.MethodNotFound {
					t.Errorf("%s %s: %v", r.method, id, resp.Err)
				}
			}
			// While it runs: held by the hook until its context is
			// cancelled. (Unimplemented methods never reach the hook.)
			if strings.HasPrefix(r.method, "workspace/") {
				c.healthy(u)
				return
			}
			h := newHold(r.method, holdUntilCancelled)
			hk.set(h)
			defer hk.set(nil)
			id := fmt.Sprint(n + 2)
			c.rawFrame(call(id))
			<-h.entered
			c.rawFrame(cancel(id))
			if err := <-h.done; err != nil {
				t.Fatal(err)
			}
			resp := c.waitRaw(from, "the answer to the cancelled "+id, func(r rawResponse) bool { return r.ID == jsonrpc2.NewNumberID(int64(n+2)) })
			if rpcCode(resp.Err) != protocol.CodeRequestCancelled {
				t.Errorf("%s cancelled while it ran: %v, %s; want RequestCancelled", r.method, resp.Err, resp.Result)
			}
			c.healthy(u)
		})
	}
}

// TestAbuseLifecycle: requests before initialize (ServerNotInitialized;
// notifications dropped), a second initialize (InvalidRequest; the
// workspace kept), a failed initialize (may be retried), requests after
// shutdown (InvalidRequest), exit without shutdown (Serve returns, reports
// it), exit before initialize.
func TestAbuseLifecycle(t *testing.T) {
	t.Run("before initialize", func(t *testing.T) {
		c := newClient(t, Options{})
		dir := workspaceDir(t, "workspace")
		c.dir = dir
		u := uri.File(filepath.Join(dir, "consumer.yaml"))
		text := mustRead(t, filepath.Join(dir, "consumer.yaml"))
		c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "yaml", Version: 7, Text: text}})
		for _, m := range []string{protocol.MethodTextDocumentHover, protocol.MethodShutdown, "workspace/symbol"} {
			if err := c.call(m, `{"textDocument":{"uri":"file:///x.yaml"},"position":{"line":0,"character":0}}`, nil); rpcCode(err) != jsonrpc2.ServerNotInitialized {
				t.Errorf("%s before initialize: %v, want ServerNotInitialized", m, err)
			}
		}
		c.initialize(dir, "")
		if _, ok := c.serverText(u); ok {
			t.Error("a didOpen before initialize was taken")
		}
		u = c.open("consumer.yaml", "")
		c.waitVersion(u, 1)
		c.healthy(u)
	})
	t.Run("second initialize", func(t *testing.T) {
		c, u := startAbuse(t, nil, nil)
		if err := c.call(protocol.MethodInitialize, `{"processId":null,"rootUri":null,"capabilities":{}}`, nil); rpcCode(err) != jsonrpc2.InvalidRequest {
			t.Errorf("second initialize: %v, want InvalidRequest", err)
		}
		c.healthy(u)
		// The workspace is kept: the target resolves across files.
		var locs protocol.LocationSlice
		c.mustCall(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: c.positionOf(u, "    name: orders", 12)}}, &locs)
		if len(locs) != 1 {
			t.Errorf("definition after a second initialize: %+v", locs)
		}
	})
	t.Run("failed initialize, then initialize", func(t *testing.T) {
		c := newClient(t, Options{})
		if err := c.call(protocol.MethodInitialize, `{"capabilities":"all"}`, nil); rpcCode(err) != jsonrpc2.InvalidParams {
			t.Errorf("initialize with bad params: %v, want InvalidParams", err)
		}
		c.initialize(workspaceDir(t, "workspace"), "")
		u := c.open("consumer.yaml", "")
		c.waitVersion(u, 1)
		c.healthy(u)
	})
	t.Run("after shutdown", func(t *testing.T) {
		base := baseGoroutines()
		c, u := startAbuse(t, nil, nil)
		c.mustCall(protocol.MethodShutdown, nil, nil)
		for _, m := range []string{protocol.MethodTextDocumentHover, protocol.MethodShutdown, protocol.MethodInitialize} {
			if err := c.call(m, c.hoverParams(u), nil); rpcCode(err) != jsonrpc2.InvalidRequest {
				t.Errorf("%s after shutdown: %v, want InvalidRequest", m, err)
			}
		}
		c.notify(protocol.MethodTextDocumentDidChange, `{"textDocument":{"uri":`+fmt.Sprintf("%q", u)+`,"version":9},"contentChanges":[{"text":"kind: After\n"}]}`)
		c.notify(protocol.MethodExit, nil)
		c.waitServed(t)
		if !c.shutdownFirst || c.serveErr != nil {
			t.Errorf("Serve returned %v, %v; want true, nil", c.shutdownFirst, c.serveErr)
		}
		if got, _ := c.serverText(u); got != c.texts[u] {
			t.Errorf("a change after shutdown was applied: %q", got)
		}
		c.raw.Close()
		goroutines(t, base)
	})
	for _, initialized := range []bool{true, false} {
		t.Run(fmt.Sprintf("exit without shutdown, initialized %v", initialized), func(t *testing.T) {
			base := baseGoroutines()
			c := newClient(t, Options{})
			if initialized {
				c.initialize(workspaceDir(t, "workspace"), "")
				u := c.open("consumer.yaml", "")
				c.waitVersion(u, 1)
			}
			c.notify(protocol.MethodExit, nil)
			c.waitServed(t)
			if c.shutdownFirst {
				t.Error("Serve reported a shutdown that did not happen")
			}
			c.raw.Close()
			goroutines(t, base)
		})
	}
}

// waitIndexed waits until the server's snapshot holds the whole disk
// index: the opened document's diagnostics come first, and on a loaded
// machine the index of the folder's other files may end after them.
func (c *testClient) waitIndexed() {
	c.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		c.srv.mu.Lock()
		done := c.srv.snap != nil && c.srv.snap.indexing == nil
		c.srv.mu.Unlock()
		if done {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out waiting for the workspace index\nserver log:\n%s", c.log)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// cacheEntries returns the number of parses the server's cache holds.
func (c *testClient) cacheEntries() int {
	c.srv.mu.Lock()
	pc := c.srv.cache
	c.srv.mu.Unlock()
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return len(pc.m)
}

// liveHeap returns the bytes of live heap objects after a collection,
// the client's publication history forgotten first (it grows with every
// edit by design, and is the test's, not the server's). It is the least
// of three readings: goroutines of earlier tests still winding down
// allocate between a collection and its reading.
func (c *testClient) liveHeap() uint64 {
	c.mu.Lock()
	c.pubs = nil
	c.mu.Unlock()
	least := uint64(math.MaxUint64)
	for range 3 {
		runtime.GC()
		runtime.GC() // sync.Pool's victim cache survives one collection
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		least = min(least, ms.HeapAlloc)
	}
	return least
}

// parseSize measures the live heap one cached parse of text takes: the
// mean over 100 variants held at once.
func parseSize(t *testing.T, text string) uint64 {
	t.Helper()
	pc := newParseCache(manifest.Limits{})
	held := make([][]chunk, 100)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range held {
		held[i] = pc.chunks("/m/consumer.yaml", []byte(fmt.Sprintf("%s# %d\n", text, i)), false, false)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(held)
	if after.HeapAlloc <= before.HeapAlloc {
		t.Fatalf("100 parses took no heap (%d -> %d bytes)", before.HeapAlloc, after.HeapAlloc)
	}
	return (after.HeapAlloc - before.HeapAlloc) / uint64(len(held))
}
