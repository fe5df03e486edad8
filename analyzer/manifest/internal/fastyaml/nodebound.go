package fastyaml

// NodeBound counts, without building anything, an upper bound on the nodes
// a YAML parser (this one or yaml.v3) builds for one document: so a
// document too large for memory is refused before its nodes exist. A flat
// flow sequence of ten megabytes ("[1,1,1,…]") is five million nodes, over
// a gigabyte as yaml.Node values; the scan reads it at the speed of a
// byte loop and allocates nothing.
//
// The count is one per scalar (plain, quoted, block, alias), one per
// collection (a flow bracket, or a block mapping or sequence entry at a
// new indentation), one per empty value (a key, "-" or "?" with nothing
// after it on its line, or a flow entry without a value), and one per
// implicit single-pair mapping in a flow sequence; plus one for the
// document and one for an empty document's null. Every node a parser builds is one of these, so the count is
// never below the truth: a multi-line plain scalar counts once per line,
// and a key whose value is on the next lines counts an empty value it
// does not have, so it runs above the truth by about a fifth on block
// YAML and matches it on JSON. Block scalar text, quoted text and comments
// count nothing, whatever they hold (the lines of a quoted scalar that
// goes on over several lines count as if they held tokens).
//
// It stops as soon as the count passes max, and returns the count and the
// 1-based line where it passed (0 when it did not). It reads about a
// gigabyte a second: ten megabytes, the default file size limit, in
// about ten milliseconds.
func NodeBound(src []byte, max int) (n, overLine int) {
	b := bounder{src: src, max: max, n: 2, line: 1}
	b.scan()
	if b.n > max {
		return b.n, b.overLine
	}
	return b.n, 0
}

// NodesAtMost bounds NodeBound of any text of size bytes without reading
// it: each count NodeBound makes is for a token or an indicator, of at
// least a byte; the densest texts count 3 a byte plus the document's 2
// ("?": a mapping, its empty key and its empty value; ": : :" in a block
// counts 1.5 a byte), and 8 a byte plus 16 leaves a margin over that
// (TestNodesAtMost checks it on every text of up to three indicators
// repeated, on random texts and on the parser's test files). A file
// whose size bounds its nodes under the limit need not be scanned: with
// the default limit, any file under 250 kB.
func NodesAtMost(size int) int64 { return 8*int64(size) + 16 }

type bounder struct {
	src      []byte
	max      int
	n        int
	line     int
	overLine int

	flow  []byte // open flow collections: '[' or '{'
	pairs []bool // per open flow collection: the current entry has a ':' (a pair)
	block []blockColl
}

// blockColl is an open block collection: its column and whether it is a
// sequence.
type blockColl struct {
	col int
	seq bool
}

func (b *bounder) add(k int) {
	b.n += k
	if b.n > b.max && b.overLine == 0 {
		b.overLine = b.line
	}
}

// entry counts a block collection entry at col: a new collection unless
// one of that kind is open at that column.
func (b *bounder) entry(col int, seq bool) {
	for len(b.block) > 0 && b.block[len(b.block)-1].col > col {
		b.block = b.block[:len(b.block)-1]
	}
	if k := len(b.block); k > 0 && b.block[k-1].col == col && b.block[k-1].seq == seq {
		return
	}
	// A new collection; one of the other kind at the same column (an
	// indentless sequence under a key) stays open below it.
	b.block = append(b.block, blockColl{col, seq})
	b.add(1)
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// lineEnd returns the offset of the line break at or after i (or len).
func (b *bounder) lineEnd(i int) int {
	src := b.src
	for i < len(src) && src[i] != '\n' && src[i] != '\r' {
		i++
	}
	return i
}

// nextLine returns the start of the line after the break at i.
func (b *bounder) nextLine(i int) int {
	src := b.src
	if i < len(src) && src[i] == '\r' {
		i++
		if i < len(src) && src[i] == '\n' {
			i++
		}
	} else if i < len(src) {
		i++
	}
	b.line++
	return i
}

func (b *bounder) scan() {
	src := b.src
	i := 0
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		i = 3
	}
	for i < len(src) && b.n <= b.max {
		i = b.scanLine(i)
	}
}

// scanLine counts the nodes that start on the line at i and returns the
// start of the next line to scan (past any block scalar or quoted text
// that continues over more lines).
func (b *bounder) scanLine(i int) int {
	src := b.src
	end := b.lineEnd(i)
	indent := 0
	for i+indent < end && src[i+indent] == ' ' {
		indent++
	}
	k := i + indent
	if len(b.flow) == 0 {
		if k == end || src[k] == '#' {
			return b.nextLine(end)
		}
		if indent == 0 && k+3 <= end && (string(src[k:k+3]) == "---" || string(src[k:k+3]) == "...") && (k+3 == end || isBlank(src[k+3])) {
			k += 3 // a document marker: what follows it is content
			b.block = b.block[:0]
		}
		if indent == 0 && k < end && src[k] == '%' {
			return b.nextLine(end) // a directive
		}
	}
	return b.tokens(k, i, end)
}

// tokens counts the tokens from offset k of the line that starts at ls
// and ends at end.
func (b *bounder) tokens(k, ls, end int) int {
	src := b.src
	entryCol := -1 // the column of the innermost block entry on this line
	for k < end {
		c := src[k]
		switch {
		case isBlank(c):
			k++
			continue
		case c == '#':
			return b.nextLine(end)
		}
		col := k - ls // in bytes; only compared with columns of the same kind of line
		if len(b.flow) == 0 {
			// Block context: entries and keys.
			if (c == '-' || c == '?') && (k+1 == end || isBlank(src[k+1])) {
				if c == '-' {
					b.entry(col, true)
				} else {
					b.entry(col, false)
					b.add(1) // the key may be empty
				}
				entryCol = col
				if rest := b.skipBlanks(k+1, end); rest == end || src[rest] == '#' {
					b.add(1) // an empty entry, or a node on the next lines
				}
				k++
				continue
			}
			if c == ':' && (k+1 == end || isBlank(src[k+1])) {
				b.entry(col, false) // ": v" with an empty key
				b.add(2)
				entryCol = col
				k++
				continue
			}
		}
		switch c {
		case '[', '{':
			b.add(1)
			b.flow = append(b.flow, c)
			b.pairs = append(b.pairs, false)
			k++
			continue
		case ']', '}':
			if len(b.flow) > 0 {
				b.closeFlowEntry()
				b.flow = b.flow[:len(b.flow)-1]
				b.pairs = b.pairs[:len(b.pairs)-1]
			}
			k++
			continue
		case ',':
			if len(b.flow) > 0 {
				b.closeFlowEntry()
			}
			k++
			continue
		case ':':
			if len(b.flow) > 0 {
				b.pairs[len(b.pairs)-1] = true
				// An empty value: the entry ends right after the ':'.
				if r := b.skipBlanks(k+1, end); r < end && (src[r] == ',' || src[r] == '}' || src[r] == ']') {
					b.add(1)
				}
				k++
				continue
			}
		case '&', '!':
			// An anchor or a tag: counted as a node, for the empty node it
			// may carry ("[!!null , b]").
			b.add(1)
			for k < end && !isBlank(src[k]) && !(len(b.flow) > 0 && isFlowIndicator(src[k])) &&
				!(src[k] == ':' && (k+1 == end || isBlank(src[k+1]))) {
				k++
			}
			continue
		case '|', '>':
			if len(b.flow) == 0 {
				b.add(1)
				parent := entryCol
				if parent < 0 && len(b.block) > 0 {
					parent = b.block[len(b.block)-1].col // "key:" with the scalar on the next line
				}
				return b.blockScalar(end, parent)
			}
		case '"', '\'':
			b.add(1)
			k = b.quoted(k, end)
			k = b.afterScalar(k, ls, end, col, &entryCol)
			continue
		}
		// A plain scalar (or an alias).
		b.add(1)
		k = b.plainEnd(k, end)
		k = b.afterScalar(k, ls, end, col, &entryCol)
	}
	return b.nextLine(end)
}

// afterScalar handles what follows a scalar at column col: a ':' that
// makes it a block key (an entry of a mapping at col), and an empty value
// when nothing follows that ':' on the line.
func (b *bounder) afterScalar(k, ls, end, col int, entryCol *int) int {
	src := b.src
	r := b.skipBlanks(k, end)
	if len(b.flow) > 0 || r >= end || src[r] != ':' || (r+1 < end && !isBlank(src[r+1])) {
		return k
	}
	b.entry(col, false)
	*entryCol = col
	if rest := b.skipBlanks(r+1, end); rest == end || src[rest] == '#' {
		b.add(1) // an empty value, or a node on the next lines
	}
	return r + 1
}

// closeFlowEntry ends the current entry of the innermost flow
// collection: a pair in a sequence is a mapping of its own; a key without
// a value in a mapping has an empty value.
func (b *bounder) closeFlowEntry() {
	top := len(b.flow) - 1
	if b.flow[top] == '[' && b.pairs[top] {
		b.add(1)
	}
	if b.flow[top] == '{' && !b.pairs[top] {
		b.add(1)
	}
	b.pairs[top] = false
}

func (b *bounder) skipBlanks(k, end int) int {
	for k < end && isBlank(b.src[k]) {
		k++
	}
	return k
}

// plainEnd returns the end of a plain scalar that starts at k: at ": " (or
// ':' at the end of the line), " #", the end of the line, or in flow
// context ',' and a closing bracket.
func (b *bounder) plainEnd(k, end int) int {
	src := b.src
	k++
	for k < end {
		c := src[k]
		switch {
		case c == ':' && (k+1 == end || isBlank(src[k+1]) || len(b.flow) > 0 && isFlowIndicator(src[k+1])):
			return k
		case c == '#' && isBlank(src[k-1]):
			return k
		case len(b.flow) > 0 && (c == ',' || c == ']' || c == '}' || c == '[' || c == '{'):
			return k
		}
		k++
	}
	return k
}

// quoted skips a quoted scalar that starts at k and returns the offset
// after it, or the end of the line when it does not close on it: the lines
// of a quoted scalar that goes on are scanned as if they held tokens
// (counting too much), because skipping lines on the word of a quote
// could skip nodes when the quote is text of a plain scalar.
func (b *bounder) quoted(k, end int) int {
	src := b.src
	q := src[k]
	for k++; k < end; k++ {
		switch src[k] {
		case '\\':
			if q == '"' {
				k++
			}
		case q:
			if q == '\'' && k+1 < end && src[k+1] == '\'' {
				k++
				continue
			}
			return k + 1
		}
	}
	return end
}

// blockScalar skips the text of a block scalar whose header is on the line
// ending at end, inside a block entry at column parent (-1: the document
// itself), and returns the start of the first line after it.
func (b *bounder) blockScalar(end, parent int) int {
	src := b.src
	i := b.nextLine(end)
	indent := -1 // the scalar's indentation, from its first non-empty line
	for i < len(src) {
		e := b.lineEnd(i)
		sp := 0
		for i+sp < e && src[i+sp] == ' ' {
			sp++
		}
		if i+sp == e || (sp > 0 && isBlank(src[i+sp]) && b.skipBlanks(i+sp, e) == e) {
			i = b.nextLine(e) // an empty line belongs to the scalar
			continue
		}
		if sp == 0 && e-i >= 3 && (string(src[i:i+3]) == "---" || string(src[i:i+3]) == "...") && (e-i == 3 || isBlank(src[i+3])) {
			return i // a document marker ends it
		}
		if indent < 0 {
			if sp <= parent {
				return i
			}
			indent = sp
		}
		if sp < indent {
			return i
		}
		i = b.nextLine(e)
		if b.line&4095 == 0 && b.n > b.max {
			return i
		}
	}
	return i
}
