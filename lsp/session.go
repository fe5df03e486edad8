package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
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

// fileConfig is the workspace's configuration files, as loaded: for each
// file, the nearest .scalelint.yaml above it (as the command line finds
// them): the one above each workspace folder (analyzer.FindConfig: never
// above the repository root, the home directory or a child of the
// filesystem root) and those inside the folders.
type fileConfig struct {
	paths []string // the files read; none when there is none
	cfg   *analyzer.Config
	err   error // the first parse error (that file is left out)
}

// loadFileConfigLocked finds and parses the workspace's configuration
// files: above each folder, and inside them (the configuration files the
// index met, or an open one). An open, edited .scalelint.yaml is read from
// its overlay.
func (s *Server) loadFileConfigLocked() fileConfig {
	var found []string
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			found = append(found, p)
		}
	}
	for _, dir := range s.folders {
		add(analyzer.FindConfig(dir))
	}
	var inside []string
	for p := range s.disk {
		if isConfigPath(p) {
			inside = append(inside, p)
		}
	}
	for p := range s.overlays {
		if isConfigPath(p) && s.inWorkspace(p) {
			inside = append(inside, p)
		}
	}
	sort.Strings(inside)
	for _, p := range inside {
		add(p)
	}
	out := fileConfig{}
	var cfgs []*analyzer.Config
	for _, p := range found {
		var data []byte
		var err error
		if h, ok := s.overlays[filepath.Clean(p)]; ok {
			data = h.content
		} else {
			data, err = readConfig(p)
		}
		if err != nil {
			if os.IsNotExist(err) {
				continue // gone since the index
			}
			if out.err == nil {
				out.err = err
			}
			continue
		}
		cfg, err := analyzer.ParseConfig(p, data, rules.All())
		if err != nil {
			if out.err == nil {
				out.err = err
			}
			continue
		}
		out.paths = append(out.paths, p)
		cfgs = append(cfgs, cfg)
	}
	out.cfg = analyzer.DefaultConfig().Scoped(cfgs)
	return out
}

// readConfig reads a configuration file as the command line does: a
// regular file only, opened without waiting on a FIFO's writer (with the
// server's lock held), within the size limit of a manifest.
func readConfig(p string) ([]byte, error) {
	return workspace.ReadWhole(p, manifest.DefaultMaxFileSize)
}

// isConfigPath reports whether a path names a configuration file.
func isConfigPath(p string) bool { return analyzer.IsConfigName(p) }

// reconfigureLocked reloads the configuration files and merges the
// editor's settings over each. It re-indexes the workspace folders when
// forceIndex is set or the excludes changed (and reloads the
// configuration when the index found other configuration files), logs
// which configuration files it uses, and reports configuration errors
// to the user.
func (s *Server) reconfigureLocked(ctx context.Context, forceIndex bool) {
	prevExclude := excludeKey(s.cfg)
	if s.applyFileConfigLocked(ctx) {
		forceIndex = true // every file was parsed within the old limits
	}
	if forceIndex || excludeKey(s.cfg) != prevExclude {
		// In the background: when it is done, it reloads the
		// configuration if it met other configuration files inside the
		// folders (index.go).
		s.startIndexLocked()
	}
	s.showConfigErrorLocked(ctx)
	s.root = workspace.FindRepositoryRoot(s.folders)
	if len(s.fileCfg.paths) == 0 {
		s.log.Info("configuration: built-in (no .scalelint.yaml above or in the workspace folders)")
	} else {
		s.log.Info("configuration", "files", s.fileCfg.paths)
	}
}

// applyFileConfigLocked loads the configuration files and merges the
// settings over them into s.cfg, replacing the parse cache when the
// limits changed (it then reports true: the index must be read again).
func (s *Server) applyFileConfigLocked(ctx context.Context) bool {
	s.fileCfg = s.loadFileConfigLocked()
	cfg, err := s.settings.mergeAll(s.fileCfg.cfg, s.rootDir())
	settingsErr := ""
	if err != nil {
		settingsErr = fmt.Sprintf("scalelint: editor settings: %v", err)
	}
	s.showOnceLocked(ctx, settingsErr, &s.shownSettingsErr)
	s.cfg = cfg
	// One parse cache, one set of limits: those of the configuration that
	// governs the first folder.
	limits := cfg.Limits
	if len(s.folders) > 0 {
		limits = cfg.For(filepath.Join(s.folders[0], "x.yaml")).Limits
	}
	if l := limits.WithDefaults(); l != s.cache.limits {
		// Every parse was made within the old limits: parse everything
		// again, the open documents from their text.
		s.cache = newParseCache(l)
		for p, h := range s.overlays {
			s.overlays[p] = s.cache.newHandle(p, h.uri, h.version, h.open, h.content)
		}
		return true
	}
	return false
}

// showConfigErrorLocked shows the configuration files' error, once.
func (s *Server) showConfigErrorLocked(ctx context.Context) {
	msg := ""
	if s.fileCfg.err != nil {
		msg = fmt.Sprintf("scalelint: %v", s.fileCfg.err)
	}
	s.showOnceLocked(ctx, msg, &s.shownFileErr)
}

// showOnceLocked shows an error message when it differs from the one last
// shown for its source (shown): reconfiguring again (initialize, then the
// settings pulled after it, then the index's configuration files) must not
// show it twice. The configuration file also holds it as a diagnostic.
func (s *Server) showOnceLocked(ctx context.Context, msg string, shown *string) {
	if msg != "" && msg != *shown {
		s.showMessage(ctx, protocol.MessageTypeError, "%s", msg)
	}
	*shown = msg
}

// excludeKey identifies the excludes of a configuration and its scoped
// ones, to tell when the index must be made again.
func excludeKey(c *analyzer.Config) string {
	if c == nil {
		return ""
	}
	var b strings.Builder
	for _, f := range append([]*analyzer.Config{c}, c.ScopedConfigs()...) {
		if len(f.Exclude) == 0 {
			continue // excludes nothing, wherever it is
		}
		b.WriteString(f.Path)
		b.WriteByte(0)
		b.WriteString(strings.Join(f.Exclude, "\x00"))
		b.WriteByte(1)
	}
	return b.String()
}

// rootDir is the directory the editor settings' paths are relative to:
// the first configuration file's, else the first folder.
func (s *Server) rootDir() string {
	if len(s.fileCfg.paths) > 0 {
		return filepath.Dir(s.fileCfg.paths[0])
	}
	if len(s.folders) > 0 {
		return s.folders[0]
	}
	wd, _ := os.Getwd()
	return wd
}

// readDisk reads and parses a file from disk; nil when it cannot be read
// or is not a regular file (a FIFO is never opened for a read that waits
// on a writer: workspace.ReadLimited). It takes no lock: callers read
// outside the server's lock, so a slow disk does not hold up requests.
func (s *Server) readDisk(c *parseCache, path string) *fileHandle {
	path = filepath.Clean(path)
	// At most one byte over the size limit: the parser reports a larger
	// file unread.
	data, err := workspace.ReadLimited(path, int64(c.limits.MaxFileSize))
	if err != nil {
		s.log.Debug("read", "path", path, "err", err)
		return nil
	}
	return c.diskHandle(path, data)
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
	if !s.diskShared || s.diskView == nil {
		s.diskView, s.diskShared = &diskIndex{files: s.disk}, true
	}
	files := fileSet{disk: s.diskView, over: make(map[string]*fileHandle, len(s.overlays))}
	for p, h := range s.overlays {
		if s.excludedLocked(p) {
			files.over[p] = nil
			continue
		}
		files.over[p] = h
	}
	s.nextID++
	snap := &Snapshot{id: s.nextID, files: files, cfg: s.cfg, cfgErr: s.fileCfg.err, folders: s.folders, root: s.root, indexing: s.index, renderCache: &s.renders, testHook: s.testHook}
	// Derive from the latest snapshot whose diagnostics are complete (one
	// superseded before its lint ran passes on its own base), or from the
	// previous one when it lints the whole workspace (the index's lint, a
	// configuration change's): its lint goes on, and this snapshot's waits
	// for it and lints again only what changed since, rather than each edit
	// linting the whole workspace again until one such lint completes.
	prev := s.snap
	switch {
	case prev.done.Load():
		snap.base.Store(prev)
	case prev.whole() && prev.indexing == nil && prev.cfg == snap.cfg:
		snap.base.Store(prev)
	default:
		if b := prev.base.Load(); b != nil {
			snap.base.Store(b)
		}
	}
	// A whole-workspace lint that no newer snapshot derives from is no
	// longer needed: stop it.
	whole := snap.whole()
	if p := s.pending; p != nil && (whole || snap.base.Load() != p) {
		p.stopCompute()
		s.pending = nil
	}
	if whole && snap.indexing == nil {
		snap.compute, snap.stopCompute = context.WithCancel(s.lint.life)
		s.pending = snap
	}
	s.snap = snap
	s.cache.retain(files)
	return snap
}
