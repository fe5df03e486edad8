package workspace

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// walker is the walk of one root of WalkWith: what it skips, and how it
// sees each file and directory (visit).
type walker struct {
	ctx                     context.Context
	exclude                 func(path string) bool
	pseudo                  pseudoMounts
	root, walkRoot, absRoot string
}

// visit is the walk's fs.WalkDirFunc: it adds a manifest file found
// (add), records a path that could not be read in errs and a
// pseudo-filesystem not entered in skipped, and says which directories
// are not entered (fs.SkipDir).
func (w *walker) visit(p string, d fs.DirEntry, err error, add func(string) error, errs *[]error, skipped *[]string) error {
	if cerr := w.ctx.Err(); cerr != nil {
		return cerr
	}
	if err != nil {
		*errs = append(*errs, &WalkError{p, unwrapPathError(err)})
		if d != nil && d.IsDir() {
			return fs.SkipDir
		}
		return nil
	}
	if d.IsDir() {
		if p != w.root && p != w.walkRoot && (skipDirs[d.Name()] || (w.exclude != nil && w.exclude(p))) {
			return fs.SkipDir
		}
		if len(w.pseudo) > 0 {
			abs := w.absRoot
			if p != w.root {
				abs = filepath.Join(w.absRoot, strings.TrimPrefix(p, w.root))
			}
			if w.pseudo.holds(abs) {
				*skipped = append(*skipped, p)
				return fs.SkipDir
			}
		}
		return nil
	}
	if !IsManifestName(p) || (w.exclude != nil && w.exclude(p)) {
		return nil
	}
	switch t := d.Type(); {
	case t.IsRegular():
		return add(p)
	case t&fs.ModeSymlink != 0:
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return add(p)
		}
	}
	return nil
}

// parallel walks the root as filepath.WalkDir with visit would, and finds
// the same files, errors and skipped directories in the same order, but
// reads directories on several goroutines: a tree of 10,000 directories
// is 10,000 opens and reads of a directory, which on one core took as
// long as a sixth of the whole run. It returns the files found, in
// walk order, and the context's error if it stopped the walk.
func (w *walker) parallel(errs *[]error, skipped *[]string) ([]string, error) {
	pw := &parallelWalk{w: w, tokens: make(chan struct{}, 2*runtime.GOMAXPROCS(0))}
	top := &subtree{segs: []segment{{}}}
	if info, err := os.Lstat(w.walkRoot); err != nil {
		pw.visit(w.walkRoot, nil, err, top)
	} else {
		pw.dir(w.walkRoot, fs.FileInfoToDirEntry(info), top)
	}
	pw.wg.Wait()
	var found []string
	top.flatten(&found, errs, skipped)
	if pw.stopped != nil {
		return found, pw.stopped
	}
	return found, nil
}

// parallelWalk is the state of walker.parallel: the goroutines it may
// still start (tokens) and the first context error seen.
type parallelWalk struct {
	w       *walker
	tokens  chan struct{}
	wg      sync.WaitGroup
	mu      sync.Mutex
	stopped error
	stop    atomic.Bool // stopped is set
}

// subtree is what the walk of a directory found, in walk order: its
// segments, each what was found on its goroutine up to the point where a
// subdirectory went to another goroutine (sub), whose findings come next.
type subtree struct{ segs []segment }

type segment struct {
	paths, skipped []string
	errs           []error
	sub            *subtree
}

func (t *subtree) flatten(paths *[]string, errs *[]error, skipped *[]string) {
	for _, s := range t.segs {
		*paths = append(*paths, s.paths...)
		*errs = append(*errs, s.errs...)
		*skipped = append(*skipped, s.skipped...)
		if s.sub != nil {
			s.sub.flatten(paths, errs, skipped)
		}
	}
}

// visit calls the walker's visit with t's last segment as the place of
// what it finds.
func (pw *parallelWalk) visit(p string, d fs.DirEntry, err error, t *subtree) error {
	s := &t.segs[len(t.segs)-1]
	err = pw.w.visit(p, d, err, func(p string) error { s.paths = append(s.paths, p); return nil }, &s.errs, &s.skipped)
	if err != nil && err != fs.SkipDir {
		pw.mu.Lock()
		if pw.stopped == nil {
			pw.stopped = err
			pw.stop.Store(true)
		}
		pw.mu.Unlock()
	}
	return err
}

// dir walks p as filepath.WalkDir's walkDir does (visit p; unless it is a
// directory not entered, read it, sorted, and walk each entry), handing
// subdirectories to new goroutines while tokens are free.
func (pw *parallelWalk) dir(p string, d fs.DirEntry, t *subtree) {
	if err := pw.visit(p, d, nil, t); err != nil || !d.IsDir() {
		return
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		// visit returns fs.SkipDir for a directory it could not read
		// (WalkDir, too, then reads none of the entries it got).
		if pw.visit(p, d, err, t) != nil {
			return
		}
	}
	for _, e := range entries {
		if pw.isStopped() {
			return
		}
		child := filepath.Join(p, e.Name())
		if e.IsDir() {
			select {
			case pw.tokens <- struct{}{}:
				sub := &subtree{segs: []segment{{}}}
				t.segs = append(t.segs, segment{sub: sub}, segment{})
				pw.wg.Add(1)
				go func() {
					defer pw.wg.Done()
					defer func() { <-pw.tokens }()
					pw.dir(child, e, sub)
				}()
				continue
			default:
			}
		}
		pw.dir(child, e, t)
	}
}

func (pw *parallelWalk) isStopped() bool { return pw.stop.Load() }
