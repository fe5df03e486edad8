package manifest

import (
	"bytes"
	"encoding/json"
)

// chunk is one YAML document's byte range in a file: it starts at the
// beginning of a line (its "---" marker line when it has one) and ends at
// the start of the next document's marker line.
type chunk struct {
	start, end int // byte offsets in the file
	line       int // 1-based line of start, as yaml.v3 counts lines
	// bom is the offset of a byte order mark that starts the line after
	// the "---" marker line, or -1: what `cat a.yaml b.yaml` makes of a
	// b.yaml that starts with one. kubectl splits the stream on "---"
	// lines and its YAML reader drops a BOM at the start of a document,
	// so the document is read without it (Document.source).
	bom     int
	bomLine int // the line of bom
}

// splitDocuments splits src into documents where yaml.v3 reads a new one:
// at every "---" line (or the %directives before it). Comments, blank lines and
// %directives before a "---" belong to the document the marker opens, so a
// file that starts with a comment and then "---" is one document, as YAML
// reads it; a "---" right after another opens a second document, the first
// being empty ("---\n---\nkind: HPA" holds an HPA kubectl applies). Lines
// end where yaml.v3 ends them: at "\n", "\r\n", a lone "\r", and U+0085,
// U+2028 and U+2029. The result is never empty.
func splitDocuments(src []byte) []chunk {
	exotic := !sameBreaks(src)
	var chunks []chunk
	cur := chunk{start: 0, line: 1, bom: -1}
	content := false // the current chunk has a line that is not blank/comment/directive
	marker := false  // the current chunk has its "---" line
	afterMarker := false
	// directives is the start of the run of %directive lines (with the
	// comments and blank lines among them) that the next "---" line would
	// follow, or -1: directives open the document after them.
	directives, directivesLine := -1, 0
	// block is set when the chunk's first content line opens a block
	// mapping or sequence: only then does a "%" line at column 0 end the
	// document (in a top-level scalar or a flow collection, yaml.v3 reads
	// it as more of the scalar or the collection).
	block := false
	line := 1
	for i := 0; i < len(src); {
		lineEnd, next := lineBounds(src, i, exotic)
		l := src[i:lineEnd]
		// A mark after a "---" line is dropped (chunk.bom): the line is
		// read without it.
		marked := afterMarker && bytes.HasPrefix(l, bom)
		if marked || i == 0 && bytes.HasPrefix(l, bom) {
			// At the start of the file, every reader drops it.
			l = l[len(bom):]
		}
		afterMarker = false
		switch {
		case isMarker(l, '-'):
			if content || marker {
				at, atLine := i, line
				if directives >= 0 {
					at, atLine = directives, directivesLine
				}
				cur.end = at
				chunks = append(chunks, cur)
				cur = chunk{start: at, line: atLine, bom: -1}
				if marked && at == i {
					cur.bom, cur.bomLine = i, line
				}
			}
			directives = -1
			marker = true
			// Text after "--- " on the marker line is document content.
			content = hasText(l[3:])
			block = false
			afterMarker = !content
		case isMarker(l, '.'):
			// "..." ends the document, but does not open one: yaml.v3
			// wants a "---" before the next ("...\nb: 2" is an error,
			// reported when the document is parsed), so the lines after
			// it stay in this chunk until a "---".
		default:
			if (block || marker && !content) && len(l) > 0 && l[0] == '%' && directives < 0 {
				directives, directivesLine = i, line
			}
			if marked {
				cur.bom, cur.bomLine = i, line
			}
			if !content && hasText(l) {
				content = true
				block = opensBlock(l)
			}
		}
		i = next
		line++
	}
	cur.end = len(src)
	if directives >= 0 {
		// Directives that open no document: a document of their own,
		// which yaml.v3 reports as one without a "---".
		cur.end = directives
		chunks = append(chunks, cur)
		cur = chunk{start: directives, end: len(src), line: directivesLine, bom: -1}
		content = true
	}
	if content || len(chunks) == 0 || cur.bom >= 0 {
		chunks = append(chunks, cur)
	} else if len(chunks) > 0 && cur.start < cur.end {
		// Trailing comments (or an empty last document) after the last
		// document stay with it.
		chunks[len(chunks)-1].end = cur.end
	}
	return chunks
}

// opensBlock reports whether a document's first content line opens a
// block mapping or sequence: an entry ("- ") or a plain key (": ").
func opensBlock(l []byte) bool {
	t := bytes.TrimPrefix(bytes.TrimLeft(l, " "), bom)
	if len(t) == 0 {
		return false
	}
	switch t[0] {
	case '-':
		return len(t) == 1 || t[1] == ' ' || t[1] == '\t'
	case '[', '{', '"', '\'', '|', '>', '!', '&', '*', '?', '#', '%':
		return false
	}
	return bytes.Contains(t, []byte(": ")) || bytes.HasSuffix(bytes.TrimRight(t, " \t"), []byte(":"))
}

// lineBounds returns the end of the line starting at i (before its line
// break) and the start of the next line. With exotic set, a lone "\r",
// U+0085, U+2028 and U+2029 end lines too, as they do for yaml.v3.
func lineBounds(src []byte, i int, exotic bool) (end, next int) {
	if !exotic {
		if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
			return i + j, i + j + 1
		}
		return len(src), len(src)
	}
	for k := i; k < len(src); k++ {
		switch src[k] {
		case '\n':
			return k, k + 1
		case '\r':
			if k+1 < len(src) && src[k+1] == '\n' {
				return k, k + 2
			}
			return k, k + 1
		case 0xC2:
			if k+1 < len(src) && src[k+1] == 0x85 {
				return k, k + 2
			}
		case 0xE2:
			if k+2 < len(src) && src[k+1] == 0x80 && (src[k+2] == 0xA8 || src[k+2] == 0xA9) {
				return k, k + 3
			}
		}
	}
	return len(src), len(src)
}

// isMarker reports whether line is a document marker ("---" or "...")
// followed by nothing, a blank or a comment.
func isMarker(line []byte, c byte) bool {
	if len(line) < 3 || line[0] != c || line[1] != c || line[2] != c {
		return false
	}
	return len(line) == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r'
}

// hasText reports whether a line holds YAML content: not blank, not a
// comment, not a directive. A byte order mark is content (yaml.v3 reads
// one that is not at the start of the stream as text); the splitter drops
// the marks readers drop before it asks.
func hasText(l []byte) bool {
	t := bytes.TrimLeft(l, " \t\r")
	return len(t) > 0 && t[0] != '#' && t[0] != '%'
}

// sniffed is what a cheap scan of a document's top-level lines found.
type sniffed struct {
	apiVersion, kind string
	ok               bool // both found once each, in block style at column 0
}

var (
	kindKey       = []byte("kind:")
	apiVersionKey = []byte("apiVersion:")
)

// sniff reads apiVersion and kind from the top-level block mapping lines of
// a document without parsing it. It gives up (ok=false) on anything unusual:
// flow style, a value on another line, a key seen twice; the caller then
// parses the document.
func sniff(doc []byte) sniffed {
	var s sniffed
	kinds, versions := 0, 0
	for i := 0; i < len(doc); {
		j := bytes.IndexByte(doc[i:], '\n')
		lineEnd, next := len(doc), len(doc)
		if j >= 0 {
			lineEnd, next = i+j, i+j+1
		}
		l := doc[i:lineEnd]
		if len(l) > 0 {
			switch l[0] {
			case 'k':
				if bytes.HasPrefix(l, kindKey) {
					s.kind = scalarText(l[len(kindKey):])
					kinds++
				}
			case 'a':
				if bytes.HasPrefix(l, apiVersionKey) {
					s.apiVersion = scalarText(l[len(apiVersionKey):])
					versions++
				}
			case '{', '[':
				return sniffed{}
			}
		}
		i = next
	}
	s.ok = kinds == 1 && versions == 1 && s.kind != "" && s.apiVersion != ""
	return s
}

// scalarText returns the value of a one-line scalar after "key:", without
// blanks, a trailing comment or quotes; "" when it is not a simple scalar.
func scalarText(v []byte) string {
	if len(v) > 0 && v[0] != ' ' && v[0] != '\t' {
		return "" // "kind:x" is not a key/value pair
	}
	v = bytes.TrimSpace(v)
	if k := bytes.Index(v, []byte(" #")); k >= 0 {
		v = bytes.TrimSpace(v[:k])
	}
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	for _, c := range v {
		switch c {
		case ' ', '\t', '"', '\'', '{', '[', '&', '*', '!', '|', '>', '#', '\\':
			return ""
		}
	}
	return string(v)
}

// jsonStream splits a file of JSON objects written one after another
// ({...}\n{...}) into one document each, or returns nil when src is not
// such a stream. kubectl reads a file that starts with "{" as JSON and
// applies every object of the stream (k8s.io/apimachinery's
// YAMLOrJSONDecoder decodes values until the end), where YAML reads the
// second object as an error. Only a stream whose objects each start a
// line is split (a document starts at the start of a line), each one
// valid JSON; anything else is left to the YAML parser and its errors.
func jsonStream(src []byte) []chunk {
	i := skipJSONSpace(src, 0)
	if bytes.HasPrefix(src, bom) {
		i = skipJSONSpace(src, len(bom))
	}
	if i >= len(src) || src[i] != '{' {
		return nil
	}
	// A file of one object (most JSON manifests) costs one scan of its
	// brackets, and is not validated here: the parser reads it.
	if first := jsonValueEnd(src, i); first < 0 || skipJSONSpace(src, first) == len(src) || !crOnlyBeforeLF(src) {
		return nil
	}
	var chunks []chunk
	start, line := 0, 1
	for i < len(src) {
		end := jsonValueEnd(src, i)
		if end < 0 || !json.Valid(src[i:end]) {
			return nil
		}
		next := skipJSONSpace(src, end)
		if next < len(src) && (src[next] != '{' || src[next-1] != '\n') {
			return nil // more after it that does not start a line with an object
		}
		chunks = append(chunks, chunk{start: start, end: next, line: line, bom: -1})
		line += bytes.Count(src[start:next], []byte("\n"))
		start, i = next, next
	}
	if len(chunks) < 2 {
		return nil
	}
	return chunks
}

// skipJSONSpace returns the offset of the first byte at or after i that
// is not JSON whitespace.
func skipJSONSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

// crOnlyBeforeLF reports whether every carriage return in src ends a
// line with a line feed after it: line counting then agrees with YAML's.
func crOnlyBeforeLF(src []byte) bool {
	for i, c := range src {
		if c == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			return false
		}
	}
	return true
}

// jsonValueEnd returns the offset just past the object or array that
// starts at src[i], matching brackets outside strings, or -1 when it
// does not end.
func jsonValueEnd(src []byte, i int) int {
	depth := 0
	for ; i < len(src); i++ {
		switch src[i] {
		case '"':
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			if i >= len(src) {
				return -1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}
