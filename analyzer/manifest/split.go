package manifest

import (
	"bytes"
)

// chunk is one YAML document's byte range in a file: it starts at the
// beginning of a line (its "---" marker line when it has one) and ends at
// the start of the next document's marker line.
type chunk struct {
	start, end int // byte offsets in the file
	line       int // 1-based line of start
}

// splitDocuments splits src into documents on "---" lines and after "..."
// lines. Comments, blank lines and %directives before a "---" belong to the
// document the marker opens, so a file that starts with a comment and then
// "---" is one document, as YAML reads it. The result is never empty.
func splitDocuments(src []byte) []chunk {
	var chunks []chunk
	cur := chunk{start: 0, line: 1}
	content := false // the current chunk has a line that is not blank/comment/directive
	line := 1
	for i := 0; i < len(src); {
		j := bytes.IndexByte(src[i:], '\n')
		lineEnd, next := len(src), len(src)
		if j >= 0 {
			lineEnd, next = i+j, i+j+1
		}
		l := src[i:lineEnd]
		switch {
		case isMarker(l, '-'):
			if content {
				cur.end = i
				chunks = append(chunks, cur)
				cur = chunk{start: i, line: line}
			}
			// Text after "--- " on the marker line is document content.
			content = hasText(l[3:])
		case isMarker(l, '.'):
			cur.end = next
			chunks = append(chunks, cur)
			cur = chunk{start: next, line: line + 1}
			content = false
		default:
			if !content && hasText(l) {
				content = true
			}
		}
		i = next
		line++
	}
	cur.end = len(src)
	if content || len(chunks) == 0 {
		chunks = append(chunks, cur)
	} else if len(chunks) > 0 && cur.start < cur.end {
		// Trailing comments after the last document stay with it.
		chunks[len(chunks)-1].end = cur.end
	}
	return chunks
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
// comment, not a directive.
func hasText(l []byte) bool {
	t := bytes.TrimLeft(l, " \t\r\ufeff")
	t = bytes.TrimPrefix(t, bom)
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
