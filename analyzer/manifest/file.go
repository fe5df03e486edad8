package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest/internal/fastyaml"
	"github.com/scalelint/scalelint/analyzer/manifest/lines"
)

// File is one parsed file: its bytes, its position table and its documents.
// A File is immutable once Parse returns, except that documents the parser
// skipped are parsed on first use (Document.Objects), once, safely for
// concurrent callers.
type File struct {
	Path string // the path as given (relative stays relative)
	Tok  *token.File
	Docs []*Document

	// Template is set when the file holds template syntax (Helm/Go,
	// Jinja, Terraform, ${VAR} placeholders, pipeline tokens) that makes
	// it unparsable or untypeable: it was reported once (template-file)
	// and not linted.
	Template bool

	// The flags are together, with Template, in one word: a run holds
	// a File for every file it read (34,000 at 10,000 services).
	dropLines bool // DropText dropped the token.File's line table too
	recycle   bool // the texts read again are recycled memory (DropTextInto)
	mentions  bool // the text holds "scalelint:" (MentionsScalelint)
	ascii     bool // the dropped text was all ASCII (see packed)
	refused   atomic.Bool

	// notManifest says why the file is not a Kubernetes manifest (no
	// document is or looks like an object); "" when it is one.
	notManifest string

	// opts are what a later parse of a document needs (Limits, Recycle,
	// RenderedOutput), shared by the files parsed alike (sharedOptions).
	opts      *Options
	yamlLines atomic.Pointer[[]int] // line starts as yaml.v3 counts lines (yamlLineStarts)

	mu       sync.Mutex
	problems []Problem // file-level problems (template-file, limits)

	// nodes counts the node bounds of the documents parsed (MaxFileNodes);
	// refused is set once the budget or the time ran out: documents not
	// parsed by then are not (refuse).
	nodes atomic.Int64

	text atomic.Pointer[[]byte] // the content; nil after DropText until Text reads it again
	// packed is the line table, packed (1-2 bytes a line where the
	// table takes 8), kept when DropText drops the table: with ascii,
	// Position needs no text, so the output of a run that dropped
	// thousands of texts does not read each file with a finding again.
	packed  *lines.Packed
	textMu  sync.Mutex // serializes reading it again
	sum     uint64     // of the content, to check what is read again
	reload  func(buf []byte) ([]byte, error)
	textErr error

	pathOnce  sync.Once
	slashPath string
}

// Options tunes parsing. The zero value parses every document.
type Options struct {
	// Eager reports whether a document whose sniffed apiVersion and kind
	// are given must be parsed now. Documents it declines are parsed on
	// first use. Nil parses every document.
	Eager func(apiVersion, kind string) bool
	// SplitOnly splits the file into documents and sniffs their kinds, and
	// parses none of them, not even to check their syntax: for a caller
	// that parses each document on its own (the language server's cache).
	SplitOnly bool
	// Limits bound the work one file may cause; zero fields take defaults.
	Limits Limits
	// Recycle says the caller releases each file once it has read it
	// (File.Release): the node memory of a released document is then
	// reused by the next parse instead of left to the garbage collector.
	Recycle bool
	// RenderedOutput says the text is what a renderer wrote (a Helm
	// chart's value set, a kustomize build): template syntax left in it is
	// text (a configuration's own templating, such as kube-rbac-proxy's
	// "{{ .Value }}" in a chart, or "{{PROJECT_ID}}" in a ConfigMap that
	// kustomize writes as a quoted multi-line string), never a template
	// to render, wherever the file's path puts it.
	RenderedOutput bool
	// Deadline, when set, is when Parse stops: the documents it has not
	// parsed by then are refused with an input-limit problem (the time
	// limit, Limits.Timeout). A document parsed later, on first use, is
	// not bound by it.
	Deadline time.Time
}

// Limits bound what a hostile file can make the parser do.
type Limits struct {
	MaxFileSize  int // bytes; default 10 MiB
	MaxDocuments int // default 10,000
	MaxDepth     int // nesting of collections; default 256
	MaxNodes     int // nodes emitted while expanding aliases for one object; default 1,000,000
	// MaxFileNodes bounds the YAML nodes (keys, values, items) of one
	// file's trees, counted before they are built (fastyaml.NodeBound, an
	// upper bound about a fifth above the truth on block YAML, exact on
	// JSON): the memory a file's trees may take. Default 2,000,000.
	MaxFileNodes int
	// Timeout bounds the time to read and parse one file (default 10 s):
	// Parse stops at the next document once Options.Deadline passes, and
	// the loader refuses a file that takes longer (workspace.Load).
	Timeout time.Duration
}

// Default limits, when a Limits field is zero.
const (
	DefaultMaxFileSize  = 10 << 20
	DefaultMaxDocuments = 10000
	DefaultMaxDepth     = 256
	DefaultMaxNodes     = 1000000
	DefaultMaxFileNodes = 2000000
	DefaultTimeout      = 10 * time.Second
)

// WithDefaults returns the limits with every zero field set to its default.
func (l Limits) WithDefaults() Limits { return l.withDefaults() }

func (l Limits) withDefaults() Limits {
	if l.MaxFileSize <= 0 {
		l.MaxFileSize = DefaultMaxFileSize
	}
	if l.MaxDocuments <= 0 {
		l.MaxDocuments = DefaultMaxDocuments
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxNodes <= 0 {
		l.MaxNodes = DefaultMaxNodes
	}
	if l.MaxFileNodes <= 0 {
		l.MaxFileNodes = DefaultMaxFileNodes
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	return l
}

// Problem is something wrong with the input itself, found while parsing
// or decoding. The structural rules report problems as diagnostics.
type Problem struct {
	Rule       string    // yaml-syntax, invalid-field, invalid-annotation, template-file, input-limit
	Pos, End   token.Pos // the offending text
	Message    string
	Object     *Object // the object it belongs to, if any
	Suggestion string  // replacement text for a safe fix, if any
}

// Document is one YAML document of a file.
type Document struct {
	File       *File
	Index      int    // 0-based position in the file
	Start, End int    // byte range in the file, marker line included
	Line       int    // first line
	Source     string // path from a "# Source: path" comment (helm template output)
	APIVersion string // sniffed or parsed
	Kind       string

	once     sync.Once
	parsed   atomic.Bool
	root     *yaml.Node // the document's content node; nil when empty or invalid
	objects  []*Object
	problems []Problem

	// bom is the file offset of a byte order mark that starts the line
	// after the document's "---" line, or -1 (see chunk.bom).
	bom, bomLine int

	mu       sync.Mutex      // guards root and the objects' nodes after parsing
	released bool            // the node trees were dropped (Release)
	arena    *fastyaml.Arena // the tree's node memory, returned on Release (Options.Recycle)
}

// Parse parses the bytes of one file. It never panics and always returns a
// File: errors are recorded as problems at their position.
func Parse(fset *token.FileSet, path string, content []byte, opts Options) *File {
	opts.Limits = opts.Limits.withDefaults()
	if len(content) > opts.Limits.MaxFileSize {
		return Refuse(fset, path, content, opts, fmt.Sprintf("file is over the size limit of %d bytes; not linted", opts.Limits.MaxFileSize))
	}
	f := newFile(fset, path, content, opts)

	if msg, off := binaryContent(content); msg != "" {
		f.addProblem(Problem{Rule: "yaml-syntax", Pos: f.Tok.Pos(off), End: f.Tok.Pos(off), Message: msg})
		return f
	}
	sniffStart := startTiming()
	chunks := splitDocuments(content)
	if len(chunks) == 1 {
		if js := jsonStream(content); js != nil {
			chunks = js
		}
	}
	if len(chunks) > opts.Limits.MaxDocuments {
		c := chunks[opts.Limits.MaxDocuments]
		f.addProblem(Problem{Rule: "input-limit", Pos: f.Tok.Pos(c.start), End: f.Tok.Pos(c.start),
			Message: fmt.Sprintf("file has %d documents, over the limit of %d; the rest are not linted", len(chunks), opts.Limits.MaxDocuments)})
		chunks = chunks[:opts.Limits.MaxDocuments]
	}
	// A file that holds anything scalelint reads is parsed in full, so
	// every syntax error in it is reported; a file of other kinds only
	// (Services, ConfigMaps) is sniffed, its syntax checked (below), and
	// parsed if a scale target names one of its kinds.
	eager := opts.Eager == nil
	for i, c := range chunks {
		d := &Document{File: f, Index: i, Start: c.start, End: c.end, Line: c.line, bom: c.bom, bomLine: c.bomLine}
		d.Source = sourceComment(content[c.start:c.end])
		s := sniff(content[c.start:c.end])
		d.APIVersion, d.Kind = s.apiVersion, s.kind
		f.Docs = append(f.Docs, d)
		if !s.ok || (opts.Eager != nil && (opts.Eager(s.apiVersion, s.kind) || eagerMention(s.kind, content[c.start:c.end]))) {
			eager = true
		}
	}
	f.checkMarks(chunks)
	addTiming(&tSniff, sniffStart)
	if opts.SplitOnly {
		return f
	}
	if eager {
		for _, d := range f.Docs {
			if !opts.Deadline.IsZero() && time.Now().After(opts.Deadline) {
				f.refuse(fmt.Sprintf("reading and parsing the file took longer than the time limit of %s; this document and the rest are not linted", opts.Limits.Timeout), d.Start)
				break
			}
			d.parse()
		}
	} else {
		for _, d := range f.Docs {
			d.checkSyntax()
		}
	}
	f.detectTemplate()
	f.notManifest = f.classify()
	if !f.Template {
		f.checkPortability()
	}
	return f
}

// checkMarks reports a byte order mark that starts a line inside a
// document before a key or an entry: yaml.v3 and kubectl read it as text, so "\ufeffkind: HPA"
// has no kind and the object would be skipped without a word. Marks that
// readers drop (at the start of the file, and after a "---" line:
// chunk.bom) are not reported.
func (f *File) checkMarks(chunks []chunk) {
	src := f.Text()
	dropped := map[int]bool{}
	for _, c := range chunks {
		if c.bom >= 0 {
			dropped[c.bom] = true
		}
	}
	for i := 0; ; {
		k := bytes.Index(src[i:], bom)
		if k < 0 {
			return
		}
		at := i + k
		i = at + len(bom)
		if at == 0 || dropped[at] || (src[at-1] != '\n' && src[at-1] != '\r') {
			continue
		}
		end, _ := lineBounds(src, i, true)
		if !opensBlock(src[i:end]) {
			continue // text of a scalar, where the mark is a character like any other
		}
		f.addProblem(Problem{Rule: "yaml-syntax", Pos: f.Tok.Pos(at), End: f.Tok.Pos(at + len(bom)),
			Message: "byte order mark (U+FEFF) at the start of a line inside a document: YAML reads it as text (\"\ufeffkind\" is not kind), so kubectl does too; remove it"})
	}
}

// NotManifest says why a file is not a Kubernetes manifest: no document
// of it is a Kubernetes object (it has apiVersion and kind) or, where it
// does not parse, looks like one (those keys at a document's top level),
// and it is not a kustomization or a chart template. JSON with comments,
// tsconfig files, CI workflows, Compose files, Chart.yaml and values.yaml
// are not; the command line sets them aside instead of linting them (its
// callers decide: a language server sets aside a path none of whose
// documents is one). It returns "" for a manifest.
func (f *File) NotManifest() string { return f.notManifest }

// IsRenderedOutput reports whether the text is what a renderer wrote
// (Options.RenderedOutput): its lines are not those of a file the user
// edits, so a message must not cite them.
func (f *File) IsRenderedOutput() bool { return f.opts != nil && f.opts.RenderedOutput }

// classify returns why the file is not a manifest, or "".
func (f *File) classify() string {
	if IsKustomizationName(f.Path) || (f.Template && inChartTemplates(f.Path) && f.mayRenderObjects()) {
		return ""
	}
	for _, d := range f.Docs {
		if d.looksLikeObject() {
			return ""
		}
	}
	for _, p := range f.Problems() {
		if p.Rule == "input-limit" {
			return "" // refused in part: what it holds is not known, and the refusal must show
		}
	}
	for _, d := range f.Docs {
		if d.End > d.Start && hasContent(f.Text()[d.Start:d.End]) {
			return "no document has apiVersion and kind: not a Kubernetes object"
		}
	}
	return "empty: no YAML document"
}

// mayRenderObjects reports whether a template may render Kubernetes
// objects where its text holds no apiVersion and kind: some document's
// top level is written by template actions alone (a chart's
// "{{ range .Values.extraObjects }}"), or among its literal top-level keys
// is one every object has. A document whose literal top level is other
// keys only, or a sequence, renders that, whatever its actions add: a CI
// pipeline's "steps:" in a directory that happens to be named templates.
func (f *File) mayRenderObjects() bool {
	for _, d := range f.Docs {
		if d.End > d.Start && mayRenderObject(f.Text()[d.Start:d.End]) {
			return true
		}
	}
	return false
}

// mayRenderObject reports whether a template document's literal top
// level (its lines at column 0 that are not actions) leaves room for a
// Kubernetes object: none, or apiVersion, kind or metadata among them.
func mayRenderObject(doc []byte) bool {
	literal := false
	for _, l := range bytes.Split(doc, []byte("\n")) {
		l = bytes.TrimRight(bytes.TrimPrefix(l, bom), "\r")
		switch {
		case hasKeyPrefix(l, "apiVersion") || hasKeyPrefix(l, "kind") || hasKeyPrefix(l, "metadata"):
			return true
		case bytes.Equal(l, []byte("-")) || bytes.HasPrefix(l, []byte("- ")) || topLevelKeyRe.Match(l):
			literal = true
		}
	}
	return !literal
}

// topLevelKeyRe matches a line that is a block mapping's key at column 0:
// a plain or quoted key, then a colon ending the line or before a blank.
var topLevelKeyRe = regexp.MustCompile(`^(?:[A-Za-z0-9_][^:#{}]*|"[^"]*"|'[^']*'):(?:[ \t]|$)`)

// hasContent reports whether a document holds a line of YAML content.
func hasContent(doc []byte) bool {
	for _, l := range bytes.Split(doc, []byte("\n")) {
		if hasText(l) && !isMarker(bytes.TrimRight(l, "\r"), '-') {
			return true
		}
	}
	return false
}

// looksLikeObject reports whether a document is a Kubernetes object or
// reads as one: parsed, an object with apiVersion and kind, or with an
// autoscaler's kind or group where the other key is missing or misspelled
// (reported by the decode); unparsed, those keys sniffed; broken or a
// template, both keys at the top level of its text.
func (d *Document) looksLikeObject() bool {
	if d.APIVersion != "" && d.Kind != "" {
		return true
	}
	if d.Parsed() && d.root != nil && !d.File.Template {
		for _, o := range d.objects {
			_, kind := autoscalerKinds[o.Kind]
			_, group := autoscalerGroups[o.Group]
			if (o.APIVersion != "" && o.Kind != "") || kind || group {
				return true
			}
		}
		return false
	}
	return topLevelKeys(d.File.Text()[d.Start:d.End])
}

// topLevelKeys reports whether a document's text has apiVersion and kind
// keys at its top level: at column 0 in block style, or as quoted keys in
// JSON.
func topLevelKeys(doc []byte) bool {
	var api, kind bool
	for _, l := range bytes.Split(doc, []byte("\n")) {
		l = bytes.TrimPrefix(l, bom)
		switch {
		case hasKeyPrefix(l, "apiVersion"):
			api = true
		case hasKeyPrefix(l, "kind"):
			kind = true
		}
	}
	if !api || !kind {
		t := bytes.TrimSpace(doc)
		if len(t) > 0 && (t[0] == '{' || t[0] == '[') {
			api = jsonKeyRe("apiVersion").Match(doc)
			kind = jsonKeyRe("kind").Match(doc)
		}
	}
	return api && kind
}

// hasKeyPrefix reports whether a line starts with key (bare or quoted)
// and a colon.
func hasKeyPrefix(l []byte, key string) bool {
	for _, q := range []string{"", `"`, "'"} {
		k := q + key + q
		if bytes.HasPrefix(l, []byte(k)) {
			rest := bytes.TrimLeft(l[len(k):], " \t")
			return len(rest) > 0 && rest[0] == ':'
		}
	}
	return false
}

var jsonKeyRes sync.Map // key -> *regexp.Regexp

func jsonKeyRe(key string) *regexp.Regexp {
	if r, ok := jsonKeyRes.Load(key); ok {
		return r.(*regexp.Regexp)
	}
	r := regexp.MustCompile(`"` + key + `"\s*:`)
	jsonKeyRes.Store(key, r)
	return r
}

// inChartTemplates reports whether a path is in a Helm chart's templates
// directory, where a template of manifests may hold no literal apiVersion.
func inChartTemplates(p string) bool {
	return strings.Contains("/"+filepath.ToSlash(p), "/templates/")
}

// IsKustomizationName reports whether a file name is one kustomize reads
// as a kustomization.
func IsKustomizationName(p string) bool {
	switch filepath.Base(p) {
	case "kustomization.yaml", "kustomization.yml", "Kustomization":
		return true
	}
	return false
}

// Refuse returns a file scalelint does not lint, with one input-limit
// problem at its start saying why: over the size limit, or (the loader)
// taking longer than the time limit to parse.
func Refuse(fset *token.FileSet, path string, content []byte, opts Options, why string) *File {
	opts.Limits = opts.Limits.withDefaults()
	f := newFile(fset, path, content, opts)
	f.addProblem(Problem{Rule: "input-limit", Pos: f.Tok.Pos(0), End: f.Tok.Pos(0), Message: why})
	return f
}

// newFile returns a File holding content, with its line table and no
// documents yet.
func newFile(fset *token.FileSet, path string, content []byte, opts Options) *File {
	f := &File{Path: path, opts: sharedOptions(opts), mentions: bytes.Contains(content, []byte("scalelint:"))}
	f.text.Store(&content)
	f.Tok = fset.AddFile(path, -1, len(content))
	f.Tok.SetLines(appendLineStarts(lineTable(), content))
	return f
}

// optionsKey is what a File keeps of its Options.
type optionsKey struct {
	limits                  Limits
	recycle, renderedOutput bool
}

var fileOptions sync.Map // optionsKey -> *Options

// sharedOptions returns the Options a File keeps, one copy for every file
// parsed alike: a parse on first use reads their limits and flags, never
// Eager or SplitOnly (Parse's alone), nor Deadline (Parse's alone: a
// later parse is not bound by it).
func sharedOptions(opts Options) *Options {
	k := optionsKey{opts.Limits, opts.Recycle, opts.RenderedOutput}
	if o, ok := fileOptions.Load(k); ok {
		return o.(*Options)
	}
	o, _ := fileOptions.LoadOrStore(k, &Options{Limits: k.limits, Recycle: k.recycle, RenderedOutput: k.renderedOutput})
	return o.(*Options)
}

// binaryContent reports why content is not text a YAML parser should see:
// NUL bytes or a UTF-16 or UTF-32 byte order mark. It returns "" for text.
func binaryContent(content []byte) (string, int) {
	switch {
	// UTF-32's marks first: little-endian's starts with UTF-16's.
	case bytes.HasPrefix(content, []byte{0xFF, 0xFE, 0, 0}) || bytes.HasPrefix(content, []byte{0, 0, 0xFE, 0xFF}):
		return "file is UTF-32 encoded; scalelint reads UTF-8 manifests (re-encode it as UTF-8)", 0
	case bytes.HasPrefix(content, []byte{0xFF, 0xFE}) || bytes.HasPrefix(content, []byte{0xFE, 0xFF}):
		return "file is UTF-16 encoded; scalelint reads UTF-8 manifests (re-encode it as UTF-8)", 0
	}
	if i := bytes.IndexByte(content, 0); i >= 0 {
		return "file contains a NUL byte: it is binary, not YAML", i
	}
	return "", 0
}

var sourceRe = regexp.MustCompile(`(?m)^#\s*Source:\s*(\S+)\s*$`)

// sourceComment returns the path of the "# Source: path" comment that
// helm template prints at the top of every document it renders.
func sourceComment(doc []byte) string {
	// Only the lines before the content count; helm puts the comment first.
	end := len(doc)
	for i := 0; i < len(doc); {
		j := bytes.IndexByte(doc[i:], '\n')
		next := len(doc)
		if j >= 0 {
			next = i + j + 1
		}
		line := doc[i:next]
		if hasText(line) && !isMarker(bytes.TrimRight(line, "\r\n"), '-') {
			end = i
			break
		}
		i = next
	}
	// The literal first: most files have a comment at the top, few
	// helm's (the expression ran over every file's comments).
	if !bytes.Contains(doc[:end], []byte("Source:")) {
		return ""
	}
	if m := sourceRe.FindSubmatch(doc[:end]); m != nil {
		return string(m[1])
	}
	return ""
}

// refuse records that the file's documents from d on are not parsed (the
// node budget or the time ran out), with one input-limit problem at off.
// A document already parsed keeps its parse.
func (f *File) refuse(why string, off int) {
	if f.refused.Swap(true) {
		return
	}
	f.addProblem(Problem{Rule: "input-limit", Pos: f.Tok.Pos(off), End: f.Tok.Pos(off), Message: why})
}

func (f *File) addProblem(p Problem) {
	f.mu.Lock()
	f.problems = append(f.problems, p)
	f.mu.Unlock()
}

// Problems returns the file's problems and those of every parsed document,
// in document order.
func (f *File) Problems() []Problem {
	f.mu.Lock()
	out := append([]Problem(nil), f.problems...)
	f.mu.Unlock()
	if f.Template {
		return out
	}
	for _, d := range f.Docs {
		if d.Parsed() {
			out = append(out, d.problems...)
		}
	}
	return out
}

// Parsed reports whether the document has been parsed, without
// parsing it.
func (d *Document) Parsed() bool { return d.parsed.Load() }

// Objects returns the document's objects (several for a List), parsing the
// document first if the parser skipped it.
func (d *Document) Objects() []*Object {
	d.parse()
	if d.File.Template {
		return nil
	}
	return d.objects
}

// Root returns the document's content node, or nil. After Release it
// returns a tree parsed again for the caller alone: positions are the
// same, node identity across calls is not.
func (d *Document) Root() *yaml.Node {
	d.parse()
	d.mu.Lock()
	root, released := d.root, d.released
	d.mu.Unlock()
	if released {
		root, _ = d.parseTree(nil)
	}
	return root
}

// Release drops the node trees of every parsed document of the file; the
// objects keep their Fields, typed decode and memoized views, and a tree
// asked for later is parsed again for that caller (Root). A workspace of
// thousands of files releases each file once it has read what rules need
// from it, so memory holds positions, not trees.
func (f *File) Release() {
	for _, d := range f.Docs {
		d.Release()
	}
}

// Release drops the document's node tree if it was parsed (File.Release).
func (d *Document) Release() {
	if !d.Parsed() {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.root == nil {
		d.arena.Recycle() // a tree yaml.v3 built after the fast parser declined
		d.arena = nil
		return
	}
	d.root = nil
	for _, o := range d.objects {
		o.node = nil
		o.releaseTyped()
	}
	d.released = true
	// Nothing holds a node of the tree now: views and problems keep
	// positions and copied strings, never nodes.
	d.arena.Recycle()
	d.arena = nil
}

// objectNode returns the mapping node of one of the document's objects in
// a tree parsed again (nil when the text no longer parses, which cannot
// happen for text that parsed once).
func (d *Document) objectNode(item int) *yaml.Node {
	root, err := d.parseTree(nil)
	if err != nil || root == nil {
		return nil
	}
	if item < 0 {
		return deref(root)
	}
	items := deref(mapValue(root, "items"))
	if items == nil || item >= len(items.Content) {
		return nil
	}
	return deref(items.Content[item])
}

// parseTree parses the document's text into its content node, with line
// numbers absolute in the file; nil for an empty document.
func (d *Document) parseTree(arena *fastyaml.Arena) (*yaml.Node, error) {
	f := d.File
	src, bomLine := d.source()
	// The fast parser reads the common subset of YAML about five times
	// faster than yaml.v3 and builds the same tree; anything outside the
	// subset, and every error, goes to yaml.v3.
	root, ok := fastyaml.Parse(src, arena)
	if !ok {
		root = &yaml.Node{}
		if err := safeUnmarshal(src, root); err != nil {
			return nil, err
		}
	}
	if len(root.Content) == 0 {
		return nil, nil
	}
	shiftLines(root, d.Line-1, 0, f.opts.Limits.MaxDepth)
	if bomLine > 0 {
		shiftColumns(root, bomLine, 1, 0, f.opts.Limits.MaxDepth)
	}
	return root.Content[0], nil
}

// source returns the text the document is parsed from: its bytes, without
// the byte order mark that starts its first line after the "---" line,
// if it has one (Document.bom), and then the line that mark was on.
func (d *Document) source() (src []byte, bomLine int) {
	text := d.File.Text()
	if d.bom < 0 {
		return text[d.Start:d.End], 0
	}
	src = make([]byte, 0, d.End-d.Start-len(bom))
	src = append(append(src, text[d.Start:d.bom]...), text[d.bom+len(bom):d.End]...)
	return src, d.bomLine
}

var yamlLineRe = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func (d *Document) parse() {
	d.once.Do(d.doParse)
}

// checkSyntax makes sure a document no rule reads is valid YAML, so a
// broken ConfigMap fails the run instead of passing in silence, without
// keeping its tree: the fast parser reads it into recycled memory, and
// only a document it declines (outside its subset, or invalid) is parsed
// for good, by yaml.v3, which reports the error at its line.
func (d *Document) checkSyntax() {
	if d.Parsed() {
		return
	}
	src, _ := d.source()
	if lim := d.File.opts.Limits.MaxFileNodes; fastyaml.NodesAtMost(len(src)) > int64(lim) {
		if n, over := fastyaml.NodeBound(src, lim); over > 0 || n > lim {
			d.parse() // refused there, with its position
			return
		}
	}
	var a fastyaml.Arena
	ok := fastyaml.Check(src, &a)
	a.Recycle()
	if !ok {
		d.parse()
	}
}

func (d *Document) doParse() {
	defer d.parsed.Store(true)
	f := d.File
	if f.refused.Load() {
		return
	}
	if !d.withinBudget() {
		return
	}
	if f.opts.Recycle {
		d.arena = &fastyaml.Arena{}
	}
	parseStart := startTiming()
	root, err := d.parseTree(d.arena)
	addTiming(&tParse, parseStart)
	if err != nil {
		d.problems = append(d.problems, d.syntaxProblem(err))
		return
	}
	if root == nil {
		return
	}
	d.root = root
	if deep := tooDeep(d.root, f.opts.Limits.MaxDepth); deep != nil {
		d.problems = append(d.problems, Problem{Rule: "input-limit", Pos: f.Pos(deep), End: f.Pos(deep),
			Message: fmt.Sprintf("document nests deeper than %d levels here; not linted", f.opts.Limits.MaxDepth)})
		d.root = nil
		return
	}
	decodeStart := startTiming()
	d.objects, d.problems = buildObjects(d, d.root, d.problems)
	addTiming(&tDecode, decodeStart)
	if len(d.objects) > 0 {
		api, kind := d.objects[0].APIVersion, d.objects[0].Kind
		if len(d.objects) > 1 || d.objects[0].ListItem >= 0 {
			api, kind = scalarValue(mapValue(d.root, "apiVersion")), scalarValue(mapValue(d.root, "kind"))
		}
		// Written only when the tree corrects what sniff read: a
		// document parsed on first use is shared by the language
		// server's snapshots, and one may read its Kind while another's
		// first use parses it. A document sniff could not read is
		// parsed as its file is read (Parse), before it is shared.
		if d.APIVersion != api {
			d.APIVersion = api
		}
		if d.Kind != kind {
			d.Kind = kind
		}
	}
}

// withinBudget counts the nodes the document's tree may have (an upper
// bound, before a node is built) against the file's budget
// (Limits.MaxFileNodes), and refuses the document, and every one not yet
// parsed, when it would go over.
func (d *Document) withinBudget() bool {
	f := d.File
	limit := int64(f.opts.Limits.MaxFileNodes)
	if fastyaml.NodesAtMost(f.Tok.Size()) <= limit {
		// The whole file cannot hold that many: no document of it is
		// counted (the scan was a tenth of parsing a file).
		return true
	}
	src, _ := d.source()
	left := max(limit-f.nodes.Load(), 0)
	n, overLine := fastyaml.NodeBound(src, int(left))
	if int64(n) <= left {
		f.nodes.Add(int64(n))
		return true
	}
	at := d.Start
	if overLine > 0 {
		at, _ = f.lineText(d.Line + overLine - 1)
	}
	f.refuse(fmt.Sprintf("the file holds more than %d YAML nodes (keys, values and items, counted before they are built) by this line; this document and the rest are not linted", limit), at)
	return false
}

// safeUnmarshal parses one YAML document into a node tree and turns a
// parser panic into an error. What follows the document must be nothing
// yaml.v3 reads: yaml.Unmarshal stops after the first document and would
// drop, without a word, a second one or text that is not YAML ("--- {a:
// 1}" followed by "b: 2"); the splitter cuts the stream where yaml.v3
// starts documents, so anything read after the first is an error.
func safeUnmarshal(src []byte, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: the YAML parser failed on this document: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(n); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // no document: an empty one
		}
		return err
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
		return nil
	case err != nil:
		return err
	case len(next.Content) > 0 && next.Content[0].ShortTag() != "!!null":
		return fmt.Errorf("yaml: line %d: another document starts here without a \"---\" line before it", next.Content[0].Line)
	}
	return nil
}

// shiftLines makes the node lines of a document parsed on its own absolute
// in the file.
func shiftLines(n *yaml.Node, by, depth, max int) {
	if n == nil || depth > max+1 {
		return
	}
	if n.Line > 0 {
		n.Line += by
	}
	for _, c := range n.Content {
		shiftLines(c, by, depth+1, max)
	}
}

// shiftColumns moves the nodes on one line by "by" columns: the byte order
// mark the parser did not see (Document.source) counts as one.
func shiftColumns(n *yaml.Node, line, by, depth, max int) {
	if n == nil || depth > max+1 {
		return
	}
	if n.Line == line {
		n.Column += by
	}
	for _, c := range n.Content {
		shiftColumns(c, line, by, depth+1, max)
	}
}

// tooDeep returns the first node (in document order) nested deeper than
// max levels, or nil.
func tooDeep(n *yaml.Node, max int) *yaml.Node {
	var walk func(n *yaml.Node, d int) *yaml.Node
	walk = func(n *yaml.Node, d int) *yaml.Node {
		if d > max {
			return n
		}
		for _, c := range n.Content {
			if deep := walk(c, d+1); deep != nil {
				return deep
			}
		}
		return nil
	}
	return walk(n, 0)
}

// syntaxProblem positions a yaml.v3 error: its message names a line of the
// document (line 1 when it names none); the problem spans that line's text.
func (d *Document) syntaxProblem(err error) Problem {
	f := d.File
	msg := err.Error()
	line := 1
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
		if parserProblems[msg] {
			// yaml.v3 adds one to the 0-based mark of scanner errors only,
			// so a parser error names the line above the one it means: the
			// start of the collection it was reading (libyaml's context
			// mark), or the problem itself when that starts the document.
			line++
		}
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	abs := d.Line + line - 1
	if p, ok := d.unlocatedProblem(msg); ok {
		return p
	}
	if strings.Contains(msg, "tab character") {
		// yaml.v3 names the line before the tab at times: find the tab.
		for l := abs; l <= abs+2 && l <= f.Lines().LineCount(); l++ {
			if t := f.LineText(l); len(t) > 0 && bytes.IndexByte(t[:len(t)-len(bytes.TrimLeft(t, " \t"))], '\t') >= 0 {
				ls := f.Tok.Offset(f.Lines().LineStart(l))
				i := bytes.IndexByte(t, '\t')
				return Problem{Rule: "yaml-syntax", Pos: f.Tok.Pos(ls + i), End: f.Tok.Pos(ls + i + 1), Message: msg}
			}
		}
	}
	start, end := f.lineText(abs)
	if strings.Contains(msg, "cannot start any token") && abs <= f.Lines().LineCount() {
		ls, src := f.Tok.Offset(f.Lines().LineStart(abs)), f.Text()
		if i := bytes.IndexAny(src[ls:end], "\t@`"); i >= 0 {
			start = ls + i
			_, size := utf8.DecodeRune(src[start:])
			end = start + size
		}
	}
	if strings.Contains(msg, "could not find expected ':'") && abs <= f.Lines().LineCount() {
		if t := bytes.TrimLeft(f.LineText(abs), " \t-"); utf8.RuneCount(t) > maxSimpleKey && bytes.IndexByte(t, ':') >= 0 {
			msg = fmt.Sprintf("a key longer than %d characters must be written as an explicit key (\"? \" before it), YAML's limit on plain keys", maxSimpleKey)
		}
	}
	return Problem{Rule: "yaml-syntax", Pos: f.Tok.Pos(start), End: f.Tok.Pos(end), Message: msg}
}

// parserProblems are the problems libyaml's parser (not its scanner)
// reports, as yaml.v3 spells them in parserc.go.
var parserProblems = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"did not find expected node content":     true,
	"did not find expected key":              true,
	"did not find expected '-' indicator":    true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found duplicate %YAML directive":        true,
	"found duplicate %TAG directive":         true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// maxSimpleKey is yaml.v3's (and YAML's) limit on the length of a key
// written without "? ", in characters.
const maxSimpleKey = 1024

// unlocatedProblem positions the yaml.v3 errors that name no line: bytes
// that are not UTF-8 text, and nesting past yaml.v3's own depth limit
// (reported as the depth limit it is).
func (d *Document) unlocatedProblem(msg string) (Problem, bool) {
	f := d.File
	src := f.Text()[d.Start:d.End]
	switch {
	case strings.Contains(msg, "UTF-8") || strings.Contains(msg, "control characters"):
		for i := 0; i < len(src); {
			r, size := utf8.DecodeRune(src[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				at := f.Tok.Pos(d.Start + i)
				return Problem{Rule: "yaml-syntax", Pos: at, End: f.Tok.Pos(d.Start + i + 1),
					Message: fmt.Sprintf("invalid UTF-8: byte 0x%02X is not part of a UTF-8 character (scalelint reads UTF-8 manifests; re-encode the file)", src[i])}, true
			case r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0x7F, r >= 0x80 && r < 0xA0 && r != 0x85, r == 0xFFFE, r == 0xFFFF:
				at := f.Tok.Pos(d.Start + i)
				return Problem{Rule: "yaml-syntax", Pos: at, End: f.Tok.Pos(d.Start + i + size),
					Message: fmt.Sprintf("control character %U is not allowed in YAML", r)}, true
			}
			i += size
		}
	case strings.Contains(msg, "exceeded max depth"):
		// yaml.v3's own limit, below a configured maxDepth above it: say
		// which limit it was.
		depth, whose := f.opts.Limits.MaxDepth, ""
		if depth > yamlMaxDepth {
			depth, whose = yamlMaxDepth, ", the YAML parser's own limit"
		}
		at := d.Start + flowDepthOffset(src, depth)
		return Problem{Rule: "input-limit", Pos: f.Tok.Pos(at), End: f.Tok.Pos(at),
			Message: fmt.Sprintf("document nests deeper than %d levels here%s; not linted", depth, whose)}, true
	}
	return Problem{}, false
}

// yamlMaxDepth is yaml.v3's limit on nesting ("exceeded max depth of
// 10000", max_flow_level and max_indents in its scanner): a configured
// maxDepth above it cannot be reached.
const yamlMaxDepth = 10000

// flowDepthOffset returns the offset in src of the flow bracket that opens
// nesting level max+1, skipping quoted scalars and comments; 0 when none
// does (deep block nesting).
func flowDepthOffset(src []byte, max int) int {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '[', '{':
			if depth++; depth > max {
				return i
			}
		case ']', '}':
			depth--
		case '"', '\'':
			if i > 0 && strings.IndexByte(" \t\n[{,:", src[i-1]) < 0 {
				continue // inside a plain scalar: don't
			}
			for i++; i < len(src) && src[i] != c; i++ {
				if c == '"' && src[i] == '\\' {
					i++
				}
			}
		case '#':
			if i == 0 || src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			}
		}
	}
	return 0
}

// lineText returns the byte range of a line's text without indentation
// and line break.
func (f *File) lineText(line int) (int, int) {
	if line < 1 {
		line = 1
	}
	if line > f.Lines().LineCount() {
		line = f.Lines().LineCount()
	}
	if line < 1 {
		return 0, 0
	}
	src := f.Text()
	start := f.Tok.Offset(f.Lines().LineStart(line))
	end := start
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		end++
	}
	for start < end && (src[start] == ' ' || src[start] == '\t') {
		start++
	}
	if line == 1 && bytes.HasPrefix(src[start:], bom) {
		start += len(bom)
	}
	return start, end
}

// LineText returns the text of a 1-based line, without its line break.
func (f *File) LineText(line int) []byte {
	if line < 1 || line > f.Lines().LineCount() {
		return nil
	}
	src := f.Text()
	start := f.Tok.Offset(f.Lines().LineStart(line))
	end := start
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		end++
	}
	return src[start:end]
}

// Position returns the 1-based line and column of pos, the column counted
// in Unicode code points (a byte order mark on line 1 is not counted).
func (f *File) Position(pos token.Pos) (line, col int) {
	if !pos.IsValid() {
		return 1, 1
	}
	if line, col, ok := f.compactPosition(pos); ok {
		return line, col
	}
	p := f.Lines().Position(pos)
	lineStart := f.Tok.Offset(f.Lines().LineStart(p.Line))
	off, src := f.Tok.Offset(pos), f.Text()
	if p.Line == 1 && bytes.HasPrefix(src, bom) && off >= len(bom) {
		lineStart = len(bom)
	}
	if off < lineStart {
		off = lineStart
	}
	return p.Line, utf8.RuneCount(src[lineStart:off]) + 1
}
