package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// maxMessageSize is the largest message body the server reads: room for
// a didOpen of the largest file it lints by default (10 MiB) with every byte
// JSON-escaped. A longer declared Content-Length is refused unread.
const maxMessageSize = 64 << 20

// NewStream returns the LSP base-protocol framing (Content-Length headers)
// over rwc, for a client that may misbehave:
//
//   - the body buffer grows as bytes arrive, so a Content-Length that lies
//     upwards costs only the bytes really sent; one over maxMessageSize is
//     refused before any body byte is read;
//   - a framing error (a header line without a colon, a bad or missing
//     Content-Length, stray bytes between messages) skips the bytes at
//     fault and reports jsonrpc2.ErrInvalidHeader, after which the next
//     read goes on: a header glued to the end of garbage (what is left of
//     a message whose Content-Length was short) is found and the framing
//     is recovered there;
//   - header lines are read through a bounded buffer: garbage without a
//     line break costs no more memory than a normal header.
//
// Serve goes on reading after ErrInvalidHeader from any stream, and
// answers a frame that is not a JSON-RPC message with an error; with
// jsonrpc2.NewHeaderStream it still allocates the declared Content-Length
// (up to 1 GiB) and cannot find a header glued to garbage, so `scalelint
// lsp` speaks over this stream.
//
// Writes are jsonrpc2.NewHeaderStream's.
func NewStream(rwc io.ReadWriteCloser) jsonrpc2.Stream {
	return &headerStream{
		Stream: jsonrpc2.NewHeaderStream(rwc),
		in:     bufio.NewReaderSize(rwc, 64<<10),
	}
}

// headerStream reads LSP frames itself and writes through jsonrpc2's
// header framer.
type headerStream struct {
	jsonrpc2.Stream // Write, WriteFrame (through frameStream), Close
	in              *bufio.Reader
	body            []byte // the last frame's body, reused
	line            []byte // a header line longer than the reader's buffer: its tail
}

// frameStream is the frame-level interface of jsonrpc2's streams: the
// connection reads and writes whole frames through it when a stream has
// it.
type frameStream interface {
	ReadFrame(ctx context.Context) ([]byte, int64, error)
	WriteFrame(ctx context.Context, data []byte) (int64, error)
}

// maxLineTail is how much of an over-long header line is kept: enough for
// a Content-Length header glued to its end.
const maxLineTail = 256

// framingError is a recoverable framing error: the bytes at fault were
// consumed, and the next read starts after them.
type framingError struct{ msg string }

func (e *framingError) Error() string { return "jsonrpc2: invalid message header: " + e.msg }

func (e *framingError) Is(target error) bool { return target == jsonrpc2.ErrInvalidHeader }

func badFrame(format string, args ...any) error {
	return &framingError{fmt.Sprintf(format, args...)}
}

// Read implements jsonrpc2.Stream.
func (s *headerStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	return readMessage(ctx, s)
}

// readMessage reads a frame through fs and decodes it: a Stream's Read
// for a stream that reads frames.
func readMessage(ctx context.Context, fs frameStream) (jsonrpc2.Message, int64, error) {
	body, n, err := fs.ReadFrame(ctx)
	if err != nil {
		return nil, 0, err
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	if err != nil {
		return nil, 0, err
	}
	return msg, n, nil
}

// WriteFrame implements the connection's frameStream (batch responses).
func (s *headerStream) WriteFrame(ctx context.Context, data []byte) (int64, error) {
	return s.Stream.(frameStream).WriteFrame(ctx, data)
}

// ReadFrame reads one frame's body, valid until the next read. It returns
// an error satisfying errors.Is(err, jsonrpc2.ErrInvalidHeader) for a
// framing error it recovered from (see NewStream); any other error ends
// the stream.
func (s *headerStream) ReadFrame(ctx context.Context) ([]byte, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	if cap(s.body) > 1<<20 {
		s.body = nil // do not keep a large message's buffer
	}
	length, consumed := -1, 0
	for {
		line, n, err := s.readLine()
		consumed += n
		if err != nil {
			if err == io.EOF && consumed > 0 {
				err = io.ErrUnexpectedEOF
			}
			return nil, 0, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			if length < 0 {
				return nil, 0, badFrame("header without Content-Length")
			}
			break
		}
		i := lastIndexFold(line, "content-length:")
		if i < 0 {
			if bytes.IndexByte(line, ':') < 0 {
				return nil, 0, badFrame("header line without a colon: %.64q", line)
			}
			continue // another header (Content-Type), ignored
		}
		v, ok := parseLength(line[i+len("content-length:"):])
		if !ok {
			return nil, 0, badFrame("bad Content-Length: %.64q", line[i:])
		}
		// A header glued to the end of other bytes (the rest of a
		// message shorter than its Content-Length said) starts a frame.
		length = v
	}
	switch {
	case length == 0:
		return nil, 0, badFrame("Content-Length 0")
	case length > maxMessageSize:
		// Not read: the body's bytes are skipped as garbage up to the next
		// header, with no more memory than a header line.
		return nil, 0, badFrame("Content-Length %d over the limit of %d bytes", length, maxMessageSize)
	}
	// The buffer grows as the bytes arrive: a Content-Length that lies
	// costs only what was sent.
	buf := s.body[:0]
	for len(buf) < length {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(length-len(buf), max(len(buf), 64<<10)))
		}
		n, err := s.in.Read(buf[len(buf):min(cap(buf), length)])
		buf = buf[:len(buf)+n]
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			s.body = buf
			return nil, 0, err
		}
	}
	s.body = buf
	return buf, int64(consumed + length), nil
}

// readLine reads a line through its "\n" and returns it (or, for a line
// longer than the reader's buffer, its last maxLineTail bytes) with the
// number of bytes consumed. The line is valid until the next read.
func (s *headerStream) readLine() ([]byte, int, error) {
	s.line = s.line[:0]
	long, n := false, 0
	for {
		chunk, err := s.in.ReadSlice('\n')
		n += len(chunk)
		switch {
		case err == bufio.ErrBufferFull:
			long = true
			s.line = append(s.line, chunk[max(0, len(chunk)-maxLineTail):]...)
			s.line = s.line[max(0, len(s.line)-maxLineTail):]
			continue
		case err != nil:
			if err == io.EOF && n > 0 {
				err = io.ErrUnexpectedEOF
			}
			return nil, n, err
		}
		if !long {
			return chunk, n, nil
		}
		s.line = append(s.line, chunk...)
		return s.line[max(0, len(s.line)-maxLineTail-1):], n, nil
	}
}

// lastIndexFold returns the index of the last ASCII-case-insensitive
// occurrence of lower (lower case) in b, or -1.
func lastIndexFold(b []byte, lower string) int {
	for i := len(b) - len(lower); i >= 0; i-- {
		match := true
		for j := 0; j < len(lower); j++ {
			c := b[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lower[j] {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

// parseLength parses a Content-Length value: decimal digits between
// optional blanks, at most maxMessageSize+1 (larger values saturate).
func parseLength(v []byte) (int, bool) {
	v = bytes.Trim(v, " \t")
	if len(v) == 0 {
		return 0, false
	}
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = min(n*10+int(c-'0'), maxMessageSize+1)
	}
	return n, true
}

// tolerantStream is what the server reads through: a frame that is not a
// JSON-RPC message, which would end jsonrpc2's connection, is answered
// with an error response (id null) and skipped; a framing error the
// stream recovered from (jsonrpc2.ErrInvalidHeader) is logged and the
// reading goes on.
//
// Every write goes through writeMu: the connection writes its messages
// from several goroutines under its own lock, which the error responses
// written here do not take, and jsonrpc2's own framer writes a header and
// a body in two calls that must not interleave with another message's.
type tolerantStream struct {
	jsonrpc2.Stream
	log     *slog.Logger
	writeMu sync.Mutex
}

// Write implements jsonrpc2.Stream.
func (t *tolerantStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	return t.Stream.Write(ctx, msg)
}

// Read implements jsonrpc2.Stream.
func (t *tolerantStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	return readMessage(ctx, t)
}

// ReadFrame returns the next frame that the connection can take.
func (t *tolerantStream) ReadFrame(ctx context.Context) ([]byte, int64, error) {
	for {
		body, n, err := t.readFrame(ctx)
		if errors.Is(err, jsonrpc2.ErrInvalidHeader) {
			t.log.Warn("skipped bytes that are not an LSP frame", "err", err)
			continue
		}
		if err != nil {
			return nil, 0, err
		}
		if rerr := checkMessage(body); rerr != nil {
			t.log.Warn("refused a frame that is not a JSON-RPC message", "err", rerr.Message, "frame", fmt.Sprintf("%.200q", body))
			t.answer(ctx, rerr)
			continue
		}
		return body, n, nil
	}
}

// readFrame reads a frame from the underlying stream, through its frame
// interface when it has one.
func (t *tolerantStream) readFrame(ctx context.Context) ([]byte, int64, error) {
	if fs, ok := t.Stream.(frameStream); ok {
		return fs.ReadFrame(ctx)
	}
	msg, n, err := t.Stream.Read(ctx)
	if err != nil {
		var rerr *jsonrpc2.Error
		if errors.As(err, &rerr) {
			// The stream read a whole frame that does not decode.
			t.answer(ctx, rerr)
			return nil, 0, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidHeader, err)
		}
		return nil, 0, err
	}
	body, err := jsonrpc2.EncodeMessage(msg)
	return body, n, err
}

// answer writes the error response (id null) to a frame that is not a
// message on a goroutine of its own, never on the reading one: were the
// reading to wait for the client to read the answer while the client
// waits for the server to read (a reply it writes to a request of the
// server's, such as client/registerCapability, on a pipe with no buffer),
// neither would read again. It happened once in CI: the invalid-JSON case
// of TestAbuseWireJSONRPC2Framer, over net.Pipe, waited 20 s for an
// answer the server had logged and not yet written.
func (t *tolerantStream) answer(ctx context.Context, rerr *jsonrpc2.Error) {
	go func() {
		if _, err := t.Write(context.WithoutCancel(ctx), jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, rerr)); err != nil {
			t.log.Debug("could not answer a frame that is not a message", "err", err)
		}
	}()
}

// WriteFrame implements the connection's frameStream.
func (t *tolerantStream) WriteFrame(ctx context.Context, data []byte) (int64, error) {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	if fs, ok := t.Stream.(frameStream); ok {
		return fs.WriteFrame(ctx, data)
	}
	return 0, errors.New("jsonrpc2: the stream cannot write a batch response")
}

// checkMessage reports why a frame's body is not something jsonrpc2's
// connection takes (it would end the connection): ParseError for a body
// that is not JSON, InvalidRequest for JSON that is not a JSON-RPC
// message (not an object, no or a non-string method, an id that is not a
// string or an integer, no "jsonrpc": "2.0"). A batch is left to the
// connection, which answers its members.
func checkMessage(body []byte) *jsonrpc2.Error {
	i := 0
	for i < len(body) && (body[i] == ' ' || body[i] == '\t' || body[i] == '\r' || body[i] == '\n') {
		i++
	}
	if i < len(body) && body[i] == '[' {
		if _, err := jsonrpc2.ParseRequests(body); err == nil {
			return nil
		}
	} else if _, err := jsonrpc2.DecodeMessage(body); err == nil {
		return nil
	}
	if !json.Valid(body) {
		return jsonrpc2.NewError(jsonrpc2.ParseError, "scalelint: the message is not JSON")
	}
	return jsonrpc2.NewError(jsonrpc2.InvalidRequest, "scalelint: the message is not a JSON-RPC 2.0 request, notification or response")
}
