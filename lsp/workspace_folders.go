package lsp

import (
	"context"
	"path/filepath"
	"slices"

	"go.lsp.dev/protocol"
)

// DidChangeWorkspaceFolders indexes the folders the client added and
// forgets the ones it removed, so that scale targets resolve across the
// workspace the editor shows, as `scalelint check` of those folders would.
func (s *Server) DidChangeWorkspaceFolders(ctx context.Context, params *protocol.DidChangeWorkspaceFoldersParams) error {
	s.mu.Lock()
	folders := slices.Clone(s.folders)
	for _, f := range params.Event.Removed {
		if f.URI.IsFile() {
			p := absPath(pathOf(f.URI))
			folders = slices.DeleteFunc(folders, func(x string) bool { return x == p })
		}
	}
	for _, f := range params.Event.Added {
		if p := absPath(pathOf(f.URI)); f.URI.IsFile() && !slices.Contains(folders, p) {
			folders = append(folders, p)
		}
	}
	if slices.Equal(folders, s.folders) {
		s.mu.Unlock()
		return nil
	}
	s.log.Info("workspace folders", "folders", folders)
	s.folders = folders
	s.reconfigureLocked(ctx, true) // the configuration file may live in a new folder
	snap := s.newSnapshotLocked()
	s.mu.Unlock()
	s.scheduleLint(snap)
	return nil
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
