package lsp

import (
	"bytes"
	"context"
	"strconv"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/scalelint/scalelint/analyzer/scaling"
)

// Completion completes scalelint.dev annotation keys inside
// metadata.annotations (with their documentation, inserting an example
// value), and the value of such a key (its example, default or words).
//
// The context is read from the text, not the parse: while a key is being
// typed the document is often not valid YAML.
func (s *Server) Completion(ctx context.Context, params *protocol.CompletionParams) (protocol.CompletionResult, error) {
	snap := s.snapshot(ctx)
	h := snap.File(pathOf(params.TextDocument.URI))
	if h == nil {
		return nil, nil
	}
	s.mu.Lock()
	snippets := s.caps.completionSnip
	s.mu.Unlock()
	src, ok := h.text()
	if !ok {
		return nil, nil // changed on disk since it was read: its change is on the way
	}
	m := h.Mapper()
	if h.content == nil {
		m = NewMapper(src) // splitLines reads the mapper's text
	}
	off := m.Offset(params.Position)
	// The line of the offset, not of the position: a position past the
	// end of the text maps to its end, on its last line.
	line := int(m.Position(off).Line)
	lineStart := m.LineStart(line)
	prefix := src[lineStart:off]
	typed := bytes.TrimLeft(prefix, " ")
	indent := len(prefix) - len(typed)
	if bytes.HasPrefix(typed, []byte("- ")) || bytes.ContainsAny(typed, "#\t") {
		return nil, nil
	}
	lines := splitLines(m)
	if !underAnnotations(lines, line, indent) {
		return nil, nil
	}
	if i := bytes.IndexByte(typed, ':'); i >= 0 {
		return valueCompletion(h, string(bytes.Trim(typed[:i], `"' `)), typed[i+1:], off, snippets), nil
	}
	present := siblingKeys(lines, line, indent)
	rng := m.Range(lineStart+indent, off)
	var items []protocol.CompletionItem
	for _, spec := range scaling.Annotations {
		key := scaling.Prefix + spec.Name
		if present[key] {
			continue
		}
		text := key + ": " + strconv.Quote(spec.Example)
		format := protocol.InsertTextFormatPlainText
		if snippets {
			text = key + `: "${1:` + escapeSnippet(spec.Example) + `}"`
			format = protocol.InsertTextFormatSnippet
		}
		detail := spec.Symbol
		if detail == "" {
			detail = "scalelint.dev annotation"
		}
		items = append(items, protocol.CompletionItem{
			Label:            key,
			Kind:             protocol.CompletionItemKindProperty,
			Detail:           protocol.NewOptional(detail),
			Documentation:    &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: annotationDoc(spec)},
			FilterText:       protocol.NewOptional(key),
			InsertTextFormat: format,
			TextEdit:         &protocol.TextEdit{Range: rng, NewText: text},
		})
	}
	return &protocol.CompletionList{Items: items}, nil
}

// valueCompletion offers values for a scalelint.dev key: its example, its
// default, or its words.
func valueCompletion(h *fileHandle, key string, typed []byte, off int, snippets bool) protocol.CompletionResult {
	if !strings.HasPrefix(key, scaling.Prefix) {
		return nil
	}
	spec, ok := scaling.SpecOf(strings.TrimPrefix(key, scaling.Prefix))
	if !ok {
		return nil
	}
	lead := len(typed) - len(bytes.TrimLeft(typed, " "))
	rng := h.Mapper().Range(off-len(typed)+lead, off)
	values := []string{spec.Example}
	if spec.Default != "" && spec.Default != spec.Example {
		values = append(values, spec.Default)
	}
	for _, w := range spec.Words {
		if w != spec.Example {
			values = append(values, w)
		}
	}
	var items []protocol.CompletionItem
	for i, v := range values {
		detail := "example"
		if v == spec.Default {
			detail = "default"
		}
		items = append(items, protocol.CompletionItem{
			Label:         strconv.Quote(v),
			Kind:          protocol.CompletionItemKindValue,
			Detail:        protocol.NewOptional(detail),
			Documentation: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: annotationDoc(spec)},
			SortText:      protocol.NewOptional(strconv.Itoa(i)),
			TextEdit:      &protocol.TextEdit{Range: rng, NewText: strconv.Quote(v)},
		})
	}
	return &protocol.CompletionList{Items: items}
}

// splitLines splits a mapper's text into lines without their breaks, as
// the mapper counts them ("\n", "\r\n" or "\r"), so that a position's
// line is an index of them.
func splitLines(m *Mapper) [][]byte {
	lines := make([][]byte, m.LineCount())
	for i := range lines {
		lines[i] = m.content[m.LineStart(i):m.lineEnd(i)]
	}
	return lines
}

// lineIndent returns a line's indentation and whether it holds content
// (not blank, not only a comment).
func lineIndent(l []byte) (int, bool) {
	t := bytes.TrimLeft(l, " ")
	if len(bytes.TrimSpace(t)) == 0 || t[0] == '#' {
		return 0, false
	}
	return len(l) - len(t), true
}

// parentLine returns the nearest line above line with content indented
// less than indent, or -1.
func parentLine(lines [][]byte, line, indent int) int {
	for i := line - 1; i >= 0; i-- {
		if ind, ok := lineIndent(lines[i]); ok && ind < indent {
			return i
		}
		if bytes.HasPrefix(lines[i], []byte("---")) {
			return -1
		}
	}
	return -1
}

// underAnnotations reports whether a key at indent on line sits in a
// metadata.annotations mapping of a top-level metadata.
func underAnnotations(lines [][]byte, line, indent int) bool {
	p := parentLine(lines, line, indent)
	if p < 0 || !isKeyLine(lines[p], "annotations") {
		return false
	}
	ind, _ := lineIndent(lines[p])
	g := parentLine(lines, p, ind)
	return g >= 0 && isKeyLine(lines[g], "metadata")
}

// isKeyLine reports whether a line opens the block of a key.
func isKeyLine(l []byte, key string) bool {
	t := string(bytes.TrimSpace(l))
	if i := strings.Index(t, " #"); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	return t == key+":"
}

// siblingKeys returns the keys at indent in the block that holds line.
func siblingKeys(lines [][]byte, line, indent int) map[string]bool {
	out := map[string]bool{}
	add := func(l []byte) {
		t := bytes.TrimLeft(l, " ")
		if i := bytes.IndexByte(t, ':'); i > 0 {
			out[string(bytes.Trim(t[:i], `"'`))] = true
		}
	}
	for i := line - 1; i >= 0; i-- {
		ind, ok := lineIndent(lines[i])
		if !ok {
			continue
		}
		if ind < indent {
			break
		}
		if ind == indent {
			add(lines[i])
		}
	}
	for i := line + 1; i < len(lines); i++ {
		ind, ok := lineIndent(lines[i])
		if !ok {
			continue
		}
		if ind < indent {
			break
		}
		if ind == indent {
			add(lines[i])
		}
	}
	return out
}
