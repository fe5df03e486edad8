package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// DefaultDebounce is how long the server waits after a change before it
// lints, so that a burst of keystrokes costs one run.
const DefaultDebounce = 50 * time.Millisecond

// Options configure a server.
type Options struct {
	// Debounce is the delay between a change and the lint it triggers; 0
	// means DefaultDebounce, a negative value no delay. The client may
	// change it (initializationOptions.debounceMs).
	Debounce time.Duration
	// LogLevel is the least severe level logged; the client may ask for
	// more (initializationOptions.logLevel, the trace setting).
	LogLevel slog.Level
	// Log receives the log (stderr by default). Nothing else is written
	// anywhere but the protocol stream.
	Log io.Writer
	// Version is reported in serverInfo.
	Version string
	// MemoryLimit sets a soft memory limit that follows the live heap
	// from the first publication of an indexed workspace until Serve
	// returns (memory.go), unless the environment sets GOGC or GOMEMLIMIT.
	// It is the process's: the command sets it, tests do not.
	MemoryLimit bool
}

// Server is the scalelint language server. Its exported methods are the
// LSP methods it implements; every other method answers MethodNotFound
// (protocol.UnimplementedServer).
type Server struct {
	protocol.UnimplementedServer

	opts Options
	conn jsonrpc2.Conn

	// memStop stops the memory tuner once started (limitMemory); memDone
	// is set when Serve returned, after which it is not started.
	memMu   sync.Mutex
	memStop func()
	memDone bool
	// idle collects the heap in the pauses of the messages while the
	// memory tuner runs (idlegc.go); nil before and after.
	idle     atomic.Pointer[idleCollector]
	client   protocol.Client
	log      *slog.Logger
	logLevel *slog.LevelVar
	cache    *parseCache

	// messages are the window/showMessage notifications not yet sent
	// (showMessage); sending is set while a goroutine sends them.
	messagesMu sync.Mutex
	messages   []*protocol.ShowMessageParams
	sending    bool

	// mu guards the mutable state from which snapshots are made.
	mu       sync.Mutex
	nextID   uint64
	snap     *Snapshot
	folders  []string               // workspace folders, absolute
	overlays map[string]*fileHandle // open documents by path
	disk     map[string]*fileHandle // indexed files read from disk, by path
	// diskView is the disk index as snapshots hold it; while diskShared
	// is set, disk is that map and is copied before it changes.
	diskView   *diskIndex
	diskShared bool
	index      *indexRun // the disk index being built, or nil (index.go)
	// pending is the newest snapshot whose findings come from a lint of
	// the whole workspace, while newer snapshots derive from it: its lint
	// is not cancelled when they supersede it (newSnapshotLocked).
	pending  *Snapshot
	settings settings // from initializationOptions and didChangeConfiguration
	// traceLevel is the verbosity the client's trace setting asks for
	// (nil: none); the log level is the settings' (or the command
	// line's), made more verbose by the trace.
	traceLevel *slog.Level
	fileCfg    fileConfig               // .scalelint.yaml files
	root       workspace.RepositoryRoot // of the folders
	cfg        *analyzer.Config         // fileCfg merged with settings
	caps       clientCaps
	debounce   time.Duration
	// shownFileErr and shownSettingsErr are the configuration errors last
	// shown to the user (reconfigureLocked shows each once).
	shownFileErr, shownSettingsErr string
	// initialized is set when initialize arrives (cleared if it fails),
	// shutdown when shutdown arrives: see admit.
	initialized bool
	shutdown    bool
	exited      chan struct{}
	exitOnce    sync.Once
	shutdownOK  bool

	lint lintState
	pub  publishState
	// renders holds the charts and kustomizations rendered (render.go).
	renders renderCache

	// testHook, when set, runs at the start of every request handler with
	// the request's context, and of every lint with the lint's (method
	// testHookLint). Tests use it to make a handler panic, or to hold a
	// request or a lint while they abuse the server.
	testHook func(ctx context.Context, method string)
}

// testHookLint is the method name testHook gets for a lint.
const testHookLint = "scalelint/lint"

// NewServer returns a server that is not yet connected.
func NewServer(opts Options) *Server {
	if opts.Log == nil {
		opts.Log = os.Stderr
	}
	lv := new(slog.LevelVar)
	lv.Set(opts.LogLevel)
	s := &Server{
		opts:     opts,
		logLevel: lv,
		log:      slog.New(slog.NewTextHandler(opts.Log, &slog.HandlerOptions{Level: lv})),
		cache:    newParseCache(manifest.Limits{}),
		overlays: map[string]*fileHandle{},
		disk:     map[string]*fileHandle{},
		cfg:      analyzer.DefaultConfig(),
		exited:   make(chan struct{}),
		debounce: opts.Debounce,
	}
	if s.debounce == 0 {
		s.debounce = DefaultDebounce
	}
	s.lint.life, s.lint.stopLife = context.WithCancel(context.Background())
	s.snap = &Snapshot{id: 0, files: fileSet{}, cfg: s.cfg}
	s.pub.published = map[string]publishedFile{}
	return s
}

// Serve speaks LSP over stream until the client exits or the stream
// closes. It reports whether the client asked for a shutdown before it
// exited (the exit code of `scalelint lsp` is 0 then, 1 otherwise).
//
// A frame that is not a JSON-RPC message is answered with an error and
// skipped, and a framing error is skipped; over NewStream the framing is
// also recovered after a Content-Length that lied (see NewStream).
func (s *Server) Serve(ctx context.Context, stream jsonrpc2.Stream) (shutdownFirst bool, err error) {
	defer s.stopMemoryLimit()
	s.conn = jsonrpc2.NewConn(&tolerantStream{Stream: stream, log: s.log}, jsonrpc2.WithCodec(codec{}))
	s.client = protocol.ClientDispatcher(s.conn)
	s.conn.Go(ctx, s.handler())
	select {
	case <-s.conn.Done():
	case <-s.exited:
		// Everything the client waited for was answered before it sent
		// exit; a read blocked on stdin need not be waited for.
		go s.conn.Close()
	case <-ctx.Done():
		go s.conn.Close()
	}
	s.stopLint()
	s.mu.Lock()
	ok := s.shutdownOK
	s.mu.Unlock()
	return ok, s.conn.Err()
}

// codec marshals payloads with the protocol package's union-aware
// encoder, as protocol.NewServer does.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case *jsonrpc2.RawMessage:
		if m == nil || *m == nil {
			return []byte("null"), nil
		}
		return *m, nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

type snapshotKey struct{}

// handler is the connection's handler chain:
//
//   - notifications run inline on the read loop, in wire order (a
//     didChange must never overtake the one before it); their errors are
//     logged, since an error returned for a notification would close the
//     connection;
//   - $/cancelRequest cancels the named request's context;
//   - a request first takes the current snapshot (so it sees every change
//     that came before it on the wire), then releases the read loop and
//     runs concurrently;
//   - a panic in any handler is recovered, logged with its stack and, for
//     a request, answered with an InternalError.
func (s *Server) handler() jsonrpc2.Handler {
	dispatch := protocol.ServerHandler(s, nil)
	calls, cancel := jsonrpc2.CancelHandler(func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		ctx = context.WithValue(ctx, snapshotKey{}, s.current())
		jsonrpc2.Async(ctx)
		res, err := s.safely(ctx, req, dispatch)
		if err != nil && req.Method() == protocol.MethodInitialize {
			s.mu.Lock()
			s.initialized = false // the client may try again
			s.mu.Unlock()
		}
		return res, err
	})
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if c := s.idle.Load(); c != nil {
			c.touch()
		}
		if err := s.admit(req.Method()); err != nil {
			if req.IsCall() {
				return nil, err
			}
			s.log.Debug("notification dropped", "method", req.Method(), "reason", err)
			return nil, nil
		}
		if req.Method() == protocol.MethodCancelRequest {
			var p protocol.CancelParams
			if err := protocol.Unmarshal(req.Params(), &p); err == nil {
				switch id := p.ID.(type) {
				case protocol.Integer:
					cancel(jsonrpc2.NewNumberID(int64(id)))
				case protocol.String:
					cancel(jsonrpc2.NewStringID(string(id)))
				}
			}
			return nil, nil
		}
		if !req.IsCall() {
			method := req.Method()
			if _, err := s.safely(ctx, req, dispatch); err != nil {
				s.log.Debug("notification failed", "method", method, "err", err)
			}
			return nil, nil
		}
		return calls(ctx, req)
	}
}

// admit applies the protocol's lifecycle to a message, in wire order:
// before initialize, a request is answered ServerNotInitialized and a
// notification dropped; initialize is taken once; after shutdown, a
// request is answered InvalidRequest and a notification dropped. Exit and
// $/cancelRequest always pass.
func (s *Server) admit(method string) error {
	if method == protocol.MethodExit || method == protocol.MethodCancelRequest {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.shutdown:
		return jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "scalelint: %s after shutdown", method)
	case method == protocol.MethodInitialize:
		if s.initialized {
			return jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "scalelint: the server is already initialized")
		}
		s.initialized = true
	case !s.initialized:
		return jsonrpc2.Errorf(jsonrpc2.ServerNotInitialized, "scalelint: %s before initialize", method)
	case method == protocol.MethodShutdown:
		s.shutdown = true // what follows on the wire is after shutdown
	}
	return nil
}

// safely runs a handler, turning a panic into an error.
func (s *Server) safely(ctx context.Context, req *jsonrpc2.Request, h jsonrpc2.Handler) (result any, err error) {
	method := req.Method()
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("handler panicked", "method", method, "panic", r, "stack", string(debug.Stack()))
			result, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "scalelint: internal error handling %s: %v", method, r)
		}
	}()
	if s.testHook != nil && req.IsCall() {
		s.testHook(ctx, method)
	}
	if method == protocol.MethodTextDocumentDidChange {
		if err := checkContentChanges(req.Params()); err != nil {
			return nil, err
		}
	}
	result, err = h(ctx, req)
	var rerr *jsonrpc2.Error
	switch {
	case errors.Is(err, context.Canceled):
		err = protocol.ErrRequestCancelled
	case errors.As(err, &rerr) && rerr.Code == jsonrpc2.ParseError:
		// The protocol package reports params it cannot decode as a
		// ParseError; the message was JSON, its params were wrong.
		err = jsonrpc2.Errorf(jsonrpc2.InvalidParams, "scalelint: %s: invalid params: %v", method, err)
	}
	return result, err
}

// Request answers methods that are not part of the protocol.
func (s *Server) Request(ctx context.Context, method string, params any) (any, error) {
	return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method %q not found", method)
}

// current returns the current snapshot.
func (s *Server) current() *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snap
}

// snapshot returns the snapshot a request handler reads: the one current
// when the request arrived.
//
// A snapshot made while the disk index was being built is read over the
// finished index: the request waits for it (or for its context).
func (s *Server) snapshot(ctx context.Context) *Snapshot {
	snap, ok := ctx.Value(snapshotKey{}).(*Snapshot)
	if !ok {
		snap = s.current()
	}
	if snap.indexing != nil {
		if disk, ok := s.waitIndex(ctx, snap.indexing); ok {
			return snap.withIndex(disk)
		}
	}
	return snap
}

// showMessage shows a message to the user, without waiting: the messages
// are sent in order by a goroutine of their own. A handler runs on the
// connection's read loop, often holding mu; had it written the message
// itself, a client busy writing to the server (the answer to a request of
// ours) would wait for the server to read while the server waited for it
// to read, on a synchronous pipe or a full one.
func (s *Server) showMessage(ctx context.Context, typ protocol.MessageType, format string, args ...any) {
	if s.client == nil {
		return
	}
	s.messagesMu.Lock()
	defer s.messagesMu.Unlock()
	s.messages = append(s.messages, &protocol.ShowMessageParams{Type: typ, Message: fmt.Sprintf(format, args...)})
	if !s.sending {
		s.sending = true
		go s.sendMessages(context.WithoutCancel(ctx))
	}
}

// sendMessages sends the queued messages until none is left.
func (s *Server) sendMessages(ctx context.Context) {
	for {
		s.messagesMu.Lock()
		if len(s.messages) == 0 {
			s.sending = false
			s.messagesMu.Unlock()
			return
		}
		m := s.messages[0]
		s.messages = s.messages[1:]
		s.messagesMu.Unlock()
		if err := s.client.ShowMessage(ctx, m); err != nil {
			s.log.Debug("showMessage failed", "err", err)
		}
	}
}
