package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/scalelint/scalelint/analyzer/workspace"
)

// DidChangeWatchedFiles re-reads the files that changed on disk (an open
// document keeps its overlay), forgets deleted ones, and reconfigures
// when a configuration file changed. The files are read without the
// server's lock (requests take it to read the current snapshot), and only
// regular files are (a FIFO, or a file replaced by one, is never opened
// for a read that waits on a writer: workspace.ReadLimited).
func (s *Server) DidChangeWatchedFiles(ctx context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	s.mu.Lock()
	reconfigure := false
	type change struct {
		path string
		read bool // read it again; false: forget it
		h    *fileHandle
	}
	var changes []change
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
		read := c.Type != protocol.FileChangeTypeDeleted && !s.excludedLocked(path)
		changes = append(changes, change{path: path, read: read})
	}
	cache := s.cache
	s.mu.Unlock()
	// Notifications run one at a time on the read loop: nothing else
	// changes the disk index or the cache while the lock is not held (the
	// index being built in the background marks these paths newer).
	for i := range changes {
		if changes[i].read {
			changes[i].h = s.readDisk(cache, changes[i].path)
		}
	}
	s.mu.Lock()
	for _, c := range changes {
		s.setDiskLocked(c.path, c.h)
	}
	if reconfigure {
		s.reconfigureLocked(ctx, false)
	}
	snap := s.newSnapshotLocked()
	s.mu.Unlock()
	s.scheduleLint(snap)
	return nil
}
