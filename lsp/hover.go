package lsp

import (
	"context"
	"fmt"
	"go/token"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
)

// Hover shows, at the cursor:
//   - on a finding's range, its rule's documentation;
//   - on a scalelint.dev annotation, the annotation's documentation;
//   - on an autoscaler's kind or name, or a field a law reads, the laws
//     evaluated for it (a table) and the annotations they still need;
//   - on a workload's kind, name or annotations, the same for each
//     autoscaler that scales it;
//   - on a line of a chart (a values line, a template line) or a
//     kustomization (a patch line) that writes a field a law reads of a
//     rendered autoscaler, the laws evaluated for it, per value set or
//     build.
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
	if snap.renderingOf(h.path) != workspace.NotRendered {
		sections = append(sections, renderedLawTables(snap, h.path, off)...)
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

// renderedLawTables returns the law tables of the rendered autoscalers a
// field of which a chart's or kustomization's line at off writes (the
// values line, the template line, the patch line), one per table, naming
// the value sets or builds that render it so.
func renderedLawTables(snap *Snapshot, path string, off int) []string {
	var tables []string
	sets := map[string][]string{}
	at := func(l render.Location) bool { return l.Path == path && l.Start <= off && off <= l.End }
	for _, g := range snap.renders() {
		for _, u := range g.units(snap) {
			for _, a := range u.Workspace.Autoscalers().All() {
				hit := false
				for _, f := range lawFields(a) {
					if !f.IsValid() {
						continue
					}
					// The value's place (a values line, with the template
					// line related) and the key's (the template or patch).
					for _, r := range [][2]token.Pos{{f.Pos, f.End}, {f.Start(), f.Start()}} {
						l, ok := u.Locate(r[0], r[1])
						if !ok {
							continue
						}
						hit = hit || at(l)
						for _, rel := range l.Related {
							hit = hit || at(rel)
						}
					}
					if hit {
						break
					}
				}
				if !hit {
					continue
				}
				table := lawTable(snap, rules.Evaluations(u.Shared, snap.cfg).Evaluate(u.Workspace, a))
				if _, ok := sets[table]; !ok {
					tables = append(tables, table)
				}
				sets[table] = append(sets[table], u.Set)
			}
		}
	}
	what := "values"
	if snap.renderingOf(path) == workspace.RenderedYAML {
		what = "kustomization"
	}
	for i, t := range tables {
		tables[i] = fmt.Sprintf("Rendered [%s: %s]\n\n%s", what, strings.Join(sets[t], ", "), t)
	}
	return tables
}
