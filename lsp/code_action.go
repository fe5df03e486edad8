package lsp

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
)

// reasonPlaceholder stands for the reason a suppression must give.
const reasonPlaceholder = "<reason>"

// CodeAction offers, for the findings in the range:
//   - every suggested fix of the rule, as a quick fix;
//   - for latency-floor without a pod rate, "Annotate the rate one pod
//     serves", the input its fixes need;
//   - "Ignore RULE here", a `# scalelint:ignore RULE <reason>` line above;
//
// and, on an autoscaler whose laws lack inputs, "Add the annotations this
// autoscaler needs" with example values as placeholders.
func (s *Server) CodeAction(ctx context.Context, params *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	snap := s.snapshot(ctx)
	h := snap.File(pathOf(params.TextDocument.URI))
	if h == nil {
		return nil, nil
	}
	start, end, err := h.Mapper().OffsetRange(params.Range)
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	diags, err := snap.Diagnostics(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	want := func(kind protocol.CodeActionKind) bool {
		if len(params.Context.Only) == 0 {
			return true
		}
		for _, k := range params.Context.Only {
			if k == kind || strings.HasPrefix(string(kind), string(k)+".") {
				return true
			}
		}
		return false
	}

	var actions []protocol.CommandOrCodeAction
	quickfix := protocol.CodeActionKindQuickFix
	for i := range diags {
		d := &diags[i]
		if dh, a, b := snap.span(d.Pos, d.End); dh != h || a > end || b < start {
			continue
		}
		_, pd, _ := toProtocol(snap, d)
		if !want(quickfix) {
			continue
		}
		for j, fix := range d.SuggestedFixes {
			edit, ok := s.workspaceEdit(snap, caps, fix.Edits)
			if !ok {
				continue
			}
			preferred := j == 0
			actions = append(actions, &protocol.CodeAction{
				Title: fix.Message, Kind: &quickfix, Diagnostics: []protocol.Diagnostic{pd},
				IsPreferred: &preferred, Edit: edit,
			})
		}
		if _, ok := d.Facts["podRateCeiling"]; ok && d.Object != nil {
			// latency-floor without a pod rate: its fixes need one, so the
			// quick fix names it (the example value is a placeholder).
			if at, text, ok := addAnnotations(d.Object, []string{"pod-rate"}); ok {
				_, base := snap.locate(d.Object.File())
				at += base
				edit := textEdits(caps, h, []protocol.TextEdit{{Range: h.Mapper().Range(at, at), NewText: text}})
				actions = append(actions, &protocol.CodeAction{
					Title: "Annotate the rate one pod serves (scalelint.dev/pod-rate; replace the example value)", Kind: &quickfix,
					Diagnostics: []protocol.Diagnostic{pd}, Edit: edit,
				})
			}
		}
		if d.Rule != analyzer.InvalidSuppression.Name && d.Rule != analyzer.UnusedSuppression.Name {
			if edit := ignoreEdit(snap, h, d, caps); edit != nil {
				actions = append(actions, &protocol.CodeAction{
					Title: fmt.Sprintf("Ignore %s here", d.Rule), Kind: &quickfix,
					Diagnostics: []protocol.Diagnostic{pd}, Edit: edit,
				})
			}
		}
	}

	rewrite := protocol.CodeActionKindRefactorRewrite
	if o, _ := snap.objectAt(h, start); o != nil && want(rewrite) {
		if a := autoscalerOf(snap.Workspace(), o); a != nil {
			if names := missingAnnotations(evaluate(snap, a)); len(names) > 0 {
				if at, text, ok := addAnnotations(o, names); ok {
					_, base := snap.locate(o.File())
					at += base
					edit := textEdits(caps, h, []protocol.TextEdit{{Range: h.Mapper().Range(at, at), NewText: text}})
					actions = append(actions, &protocol.CodeAction{
						Title: fmt.Sprintf("Add the annotations this autoscaler needs (%s)", strings.Join(names, ", ")),
						Kind:  &rewrite, Edit: edit,
					})
				}
			}
		}
	}
	return actions, nil
}

// workspaceEdit converts a fix's edits, which may touch several files.
func (s *Server) workspaceEdit(snap *Snapshot, caps clientCaps, edits []analyzer.TextEdit) (*protocol.WorkspaceEdit, bool) {
	byFile := map[*fileHandle][]protocol.TextEdit{}
	var order []*fileHandle
	for _, e := range edits {
		h, start, end := snap.span(e.Pos, e.End)
		if h == nil {
			return nil, false
		}
		if _, ok := byFile[h]; !ok {
			order = append(order, h)
		}
		byFile[h] = append(byFile[h], protocol.TextEdit{Range: h.Mapper().Range(start, end), NewText: e.NewText})
	}
	we := &protocol.WorkspaceEdit{}
	for _, h := range order {
		one := textEdits(caps, h, byFile[h])
		we.DocumentChanges = append(we.DocumentChanges, one.DocumentChanges...)
		for u, es := range one.Changes {
			if we.Changes == nil {
				we.Changes = map[uri.URI][]protocol.TextEdit{}
			}
			we.Changes[u] = es
		}
	}
	return we, true
}

// textEdits makes a workspace edit of one file: versioned document
// changes when the client takes them (the version of the open document
// the edits were computed on), plain changes otherwise.
func textEdits(caps clientCaps, h *fileHandle, edits []protocol.TextEdit) *protocol.WorkspaceEdit {
	u := uriOf(h)
	if !caps.documentChanges {
		return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{u: edits}}
	}
	tde := &protocol.TextDocumentEdit{TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
		TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}}}
	if h.open {
		v := h.version
		tde.TextDocument.Version = &v
	}
	for i := range edits {
		tde.Edits = append(tde.Edits, &edits[i])
	}
	return &protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{tde}}
}

// ignoreEdit inserts `# scalelint:ignore RULE <reason>` on its own line
// above the finding's line, indented like it. The reason is a snippet
// placeholder where the client takes snippet edits.
func ignoreEdit(snap *Snapshot, h *fileHandle, d *analyzer.Diagnostic, caps clientCaps) *protocol.WorkspaceEdit {
	_, off, _ := snap.span(d.Pos, d.Pos)
	p := h.Mapper().Position(off)
	lineStart := h.Mapper().LineStart(int(p.Line))
	src, ok := h.text()
	if !ok {
		return nil // changed on disk since it was read: its change is on the way
	}
	text := src[lineStart:]
	indent := text[:len(text)-len(bytes.TrimLeft(text, " \t"))]
	at := h.Mapper().Range(lineStart, lineStart)
	prefix := string(indent) + "# scalelint:ignore " + d.Rule + " "
	u := uriOf(h)
	if caps.snippetEdits && caps.documentChanges {
		tde := &protocol.TextDocumentEdit{TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
			TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}}}
		if h.open {
			v := h.version
			tde.TextDocument.Version = &v
		}
		tde.Edits = []protocol.TextDocumentEditElement{&protocol.SnippetTextEdit{Range: at,
			Snippet: protocol.StringValue{Kind: "snippet", Value: escapeSnippet(prefix) + "${1:" + reasonPlaceholder + "}\n"}}}
		return &protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{tde}}
	}
	caps.snippetEdits = false
	return textEdits(caps, h, []protocol.TextEdit{{Range: at, NewText: prefix + reasonPlaceholder + "\n"}})
}

// escapeSnippet escapes the characters a snippet gives a meaning to.
func escapeSnippet(s string) string {
	return strings.NewReplacer(`\`, `\\`, `$`, `\$`, `}`, `\}`).Replace(s)
}

// addAnnotations returns where to insert, and the text of, the named
// scalelint.dev annotations with their example values: under an existing
// block metadata.annotations, into a flow one, or as a new annotations
// block under metadata.
func addAnnotations(o *manifest.Object, names []string) (int, string, bool) {
	f := o.File()
	entries := func(indent int) string {
		var b strings.Builder
		for _, n := range names {
			spec, _ := scaling.SpecOf(n)
			fmt.Fprintf(&b, "%s%s%s: %s\n", strings.Repeat(" ", indent), scaling.Prefix, n, strconv.Quote(spec.Example))
		}
		return b.String()
	}
	meta := o.Get(manifest.Path{manifest.Key("metadata")})
	if meta == nil || meta.Kind != yaml.MappingNode || meta.Style&yaml.FlowStyle != 0 || len(meta.Content) == 0 {
		return 0, "", false
	}
	annKey := o.GetKey(manifest.Path{manifest.Key("metadata"), manifest.Key("annotations")})
	ann := o.Get(manifest.Path{manifest.Key("metadata"), manifest.Key("annotations")})
	switch {
	case ann != nil && ann.Kind == yaml.MappingNode && ann.Style&yaml.FlowStyle == 0 && len(ann.Content) > 0:
		at := nextLine(f.Text(), f.EndOffset(ann))
		return at, leadingBreak(f.Text(), at) + entries(ann.Content[0].Column-1), true
	case ann != nil && ann.Kind == yaml.MappingNode && ann.Style&yaml.FlowStyle != 0:
		closeAt := f.EndOffset(ann) - 1
		if closeAt < 0 || f.Text()[closeAt] != '}' {
			return 0, "", false
		}
		var parts []string
		for _, n := range names {
			spec, _ := scaling.SpecOf(n)
			parts = append(parts, scaling.Prefix+n+": "+strconv.Quote(spec.Example))
		}
		sep := ""
		if len(ann.Content) > 0 {
			sep = ", "
		}
		return closeAt, sep + strings.Join(parts, ", "), true
	case ann == nil || (annKey != nil && ann.Kind == yaml.ScalarNode && ann.Tag == "!!null"):
		if annKey != nil {
			at := nextLine(f.Text(), f.EndOffset(annKey))
			return at, leadingBreak(f.Text(), at) + entries(annKey.Column-1+2), true
		}
		indent := meta.Content[0].Column - 1
		at := nextLine(f.Text(), f.EndOffset(meta))
		return at, leadingBreak(f.Text(), at) + strings.Repeat(" ", indent) + "annotations:\n" + entries(indent+2), true
	}
	return 0, "", false
}

// nextLine returns the offset of the start of the line after the one
// holding off (the end of the text when there is none).
func nextLine(src []byte, off int) int {
	for off < len(src) && src[off] != '\n' {
		off++
	}
	if off < len(src) {
		off++
	}
	return off
}

// leadingBreak is the line break an insertion at the end of a text
// without a final newline needs.
func leadingBreak(src []byte, at int) string {
	if at == len(src) && len(src) > 0 && src[len(src)-1] != '\n' {
		return "\n"
	}
	return ""
}
