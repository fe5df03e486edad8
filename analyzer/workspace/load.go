package workspace

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/traffic"
)

// skipDirs are directories a walk never enters: version control, and
// vendored or generated trees that are not the repository's manifests.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, "vendor": true, "node_modules": true,
	".terraform": true, ".venv": true, "__pycache__": true,
}

// IsManifestName reports whether a walk reads a file by its name.
func IsManifestName(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return IsKustomizationName(p)
}

// WalkError is a path a walk could not read.
type WalkError struct {
	Path string
	Err  error
}

func (e *WalkError) Error() string { return fmt.Sprintf("%s: %v", e.Path, e.Err) }

// Walk expands files and directories into the manifest files to read,
// sorted. Directories are read recursively; symbolic links to files are
// read, links to directories are not followed (no loops); FIFOs, devices
// and sockets are skipped, and so are pseudo-filesystems (/proc, /sys,
// /dev and their kind: PseudoFS). exclude, when set, drops paths found in
// directories (files named explicitly are always read). Directories are
// read on every core (walker.parallel) unless a limit is set (WalkWith).
func Walk(roots []string, exclude func(path string) bool) ([]string, []error) {
	r := WalkWith(context.Background(), roots, WalkOptions{Exclude: exclude})
	return r.Paths, r.Errs
}

// WalkOptions tune WalkWith.
type WalkOptions struct {
	Exclude func(path string) bool
	// MaxFiles, when positive, stops the walk at that many files
	// (WalkResult.Capped): the language server's index of a workspace
	// opened on a home directory or on "/". MaxBytes, when positive,
	// stops it before the files found pass that many bytes in all (one
	// lstat a file).
	MaxFiles int
	MaxBytes int64
}

// WalkResult is what WalkWith found.
type WalkResult struct {
	Paths []string // sorted
	Errs  []error
	// Capped is set when MaxFiles or MaxBytes stopped the walk: Paths
	// are the first files found, in walk order, then sorted.
	Capped bool
	Bytes  int64 // the size of the files found, when MaxBytes is set
	// Skipped are the pseudo-filesystem mount points not entered.
	Skipped []string
}

// errCapped stops a walk at its file limit.
var errCapped = errors.New("file limit reached")

// WalkWith is Walk with a file limit, the pseudo-filesystems skipped
// reported, and a context that stops it (its error then joins Errs).
func WalkWith(ctx context.Context, roots []string, o WalkOptions) WalkResult {
	var r WalkResult
	exclude := o.Exclude
	pseudo := PseudoFS()
	seen := map[string]bool{}
	add := func(p string) error {
		if !seen[p] {
			if o.MaxFiles > 0 && len(r.Paths) >= o.MaxFiles {
				r.Capped = true
				return errCapped
			}
			if o.MaxBytes > 0 {
				st, err := os.Stat(p)
				if err != nil {
					return nil // gone: nothing to read
				}
				if r.Bytes+st.Size() > o.MaxBytes {
					r.Capped = true
					return errCapped
				}
				r.Bytes += st.Size()
			}
			seen[p] = true
			r.Paths = append(r.Paths, p)
		}
		return nil
	}
	for _, root := range roots {
		if r.Capped {
			break
		}
		st, err := os.Stat(root)
		if err != nil {
			r.Errs = append(r.Errs, &WalkError{root, unwrapPathError(err)})
			continue
		}
		if !st.IsDir() {
			if st.Mode().IsRegular() {
				add(root)
			} else {
				r.Errs = append(r.Errs, &WalkError{root, ErrNotRegular})
			}
			continue
		}
		absRoot, _ := filepath.Abs(root)
		if real, err := filepath.EvalSymlinks(absRoot); err == nil {
			absRoot = real // a link to /proc is /proc
		}
		// A directory named on the command line is read even when the
		// name is a symbolic link (links met below it are not followed):
		// WalkDir reads a root link as a file, but through "link/" it
		// reads the directory.
		walkRoot := root
		if lst, err := os.Lstat(root); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
			walkRoot = root + string(filepath.Separator)
		}
		w := &walker{ctx: ctx, exclude: exclude, pseudo: pseudo, root: root, walkRoot: walkRoot, absRoot: absRoot}
		if o.MaxFiles == 0 && o.MaxBytes == 0 {
			// No limit depends on the order files are found in: the
			// directories are read on every core (walker.parallel).
			var found []string
			found, err = w.parallel(&r.Errs, &r.Skipped)
			for _, p := range found {
				add(p)
			}
		} else {
			err = filepath.WalkDir(walkRoot, func(p string, d fs.DirEntry, err error) error {
				return w.visit(p, d, err, add, &r.Errs, &r.Skipped)
			})
		}
		if err != nil && err != errCapped {
			r.Errs = append(r.Errs, &WalkError{root, err})
		}
	}
	sort.Strings(r.Paths)
	return r
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// LoadReleased reads and parses files in parallel for a workspace built
// with Options.Release: each file's scaling views are built as soon as it
// is parsed, then its node trees and its text are dropped (the text is
// read again from disk when a finding in it is printed; the memory of the
// texts dropped is read into again: manifest.File.DropTextInto), so a run
// over thousands of files holds the index, not the files. It returns the files
// it could read, in the order given, and an error for each it could not.
// progress, when given, is called after each file (from the loading
// goroutines).
func LoadReleased(fset *token.FileSet, paths []string, opts manifest.Options, progress ...func()) ([]*manifest.File, []error) {
	opts.Recycle = true
	return load(fset, paths, opts, true, progress)
}

// Prepare builds the scaling views of a file's parsed objects (they are
// memoized on each object) and, with release, drops its node trees.
func Prepare(f *manifest.File, release bool) {
	if IsKustomizationName(f.Path) {
		return // read in full by buildScopes
	}
	for _, d := range f.Docs {
		if !d.Parsed() {
			continue
		}
		for _, o := range d.Objects() {
			scaling.FromObject(o)
			scaling.WorkloadFromObject(o)
			traffic.FromObject(o)
			scaling.BudgetFromObject(o)
		}
	}
	if release {
		f.Release()
	}
}

func load(fset *token.FileSet, paths []string, opts manifest.Options, release bool, progress []func()) ([]*manifest.File, []error) {
	files := make([]*manifest.File, len(paths))
	errs := make([]error, len(paths))
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < 2*runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := newLoader(fset, opts, release)
			defer l.stop()
			for i := range work {
				files[i], errs[i] = l.load(paths[i])
				for _, p := range progress {
					p()
				}
			}
		}()
	}
	for i := range paths {
		work <- i
	}
	close(work)
	wg.Wait()
	var outFiles []*manifest.File
	var outErrs []error
	for i := range paths {
		if files[i] != nil {
			outFiles = append(outFiles, files[i])
		}
		if errs[i] != nil {
			outErrs = append(outErrs, errs[i])
		}
	}
	return outFiles, outErrs
}

// loader reads and parses files one at a time (and, with release, builds
// their views and drops their trees and text), each within the time
// limit: manifest.Parse stops at its next document once the file's time
// is up (Options.Deadline) and refuses the rest with an input-limit
// problem, so no parse goes on after it. The loader's own timer, half as
// long again, is for a read that never returns (a file system that
// hangs): that file is refused whole and its read abandoned.
//
// The work runs on a goroutine the loader keeps from file to file, not
// one per file: a new goroutine's stack grows to what parsing and
// decoding need by copying, and at 34,000 files that copying was 6% of a
// run's CPU time.
type loader struct {
	fset    *token.FileSet
	opts    manifest.Options
	lim     manifest.Limits
	release bool
	jobs    chan loadJob // to the worker goroutine; replaced when abandoned
	timer   *time.Timer
}

type loadJob struct {
	path string
	done chan loadResult // buffered: an abandoned worker never blocks
}

type loadResult struct {
	f   *manifest.File
	err error
}

func newLoader(fset *token.FileSet, opts manifest.Options, release bool) *loader {
	l := &loader{fset: fset, opts: opts, lim: opts.Limits.WithDefaults(), release: release, timer: time.NewTimer(time.Hour)}
	l.timer.Stop()
	l.startWorker()
	return l
}

func (l *loader) startWorker() {
	jobs := make(chan loadJob)
	l.jobs = jobs
	go func() {
		for j := range jobs {
			j.done <- l.parse(j.path)
		}
	}()
}

// stop ends the worker goroutine once it is idle.
func (l *loader) stop() { close(l.jobs) }

// load reads and parses one file within the time limit.
func (l *loader) load(path string) (*manifest.File, error) {
	done := make(chan loadResult, 1)
	l.jobs <- loadJob{path, done}
	l.timer.Reset(l.lim.Timeout + l.lim.Timeout/2)
	select {
	case r := <-done:
		l.timer.Stop()
		return r.f, r.err
	case <-l.timer.C:
		// The worker is still busy with this file: leave it to finish
		// (closing its queue ends it then) and start another.
		l.stop()
		l.startWorker()
		// No text: the read itself may be what hangs. The problem sits
		// at the file's start.
		return manifest.Refuse(l.fset, path, nil, l.opts, fmt.Sprintf("reading the file took longer than the time limit of %s; not linted", l.lim.Timeout)), nil
	}
}

// parse reads and parses one file (and, with release, builds its views
// and drops its trees and text).
func (l *loader) parse(path string) loadResult {
	opts := l.opts
	opts.Deadline = time.Now().Add(l.lim.Timeout)
	readStart := startTiming()
	var buf []byte
	if l.release {
		buf = manifest.TextBuffer() // a text dropped before: see DropTextInto below
	}
	data, err := ReadLimitedInto(path, int64(l.lim.MaxFileSize), buf)
	addTiming(&tRead, readStart)
	if err != nil {
		return loadResult{err: &WalkError{path, unwrapPathError(err)}}
	}
	f := manifest.Parse(l.fset, path, data, opts)
	if l.release {
		viewStart := startTiming()
		Prepare(f, true)
		addTiming(&tViews, viewStart)
		// The line tables go too (what asks for a line reads the file
		// again, or took the line while the table was at hand: an
		// autoscaler's NameLine, an annotation's or a probe's Input.Line).
		// Nothing of the parse holds the text
		// (trees, views and problems copy what they keep), so its
		// memory is read into again, here and when the report reads
		// files again: the 68 MB of a run of 10,000 services, and what is
		// read again for each file with a finding, were that much
		// garbage.
		maxSize := int64(l.lim.MaxFileSize)
		f.DropTextInto(func(buf []byte) ([]byte, error) { return ReadLimitedInto(path, maxSize, buf) }, true)
	}
	return loadResult{f: f}
}
