package lsp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/token"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/scalelint/scalelint/analyzer/render/chart"
	"github.com/scalelint/scalelint/analyzer/render/lint"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
)

// The Helm charts and kustomizations of a snapshot are rendered and
// linted as the command line does (analyzer/render/lint): each chart, and
// the kustomizations together, form a render group, identified by its
// inputs (the texts of the files it can read, open documents over the
// disk's, and the configuration; a chart's are its own files and those of
// the charts its dependencies not vendored are taken from,
// chart.DependencyDirs). A group whose inputs an edit did not
// change is the previous snapshot's, findings and all; an edit of a
// template, a values file or a patch renders that group only.
//
//	snapshot files -> lint.Discover -> groups (a key each)
//	              -> renderCache    a group per key, rendered once
//	              -> Snapshot.rendering: the files the groups read, which
//	                 the snapshot's workspace leaves to them
//	              -> renderGroup.byFile: the findings, at the positions of
//	                 the snapshot's files (Snapshot.position)

// renderCache holds the render groups of the latest snapshot, by key.
type renderCache struct {
	mu sync.Mutex
	m  map[string]*renderGroup
	// gen changes when a file on disk changed that no handle holds (a
	// chart's _helpers.tpl): every key with it.
	gen uint64
	// deps remembers each chart's dependency directories (by chart
	// directory).
	deps map[string]*depsMemo
}

// renderGroup is a chart, or the kustomizations, rendered and linted.
type renderGroup struct {
	key  string
	plan lint.Plan
	once sync.Once
	res  *lint.Result

	unitsOnce sync.Once

	diagOnce sync.Once
	byFile   map[string]*fileDiags // unsuppressed findings by path
}

// get returns the group of a key, new when the cache has none.
func (c *renderCache) get(key string, plan lint.Plan) *renderGroup {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g := c.m[key]; g != nil {
		return g
	}
	if c.m == nil {
		c.m = map[string]*renderGroup{}
	}
	g := &renderGroup{key: key, plan: plan}
	c.m[key] = g
	return g
}

// retain keeps only the groups a snapshot holds.
func (c *renderCache) retain(groups []*renderGroup) {
	c.mu.Lock()
	defer c.mu.Unlock()
	keep := make(map[string]*renderGroup, len(groups))
	for _, g := range groups {
		keep[g.key] = g
	}
	c.m = keep
}

// touch makes every key new: a file the groups may read changed on disk.
func (c *renderCache) touch() {
	c.mu.Lock()
	c.gen++
	c.mu.Unlock()
}

func (c *renderCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// renders returns the snapshot's render groups, rendered, and the files
// they read, computed once.
func (s *Snapshot) renders() []*renderGroup {
	s.rendersOnce.Do(func() {
		if s.renderCache == nil {
			return
		}
		paths, plan := s.files.paths()
		if plan.Empty() {
			return
		}
		gen := s.renderCache.generation()
		if b := s.base.Load(); b != nil && s.rendersAsBase(b, gen) {
			s.groups, s.rendering, s.renderInputs, s.renderGen = b.groups, b.rendering, b.renderInputs, gen
			return
		}
		if s.testHook != nil {
			s.testHook(context.Background(), testHookRenderGroups)
		}
		s.renderInputs, s.renderGen = map[string]bool{}, gen
		key := func(kind string, files []string) string {
			h := sha256.New()
			fmt.Fprintf(h, "%s\x00%d\x00%p\x00", kind, gen, s.cfg)
			for _, p := range files {
				s.renderInputs[p] = true
				h.Write([]byte(p))
				h.Write([]byte{0})
				for _, ch := range s.files.get(p).chunks {
					h.Write(ch.hash[:])
					// The group's findings hold positions in these very
					// parses: an open document and the disk file of the
					// same text are parsed apart (cacheKey.released).
					fmt.Fprintf(h, "%p", ch.file)
				}
			}
			return hex.EncodeToString(h.Sum(nil))
		}
		isSource := plan.IsSource()
		// The files holding GitOps objects, and helmfiles, may give a chart
		// the values of a release of it (renderGroup.units,
		// lint.Result.RenderReleases): they are every chart group's inputs
		// too.
		// So do kustomizations with helmCharts entries, which may release
		// a local chart (lint's kustomizeReleases).
		var gitops, releasers []string
		if len(plan.Charts) > 0 {
			for _, p := range paths {
				if plan.InChart(p) {
					continue
				}
				switch {
				case s.holdsGitOps(p) || lint.ListsReleases(p):
					gitops = append(gitops, p)
				case workspace.IsKustomizationName(p) && s.mentions(p, "helmCharts"):
					gitops = append(gitops, p)
					releasers = append(releasers, p)
				}
			}
		}
		for _, dir := range plan.Charts {
			// A chart reads its own directory, and the charts of the
			// tree its dependencies not vendored are taken from (and
			// those looked at for them): their files are the group's
			// inputs too, and which they are is part of its key.
			files := append(under(paths, dir), gitops...)
			kind := "chart " + dir
			for _, d := range s.dependencyDirs(dir, isSource) {
				kind += "\x00" + d
				files = append(files, under(paths, d)...)
			}
			s.groups = append(s.groups, s.renderCache.get(key(kind, files), lint.Plan{Charts: []string{dir}, Sources: plan.Sources, Releasers: releasers}))
		}
		if len(plan.Kustomizations) > 0 {
			// A kustomization reads only below its directory (load
			// restrictions): the files there are the group's inputs.
			dirs := map[string]bool{}
			for _, k := range plan.Kustomizations {
				dirs[filepath.Dir(k)] = true
			}
			// The GitOps roots (a Flux Kustomization, an Argo CD
			// Application) say which kustomizations deploy together
			// (renderGroup.units): the files that hold them are inputs too.
			var files []string
			for _, p := range paths {
				if !plan.InChart(p) && (belowAny(dirs, p) || s.holdsGitOps(p)) {
					files = append(files, p)
				}
			}
			s.groups = append(s.groups, s.renderCache.get(key("kustomize", files), lint.Plan{Kustomizations: plan.Kustomizations}))
		}
		s.rendering = map[string]workspace.Rendering{}
		// The groups render side by side, sharing one bound on the
		// renders in flight and the dependency directories read
		// (lint.Pass): a repository of charts rendered one chart after
		// another kept a processor idle while each chart's last value
		// set rendered.
		pass := lint.NewPass()
		work := make(chan *renderGroup)
		var wg sync.WaitGroup
		for w := 0; w < min(runtime.GOMAXPROCS(0), len(s.groups)); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for g := range work {
					g.render(s, pass)
				}
			}()
		}
		for _, g := range s.groups {
			work <- g
		}
		close(work)
		wg.Wait()
		for _, g := range s.groups {
			g.res.EachRendered(func(p string, r workspace.Rendering) {
				if r != workspace.NotRendered && s.files.get(p) != nil {
					s.rendering[p] = r
				}
			})
		}
		s.renderCache.retain(s.groups)
	})
	return s.groups
}

// testHookRenderGroups is the method name testHook gets when a snapshot
// works out its render groups (not when it takes its base's).
const testHookRenderGroups = "scalelint/render-groups"

// rendersAsBase reports whether the snapshot's render groups are its
// base's: the change since reaches none. The groups' keys would be the
// same: the same configuration and disk generation, the same paths (so
// the same plan), and no changed path among any group's inputs, nor
// holding a GitOps root before or after (which makes a file an input of
// the kustomizations' group). An edit of a plain file in a repository of
// charts no longer hashes every chart's files (bitnami/charts: 3.5 ms of
// an edit) nor lists what they render (2.7 ms).
func (s *Snapshot) rendersAsBase(b *Snapshot, gen uint64) bool {
	if b.renderCache != s.renderCache || b.cfg != s.cfg {
		return false
	}
	b.renders()
	if b.renderInputs == nil || b.renderGen != gen {
		return false
	}
	for _, p := range changedPaths(b, s) {
		if b.files.get(p) == nil || s.files.get(p) == nil || b.renderInputs[p] || b.holdsGitOps(p) || s.holdsGitOps(p) {
			return false
		}
	}
	return true
}

// render renders and lints the group, once, from the snapshot's files:
// the open documents below it over the disk's.
func (g *renderGroup) render(s *Snapshot, pass *lint.Pass) {
	g.once.Do(func() {
		overlay := map[string][]byte{}
		for p, h := range s.files.over {
			if h != nil && h.open {
				overlay[p] = h.content
			}
		}
		root := ""
		if len(s.folders) > 0 {
			root = s.folders[0]
		}
		g.res = lint.Render(context.Background(), g.plan, lint.Options{Analyzers: rules.All(), Config: s.cfg,
			Overlay: overlay, Kinds: ruleKinds, RelativeTo: root, Pass: pass})
	})
}

// diagnostics returns the group's unsuppressed findings by path, at the
// positions of the snapshot's files, computed once: a group is the same
// in every snapshot whose files it reads are the same.
func (g *renderGroup) diagnostics(s *Snapshot) map[string]*fileDiags {
	g.diagOnce.Do(func() {
		ws := s.Workspace()
		g.units(s)
		// Only the workspace's files hold findings (groupByFile): a
		// place in another file the snapshot holds (a values file outside
		// the chart that only a release reads, set aside as no manifest)
		// is not one, so the finding goes to the chart's first line and
		// says so, where it would have been dropped.
		inWorkspace := func(path string, off int) (token.Pos, bool) {
			p, ok := s.position(path, off)
			return p, ok && ws.FileOf(p) != nil
		}
		g.byFile = groupByFile(ws, g.res.Diagnostics(ws, inWorkspace), nil)
		delete(g.byFile, "")
	})
	return g.byFile
}

// units returns the group's units, once the kustomizations a GitOps root
// of the snapshot deploys together are linted as one deployment
// (lint.Result.DeployTogether), as the command line does.
func (g *renderGroup) units(s *Snapshot) []*lint.Unit {
	g.unitsOnce.Do(func() {
		if len(g.plan.Kustomizations) > 0 {
			g.res.DeployTogether(context.Background(), g.res.GitOpsGroups(s.Workspace()))
		}
		if len(g.plan.Charts) > 0 {
			paths, _ := s.files.paths()
			var helmfiles []string
			for _, p := range paths {
				if lint.ListsReleases(p) {
					helmfiles = append(helmfiles, p)
				}
			}
			g.res.RenderReleases(context.Background(), s.Workspace(), helmfiles)
		}
	})
	return g.res.Units
}

// depsMemo is what chart.DependencyDirs answered for a chart, and what it
// asked of the snapshot: the files it read (nil: not there) and which
// directories are charts of the tree. The answer stands for a snapshot
// that answers the same (a file's handle is the same while its text is).
type depsMemo struct {
	reads  map[string]*fileHandle
	charts map[string]bool
	dirs   []string
}

// dependencyDirs returns chart.DependencyDirs of a chart over the
// snapshot's files, remembered from the last snapshot that asked: parsing
// every chart's Chart.yaml at each edit would cost a workspace of a
// hundred charts milliseconds.
func (s *Snapshot) dependencyDirs(dir string, isSource func(string) bool) []string {
	c := s.renderCache
	c.mu.Lock()
	m := c.deps[dir]
	c.mu.Unlock()
	if m != nil && s.answersAs(m, isSource) {
		return m.dirs
	}
	m = &depsMemo{reads: map[string]*fileHandle{}, charts: map[string]bool{}}
	read := func(p string) ([]byte, bool) {
		h := s.files.get(filepath.Clean(p))
		m.reads[filepath.Clean(p)] = h
		if h == nil {
			return nil, false
		}
		return h.text()
	}
	charts := func(d string) bool {
		ok := isSource(d)
		m.charts[d] = ok
		return ok
	}
	m.dirs = chart.DependencyDirs(dir, charts, read)
	c.mu.Lock()
	if c.deps == nil {
		c.deps = map[string]*depsMemo{}
	}
	c.deps[dir] = m
	c.mu.Unlock()
	return m.dirs
}

// answersAs reports whether the snapshot answers what a memo asked as it
// was answered.
func (s *Snapshot) answersAs(m *depsMemo, isSource func(string) bool) bool {
	for p, h := range m.reads {
		if s.files.get(p) != h {
			return false
		}
	}
	for d, ok := range m.charts {
		if isSource(d) != ok {
			return false
		}
	}
	return true
}

// mentions reports whether a file of the snapshot holds a string (its
// text read again when it was dropped).
func (s *Snapshot) mentions(path, what string) bool {
	h := s.files.get(path)
	if h == nil {
		return false
	}
	text, ok := h.text()
	return ok && bytes.Contains(text, []byte(what))
}

// holdsGitOps says whether a file of the snapshot holds a GitOps object.
func (s *Snapshot) holdsGitOps(path string) bool {
	h := s.files.get(path)
	if h == nil {
		return false
	}
	for _, ch := range h.chunks {
		if workspace.HoldsGitOps(ch.file) {
			return true
		}
	}
	return false
}

// renderingOf says how the snapshot's workspace treats a path
// (workspace.Options.Rendered).
func (s *Snapshot) renderingOf(path string) workspace.Rendering {
	return s.rendering[path]
}

// position returns the position of a byte offset of a file of the
// snapshot: in the parsed document (chunk) that holds it.
func (s *Snapshot) position(path string, off int) (token.Pos, bool) {
	h := s.files.get(filepath.Clean(path))
	if h == nil || off < 0 || off > h.size {
		return token.NoPos, false
	}
	for i := len(h.chunks) - 1; i >= 0; i-- {
		ch := h.chunks[i]
		if off < ch.start {
			continue
		}
		rel := off - ch.start
		if rel > ch.file.Tok.Size() {
			return token.NoPos, false
		}
		return ch.file.Tok.Pos(rel), true
	}
	return token.NoPos, false
}

// renderDiagnostics adds the render groups' findings to a snapshot's
// findings by path: a path with findings of both gets a new list, sorted
// by position; the others share the groups' lists (and their protocol
// form) from one snapshot to the next.
func (s *Snapshot) renderDiagnostics(byFile diagMap) diagMap {
	groups := s.renders()
	if len(groups) == 0 {
		return byFile
	}
	merged := map[string]*fileDiags{}
	for _, g := range groups {
		for p, fd := range g.diagnostics(s) {
			prev := merged[p]
			if prev == nil {
				prev = byFile.get(p)
			}
			if prev == nil {
				merged[p] = fd
				continue
			}
			// fileDiags.protocol orders them by position.
			merged[p] = &fileDiags{diags: append(slices.Clip(prev.diags), fd.diags...)}
		}
	}
	return byFile.with(nil, merged)
}

// renderPaths returns the paths whose render findings may differ between
// a base snapshot and s: those of the groups one has and the other not.
func renderPaths(b, s *Snapshot) map[string]bool {
	out := map[string]bool{}
	in := func(gs []*renderGroup, g *renderGroup) bool {
		for _, x := range gs {
			if x == g {
				return true
			}
		}
		return false
	}
	for _, pair := range [][2]*Snapshot{{b, s}, {s, b}} {
		for _, g := range pair[0].renders() {
			if in(pair[1].renders(), g) {
				continue
			}
			for p := range g.diagnostics(pair[0]) {
				out[p] = true
			}
		}
	}
	return out
}

// under returns the paths below a directory (sorted paths in, sorted out).
func under(paths []string, dir string) []string {
	// paths is sorted, so the paths below dir (those that start with dir
	// and a separator) are one run of it: found by binary search, not by
	// a filepath.Rel of every path for every chart at every edit (a
	// workspace of 139 charts and 3,400 files spent most of an edit
	// there).
	prefix := filepath.Clean(dir)
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	i, _ := slices.BinarySearch(paths, prefix)
	j := i
	for j < len(paths) && strings.HasPrefix(paths[j], prefix) {
		j++
	}
	return slices.Clip(paths[i:j])
}

// belowAny reports whether a path is below one of the directories.
func belowAny(dirs map[string]bool, p string) bool {
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		if dirs[d] {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}
