package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/rules"
)

// Hover shows, at the cursor:
//   - on a finding's range, its rule's documentation;
//   - on a scalelint.dev annotation, the annotation's documentation;
//   - on an autoscaler's kind or name, or a field a law reads, the laws
//     evaluated for it (a table) and the annotations they still need;
//   - on a workload's kind, name or annotations, the same for each
//     autoscaler that scales it.
func (s *Server) Hover(ctx context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	snap := s.snapshot(ctx)
	h := snap.File(pathOf(params.TextDocument.URI))
	if h == nil {
		return nil, nil
	}
	off := h.Mapper().Offset(params.Position)
	var sections []string

	diags, err := snap.Diagnostics(ctx)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i := range diags {
		d := &diags[i]
		if dh, start, end := snap.span(d.Pos, d.End); dh != h || off < start || off > end {
			continue
		}
		sections = append(sections, fmt.Sprintf("**%s** (%s): %s", d.Rule, d.Severity, d.Message))
		if a, ok := rules.ByName(d.Rule); ok && !seen[d.Rule] {
			seen[d.Rule] = true
			sections = append(sections, ruleDoc(a))
		}
	}

	if o, off := snap.objectAt(h, off); o != nil {
		ws := snap.Workspace()
		if spec, _, ok := annotationAt(o, off); ok {
			sections = append(sections, annotationDoc(spec))
		}
		if a := autoscalerOf(ws, o); a != nil {
			for _, f := range lawFields(a) {
				if within(o, f, off) {
					sections = append(sections, lawTable(snap, evaluate(snap, a)))
					break
				}
			}
		} else if ws.Workload(o) != nil {
			_, onAnnotation, _ := annotationAt(o, off)
			if within(o, o.KindAt, off) || within(o, nameField(o), off) || onAnnotation {
				for _, a := range scaledBy(ws, o) {
					sections = append(sections, lawTable(snap, evaluate(snap, a)))
				}
			}
		}
	}
	if len(sections) == 0 {
		return nil, nil
	}
	s.mu.Lock()
	markdown := s.caps.markdownHover
	s.mu.Unlock()
	kind := protocol.MarkupKindMarkdown
	if !markdown {
		kind = protocol.MarkupKindPlainText
	}
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: kind, Value: strings.Join(sections, "\n\n---\n\n")}}, nil
}

// ruleDoc renders a rule's documentation with a link to its reference.
func ruleDoc(a *analyzer.Analyzer) string {
	doc := strings.TrimSpace(a.Doc.Markdown(a.Name, a.Severity))
	// The page's headings are too large for a hover: one level down.
	doc = strings.ReplaceAll(doc, "\n### ", "\n#### ")
	if strings.HasPrefix(doc, "## ") {
		doc = "###" + doc[2:]
	}
	if a.URL == "" {
		return doc
	}
	return doc + fmt.Sprintf("\n\n[Rule reference](%s)", a.URL)
}
