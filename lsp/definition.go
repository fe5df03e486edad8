package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// Definition goes from an autoscaler's scaleTargetRef to the workload it
// resolves to, in whichever file defines it (resolved as the CLI does:
// group, kind, namespace, name, nearest definition first).
func (s *Server) Definition(ctx context.Context, params *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	snap := s.snapshot(ctx)
	h := snap.File(pathOf(params.TextDocument.URI))
	if h == nil {
		return nil, nil
	}
	o, off := snap.objectAt(h, h.Mapper().Offset(params.Position))
	if o == nil {
		return nil, nil
	}
	ws := snap.Workspace()
	a := autoscalerOf(ws, o)
	if a == nil {
		return nil, nil
	}
	ref := o.Get(manifest.ParsePath("spec.scaleTargetRef"))
	if !contains(o, ref, off) && !within(o, a.Target.NameAt, off) {
		return nil, nil
	}
	var out protocol.LocationSlice
	for _, t := range ws.Target(a).Variants {
		if loc, ok := location(snap, t, nameField(t)); ok {
			out = append(out, loc)
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// References lists, from a workload's kind or name, the autoscalers that
// scale it (their scaleTargetRef names), and the workload itself when the
// client asks for the declaration.
func (s *Server) References(ctx context.Context, params *protocol.ReferenceParams) ([]protocol.Location, error) {
	snap := s.snapshot(ctx)
	h := snap.File(pathOf(params.TextDocument.URI))
	if h == nil {
		return nil, nil
	}
	o, off := snap.objectAt(h, h.Mapper().Offset(params.Position))
	if o == nil {
		return nil, nil
	}
	ws := snap.Workspace()
	if !within(o, nameField(o), off) && !within(o, o.KindAt, off) {
		return nil, nil
	}
	var out []protocol.Location
	if params.Context.IncludeDeclaration {
		if loc, ok := location(snap, o, nameField(o)); ok {
			out = append(out, loc)
		}
	}
	for _, a := range ws.Autoscalers().All() {
		for _, v := range ws.Target(a).Variants {
			if v != o {
				continue
			}
			if loc, ok := location(snap, a.Object, a.Target.NameAt); ok {
				out = append(out, loc)
			}
		}
	}
	return out, nil
}

// location is the LSP location of a field's value (the object's kind when
// the field is not written).
func location(snap *Snapshot, o *manifest.Object, f manifest.Field) (protocol.Location, bool) {
	if !f.IsValid() {
		f = o.KindAt
	}
	h, start, end := snap.fieldSpan(o, f)
	if h == nil {
		return protocol.Location{}, false
	}
	return protocol.Location{URI: uriOf(h), Range: h.Mapper().Range(start, end)}, true
}
