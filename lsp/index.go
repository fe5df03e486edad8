package lsp

import (
	"context"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"

	"github.com/scalelint/scalelint/analyzer/workspace"
)

// The workspace index (every manifest of the workspace folders, read from
// disk and parsed) is built in the background, so that initialize, a
// change of folders or of the excludes is answered at once whatever the
// size of the workspace:
//
//   - a walk (workspace.WalkWith: the configured excludes, pseudo-file
//     systems such as /proc and /sys skipped, at most maxIndexedFiles
//     files, reported to the user when the cap is hit), then every file
//     read and parsed in parallel through the parse cache, each within the
//     configuration's limits (size, nodes, time), outside the server's
//     lock;
//   - while it runs, snapshots are marked with it (Snapshot.indexing):
//     their lint is not run, since findings computed without the other
//     files would report scale targets as missing (only their open
//     documents' local findings are published, once the walk is done:
//     early.go); a request on such a
//     snapshot waits for the index and reads the snapshot's open
//     documents over it (Snapshot.withIndex);
//   - when it is done, its files replace the disk index, but for paths a
//     watched-file event or a closed document read again meanwhile (the
//     run's dirty set), and the snapshot it makes is linted;
//   - a newer run (a configuration change, a folder added) cancels it,
//     and its result is dropped.
//
// Meanwhile, the open documents' local findings, which no unread file can
// change, are published once the walk is done (early.go); the others when
// the index is.

// DefaultMaxIndexedFiles is the most files the index reads unless the
// settings say otherwise (maxIndexedFiles): a workspace opened on a home
// directory or on "/" holds far more YAML and JSON than manifests. 40,000
// holds a repository of 10,000 services (testdata/bench/gen_corpus.py:
// 34,000 files, 105 MiB) whole, within the byte cap.
const DefaultMaxIndexedFiles = 40000

// DefaultMaxIndexedBytes is the most bytes of files the index reads unless
// the settings say otherwise (maxIndexedBytes): the server keeps every
// file it indexed, with the positions and views of its objects (not their
// node trees), at about three times its size.
const DefaultMaxIndexedBytes = 128 << 20

// testHookIndex is the method name testHook gets when an index run starts.
const testHookIndex = "scalelint/index"

// testHookIndexRead is the method name testHook gets when an index run
// has walked the folders and starts reading the files.
const testHookIndexRead = "scalelint/index-read"

// indexRun is one build of the disk index.
type indexRun struct {
	done   chan struct{}
	cancel context.CancelFunc
	// disk is the index built, set (under the server's lock) before done
	// is closed, and never changed after; nil when the run was cancelled
	// or superseded.
	disk map[string]*fileHandle
	// dirty are the paths read again from disk while the run went on
	// (guarded by the server's lock): their entries in the server's disk
	// index are newer than the run's.
	dirty map[string]bool
	// early is the walk's plan, set once the walk is done when the open
	// documents may be linted before the files are read (early.go).
	early atomic.Pointer[earlyPlan]
}

// startIndexLocked starts a new build of the disk index of the workspace
// folders with the current configuration, cancelling the one running.
func (s *Server) startIndexLocked() {
	if s.index != nil {
		s.index.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	run := &indexRun{done: make(chan struct{}), cancel: cancel, dirty: map[string]bool{}}
	s.index = run
	lim := workspace.WalkOptions{Exclude: s.cfg.Excluded, MaxFiles: s.settings.maxIndexedFiles, MaxBytes: s.settings.maxIndexedBytes}
	if lim.MaxFiles <= 0 {
		lim.MaxFiles = DefaultMaxIndexedFiles
	}
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = DefaultMaxIndexedBytes
	}
	go s.runIndex(ctx, run, slices.Clone(s.folders), lim, s.cache)
}

// runIndex walks, reads and parses the folders, then installs the result
// if the run is still the current one.
func (s *Server) runIndex(ctx context.Context, run *indexRun, folders []string, lim workspace.WalkOptions, c *parseCache) {
	defer close(run.done)
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("index panicked", "panic", r)
		}
	}()
	if s.testHook != nil {
		s.testHook(ctx, testHookIndex)
	}
	start := time.Now()
	res := workspace.WalkWith(ctx, folders, lim)
	for _, e := range res.Errs {
		s.log.Warn("index", "err", e)
	}
	if len(res.Skipped) > 0 {
		s.log.Info("index: pseudo-filesystems not read", "dirs", res.Skipped)
	}
	// The walk lists every file: the open documents' local findings
	// can be published now (early.go).
	if e := newEarlyPlan(res.Paths); ctx.Err() == nil {
		s.mu.Lock()
		ok, snap := s.planEarlyLocked(run, res.Paths, e), s.snap
		s.mu.Unlock()
		if ok && snap.indexing == run {
			s.scheduleLintAfter(snap, 0)
		}
	}
	if s.testHook != nil {
		s.testHook(ctx, testHookIndexRead)
	}
	handles := make([]*fileHandle, len(res.Paths))
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				handles[i] = s.readDisk(c, res.Paths[i])
			}
		}()
	}
feed:
	for i := range res.Paths {
		select {
		case work <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	if ctx.Err() != nil {
		return
	}
	disk := make(map[string]*fileHandle, len(handles))
	for _, h := range handles {
		if h != nil {
			disk[h.path] = h
		}
	}
	s.mu.Lock()
	if s.index != run || s.shutdown {
		s.mu.Unlock()
		return
	}
	for p := range run.dirty {
		if h, ok := s.disk[p]; ok {
			disk[p] = h
		} else {
			delete(disk, p)
		}
	}
	// run.disk is frozen for the requests that wait for it
	// (Snapshot.withIndex reads it without the lock); the server's disk
	// index is a copy that changes go on updating.
	s.disk, run.disk, s.index = maps.Clone(disk), disk, nil
	s.diskShared = false
	n := len(disk)
	// The index may have met configuration files inside the folders:
	// they govern the files below them, and when their excludes or
	// limits differ, the index is built again with them.
	if fc := s.loadFileConfigLocked(); strings.Join(fc.paths, "\x00") != strings.Join(s.fileCfg.paths, "\x00") {
		prev := excludeKey(s.cfg)
		limits := s.applyFileConfigLocked(ctx)
		s.showConfigErrorLocked(ctx)
		if s.fileCfg.paths == nil {
			s.log.Info("configuration: built-in (no .scalelint.yaml above or in the workspace folders)")
		} else {
			s.log.Info("configuration", "files", s.fileCfg.paths)
		}
		if limits || excludeKey(s.cfg) != prev {
			s.startIndexLocked()
			s.newSnapshotLocked() // linted when the new index is done
			s.mu.Unlock()
			s.log.Info("indexed workspace; indexing again with the configuration files found in it", "folders", folders, "files", n)
			return
		}
	}
	snap := s.newSnapshotLocked()
	snap.afterIndex = true
	s.mu.Unlock()
	s.log.Info("indexed workspace", "folders", folders, "files", n, "bytes", res.Bytes, "took", time.Since(start), "capped", res.Capped)
	if res.Capped {
		s.showMessage(ctx, protocol.MessageTypeWarning, "scalelint: the workspace holds more YAML and JSON than the index reads (%d files or %d MiB: the maxIndexedFiles and maxIndexedBytes settings); only the first %d files (%d MiB) were indexed, so scale targets in the others do not resolve (raise the settings, or exclude directories)",
			lim.MaxFiles, lim.MaxBytes>>20, len(res.Paths), res.Bytes>>20)
	}
	s.scheduleLintAfter(snap, 0) // no keystrokes to wait for
}

// setDiskLocked records a file read again from disk (nil: gone), and marks
// it newer than the index being built, if one is.
func (s *Server) setDiskLocked(path string, h *fileHandle) {
	if s.diskShared {
		s.disk, s.diskShared = maps.Clone(s.disk), false // snapshots hold the old map
	}
	if h != nil {
		s.disk[path] = h
	} else {
		delete(s.disk, path)
	}
	if s.index != nil {
		s.index.dirty[path] = true
	}
}

// waitIndex waits until the index run (or the newer one that superseded
// it) is done, and returns the disk index it left; ok is false when ctx
// ended first.
func (s *Server) waitIndex(ctx context.Context, run *indexRun) (disk map[string]*fileHandle, ok bool) {
	for {
		select {
		case <-run.done:
		case <-ctx.Done():
			return nil, false
		}
		s.mu.Lock()
		disk, next := run.disk, s.index
		if disk == nil && next == nil {
			// Superseded by a run that is done too: its index, as it is
			// now (a copy: changes go on updating the server's).
			disk = maps.Clone(s.disk)
		}
		s.mu.Unlock()
		if disk != nil {
			return disk, true
		}
		run = next
	}
}

// withIndex returns the snapshot's open documents over a complete disk
// index: what a request on a snapshot made while the index was being
// built reads. It is computed once per snapshot.
func (snap *Snapshot) withIndex(disk map[string]*fileHandle) *Snapshot {
	snap.rebaseOnce.Do(func() {
		files := fileSet{disk: &diskIndex{files: disk}, over: map[string]*fileHandle{}}
		for p, h := range snap.files.over {
			if h != nil && h.open {
				files.over[p] = h
			}
		}
		snap.rebased = &Snapshot{id: snap.id, files: files, cfg: snap.cfg, cfgErr: snap.cfgErr, folders: snap.folders, root: snap.root, renderCache: snap.renderCache}
	})
	return snap.rebased
}
