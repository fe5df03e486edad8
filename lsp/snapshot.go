package lsp

import (
	"context"
	"crypto/sha256"
	"go/token"
	"sort"
	"sync"

	"go.lsp.dev/uri"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
)

// fileHandle is one version of one file: an open document (an overlay) or
// a file read from disk. It is immutable and shared by every snapshot
// that holds this version.
//
// A file is parsed one YAML document at a time (a chunk): each document
// is its own manifest.File, cached by content, so an edit re-parses only
// the document it touches. The core parses every document on its own
// anyway (manifest.Parse splits a file first), so the findings are the
// same; a file whose documents cannot be taken apart (a Helm template, a
// file over the parser's limits, binary content) is one chunk.
type fileHandle struct {
	path    string // absolute, clean
	uri     uri.URI
	version int32 // the editor's version; 0 with open false for a disk file
	open    bool  // an overlay: the editor's text, not the disk's
	content []byte
	mapper  *Mapper
	chunks  []chunk
}

// chunk is one parsed document of a file and where it starts.
type chunk struct {
	start int // byte offset of the document in the file
	*parsed
}

// parsed is a document's (or a whole file's) parse, shared by every
// handle whose text holds the same bytes at the same path: the parse
// cache's value.
type parsed struct {
	hash [sha256.Size]byte
	file *manifest.File
}

// A Snapshot is the immutable state of the workspace at one moment: every
// file (open documents over disk), the configuration, and, computed once
// on first use, the workspace index and the diagnostics. Handlers read a
// snapshot; only the server's change methods make new ones.
type Snapshot struct {
	id      uint64
	files   map[string]*fileHandle // by absolute path, excluded files left out
	cfg     *analyzer.Config
	cfgErr  error // the configuration file's error, reported on it
	folders []string

	wsOnce sync.Once
	ws     *workspace.Workspace
	byTok  map[*token.File]located // every chunk's file, to its handle

	diagMu    sync.Mutex
	diagsDone bool
	diags     []analyzer.Diagnostic // unsuppressed, sorted
}

// File returns the handle of a path, or nil.
func (s *Snapshot) File(path string) *fileHandle { return s.files[path] }

// Config returns the configuration in force.
func (s *Snapshot) Config() *analyzer.Config { return s.cfg }

// Workspace returns the workspace index of the snapshot's files, built on
// first use.
func (s *Snapshot) Workspace() *workspace.Workspace {
	s.wsOnce.Do(func() {
		fset := token.NewFileSet()
		var files []*manifest.File
		var toks []*token.File
		s.byTok = map[*token.File]located{}
		for _, p := range s.paths() {
			h := s.files[p]
			for _, ch := range h.chunks {
				files = append(files, ch.file)
				toks = append(toks, ch.file.Tok)
				s.byTok[ch.file.Tok] = located{h, ch.start}
			}
		}
		fset.AddExistingFiles(toks...)
		s.ws = workspace.New(fset, files, workspace.Options{DefaultNamespace: s.cfg.Namespace, Remember: true})
	})
	return s.ws
}

// Diagnostics returns the findings of the one engine (analyzer.Run, as in
// the CLI) over the snapshot, without the suppressed ones. They are
// computed once; a cancelled computation is not kept.
func (s *Snapshot) Diagnostics(ctx context.Context) ([]analyzer.Diagnostic, error) {
	s.diagMu.Lock()
	defer s.diagMu.Unlock()
	if s.diagsDone {
		return s.diags, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ws := s.Workspace()
	all := analyzer.Run(ctx, ws, rules.All(), s.cfg)
	if err := ctx.Err(); err != nil {
		return nil, err // some rules may not have run
	}
	out := make([]analyzer.Diagnostic, 0, len(all))
	for _, d := range all {
		if d.Suppression == nil {
			out = append(out, d)
		}
	}
	s.diags, s.diagsDone = out, true
	return out, nil
}

// located is where a chunk's positions are in its file.
type located struct {
	h    *fileHandle
	base int // the chunk's byte offset in the file
}

// locate returns the handle of the file that holds a parsed document, and
// where the document starts in it.
func (s *Snapshot) locate(f *manifest.File) (*fileHandle, int) {
	s.Workspace()
	l, ok := s.byTok[f.Tok]
	if !ok {
		return nil, 0
	}
	return l.h, l.base
}

// span returns the file holding a position range and its byte offsets in
// that file. An end outside the start's document is taken as the start.
func (s *Snapshot) span(pos, end token.Pos) (*fileHandle, int, int) {
	f := s.Workspace().FileOf(pos)
	if f == nil {
		return nil, 0, 0
	}
	h, base := s.locate(f)
	if h == nil {
		return nil, 0, 0
	}
	tf := f.Tok
	start := tf.Offset(pos)
	stop := start
	if end.IsValid() && end >= pos && int(end) <= tf.Base()+tf.Size() {
		stop = tf.Offset(end)
	}
	return h, base + start, base + stop
}

// fieldSpan returns the file and byte range of a field's value.
func (s *Snapshot) fieldSpan(o *manifest.Object, f manifest.Field) (*fileHandle, int, int) {
	h, base := s.locate(o.File())
	if h == nil || !f.IsValid() {
		return nil, 0, 0
	}
	tf := o.File().Tok
	return h, base + tf.Offset(f.Pos), base + tf.Offset(f.End)
}

// objectAt returns the object whose text holds a byte offset of a file,
// and the offset in the object's document (for contains).
func (s *Snapshot) objectAt(h *fileHandle, off int) (*manifest.Object, int) {
	for i := len(h.chunks) - 1; i >= 0; i-- {
		ch := h.chunks[i]
		if off >= ch.start {
			return objectAt(ch.file, off-ch.start), off - ch.start
		}
	}
	return nil, 0
}

// paths returns the snapshot's paths, sorted.
func (s *Snapshot) paths() []string {
	out := make([]string, 0, len(s.files))
	for p := range s.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
