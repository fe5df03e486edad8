package chart

import (
	"path/filepath"
	"sync"

	"helm.sh/helm/v4/pkg/ignore"

	"github.com/scalelint/scalelint/analyzer/render"
)

// Trees holds the dependency directories a run's charts take from the
// tree (deps.go), each read once and shared: every chart of
// bitnami/charts takes bitnami/common, which 139 charts read 139 times and
// held as many copies of. The bytes are shared, never written (a render
// replaces a template's bytes, not the bytes in them).
type Trees struct {
	mu sync.Mutex
	m  map[string]*readTree
}

// NewTrees returns an empty set of directories read, for one run.
func NewTrees() *Trees { return &Trees{m: map[string]*readTree{}} }

// readTree is a dependency directory read with a chart's whole input
// limit.
type readTree struct {
	once        sync.Once
	rules       *ignore.Rules
	tree        []render.TreeFile
	size, count int
	ignoreSize  int  // of its .helmignore, which is read with the limit too
	full        bool // read without a problem: not cut by a limit, nothing unreadable
}

// fits reports whether a read within lim gives what this read gave.
func (d *readTree) fits(lim render.Limits) bool {
	return d.size <= lim.MaxInput && d.count <= lim.MaxFiles && d.ignoreSize <= lim.MaxInput
}

// get returns a dependency directory as read (once per run) with the
// input limits lim, and whether it was read in full; a chart takes it if
// it also fits in what its own limits leave (fits), as a read of its own
// would then give the same files. A chart's own directory (root) is read once
// per run anyway and is never shared.
func (t *Trees) get(dir string, lim render.Limits, root bool) (*readTree, bool) {
	if t == nil || root {
		return nil, false
	}
	dir = filepath.Clean(dir)
	t.mu.Lock()
	d, ok := t.m[dir]
	if !ok {
		d = &readTree{}
		t.m[dir] = d
	}
	t.mu.Unlock()
	d.once.Do(func() {
		var problems []render.Problem
		d.rules, d.tree, problems = readDir(dir, false, lim)
		d.full = len(problems) == 0
		if data, err := render.ReadFile(filepath.Join(dir, ignore.HelmIgnore), lim.MaxInput); err == nil {
			d.ignoreSize = len(data)
		}
		for _, f := range d.tree {
			d.size += len(f.Data)
			d.count++
		}
	})
	return d, d.full
}
