package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/scalelint/scalelint/analyzer/workspace"
)

// DidChangeWatchedFiles re-reads the files that changed on disk (an open
// document keeps its overlay), forgets deleted ones, and reconfigures
// when a configuration file changed.
func (s *Server) DidChangeWatchedFiles(ctx context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	s.mu.Lock()
	reconfigure := false
	for _, c := range params.Changes {
		path := pathOf(c.URI)
		if isConfigPath(path) {
			reconfigure = true
		}
		if !s.inWorkspace(path) {
			continue
		}
		if !workspace.IsManifestName(path) {
			// No handle holds it, but a chart may read it (a template
			// helper, .helmignore): render again.
			s.renders.touch()
			continue
		}
		switch c.Type {
		case protocol.FileChangeTypeDeleted:
			delete(s.disk, path)
		default:
			if s.excludedLocked(path) {
				delete(s.disk, path)
				continue
			}
			if h := s.readDisk(path); h != nil {
				s.disk[path] = h
			} else {
				delete(s.disk, path)
			}
		}
	}
	if reconfigure {
		s.reconfigureLocked(ctx, false)
	}
	snap := s.newSnapshotLocked()
	s.mu.Unlock()
	s.scheduleLint(snap)
	return nil
}
