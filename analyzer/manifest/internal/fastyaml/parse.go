package fastyaml

import (
	"bytes"
	"sync"
	"unicode/utf8"
	"unsafe"

	yaml "go.yaml.in/yaml/v3"
)

const (
	maxDepth  = 200  // nesting of collections; deeper documents are declined
	maxKeyLen = 1000 // bytes from a key's start to its ':'; yaml.v3 allows 1024 characters

	// Slabs of at most 32 KiB, the largest size class.
	slabNodes = 32 << 10 / int(unsafe.Sizeof(yaml.Node{}))
	slabPtrs  = 32 << 10 / int(unsafe.Sizeof((*yaml.Node)(nil)))
)

const (
	tagStr       = "!!str"
	tagNull      = "!!null"
	tagBool      = "!!bool"
	tagInt       = "!!int"
	tagFloat     = "!!float"
	tagTimestamp = "!!timestamp"
	tagMerge     = "!!merge"
	tagSeq       = "!!seq"
	tagMap       = "!!map"
)

// Where a block node starts, which decides what it may be.
const (
	ctxTop     = iota // the document's root: a block mapping or sequence
	ctxNested         // alone at the start of a more indented line
	ctxSeqItem        // after "- " on the entry's line
	ctxValue          // after "key: " on the key's line
)

type parser struct {
	src   []byte // the document without a BOM
	str   string // string(src): scalar values are substrings of it
	view  bool   // str is src's memory, not a copy (Check)
	ascii bool   // src is all ASCII: a column is a byte offset

	// The current line: the next content line not yet consumed.
	line   int  // 1-based number
	ls     int  // offset of its first byte
	le     int  // offset of its end ('\r', '\n' or len(src))
	next   int  // offset of the next line
	indent int  // number of leading spaces
	eof    bool // no content line is left

	nlines int // lines in src
	depth  int

	arena *Arena       // where slabs come from and are recorded; nil: fresh ones
	nodes []yaml.Node  // slab of free nodes
	ptrs  []*yaml.Node // slab of free Content pointers
	stack []*yaml.Node // children of the collections being parsed
	sbuf  []byte       // scratch for values that need unescaping
}

var parserPool = sync.Pool{New: func() any { return new(parser) }}

// Parse parses one YAML document (the bytes of a single document, possibly
// starting with a "---" line and ending before the next document) into a
// DocumentNode tree identical to yaml.v3's, or returns ok=false when the
// input uses anything outside the supported subset or is not valid YAML
// (the caller then runs yaml.v3, which reports errors). Comments are not
// attached to the nodes. The nodes are taken from arena's recycled slabs
// and stay valid until arena.Recycle; with a nil arena they are fresh
// memory, left to the garbage collector.
func Parse(src []byte, arena *Arena) (doc *yaml.Node, ok bool) {
	p := parserPool.Get().(*parser)
	p.arena = arena
	doc, ok = p.parse(src)
	clear(p.stack[:cap(p.stack)])
	sbuf := p.sbuf[:0]
	if cap(sbuf) > 64<<10 {
		sbuf = nil
	}
	*p = parser{stack: p.stack[:0], sbuf: sbuf}
	parserPool.Put(p)
	if !ok {
		return nil, false
	}
	return doc, true
}

// Check reports whether Parse would parse src (ok=true), without copying
// its text: the tree is built into arena and its values are views of src,
// so the caller recycles arena, and reads nothing of the tree, before src
// changes. It is for a document whose syntax is checked and whose tree is
// not kept (a document no rule reads): a third of a run's documents,
// whose copies were as much garbage as their trees.
func Check(src []byte, arena *Arena) bool {
	p := parserPool.Get().(*parser)
	p.arena, p.view = arena, true
	_, ok := p.parse(src)
	clear(p.stack[:cap(p.stack)])
	sbuf := p.sbuf[:0]
	if cap(sbuf) > 64<<10 {
		sbuf = nil
	}
	*p = parser{stack: p.stack[:0], sbuf: sbuf}
	parserPool.Put(p)
	return ok
}

func (p *parser) parse(src []byte) (*yaml.Node, bool) {
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		src = src[3:] // yaml.v3's reader drops a leading BOM before counting columns
	}
	nl, ascii, ok := checkText(src)
	if !ok {
		return nil, false
	}
	p.src, p.ascii, p.nlines = src, ascii, nl+1
	if p.view {
		p.str = unsafe.String(unsafe.SliceData(src), len(src)) // Check
	} else {
		p.str = string(src)
	}

	// Leading blank and comment lines, then an optional "---" line.
	p.line = 0
	p.next = 0
	docLine, docCol := 0, 0
	for {
		if p.next >= len(src) {
			return nil, false // no content
		}
		p.setLine(p.next)
		j := p.ls + p.indent
		if j == p.le || src[j] == '#' {
			continue
		}
		if p.indent == 0 && p.isMarker(j, '-') {
			// "---", optionally followed by blanks and a comment.
			k := p.skipSpaces(j + 3)
			if k < p.le && (src[k] != '#' || k == j+3) {
				return nil, false // content or a tab after the marker
			}
			docLine, docCol = p.line, 1
			if !p.nextContent() {
				return nil, false
			}
			if p.eof {
				return nil, false // an empty document
			}
		} else if !p.checkContentLine() {
			return nil, false
		}
		break
	}
	root, ok := p.blockNode(p.ls+p.indent, -1, ctxTop)
	if !ok || !p.eof {
		return nil, false
	}
	if docLine == 0 {
		docLine, docCol = root.Line, root.Column
	}
	doc := p.newNode()
	doc.Kind = yaml.DocumentNode
	doc.Line, doc.Column = docLine, docCol
	p.stack = append(p.stack, root)
	doc.Content = p.collect(0)
	return doc, true
}

// checkText reports whether src holds only characters yaml.v3 accepts
// and this parser supports: valid UTF-8, no control characters but tab, LF
// and CR before LF, no U+0085, U+2028 or U+2029 (line breaks to yaml.v3)
// and no U+FEFF. It counts the line feeds and notes whether src is ASCII.
func checkText(src []byte) (newlines int, ascii, ok bool) {
	ascii = true
	for i := 0; i < len(src); {
		b := src[i]
		if b >= 0x20 && b < 0x7F {
			i++
			continue
		}
		switch {
		case b == '\n':
			newlines++
			i++
		case b == '\t':
			i++
		case b == '\r':
			if i+1 >= len(src) || src[i+1] != '\n' {
				return 0, false, false
			}
			i++
		case b >= 0x80:
			r, size := utf8.DecodeRune(src[i:])
			if size == 1 {
				return 0, false, false // invalid UTF-8
			}
			switch {
			case r >= 0xA0 && r <= 0xD7FF && r != 0x2028 && r != 0x2029:
			case r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF:
			case r >= 0x10000 && r <= 0x10FFFF:
			default:
				return 0, false, false
			}
			ascii = false
			i += size
		default:
			return 0, false, false
		}
	}
	return newlines, ascii, true
}

// setLine makes the line starting at offset start the current line.
func (p *parser) setLine(start int) {
	src := p.src
	p.line++
	p.ls = start
	i := start
	for i < len(src) && src[i] == ' ' {
		i++
	}
	p.indent = i - start
	if k := bytes.IndexByte(src[i:], '\n'); k >= 0 {
		i += k
		p.next = i + 1
	} else {
		i = len(src)
		p.next = len(src)
	}
	if i > start && src[i-1] == '\r' {
		i--
	}
	p.le = i
}

// nextContent moves to the next line that is not blank or a comment, or
// sets eof. It returns false when that line is outside the subset.
func (p *parser) nextContent() bool {
	src := p.src
	for p.next < len(src) {
		p.setLine(p.next)
		j := p.ls + p.indent
		if j == p.le || src[j] == '#' {
			continue
		}
		if p.indent == 0 && (p.isMarker(j, '-') || p.isMarker(j, '.')) {
			return p.endMarker(j)
		}
		return p.checkContentLine()
	}
	p.eof = true
	return true
}

// endMarker accepts a "---" or "..." line at offset j that ends the
// document: yaml.Unmarshal reads only the first document, so it is the end
// of the input when nothing but blank and comment lines follows. (The
// document splitter leaves a file's last "---" in the last document.)
func (p *parser) endMarker(j int) bool {
	if !p.restEmpty(j + 3) {
		return false
	}
	src := p.src
	for p.next < len(src) {
		p.setLine(p.next)
		if k := p.ls + p.indent; k != p.le && src[k] != '#' {
			return false
		}
	}
	p.eof = true
	return true
}

// checkContentLine declines lines that start with a tab or are document
// markers or directives.
func (p *parser) checkContentLine() bool {
	j := p.ls + p.indent
	c := p.src[j]
	if c == '\t' {
		return false
	}
	if p.indent == 0 && (c == '%' || p.isMarker(j, '-') || p.isMarker(j, '.')) {
		return false
	}
	return true
}

// isMarker reports whether "---" (c='-') or "..." (c='.') followed by a
// blank or the end of the line starts at j.
func (p *parser) isMarker(j int, c byte) bool {
	src := p.src
	return j+3 <= p.le && src[j] == c && src[j+1] == c && src[j+2] == c &&
		(j+3 == p.le || src[j+3] == ' ' || src[j+3] == '\t')
}

func (p *parser) skipSpaces(i int) int {
	for i < p.le && p.src[i] == ' ' {
		i++
	}
	return i
}

// blankz reports whether i is at a blank or the end of the current line.
func (p *parser) blankz(i int) bool {
	return i >= p.le || p.src[i] == ' ' || p.src[i] == '\t'
}

// col returns the 0-based column of offset i on the current line, in
// characters.
func (p *parser) col(i int) int {
	if p.ascii {
		return i - p.ls
	}
	return utf8.RuneCount(p.src[p.ls:i])
}

// restEmpty reports whether the current line holds nothing after offset i
// but blanks and a comment (which needs a blank before it).
func (p *parser) restEmpty(i int) bool {
	j := p.skipSpaces(i)
	return j == p.le || (p.src[j] == '#' && j > i)
}

func (p *parser) newNode() *yaml.Node {
	if len(p.nodes) == 0 {
		if p.arena != nil {
			p.nodes = p.arena.nodeSlab(p.slabSize())
		} else {
			p.nodes = make([]yaml.Node, p.slabSize())
		}
	}
	n := &p.nodes[0]
	p.nodes = p.nodes[1:]
	return n
}

// slabSize guesses how many nodes the rest of the document needs (about
// two per line), at most what fits in 32 KiB: larger allocations bypass
// the allocator's per-P caches and take a heap lock.
func (p *parser) slabSize() int {
	n := 2*(p.nlines-p.line) + 8
	return min(max(n, 16), slabNodes)
}

// collect returns the children pushed on the stack since base as a
// Content slice (nil when there are none) and pops them.
func (p *parser) collect(base int) []*yaml.Node {
	n := len(p.stack) - base
	if n == 0 {
		return nil
	}
	if len(p.ptrs) < n {
		want := max(n, min(2*(p.nlines-p.line)+8, slabPtrs))
		if p.arena != nil && n <= slabPtrs {
			p.ptrs = p.arena.ptrSlab(want)
		} else {
			p.ptrs = make([]*yaml.Node, want)
		}
	}
	c := p.ptrs[:n:n]
	p.ptrs = p.ptrs[n:]
	copy(c, p.stack[base:])
	p.stack = p.stack[:base]
	return c
}

func (p *parser) nullNode(line, col int) *yaml.Node {
	n := p.newNode()
	n.Kind = yaml.ScalarNode
	n.Tag = tagNull
	n.Line, n.Column = line, col
	return n
}

// nextEntry looks at the current line after an entry of a block collection
// at column col: more reports that it holds the collection's next entry,
// which starts at offset k; ok=false declines a line indented deeper.
func (p *parser) nextEntry(col int) (k int, more, ok bool) {
	if p.eof || p.indent < col {
		return 0, false, true
	}
	if p.indent > col {
		return 0, false, false
	}
	return p.ls + p.indent, true, true
}

// seqEntry reports whether a block sequence entry ("-" and a blank or the
// end of the line) starts at offset i of the current line.
func (p *parser) seqEntry(i int) bool {
	return p.src[i] == '-' && p.blankz(i+1)
}

// blockNode parses the node that starts at offset i of the current line;
// parent is the column of the innermost enclosing block collection (-1 at
// the top). On return the current line is the first content line after
// the node.
func (p *parser) blockNode(i, parent, ctx int) (*yaml.Node, bool) {
	if p.depth >= maxDepth {
		return nil, false
	}
	p.depth++
	n, ok := p.blockNode1(i, parent, ctx)
	p.depth--
	return n, ok
}

func (p *parser) blockNode1(i, parent, ctx int) (*yaml.Node, bool) {
	src := p.src
	c := src[i]
	switch {
	case p.seqEntry(i):
		if ctx == ctxValue {
			return nil, false // "key: - x" is an error
		}
		return p.blockSeq(i, false)
	case c == '|' || c == '>':
		if ctx != ctxValue && ctx != ctxSeqItem {
			return nil, false
		}
		return p.blockScalar(i, parent)
	case c == '[' || c == '{':
		if ctx == ctxTop {
			return nil, false
		}
		n, end, ok := p.flowNode(i)
		if !ok || !p.restEmpty(end) || !p.nextContent() {
			return nil, false
		}
		return n, true
	}
	if ctx == ctxTop {
		parent = singleLine
	}
	n, end, ok := p.scalar(i, false, parent)
	if !ok {
		return nil, false
	}
	j := p.skipSpaces(end)
	if j < p.le && src[j] == ':' && p.blankz(j+1) {
		if ctx == ctxValue || j-i > maxKeyLen || n.Line != p.line {
			return nil, false // a value that is a key, or a multi-line key
		}
		return p.blockMap(n, j+1)
	}
	if ctx == ctxTop || !p.restEmpty(end) {
		return nil, false
	}
	if n.Style == 0 && j == p.le && !p.plainContinuation(n, parent) {
		return nil, false
	}
	if !p.nextContent() {
		return nil, false
	}
	return n, true
}

// plainContinuation reads the lines that continue a plain scalar whose
// first line, the current line, ended without a comment, as yaml.v3's
// yaml_parser_scan_plain_scalar does: a continuation line is indented more
// than the enclosing block collection (at column parent) and does not
// start with '#'; the line break before it folds into a space, or into the
// blank lines before it. The scalar ends at a comment. On return the
// current line is the scalar's last line.
func (p *parser) plainContinuation(n *yaml.Node, parent int) bool {
	src := p.src
	var b []byte
	blank := 0 // blank lines since the last text
	line, ls, le, next, indent := p.line, p.ls, p.le, p.next, p.indent
	for p.next < len(src) {
		p.setLine(p.next)
		j := p.ls + p.indent
		if j == p.le {
			blank++
			continue
		}
		if src[j] == '\t' {
			return false
		}
		if p.indent <= parent || src[j] == '#' {
			break
		}
		end, stop, ok := p.words(j, false)
		if !ok || stop == stopColon {
			return false // "a\n  b: c" is an error
		}
		if b == nil {
			b = append(p.sbuf[:0], n.Value...)
		}
		if blank == 0 {
			b = append(b, ' ')
		}
		for ; blank > 0; blank-- {
			b = append(b, '\n')
		}
		b = append(b, src[j:end]...)
		line, ls, le, next, indent = p.line, p.ls, p.le, p.next, p.indent
		if stop == stopComment {
			break
		}
	}
	// Back to the scalar's last line: nextContent reads on from there.
	p.line, p.ls, p.le, p.next, p.indent = line, ls, le, next, indent
	if b != nil {
		n.Value = string(b)
		p.sbuf = b
		n.Tag = resolvePlainTag(n.Value)
	}
	return true
}

// blockMap parses a block mapping whose first key, on the current line,
// has been read; i is the offset after that key's ':'.
func (p *parser) blockMap(key *yaml.Node, i int) (*yaml.Node, bool) {
	src := p.src
	m := p.newNode()
	m.Kind = yaml.MappingNode
	m.Tag = tagMap
	m.Line, m.Column = key.Line, key.Column
	col := key.Column - 1
	base := len(p.stack)
	p.stack = append(p.stack, key)
	for {
		// The value of the key just read; i is after its ':'.
		var v *yaml.Node
		j := p.skipSpaces(i)
		if j == p.le || src[j] == '#' {
			nullLine, nullCol := p.line, p.col(i)+1 // after the ':'
			if !p.nextContent() {
				return nil, false
			}
			switch {
			case p.eof || p.indent < col:
				v = p.nullNode(nullLine, nullCol)
			case p.indent == col:
				if k := p.ls + p.indent; p.seqEntry(k) {
					var ok bool
					if v, ok = p.blockSeq(k, true); !ok {
						return nil, false
					}
				} else {
					v = p.nullNode(nullLine, nullCol)
				}
			default:
				var ok bool
				if v, ok = p.blockNode(p.ls+p.indent, col, ctxNested); !ok {
					return nil, false
				}
			}
		} else {
			var ok bool
			if v, ok = p.blockNode(j, col, ctxValue); !ok {
				return nil, false
			}
		}
		p.stack = append(p.stack, v)

		// The next key, at this mapping's column.
		k, more, ok := p.nextEntry(col)
		if !ok || more && p.seqEntry(k) {
			return nil, false
		}
		if !more {
			break
		}
		key, end, ok := p.scalar(k, false, singleLine)
		if !ok {
			return nil, false
		}
		j = p.skipSpaces(end)
		if j >= p.le || src[j] != ':' || !p.blankz(j+1) || j-k > maxKeyLen {
			return nil, false
		}
		p.stack = append(p.stack, key)
		i = j + 1
	}
	m.Content = p.collect(base)
	return m, true
}

// blockSeq parses a block sequence whose first "-" is at offset i of the
// current line. An indentless sequence (at its parent key's column) ends at
// the first line of that column that is not an entry.
func (p *parser) blockSeq(i int, indentless bool) (*yaml.Node, bool) {
	src := p.src
	col := p.col(i)
	s := p.newNode()
	s.Kind = yaml.SequenceNode
	s.Tag = tagSeq
	s.Line, s.Column = p.line, col+1
	base := len(p.stack)
	for {
		// An entry: "-" at offset i.
		var v *yaml.Node
		j := p.skipSpaces(i + 1)
		if j == p.le || src[j] == '#' {
			nullLine := p.line // the null is after the '-'
			if !p.nextContent() {
				return nil, false
			}
			if p.eof || p.indent <= col {
				v = p.nullNode(nullLine, col+2)
			} else {
				var ok bool
				if v, ok = p.blockNode(p.ls+p.indent, col, ctxNested); !ok {
					return nil, false
				}
			}
		} else {
			if src[j] == '\t' {
				return nil, false
			}
			var ok bool
			if v, ok = p.blockNode(j, col, ctxSeqItem); !ok {
				return nil, false
			}
		}
		p.stack = append(p.stack, v)

		// The next entry, at this sequence's column.
		k, more, ok := p.nextEntry(col)
		if !ok {
			return nil, false
		}
		if !more {
			break
		}
		if !p.seqEntry(k) {
			if indentless {
				break // the parent mapping's next key
			}
			return nil, false
		}
		i = k
	}
	s.Content = p.collect(base)
	return s, true
}

// singleLine, as the parent of a scalar, makes scalar decline quoted
// scalars that do not end on their first line.
const singleLine = -2

// scalar reads a plain or quoted scalar at offset i of the current line
// and returns it with the offset after it (after the closing quote, or
// after the last non-blank character of a plain scalar). Plain scalars end
// on their line (plainContinuation reads on); a quoted scalar may go on
// over more lines indented more than parent unless parent is singleLine,
// and then the current line is the one with its closing quote.
func (p *parser) scalar(i int, flow bool, parent int) (*yaml.Node, int, bool) {
	switch p.src[i] {
	case '\'', '"':
		return p.quoted(i, parent)
	}
	return p.plain(i, flow)
}

// Why words stopped.
const (
	stopEOL     = iota // at the end of the line
	stopComment        // before " #"
	stopColon          // at ':' followed by a blank or the end of the line
	stopFlow           // at , [ ] { } in flow context
)

// words reads blank-separated words of a plain scalar from offset i and
// returns the offset after the last one and why it stopped. In flow context
// a scalar also ends at , [ ] { }; '?' and ':' before a flow indicator are
// declined there.
func (p *parser) words(i int, flow bool) (end, stop int, ok bool) {
	src := p.src
	end = i
	q := i
	for {
		start := q
		for q < p.le {
			c := src[q]
			if c == ' ' {
				break
			}
			if c == '\t' {
				return 0, 0, false
			}
			if c == ':' && p.blankz(q+1) {
				break
			}
			if flow {
				if isFlowIndicator(c) {
					break
				}
				if c == '?' || c == ':' && isFlowIndicator(src[q+1]) {
					return 0, 0, false
				}
			}
			q++
		}
		if q > start {
			end = q
		}
		if q == p.le {
			return end, stopEOL, true
		}
		if src[q] == ':' {
			return end, stopColon, true
		}
		if src[q] != ' ' {
			return end, stopFlow, true
		}
		r := p.skipSpaces(q)
		if r == p.le {
			return end, stopEOL, true
		}
		if src[r] == '#' {
			return end, stopComment, true
		}
		q = r
	}
}

// plain reads a plain scalar on the current line.
func (p *parser) plain(i int, flow bool) (*yaml.Node, int, bool) {
	src := p.src
	switch src[i] {
	case '-':
		// "-x" is a scalar; "- " was handled by the callers.
		if p.blankz(i + 1) {
			return nil, 0, false
		}
		if flow && i+1 < p.le && isFlowIndicator(src[i+1]) {
			return nil, 0, false
		}
	case '?', ':':
		if flow || p.blankz(i+1) {
			return nil, 0, false
		}
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ', '\t':
		return nil, 0, false
	}
	end, _, ok := p.words(i, flow)
	if !ok || end == i {
		return nil, 0, false
	}
	n := p.newNode()
	n.Kind = yaml.ScalarNode
	n.Value = p.str[i:end]
	n.Tag = resolvePlainTag(n.Value)
	n.Line, n.Column = p.line, p.col(i)+1
	return n, end, true
}

func isFlowIndicator(c byte) bool {
	switch c {
	case ',', '[', ']', '{', '}':
		return true
	}
	return false
}

// quoted reads a single- or double-quoted scalar.
func (p *parser) quoted(i, parent int) (*yaml.Node, int, bool) {
	src := p.src
	q := src[i]
	n := p.newNode()
	n.Kind = yaml.ScalarNode
	n.Tag = tagStr
	if q == '\'' {
		n.Style = yaml.SingleQuotedStyle
	} else {
		n.Style = yaml.DoubleQuotedStyle
	}
	n.Line, n.Column = p.line, p.col(i)+1

	// The common case: no escapes, on one line.
	k := i + 1
	for k < p.le && src[k] != q && (q == '\'' || src[k] != '\\') {
		k++
	}
	if k < p.le && src[k] == q && (q == '"' || k+1 == p.le || src[k+1] != '\'') {
		n.Value = p.str[i+1 : k]
		return n, k + 1, true
	}
	b, end, ok := p.quotedLong(i, parent)
	if !ok {
		return nil, 0, false
	}
	n.Value = string(b)
	p.sbuf = b
	return n, end, true
}

// quotedLong reads a quoted scalar with escapes or line breaks, following
// yaml.v3's yaml_parser_scan_flow_scalar, and returns its value and the
// offset after the closing quote on what is then the current line. Lines
// after the first must be blank or indented more than parent.
func (p *parser) quotedLong(i, parent int) ([]byte, int, bool) {
	src := p.src
	single := src[i] == '\''
	b := p.sbuf[:0]
	k := i + 1
	ws := 0 // blanks read after the last text, not yet appended
	wsStart := 0
	leadingBreak := false
	trailing := 0
	for {
		if k >= len(src) {
			return nil, 0, false // the end of the stream in a quoted scalar
		}
		// Non-blank characters.
		leadingBlanks := false
		for k < p.le && src[k] != ' ' && src[k] != '\t' {
			c := src[k]
			if single {
				if c == '\'' {
					if k+1 < p.le && src[k+1] == '\'' {
						b = append(b, '\'')
						k += 2
						continue
					}
					break
				}
			} else {
				if c == '"' {
					break
				}
				if c == '\\' {
					if k+1 == p.le && p.le < len(src) {
						// An escaped line break.
						if !p.quotedLine(parent) {
							return nil, 0, false
						}
						k = p.ls
						leadingBlanks = true
						break
					}
					var ok bool
					if b, k, ok = p.escape(b, k); !ok {
						return nil, 0, false
					}
					continue
				}
			}
			b = append(b, c)
			k++
		}
		if k < p.le && src[k] == src[i] {
			break // the closing quote
		}
		// Blanks and line breaks.
		for {
			if k < p.le && (src[k] == ' ' || src[k] == '\t') {
				if !leadingBlanks {
					if ws == 0 {
						wsStart = k
					}
					ws++
				}
				k++
				continue
			}
			if k == p.le && p.le < len(src) {
				if !leadingBlanks {
					ws = 0
					leadingBreak = true
					leadingBlanks = true
				} else {
					trailing++
				}
				if !p.quotedLine(parent) {
					return nil, 0, false
				}
				k = p.ls
				continue
			}
			break
		}
		// Join the blanks or fold the line breaks.
		if leadingBlanks {
			if leadingBreak && trailing == 0 {
				b = append(b, ' ')
			}
			for ; trailing > 0; trailing-- {
				b = append(b, '\n')
			}
			leadingBreak = false
		} else {
			b = append(b, src[wsStart:wsStart+ws]...)
			ws = 0
		}
	}
	return b, k + 1, true
}

// quotedLine moves to the next line inside a quoted scalar; it must be
// blank or indented more than parent, without tabs in its indentation.
func (p *parser) quotedLine(parent int) bool {
	if parent == singleLine || p.next >= len(p.src) {
		return false
	}
	p.setLine(p.next)
	j := p.ls + p.indent
	if j == p.le {
		return true
	}
	return p.src[j] != '\t' && p.indent > parent && p.indent > 0
}

// escape appends the character of the escape sequence at offset k (a
// backslash) of the current line to b and returns the offset after it.
func (p *parser) escape(b []byte, k int) ([]byte, int, bool) {
	src := p.src
	if k+1 >= p.le {
		return nil, 0, false
	}
	width := 0
	switch src[k+1] {
	case '0':
		b = append(b, 0)
	case 'a':
		b = append(b, '\x07')
	case 'b':
		b = append(b, '\x08')
	case 't', '\t':
		b = append(b, '\x09')
	case 'n':
		b = append(b, '\x0A')
	case 'v':
		b = append(b, '\x0B')
	case 'f':
		b = append(b, '\x0C')
	case 'r':
		b = append(b, '\x0D')
	case 'e':
		b = append(b, '\x1B')
	case ' ':
		b = append(b, ' ')
	case '"':
		b = append(b, '"')
	case '\'':
		b = append(b, '\'')
	case '\\':
		b = append(b, '\\')
	case 'N':
		b = append(b, "\u0085"...)
	case '_':
		b = append(b, "\u00A0"...)
	case 'L':
		b = append(b, "\u2028"...)
	case 'P':
		b = append(b, "\u2029"...)
	case 'x':
		width = 2
	case 'u':
		width = 4
	case 'U':
		width = 8
	default:
		return nil, 0, false // yaml.v3: "found unknown escape character"
	}
	k += 2
	if width == 0 {
		return b, k, true
	}
	if k+width > p.le {
		return nil, 0, false
	}
	v := 0
	for _, h := range src[k : k+width] {
		switch {
		case h >= '0' && h <= '9':
			v = v<<4 + int(h-'0')
		case h >= 'a' && h <= 'f':
			v = v<<4 + int(h-'a'+10)
		case h >= 'A' && h <= 'F':
			v = v<<4 + int(h-'A'+10)
		default:
			return nil, 0, false
		}
	}
	if v >= 0xD800 && v <= 0xDFFF || v > 0x10FFFF {
		return nil, 0, false
	}
	return utf8.AppendRune(b, rune(v)), k + width, true
}

// flowNode reads a flow collection or a scalar in flow context on the
// current line and returns it with the offset after it.
func (p *parser) flowNode(i int) (*yaml.Node, int, bool) {
	src := p.src
	c := src[i]
	if c != '[' && c != '{' {
		return p.scalar(i, true, singleLine)
	}
	if p.depth >= maxDepth {
		return nil, 0, false
	}
	p.depth++
	n, end, ok := p.flowCollection(i)
	p.depth--
	return n, end, ok
}

// flowCollection reads a one-line flow sequence or mapping at offset i.
func (p *parser) flowCollection(i int) (*yaml.Node, int, bool) {
	src := p.src
	c := src[i]
	n := p.newNode()
	n.Style = yaml.FlowStyle
	n.Line, n.Column = p.line, p.col(i)+1
	base := len(p.stack)
	k := p.skipSpaces(i + 1)
	if c == '[' {
		n.Kind = yaml.SequenceNode
		n.Tag = tagSeq
		if k < p.le && src[k] == ']' {
			return n, k + 1, true
		}
		for {
			if k >= p.le {
				return nil, 0, false
			}
			item, end, ok := p.flowNode(k)
			if !ok {
				return nil, 0, false
			}
			p.stack = append(p.stack, item)
			var done bool
			if k, done, ok = p.flowNext(end, ']'); !ok {
				return nil, 0, false
			}
			if done {
				break
			}
		}
	} else {
		n.Kind = yaml.MappingNode
		n.Tag = tagMap
		if k < p.le && src[k] == '}' {
			return n, k + 1, true
		}
		for {
			if k >= p.le || src[k] == '[' || src[k] == '{' {
				return nil, 0, false
			}
			key, end, ok := p.scalar(k, true, singleLine)
			if !ok {
				return nil, 0, false
			}
			if key.Style == 0 {
				// A plain key ends right before ": ".
				if end+1 >= p.le || src[end] != ':' || src[end+1] != ' ' {
					return nil, 0, false
				}
			} else {
				end = p.skipSpaces(end)
				if end >= p.le || src[end] != ':' {
					return nil, 0, false
				}
			}
			if end-k > maxKeyLen {
				return nil, 0, false
			}
			k = p.skipSpaces(end + 1)
			if k >= p.le || src[k] == ',' || src[k] == '}' || src[k] == ']' {
				return nil, 0, false // an empty value
			}
			value, end, ok := p.flowNode(k)
			if !ok {
				return nil, 0, false
			}
			p.stack = append(p.stack, key, value)
			var done bool
			if k, done, ok = p.flowNext(end, '}'); !ok {
				return nil, 0, false
			}
			if done {
				break
			}
		}
	}
	n.Content = p.collect(base)
	return n, k, true
}

// flowNext reads what follows an entry of a flow collection that ends at
// offset end: a ',' before the next entry, whose offset it returns, or the
// collection's closing bracket, and then done is set and k is after it.
func (p *parser) flowNext(end int, closing byte) (k int, done, ok bool) {
	src := p.src
	k = p.skipSpaces(end)
	if k >= p.le {
		return 0, false, false
	}
	if src[k] == closing {
		return k + 1, true, true
	}
	if src[k] != ',' {
		return 0, false, false
	}
	k = p.skipSpaces(k + 1)
	if k < p.le && src[k] == closing {
		return 0, false, false // a trailing comma
	}
	return k, false, true
}

// blockScalar reads a literal or folded block scalar whose indicator is at
// offset i of the current line, following yaml.v3's
// yaml_parser_scan_block_scalar; parent is the column of the enclosing
// block collection.
func (p *parser) blockScalar(i, parent int) (*yaml.Node, bool) {
	src := p.src
	literal := src[i] == '|'
	n := p.newNode()
	n.Kind = yaml.ScalarNode
	n.Tag = tagStr
	if literal {
		n.Style = yaml.LiteralStyle
	} else {
		n.Style = yaml.FoldedStyle
	}
	n.Line, n.Column = p.line, p.col(i)+1

	// The header: a chomping indicator, blanks, a comment.
	k := i + 1
	chomp := 0
	if k < p.le && (src[k] == '+' || src[k] == '-') {
		chomp = 1
		if src[k] == '-' {
			chomp = -1
		}
		k++
	}
	if k < p.le && src[k] >= '0' && src[k] <= '9' {
		return nil, false // an indentation indicator
	}
	if j := p.skipSpaces(k); j < p.le && (src[j] != '#' || j == k) {
		return nil, false
	}

	// The content lines.
	pos := p.next
	line := p.line + 1
	lineStart := pos
	indent := 0
	col := 0
	trailing := 0 // line breaks seen since the last content line
	leadingBreak := false
	leadingBlank := false
	lines := 0
	b := p.sbuf[:0]

	// breaks eats indentation and empty lines, as
	// yaml_parser_scan_block_scalar_breaks does.
	breaks := func() bool {
		maxIndent := 0
		for {
			col = 0
			for (indent == 0 || col < indent) && pos < len(src) && src[pos] == ' ' {
				pos++
				col++
			}
			if col > maxIndent {
				maxIndent = col
			}
			if pos < len(src) && src[pos] == '\t' && (indent == 0 || col < indent) {
				return false
			}
			if pos >= len(src) || (src[pos] != '\n' && src[pos] != '\r') {
				break
			}
			if src[pos] == '\r' {
				pos++
			}
			pos++
			line++
			lineStart = pos
			trailing++
		}
		if indent == 0 {
			indent = max(maxIndent, parent+1, 1)
		}
		return true
	}
	if !breaks() {
		return nil, false
	}
	for col == indent && pos < len(src) {
		trailingBlank := src[pos] == ' ' || src[pos] == '\t'
		if !literal && !leadingBlank && !trailingBlank && leadingBreak {
			if trailing == 0 {
				b = append(b, ' ')
			}
		} else if leadingBreak {
			b = append(b, '\n')
		}
		leadingBreak = false
		for ; trailing > 0; trailing-- {
			b = append(b, '\n')
		}
		leadingBlank = trailingBlank
		e := pos
		for e < len(src) && src[e] != '\n' && src[e] != '\r' {
			e++
		}
		b = append(b, src[pos:e]...)
		pos = e
		lines++
		if pos < len(src) {
			if src[pos] == '\r' {
				pos++
			}
			pos++
			line++
			lineStart = pos
			leadingBreak = true
		}
		if !breaks() {
			return nil, false
		}
	}
	if lines == 0 {
		return nil, false // an empty block scalar
	}
	if chomp != -1 && leadingBreak {
		b = append(b, '\n')
	}
	if chomp == 1 {
		for ; trailing > 0; trailing-- {
			b = append(b, '\n')
		}
	}
	n.Value = string(b)
	p.sbuf = b

	// Resume at the line the scalar stopped at.
	if pos >= len(src) {
		p.next = len(src)
	} else {
		p.next = lineStart
	}
	p.line = line - 1
	if !p.nextContent() {
		return nil, false
	}
	return n, true
}
