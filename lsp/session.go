package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
)

// pathOf returns the path the server keys a document by: the clean file
// system path of a file URI, or the URI itself for other schemes
// (untitled documents).
func pathOf(u uri.URI) string {
	if u.IsFile() {
		return filepath.Clean(u.FsPath())
	}
	return string(u)
}

// fileConfig is the configuration file of the workspace, as loaded.
type fileConfig struct {
	path string // "" when there is none
	cfg  *analyzer.Config
	err  error // a parse error (then cfg is the default)
}

// loadFileConfig finds and parses the .scalelint.yaml of the first
// workspace folder that has one. An open, edited .scalelint.yaml is read
// from its overlay.
func (s *Server) loadFileConfigLocked() fileConfig {
	for _, dir := range s.folders {
		p := analyzer.FindConfig(dir)
		if p == "" {
			continue
		}
		var data []byte
		var err error
		if h, ok := s.overlays[filepath.Clean(p)]; ok {
			data = h.content
		} else {
			data, err = workspace.ReadWhole(p, manifest.DefaultMaxFileSize)
		}
		if err != nil {
			return fileConfig{path: p, cfg: analyzer.DefaultConfig(), err: err}
		}
		cfg, err := analyzer.ParseConfig(p, data, rules.All())
		if err != nil {
			return fileConfig{path: p, cfg: analyzer.DefaultConfig(), err: err}
		}
		return fileConfig{path: p, cfg: cfg}
	}
	return fileConfig{cfg: analyzer.DefaultConfig()}
}

// isConfigPath reports whether a path names a configuration file.
func isConfigPath(p string) bool {
	base := filepath.Base(p)
	for _, n := range analyzer.ConfigFileNames {
		if base == n {
			return true
		}
	}
	return false
}

// reconfigureLocked reloads the configuration file and merges the
// editor's settings over it. It re-indexes the workspace folders when
// forceIndex is set or the excludes changed, and reports configuration
// errors to the user.
func (s *Server) reconfigureLocked(ctx context.Context, forceIndex bool) {
	prevExclude := strings.Join(s.cfg.Exclude, "\x00")
	s.fileCfg = s.loadFileConfigLocked()
	cfg, err := s.settings.merge(s.fileCfg.cfg, s.rootDir())
	settingsErr := ""
	if err != nil {
		settingsErr = fmt.Sprintf("scalelint: editor settings: %v", err)
	}
	s.cfg = cfg
	if l := cfg.Limits.WithDefaults(); l != s.cache.limits {
		// Every parse was made within the old limits: parse everything
		// again, the open documents from their text.
		s.cache = newParseCache(l)
		for p, h := range s.overlays {
			s.overlays[p] = s.cache.newHandle(p, h.uri, h.version, h.open, h.content)
		}
		forceIndex = true
	}
	fileErr := ""
	if s.fileCfg.err != nil {
		fileErr = fmt.Sprintf("scalelint: %v", s.fileCfg.err)
	}
	// Each error is shown once, when it appears: reconfiguring again
	// (initialize, then the settings pulled after it) must not show it
	// twice. The configuration file also holds it as a diagnostic.
	for _, e := range []struct {
		msg   string
		shown *string
	}{{settingsErr, &s.shownSettingsErr}, {fileErr, &s.shownFileErr}} {
		if e.msg != "" && e.msg != *e.shown {
			s.showMessage(ctx, protocol.MessageTypeError, "%s", e.msg)
		}
		*e.shown = e.msg
	}
	if forceIndex || strings.Join(s.cfg.Exclude, "\x00") != prevExclude {
		s.startIndexLocked()
	}
}

// rootDir is the directory the editor settings' paths are relative to.
func (s *Server) rootDir() string {
	if s.fileCfg.path != "" {
		return filepath.Dir(s.fileCfg.path)
	}
	if len(s.folders) > 0 {
		return s.folders[0]
	}
	wd, _ := os.Getwd()
	return wd
}

// readDisk reads and parses a file from disk; nil when it cannot be read
// or is not a regular file (a FIFO is never opened for a blocking read:
// workspace.ReadLimited). It takes no lock: callers read outside the
// server's lock, so a slow disk does not hold up requests.
func (s *Server) readDisk(c *parseCache, path string) *fileHandle {
	path = filepath.Clean(path)
	// At most one byte over the size limit: the parser reports a larger
	// file unread.
	data, err := workspace.ReadLimited(path, int64(c.limits.MaxFileSize))
	if err != nil {
		s.log.Debug("read", "path", path, "err", err)
		return nil
	}
	return c.newHandle(path, uri.File(path), 0, false, data)
}

// inWorkspace reports whether a path is inside a workspace folder.
func (s *Server) inWorkspace(path string) bool {
	for _, f := range s.folders {
		if path == f || strings.HasPrefix(path, f+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// excludedLocked reports whether the configuration excludes a path.
func (s *Server) excludedLocked(path string) bool {
	return filepath.IsAbs(path) && s.cfg.Excluded(path)
}

// newSnapshotLocked makes the next snapshot from the state: the disk
// index with the open documents over it, minus excluded documents.
func (s *Server) newSnapshotLocked() *Snapshot {
	files := make(map[string]*fileHandle, len(s.disk)+len(s.overlays))
	for p, h := range s.disk {
		files[p] = h
	}
	for p, h := range s.overlays {
		if s.excludedLocked(p) {
			delete(files, p)
			continue
		}
		files[p] = h
	}
	s.nextID++
	snap := &Snapshot{id: s.nextID, files: files, cfg: s.cfg, cfgErr: s.fileCfg.err, folders: s.folders, indexing: s.index}
	// Derive from the latest snapshot whose diagnostics are complete (one
	// superseded before its lint ran passes on its own base).
	if prev := s.snap; prev.done.Load() {
		snap.base.Store(prev)
	} else if b := prev.base.Load(); b != nil {
		snap.base.Store(b)
	}
	s.snap = snap
	s.cache.retain(files)
	return snap
}
