package lsp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"go/token"
	"hash/maphash"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"go.lsp.dev/protocol"
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
	// content is the file's text; nil for a file read from disk whose
	// text was dropped (parseCache.diskHandle): read it with text.
	content []byte
	size    int    // len of the text
	sum     uint64 // the text's hash, when dropped: text checks a new read against it
	chunks  []chunk

	// mapper is built on first use (Mapper): most files of a large
	// workspace are never shown, and have no finding to place; that of a
	// file whose text was dropped is compact, from its text read again.
	mapperOnce sync.Once
	mapper     *Mapper

	indexOnce sync.Once
	index     map[*manifest.File]int // chunk by parsed document (chunkOf)
}

// Mapper returns the file's UTF-16 position mapper, built on first use.
//
// A file whose text was dropped (parseCache.diskHandle) maps with the
// compact Mapper of its text read again. When the disk no longer holds the
// text indexed (text), the file changed since and its change is on the
// way, which replaces this handle: until then its offsets map as those of
// blanks of the size indexed, as manifest.File reads such a text again,
// all on the first line, never past the text's end.
func (h *fileHandle) Mapper() *Mapper {
	h.mapperOnce.Do(func() {
		if h.content != nil || h.size == 0 {
			h.mapper = NewMapper(h.content)
			return
		}
		text, ok := h.text()
		if !ok {
			text = bytes.Repeat([]byte{' '}, h.size)
		}
		h.mapper, _ = NewMapper(text).Compact()
	})
	return h.mapper
}

// text returns the file's text: its content, or, when it was dropped,
// the disk's read again; false when the disk's is no longer the text
// indexed (the file changed since: its change is on the way) or cannot be
// read.
func (h *fileHandle) text() ([]byte, bool) {
	if h.content != nil || h.size == 0 {
		return h.content, true
	}
	data, err := workspace.ReadLimited(h.path, int64(h.size))
	if err != nil || len(data) != h.size || maphash.Bytes(textSeed, data) != h.sum {
		return nil, false
	}
	return data, true
}

// textSeed keys the hash that checks a dropped text read again.
var textSeed = maphash.MakeSeed()

// chunkOf returns the index of the chunk whose parse is f. The map is built
// on the first lookup, so a handle no request asks about never pays for it,
// and a file of many documents is not scanned once per finding.
func (h *fileHandle) chunkOf(f *manifest.File) (int, bool) {
	if len(h.chunks) <= 8 {
		// Most files: a scan costs less than a map, kept for every
		// file with findings.
		for i, ch := range h.chunks {
			if ch.file == f {
				return i, true
			}
		}
		return 0, false
	}
	h.indexOnce.Do(func() {
		h.index = make(map[*manifest.File]int, len(h.chunks))
		for i, ch := range h.chunks {
			h.index[ch.file] = i
		}
	})
	i, ok := h.index[f]
	return i, ok
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
	hash     [sha256.Size]byte
	released bool // cacheKey.released
	at       int  // cacheKey.at
	file     *manifest.File
}

// key returns the parse cache's key of p, a parse of a document at path:
// the cache lists each path's parses (parseCache.byPath) without a copy
// of their keys, 64 bytes each, for every document of the workspace.
func (p *parsed) key(path string) cacheKey {
	return cacheKey{path, p.hash, p.released, p.at}
}

// A Snapshot is the immutable state of the workspace at one moment: every
// file (open documents over disk), the configuration, and, computed once
// on first use, the workspace index and the diagnostics. Handlers read a
// snapshot; only the server's change methods make new ones.
//
// A snapshot made after another whose diagnostics were complete derives
// both from it (incremental.go): the index by replacing the changed
// files' entries (workspace.With), the diagnostics by linting again only
// the files the change can reach and keeping the others'.
type Snapshot struct {
	id      uint64
	files   fileSet // by absolute path, excluded files left out
	cfg     *analyzer.Config
	cfgErr  error // the configuration file's error, reported on it
	folders []string
	root    workspace.RepositoryRoot // of the folders: GitOps paths are relative to it

	// indexing is the disk index being built when the snapshot was made
	// (nil: the index was complete): such a snapshot is not linted, and a
	// request reads it over the finished index (withIndex).
	indexing   *indexRun
	afterIndex bool // made when an index was done: its lint is logged
	rebaseOnce sync.Once
	rebased    *Snapshot

	// renderCache holds the render groups across snapshots (render.go);
	// groups are the snapshot's, rendering the files they read, both
	// computed once (renders).
	renderCache *renderCache
	rendersOnce sync.Once
	groups      []*renderGroup
	rendering   map[string]workspace.Rendering
	// renderInputs are the paths the groups' keys read, and renderGen
	// the disk generation of the keys (rendersAsBase): shared, never
	// written once made.
	renderInputs map[string]bool
	renderGen    uint64

	// base is the snapshot this one derives from (nil: none); it is
	// dropped once the diagnostics are computed, so that a chain of
	// snapshots is never kept alive.
	base atomic.Pointer[Snapshot]
	done atomic.Bool // the diagnostics are complete (a base may use them)
	// compute, for a snapshot whose findings come from a lint of the whole
	// workspace, is the context that lint runs in, whoever asks for it
	// first: its own lint, a newer snapshot deriving from it, a request.
	// A newer snapshot supersedes the publication of its findings, not
	// their computation; stopCompute ends it when no snapshot derives
	// from it any more (newSnapshotLocked).
	compute     context.Context
	stopCompute context.CancelFunc

	wsOnce      sync.Once
	ws          *workspace.Workspace
	incremental bool                        // ws was derived from base's (workspace.With)
	changed     map[string][]*manifest.File // the paths that differ from base's, and their files
	// changedFiles are the parsed documents of those paths, in base and
	// here.
	changedFiles map[*manifest.File]bool

	// shared holds what the snapshot's lint derives alike (the law
	// evaluations), for its hover and inlay hints to read (Shared).
	sharedOnce sync.Once
	shared     *analyzer.Shared

	diagMu    sync.Mutex
	diagsDone bool
	// relinted are the paths linted again when the findings were derived
	// from those of snapshot derivedFrom (nil: all were linted).
	relinted    map[string]bool
	derivedFrom uint64
	// plain are the findings of the snapshot's workspace by file path
	// ("" for none), the part a later snapshot derives from; byFile adds
	// the render groups' (renderDiagnostics).
	plain    diagMap
	byFile   diagMap // unsuppressed findings by file path ("" for none)
	flatOnce sync.Once
	flat     []analyzer.Diagnostic // byFile's, in path order (Diagnostics)

	// testHook is the server's when the snapshot was made: it gets
	// testHookFullLint when the whole workspace is linted.
	testHook func(ctx context.Context, method string)
}

// whole reports whether the snapshot's findings, once computed, come from
// a lint of the whole workspace: it has no base of its configuration to
// derive them from.
func (s *Snapshot) whole() bool {
	b := s.base.Load()
	return b == nil || b.cfg != s.cfg
}

// testHookFullLint is the method name testHook gets when a snapshot's
// findings are computed by linting the whole workspace (no base to derive
// them from).
const testHookFullLint = "scalelint/full-lint"

// fileDiags are one file's unsuppressed findings, sorted, and their
// protocol form. They are shared with the next snapshot when its change
// cannot reach the file: then the file, and every file its findings point
// into, are the same in both, and so is the protocol form.
type fileDiags struct {
	diags     []analyzer.Diagnostic
	protoOnce sync.Once
	proto     []protocol.Diagnostic
}

// File returns the handle of a path, or nil.
func (s *Snapshot) File(path string) *fileHandle { return s.files.get(path) }

// ruleKinds are the kinds rules read beyond autoscalers and targets: the
// workspace parses them as it is built, so that it never changes after
// (workspace.Options.Kinds).
var ruleKinds = func() []string {
	var out []string
	for _, a := range rules.All() {
		out = append(out, a.Kinds...)
	}
	return out
}()

// Workspace returns the workspace index of the snapshot's files, built on
// first use: from the base's by replacing the changed files, or from
// scratch.
func (s *Snapshot) Workspace() *workspace.Workspace {
	s.wsOnce.Do(func() {
		s.renders() // which files the renders read, before the index leaves them out
		b := s.base.Load()
		if b != nil {
			b.Workspace() // it may be being built, by its own lint
		}
		if b != nil && namespaceKey(b.cfg) == namespaceKey(s.cfg) && maps.Equal(b.rendering, s.rendering) {
			s.deriveWorkspace(b)
			return
		}
		fset := token.NewFileSet()
		var files []*manifest.File
		var toks []*token.File
		for _, p := range s.paths() {
			for _, f := range s.chunkFiles(p) {
				files = append(files, f)
				toks = append(toks, f.Tok)
			}
		}
		fset.AddExistingFiles(toks...)
		s.ws = workspace.New(fset, files, s.workspaceOptions())
	})
	return s.ws
}

// workspaceOptions are the options of the snapshot's workspace: the
// default namespace of each file's configuration, GitOps paths resolved
// against the repository root of the workspace folders, the kinds rules
// read.
func (s *Snapshot) workspaceOptions() workspace.Options {
	cfg := s.cfg
	return workspace.Options{DefaultNamespace: cfg.Namespace, Kinds: ruleKinds, RepositoryRoot: s.root.Dir, RepositoryURLs: s.root.URLs,
		NamespaceOf: func(f *manifest.File) string { return cfg.For(f.Path).Namespace }, Rendered: s.renderingOf}
}

// namespaceKey identifies the namespaces of a configuration and of the
// files it scopes: a workspace derives from another's only when they
// place objects alike.
func namespaceKey(c *analyzer.Config) string {
	var b strings.Builder
	for _, f := range append([]*analyzer.Config{c}, c.ScopedConfigs()...) {
		b.WriteString(f.Path + "\x00" + f.Namespace + "\x01")
	}
	return b.String()
}

// Shared returns what the snapshot's lint derives alike (the law
// evaluations), made on first use: the lint and the requests that show its
// numbers read one evaluation per autoscaler.
func (s *Snapshot) Shared() *analyzer.Shared {
	s.sharedOnce.Do(func() { s.shared = analyzer.NewShared() })
	return s.shared
}

// Diagnostics returns the findings of the one engine (analyzer.Run, as in
// the CLI) over the snapshot, without the suppressed ones, sorted by file
// path and position. They are computed once; a cancelled computation is
// not kept.
func (s *Snapshot) Diagnostics(ctx context.Context) ([]analyzer.Diagnostic, error) {
	byFile, err := s.fileDiagnostics(ctx)
	if err != nil {
		return nil, err
	}
	s.flatOnce.Do(func() {
		var paths []string
		byFile.each(func(p string, _ *fileDiags) { paths = append(paths, p) })
		slices.Sort(paths)
		for _, p := range paths {
			s.flat = append(s.flat, byFile.get(p).diags...)
		}
	})
	return s.flat, nil
}

// fileDiagnostics returns the unsuppressed findings by file path: those of
// the files the change from the base can reach linted again, the others
// the base's; or, without a usable base, all linted.
func (s *Snapshot) fileDiagnostics(ctx context.Context) (diagMap, error) {
	s.diagMu.Lock()
	defer s.diagMu.Unlock()
	if s.diagsDone {
		return s.byFile, nil
	}
	if s.compute != nil && s.compute.Err() == nil {
		ctx = s.compute // see compute; once stopped, the caller's
	}
	if err := ctx.Err(); err != nil {
		return diagMap{}, err
	}
	b := s.base.Load()
	if b != nil && !b.done.Load() {
		// The base lints the whole workspace: wait for it, then lint
		// again only what changed since. Should its lint stop (nothing
		// else derives from it), lint everything.
		if _, err := b.fileDiagnostics(ctx); err != nil {
			if err := ctx.Err(); err != nil {
				return diagMap{}, err
			}
			s.base.Store(nil)
			b = nil
		}
	}
	ws := s.Workspace()
	var byFile diagMap
	linted := false
	if b != nil && s.incremental && b.cfg == s.cfg {
		if relint, ok := s.relintPaths(b); ok {
			in := func(p string) bool { return relint[p] }
			view := ws.Focus(slices.Collect(maps.Keys(relint)))
			fresh := groupByFile(ws, analyzer.RunWith(ctx, view, rules.All(), s.cfg, s.Shared()), in)
			drop := maps.Clone(relint)
			drop[""] = true
			byFile, linted = b.plain.with(drop, fresh), true
			s.relinted, s.derivedFrom = relint, b.id
		}
	}
	if !linted {
		if s.testHook != nil {
			s.testHook(ctx, testHookFullLint)
		}
		byFile = newDiagMap(groupByFile(ws, analyzer.RunWith(ctx, ws, rules.All(), s.cfg, s.Shared()), nil))
	}
	if err := ctx.Err(); err != nil {
		return diagMap{}, err // some rules may not have run
	}
	s.plain = byFile
	if s.relinted != nil {
		// The renders an edit changed may move findings in files it did
		// not touch (a values edit clears the template's).
		relinted := maps.Clone(s.relinted)
		maps.Copy(relinted, renderPaths(b, s))
		s.relinted = relinted
	}
	s.byFile, s.diagsDone = s.renderDiagnostics(byFile), true
	s.done.Store(true)
	s.base.Store(nil)
	return s.byFile, nil
}

// groupByFile keeps the unsuppressed findings, by the path of their file
// ("" for none), of the paths in keeps (every path when nil). Each file's
// findings keep the run's order.
func groupByFile(ws *workspace.Workspace, all []analyzer.Diagnostic, keep func(string) bool) map[string]*fileDiags {
	out := map[string]*fileDiags{}
	for _, d := range all {
		if d.Suppression != nil {
			continue
		}
		p := ""
		if f := ws.FileOf(d.Pos); f != nil {
			p = f.Path
		}
		if p != "" && keep != nil && !keep(p) {
			continue
		}
		fd := out[p]
		if fd == nil {
			fd = &fileDiags{}
			out[p] = fd
		}
		fd.diags = append(fd.diags, d)
	}
	return out
}

// locate returns the handle of the file that holds a parsed document, and
// where the document starts in it.
func (s *Snapshot) locate(f *manifest.File) (*fileHandle, int) {
	h := s.files.get(f.Path)
	if h == nil {
		return nil, 0
	}
	if i, ok := h.chunkOf(f); ok {
		return h, h.chunks[i].start
	}
	return nil, 0
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
	p, _ := s.files.paths()
	return p
}
