package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/protocol"
)

// DidOpen makes the editor's text of a document an overlay over the disk.
func (s *Server) DidOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) error {
	doc := params.TextDocument
	path := pathOf(doc.URI)
	h := s.cache.newHandle(path, doc.URI, doc.Version, true, []byte(doc.Text))
	s.mu.Lock()
	s.overlays[path] = h
	snap := s.afterEditLocked(ctx, path)
	s.mu.Unlock()
	s.scheduleLint(snap)
	return nil
}

// DidChange applies incremental (or whole-document) changes to an open
// document, in order, and makes a new snapshot.
func (s *Server) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) error {
	path := pathOf(params.TextDocument.URI)
	s.mu.Lock()
	h := s.overlays[path]
	if h == nil {
		s.mu.Unlock()
		return fmt.Errorf("didChange for %s, which is not open", params.TextDocument.URI)
	}
	text, err := applyChanges(h.content, params.ContentChanges)
	if err != nil {
		s.mu.Unlock()
		return err
	}
	s.overlays[path] = s.cache.newHandle(path, h.uri, params.TextDocument.Version, true, text)
	snap := s.afterEditLocked(ctx, path)
	s.mu.Unlock()
	s.scheduleLint(snap)
	return nil
}

// checkContentChanges refuses the params of a didChange one of whose
// changes has a "range" that is not a Range (a negative or fractional
// number, null, a string): the protocol package decodes such a change as
// the whole-document kind, whose text would then replace the document.
func checkContentChanges(params []byte) error {
	var p struct {
		ContentChanges []map[string]json.RawMessage `json:"contentChanges"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil // the dispatcher reports what is wrong
	}
	for i, c := range p.ContentChanges {
		raw, ok := c["range"]
		if !ok {
			continue
		}
		var r protocol.Range
		if string(raw) == "null" {
			return invalidParams("contentChanges[%d].range is null", i)
		}
		if err := protocol.Unmarshal(raw, &r); err != nil {
			return invalidParams("contentChanges[%d].range: %v", i, err)
		}
	}
	return nil
}

// applyChanges applies content changes to a text, each to the result of
// the one before.
func applyChanges(text []byte, changes []protocol.TextDocumentContentChangeEvent) ([]byte, error) {
	for _, c := range changes {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			text = []byte(c.Text)
		case *protocol.TextDocumentContentChangePartial:
			m := NewMapper(text)
			start, end, err := m.OffsetRange(c.Range)
			if err != nil {
				return nil, err
			}
			out := make([]byte, 0, len(text)-(end-start)+len(c.Text))
			out = append(out, text[:start]...)
			out = append(out, c.Text...)
			out = append(out, text[end:]...)
			text = out
		default:
			return nil, fmt.Errorf("unknown content change %T", c)
		}
	}
	return text, nil
}

// DidSave needs nothing: the overlay already holds the saved text; a
// client that includes the text replaces it.
func (s *Server) DidSave(ctx context.Context, params *protocol.DidSaveTextDocumentParams) error {
	if params.Text == nil {
		return nil
	}
	path := pathOf(params.TextDocument.URI)
	s.mu.Lock()
	h := s.overlays[path]
	if h == nil || string(h.content) == *params.Text {
		s.mu.Unlock()
		return nil
	}
	s.overlays[path] = s.cache.newHandle(path, h.uri, h.version, true, []byte(*params.Text))
	snap := s.afterEditLocked(ctx, path)
	s.mu.Unlock()
	s.scheduleLint(snap)
	return nil
}

// DidClose drops the overlay: the file is read from disk again when it is
// in a workspace folder, and leaves the snapshot otherwise (its
// diagnostics are then cleared).
func (s *Server) DidClose(ctx context.Context, params *protocol.DidCloseTextDocumentParams) error {
	path := pathOf(params.TextDocument.URI)
	s.mu.Lock()
	read := s.inWorkspace(path) && !s.excludedLocked(path)
	cache := s.cache
	s.mu.Unlock()
	var h *fileHandle
	if read {
		h = s.readDisk(cache, path) // without the lock, as DidChangeWatchedFiles reads
	}
	s.mu.Lock()
	delete(s.overlays, path)
	if read {
		s.setDiskLocked(path, h)
	}
	snap := s.afterEditLocked(ctx, path)
	s.mu.Unlock()
	s.scheduleLint(snap)
	return nil
}

// afterEditLocked makes the snapshot that follows a change of path,
// reconfiguring first when path is the configuration file.
func (s *Server) afterEditLocked(ctx context.Context, path string) *Snapshot {
	if isConfigPath(path) {
		s.reconfigureLocked(ctx, false)
	}
	return s.newSnapshotLocked()
}
