package lsp

import (
	"bytes"
	"crypto/sha256"
	"go/token"
	"hash/maphash"
	"sync"
	"time"
	"unicode/utf8"

	"go.lsp.dev/uri"
	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// parseCache holds the parse of every document by path and content hash,
// so an edit re-parses only the edited document, and reverting an edit
// re-uses the earlier parse.
//
// Every parse allocates its token.File from one FileSet (alloc), which is
// used only to hand out disjoint position ranges; the file is removed from
// it at once, so it never grows. Each snapshot builds its own FileSet from
// the files it holds (token.FileSet.AddExistingFiles).
type parseCache struct {
	alloc *token.FileSet
	// limits are the configuration's (.scalelint.yaml limits), with
	// defaults; a change of them replaces the cache (Server.reconfigure).
	limits manifest.Limits
	opts   manifest.Options
	mu     sync.Mutex
	m      map[cacheKey]*parsed
	// byPath lists the parses of each path (each knows the rest of its
	// key: parsed.key), and touched the paths parsed since the last
	// retain: retain looks only at those, and at the paths whose handle
	// changed, not at the whole workspace.
	byPath  map[string][]*parsed
	touched map[string]bool
	held    fileSet // the files of the last retain
}

type cacheKey struct {
	path string
	hash [sha256.Size]byte
	// released: the parse of a file read from disk, whose node trees
	// are dropped once its objects' views are built (workspace.Prepare),
	// as the command line does: the index of a large workspace holds
	// positions and views, not trees. An open document's parse keeps
	// its trees, which its requests (hover, code actions, completion)
	// read; a tree asked of a released document is parsed again
	// (manifest.Document.Root).
	released bool
	// at is where the document starts in its file when its text is
	// dropped too (diskHandle: read again from there on demand), else -1.
	at int
}

// newParseCache returns an empty cache that parses with the CLI's
// options: autoscalers and workloads parsed eagerly, other documents when
// a scale target names their kind, within limits (zero fields: defaults).
// The time limit is the CLI loader's, per document.
func newParseCache(limits manifest.Limits) *parseCache {
	limits = limits.WithDefaults()
	return &parseCache{alloc: token.NewFileSet(), limits: limits,
		opts: manifest.Options{Eager: manifest.IsReadKind, Limits: limits},
		m:    map[cacheKey]*parsed{}, byPath: map[string][]*parsed{}, touched: map[string]bool{}}
}

// get returns the parse of content at path, parsing it on a miss; with
// release, its trees dropped (cacheKey.released); with at >= 0 (release
// only), its text too, read again from offset at of the file on demand
// (cacheKey.at).
func (c *parseCache) get(path string, content []byte, release bool, at int) *parsed {
	key := cacheKey{path, sha256.Sum256(content), release, at}
	c.mu.Lock()
	p := c.m[key]
	c.mu.Unlock()
	if p != nil {
		return p
	}
	opts := c.opts
	// The CLI's time limit, per document parsed (the node and size
	// limits bound the work too).
	opts.Deadline = time.Now().Add(c.limits.Timeout)
	f := manifest.Parse(c.alloc, path, content, opts)
	c.alloc.RemoveFile(f.Tok)
	// manifest.File builds its yaml.v3 line table on the first position
	// query, without a lock, and rules query positions concurrently: build
	// it here, before the file is shared.
	f.Offset(&yaml.Node{Line: 1, Column: 1})
	if release {
		workspace.Prepare(f, true)
	}
	if release && at >= 0 {
		f.DropText(c.reload(path, at, len(content)), true)
	}
	p = &parsed{hash: key.hash, released: release, at: at, file: f}
	c.mu.Lock()
	if q := c.m[key]; q != nil {
		p = q // a concurrent parse won
	} else {
		c.m[key] = p
		c.byPath[path] = append(c.byPath[path], p)
	}
	c.touched[path] = true
	c.mu.Unlock()
	return p
}

// retain drops every entry that the snapshot's files do not hold: old
// versions of edited documents, deleted files. Only the paths parsed since
// the last retain, or whose handle changed since, can hold such entries.
func (c *parseCache) retain(files fileSet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	paths := c.touched
	c.touched = map[string]bool{}
	// Over the same disk index, only the open documents can differ.
	for _, p := range changedFileSetPaths(c.held, files) {
		paths[p] = true
	}
	c.held = files
	for p := range paths {
		keep := map[*parsed]bool{}
		if h := files.get(p); h != nil {
			for _, ch := range h.chunks {
				keep[ch.parsed] = true
			}
		}
		var kept []*parsed
		for _, q := range c.byPath[p] {
			if keep[q] {
				kept = append(kept, q)
			} else {
				delete(c.m, q.key(p))
			}
		}
		if len(kept) > 0 {
			c.byPath[p] = kept
		} else {
			delete(c.byPath, p)
		}
	}
}

// reload returns the reader of a dropped document's text: n bytes at
// offset at of the file at path, read again (manifest.File.DropText checks
// them against what was parsed).
func (c *parseCache) reload(path string, at, n int) func() ([]byte, error) {
	limit := int64(c.limits.MaxFileSize)
	return func() ([]byte, error) {
		data, err := workspace.ReadLimited(path, limit)
		if err != nil {
			return nil, err
		}
		if at+n > len(data) {
			return data[:0], nil // shorter than parsed: DropText's check reports it
		}
		if at == 0 && n == len(data) {
			return data, nil
		}
		return bytes.Clone(data[at : at+n]), nil
	}
}

// chunks parses a file's text one document at a time, through the cache.
// The documents are the core's own split (manifest.Parse with SplitOnly).
// With drop (release only), the documents' texts are dropped
// (cacheKey.at).
func (c *parseCache) chunks(path string, content []byte, release, drop bool) []chunk {
	at := func(start int) int {
		if drop {
			return start
		}
		return -1
	}
	whole := func() []chunk { return []chunk{{start: 0, parsed: c.get(path, content, release, at(0))}} }
	if len(content) > c.limits.MaxFileSize || manifest.MayHoldTemplate(content) || bytes.IndexByte(content, 0) >= 0 ||
		bytes.HasPrefix(content, []byte{0xFF, 0xFE}) || bytes.HasPrefix(content, []byte{0xFE, 0xFF}) {
		return whole() // a template, or what the parser's limits see as a whole
	}
	// A file that may be a template went whole above (template detection
	// is the file's), so the split needs none, and parses nothing.
	split := manifest.Parse(c.alloc, path, content, manifest.Options{SplitOnly: true, Limits: c.limits})
	c.alloc.RemoveFile(split.Tok)
	if len(split.Docs) <= 1 || len(split.Docs) >= c.limits.MaxDocuments {
		return whole()
	}
	out := make([]chunk, len(split.Docs))
	for i, d := range split.Docs {
		out[i] = chunk{start: d.Start, parsed: c.get(path, content[d.Start:d.End], release, at(d.Start))}
	}
	return out
}

// linted reports whether a file is linted: not a configuration file, and
// a Kubernetes manifest (some document of it is an object, or looks like
// one: manifest.File.NotManifest), as the command line decides for a
// file. Editor settings, CI workflows and chart values are not.
func (h *fileHandle) linted() bool {
	if isConfigPath(h.path) {
		return false
	}
	for _, ch := range h.chunks {
		if ch.file.NotManifest() == "" {
			return true
		}
	}
	return len(h.chunks) == 0
}

// newHandle parses a file's text into a handle, keeping the text.
func (c *parseCache) newHandle(path string, u uri.URI, version int32, open bool, content []byte) *fileHandle {
	return &fileHandle{path: path, uri: u, version: version, open: open, content: content, size: len(content),
		chunks: c.chunks(path, content, !open, false)}
}

// diskHandle parses the text of a file just read from disk into a handle.
//
// A file read from disk keeps neither its text nor its documents' (as the
// command line does, manifest.File.DropText), nor a line table: in a
// workspace of 10,000 services the texts are most of what the index would
// otherwise hold, and the line tables of its 34,000 files 9 MB, for the
// fifth of them that ever have a finding to place. What needs one again
// (a finding's place: fileHandle.Mapper; a rule's fix, a render's
// dependency, a request on a file the editor has not opened) reads the
// text from disk, checked against the text parsed. A text that is not
// ASCII or breaks lines with "\r" is kept: its Mapper is built from it,
// as that of an open document. Open documents and configuration files
// keep theirs.
func (c *parseCache) diskHandle(path string, content []byte) *fileHandle {
	// No URI: uriOf makes it when the file is published (most never are).
	h := &fileHandle{path: path, content: content, size: len(content)}
	// A kustomization's text is kept: a chart's render groups ask each
	// whether it names helmCharts (Snapshot.mentions) whenever they are
	// made again, which would read every dropped one from disk.
	drop := !isConfigPath(path) && !workspace.IsKustomizationName(path) && asciiLF(content)
	h.chunks = c.chunks(path, content, true, drop)
	if drop && len(content) > 0 {
		h.sum = maphash.Bytes(textSeed, content)
		h.content = nil
	}
	return h
}

// asciiLF reports whether a text is ASCII and breaks lines with "\n"
// alone: a compact Mapper maps it without its text (Mapper.Compact).
func asciiLF(content []byte) bool {
	for _, c := range content {
		if c >= utf8.RuneSelf || c == '\r' {
			return false
		}
	}
	return true
}
