package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"sync"
)

// JSONStream writes JSON as json.Encoder with SetIndent("", "  ") and
// SetEscapeHTML(false) would, one value at a time, so that a long list
// (check's findings, the audit's rows) is never held whole. Its two
// buffers are reused from value to value: a long list makes next to no
// garbage (encoding it at once made ~70 MB at 10,000 services, at the
// run's peak).
type JSONStream struct {
	W *bufio.Writer
	*JSONEncoder
	n int // elements written in the open list
}

// NewJSONStream returns a stream writing to w; Flush ends it.
func NewJSONStream(w io.Writer) *JSONStream {
	return &JSONStream{W: bufio.NewWriterSize(w, 64<<10), JSONEncoder: NewJSONEncoder()}
}

// JSONEncoder encodes values as JSONStream writes them, into buffers it
// reuses: one for each goroutine that encodes (report.Render).
type JSONEncoder struct {
	compact, indented bytes.Buffer
	enc               *json.Encoder
	diag              []byte // AppendDiagnostic's compact encoding
}

// NewJSONEncoder returns an encoder.
func NewJSONEncoder() *JSONEncoder {
	e := &JSONEncoder{}
	e.enc = json.NewEncoder(&e.compact)
	e.enc.SetEscapeHTML(false)
	return e
}

// Value returns v's JSON indented for a place whose lines start with
// prefix; it is valid until the next call.
func (e *JSONEncoder) Value(v any, prefix string) ([]byte, error) {
	e.compact.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	e.indented.Reset()
	e.indented.Write(indent(e.indented.AvailableBuffer(), bytes.TrimSuffix(e.compact.Bytes(), []byte("\n")), prefix))
	return e.indented.Bytes(), nil
}

// indent appends src, compact JSON as json.Encoder writes it (no blank
// outside strings), indented as json.Indent(dst, src, prefix, "  ") would:
// each element and member on a line of its own, an empty array or object
// kept as "[]" or "{}", a blank after each colon. json.Indent runs a
// validating scanner over every byte, half the time of encoding a
// finding; what the encoder wrote needs no validation.
func indent(dst, src []byte, prefix string) []byte {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, "  "...)
		}
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			// A string, copied as it is up to its closing quote (a
			// quote after a backslash escape is inside it).
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			dst = append(dst, src[i:min(j+1, len(src))]...)
			i = j
		case '{', '[':
			dst = append(dst, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, src[i+1])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, c, ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// AppendElement appends to buf the i-th element (from 0) of an array
// whose opening bracket is written, as Element writes it.
func (e *JSONEncoder) AppendElement(buf *bytes.Buffer, i int, v any, prefix string) error {
	b, err := e.Value(v, prefix)
	if err != nil {
		return err
	}
	if i > 0 {
		buf.WriteByte(',')
	}
	buf.WriteString("\n")
	buf.WriteString(prefix)
	buf.Write(b)
	return nil
}

// AppendDiagnostic appends to buf the i-th element (from 0) of the
// findings' array, as AppendElement would (appendDiagnostic).
func (e *JSONEncoder) AppendDiagnostic(buf *bytes.Buffer, i int, jd *JSONDiagnostic, prefix string) error {
	b, err := e.appendDiagnostic(e.diag[:0], jd)
	if err != nil {
		return err
	}
	e.diag = b
	if i > 0 {
		buf.WriteByte(',')
	}
	buf.WriteString("\n")
	buf.WriteString(prefix)
	buf.Write(indent(buf.AvailableBuffer(), b, prefix))
	return nil
}

// Elements says that n elements were written to the open list
// (AppendElement), for EndList.
func (s *JSONStream) Elements(n int) { s.n += n }

// Element writes one element of an array whose opening bracket is
// written, on its own line at prefix.
func (s *JSONStream) Element(v any, prefix string) error {
	b, err := s.Value(v, prefix)
	if err != nil {
		return err
	}
	if s.n > 0 {
		s.W.WriteByte(',')
	}
	s.n++
	s.W.WriteString("\n" + prefix)
	s.W.Write(b)
	return nil
}

// EndList ends the array the elements went to with the line its closing
// bracket goes on (prefix is the elements'), and starts counting anew.
func (s *JSONStream) EndList(prefix string) {
	if s.n > 0 {
		s.W.WriteString("\n" + prefix[:len(prefix)-2])
	}
	s.n = 0
}

// Flush writes what is buffered.
func (s *JSONStream) Flush() error { return s.W.Flush() }

// ElementsOf writes each of vs as an element of the open list, as Element
// would one by one, encoded on every core: a batch of elements at a time
// is split among the goroutines, each encoding its run of it into a
// buffer of its own, and the buffers are written in order (so at most a
// batch is held).
func ElementsOf[T any](s *JSONStream, vs []T, prefix string) error {
	const batch = 512
	workers := runtime.GOMAXPROCS(0)
	encs := make([]*JSONEncoder, workers)
	bufs := make([]bytes.Buffer, workers)
	errs := make([]error, workers)
	for w := range encs {
		encs[w] = NewJSONEncoder()
	}
	for lo := 0; lo < len(vs); lo += batch {
		part := vs[lo:min(lo+batch, len(vs))]
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				bufs[w].Reset()
				for i := w * len(part) / workers; i < (w+1)*len(part)/workers; i++ {
					if err := encs[w].AppendElement(&bufs[w], s.n+lo+i, part[i], prefix); err != nil {
						errs[w] = err
						return
					}
				}
			}()
		}
		wg.Wait()
		for w := range workers {
			if errs[w] != nil {
				return errs[w]
			}
			s.W.Write(bufs[w].Bytes())
		}
	}
	s.n += len(vs)
	return nil
}
