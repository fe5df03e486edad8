package workspace

import (
	"path"
	"path/filepath"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// RootKind is what declares a deployment root.
type RootKind int

const (
	// KustomizeRoot is a kustomization file no other kustomization
	// includes: kubectl apply -k, kustomize build.
	KustomizeRoot RootKind = iota
	// FluxKustomization is the spec.path of a Flux Kustomization
	// (kustomize.toolkit.fluxcd.io): the kustomization there, or, when
	// there is none, every manifest below it, each subdirectory that
	// holds a kustomization taken as that kustomization (Flux generates
	// one: https://github.com/fluxcd/pkg/blob/main/kustomize/kustomize_generator.go).
	FluxKustomization
	// ArgoApplication is the spec.source.path (or each spec.sources[].path)
	// of an Argo CD Application: the kustomization there, else the
	// manifests in that directory, and below it with directory.recurse
	// (https://argo-cd.readthedocs.io/en/stable/user-guide/directory/).
	ArgoApplication
	// ArgoApplicationSet is the path of an ApplicationSet's template,
	// one root per directory its git directory generator matches.
	ArgoApplicationSet
	// FluxHelmRelease is the chart directory of a Flux HelmRelease whose
	// chart comes from a GitRepository (helm.toolkit.fluxcd.io): recorded,
	// and rendered, not read, as a chart.
	FluxHelmRelease
)

var rootKindNames = [...]string{"kustomization", "Flux Kustomization", "Argo CD Application", "Argo CD ApplicationSet", "Flux HelmRelease"}

func (k RootKind) String() string { return rootKindNames[k] }

// Root is a deployment root: what one tool applies as one unit. Objects
// under one root are deployed together (DeployedTogether).
type Root struct {
	Kind RootKind
	// Path is the kustomization file (KustomizeRoot) or the directory a
	// GitOps object deploys, written as the workspace's file paths are
	// (slash-separated; GitOps paths resolved against the repository
	// root, Options.RepositoryRoot). An Argo CD Application with several
	// sources deploys them all as one root: Paths lists them (Path is the
	// first).
	Path  string
	Paths []string
	// Object is the GitOps object that declares the root; nil for a
	// kustomization file.
	Object *manifest.Object
	// Recurse is set for a directory root that deploys its
	// subdirectories too (Flux always; Argo CD with directory.recurse).
	Recurse bool
	// Helm is set for a chart root (a Flux HelmRelease's chart, an Argo CD
	// source with helm settings): recorded for chart rendering.
	Helm bool
	// Empty is set when no input lies under the path: the directory is
	// not among the inputs, or not in this repository.
	Empty bool
}

// String names the root for messages: the declaring object and its path.
func (r *Root) String() string {
	if r.Object == nil {
		return r.Path
	}
	paths := r.Paths
	if len(paths) == 0 {
		paths = []string{r.Path}
	}
	return r.Kind.String() + " " + quoteName(r.Object) + " (" + strings.Join(paths, ", ") + ")"
}

func quoteName(o *manifest.Object) string {
	if o.Namespace != "" {
		return `"` + o.Namespace + "/" + o.Name + `"`
	}
	return `"` + o.Name + `"`
}

// gitopsDecl is one root a GitOps object declares, before its path is
// resolved to files.
type gitopsDecl struct {
	kind      RootKind
	object    *manifest.Object
	path      string   // relative to the repository root, as written
	patterns  []string // ApplicationSet git directory generator includes (path is templated)
	excludes  []string // and its excludes
	namespace string
	override  bool // the namespace replaces the objects' own (Flux targetNamespace)
	recurse   bool
	helm      bool
	// source names where the path is read from: a Flux sourceRef
	// (kind/name), an Argo CD repoURL; "" for the repository itself.
	sourceKind, sourceName, repoURL string
}

// isGitOpsKind reports whether a sniffed kind may declare a root (the
// group is checked once parsed).
func isGitOpsKind(kind string) bool {
	switch kind {
	case "Kustomization", "Application", "ApplicationSet", "HelmRelease":
		return true
	}
	return false
}

// HoldsGitOps reports whether a file holds a document of a kind that may
// declare a deployment root: a change to it may change every file's
// roots.
func HoldsGitOps(f *manifest.File) bool {
	if IsKustomizationName(f.Path) {
		return false
	}
	for _, d := range f.Docs {
		if isGitOpsKind(d.Kind) {
			return true
		}
	}
	return false
}

// readGitOps reads the roots the GitOps objects among files declare;
// patches (kustomize patch files) declare none.
func readGitOps(files []*manifest.File, patches map[string]bool) []gitopsDecl {
	var out []gitopsDecl
	for _, f := range files {
		if !HoldsGitOps(f) || f.Template || patches[f.SlashPath()] {
			continue
		}
		for _, d := range f.Docs {
			if !isGitOpsKind(d.Kind) {
				continue
			}
			for _, o := range d.Objects() {
				out = append(out, declsOf(o)...)
			}
		}
	}
	return out
}

// declsOf returns the roots one object declares.
func declsOf(o *manifest.Object) []gitopsDecl {
	n := o.Root()
	if n == nil {
		return nil
	}
	str := func(n *yaml.Node, keys ...string) (string, bool) {
		v := get(n, keys...)
		if v == nil || v.Kind != yaml.ScalarNode {
			return "", false
		}
		return v.Value, true
	}
	switch {
	case o.Group == "kustomize.toolkit.fluxcd.io" && o.Kind == "Kustomization":
		p, _ := str(n, "spec", "path")
		d := gitopsDecl{kind: FluxKustomization, object: o, path: p, recurse: true}
		d.namespace, _ = str(n, "spec", "targetNamespace")
		d.override = d.namespace != ""
		d.sourceKind, _ = str(n, "spec", "sourceRef", "kind")
		d.sourceName, _ = str(n, "spec", "sourceRef", "name")
		return []gitopsDecl{d}
	case o.Group == "helm.toolkit.fluxcd.io" && o.Kind == "HelmRelease":
		kind, _ := str(n, "spec", "chart", "spec", "sourceRef", "kind")
		chart, ok := str(n, "spec", "chart", "spec", "chart")
		if !ok || kind != "GitRepository" {
			return nil // a chart from a Helm or OCI repository: no path here
		}
		d := gitopsDecl{kind: FluxHelmRelease, object: o, path: chart, recurse: true, helm: true,
			sourceKind: kind}
		d.sourceName, _ = str(n, "spec", "chart", "spec", "sourceRef", "name")
		d.namespace, _ = str(n, "spec", "targetNamespace")
		d.override = d.namespace != ""
		return []gitopsDecl{d}
	case o.Group == "argoproj.io" && o.Kind == "Application":
		return argoDecls(o, get(n, "spec"), ArgoApplication, nil, nil)
	case o.Group == "argoproj.io" && o.Kind == "ApplicationSet":
		spec := get(n, "spec", "template", "spec")
		var includes, excludes []string
		if gens := get(n, "spec", "generators"); gens != nil && gens.Kind == yaml.SequenceNode {
			for _, g := range gens.Content {
				dirs := get(g, "git", "directories")
				if dirs == nil || dirs.Kind != yaml.SequenceNode {
					continue
				}
				for _, e := range dirs.Content {
					p, ok := str(e, "path")
					if !ok {
						continue
					}
					if ex, _ := str(e, "exclude"); ex == "true" {
						excludes = append(excludes, p)
					} else {
						includes = append(includes, p)
					}
				}
			}
		}
		return argoDecls(o, spec, ArgoApplicationSet, includes, excludes)
	}
	return nil
}

// argoDecls reads the sources of an Argo CD Application spec (or an
// ApplicationSet's template spec).
func argoDecls(o *manifest.Object, spec *yaml.Node, kind RootKind, includes, excludes []string) []gitopsDecl {
	if spec == nil {
		return nil
	}
	ns := ""
	if v := get(spec, "destination", "namespace"); v != nil && v.Kind == yaml.ScalarNode {
		ns = v.Value
	}
	var sources []*yaml.Node
	if s := get(spec, "source"); s != nil && s.Kind == yaml.MappingNode {
		sources = append(sources, s)
	}
	if ss := get(spec, "sources"); ss != nil && ss.Kind == yaml.SequenceNode {
		sources = append(sources, ss.Content...)
	}
	var out []gitopsDecl
	for _, s := range sources {
		p := get(s, "path")
		if p == nil || p.Kind != yaml.ScalarNode {
			continue // a chart from a Helm repository, or no source here
		}
		d := gitopsDecl{kind: kind, object: o, path: p.Value, namespace: ns}
		if u := get(s, "repoURL"); u != nil && u.Kind == yaml.ScalarNode {
			d.repoURL = u.Value
		}
		if r := get(s, "directory", "recurse"); r != nil && r.Kind == yaml.ScalarNode && r.Value == "true" {
			d.recurse = true
		}
		d.helm = get(s, "helm") != nil
		if strings.Contains(d.path, "{{") {
			if len(includes) == 0 {
				continue // a templated path no generator here resolves
			}
			d.patterns, d.excludes = includes, excludes
		}
		out = append(out, d)
	}
	return out
}

// get returns the value at keys in a mapping, or nil.
func get(n *yaml.Node, keys ...string) *yaml.Node {
	p := make(manifest.Path, len(keys))
	for i, k := range keys {
		p[i] = manifest.Key(k)
	}
	_, v := manifest.Lookup(n, p)
	return v
}

// addGitOps resolves the declared roots against the repository root and
// records which files each deploys.
func (s *scopes) addGitOps(files []*manifest.File, ks *kustomizations, decls []gitopsDecl, opts Options) {
	keyOf, base := fileKeys(files, opts.RepositoryRoot)
	// The files and kustomizations by key (what GitOps paths match) and
	// the other way (what scopes record).
	byKey := make(map[string]*manifest.File, len(files))
	dirs := map[string]bool{}
	for _, f := range files {
		k := keyOf(f)
		byKey[k] = f
		for d := path.Dir(k); ; d = path.Dir(d) {
			if dirs[d] {
				break
			}
			dirs[d] = true
			if d == "." || d == "/" || d == base {
				break
			}
		}
	}
	kustDirs := map[string]*kustomization{}
	for _, k := range ks.all {
		kustDirs[path.Dir(keyOf(k.file))] = k
	}
	sources := sourceURLs(files)
	// The sources of one Argo CD Application are one root.
	byObject := map[*manifest.Object]*Root{}
	for _, d := range decls {
		if !fromThisRepository(d, sources, opts.RepositoryURLs) {
			continue
		}
		var dirList []string
		if len(d.patterns) > 0 {
			for dir := range dirs {
				rel := strings.TrimPrefix(strings.TrimPrefix(dir, base), "/")
				if base == "." {
					rel = dir
				}
				if matchAny(d.patterns, rel) && !matchAny(d.excludes, rel) {
					dirList = append(dirList, dir)
				}
			}
			sort.Strings(dirList)
		} else {
			dirList = []string{path.Join(base, strings.TrimPrefix(path.Clean("/"+d.path), "/"))}
		}
		for _, dir := range dirList {
			r := byObject[d.object]
			if r == nil || len(d.patterns) > 0 {
				r = &Root{Kind: d.kind, Object: d.object, Recurse: d.recurse, Helm: d.helm, Empty: true}
				s.list = append(s.list, r)
				if len(d.patterns) == 0 {
					byObject[d.object] = r
				}
			}
			s.deployDir(ks, kustDirs, byKey, dir, r, d)
			// Written as the files are, for messages.
			shown := displayMissing(d.object.File(), keyOf(d.object.File()), dir)
			if f := anyUnder(byKey, dir); f != nil {
				shown = displayDir(f, keyOf(f), dir)
				r.Empty = false
			}
			if r.Path == "" {
				r.Path = shown
			}
			r.Paths = append(r.Paths, shown)
			r.Helm = r.Helm || d.helm
		}
	}
}

// deployDir records root for the files a GitOps directory root deploys.
func (s *scopes) deployDir(ks *kustomizations, kustDirs map[string]*kustomization, byKey map[string]*manifest.File,
	dir string, r *Root, d gitopsDecl) {
	if k, ok := kustDirs[dir]; ok && !d.helm {
		s.visit(ks, k, r, d.namespace, d.override)
		return
	}
	visited := map[*kustomization]bool{}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		f := byKey[key]
		fd := path.Dir(key)
		if !under(fd, dir) || (!d.recurse && fd != dir) || IsKustomizationName(f.Path) {
			continue
		}
		// The outermost kustomization between the root and the file
		// deploys it, if any does (Flux includes that directory, and
		// does not descend into it).
		var owner *kustomization
		for _, sub := range dirsBetween(dir, fd) {
			if k, ok := kustDirs[sub]; ok {
				owner = k
				break
			}
		}
		if owner != nil {
			if !visited[owner] {
				visited[owner] = true
				s.visit(ks, owner, r, d.namespace, d.override)
			}
			continue
		}
		if s.patches[f.SlashPath()] {
			continue
		}
		s.add(f.SlashPath(), rootRef{r, d.namespace, d.override})
	}
}

// dirsBetween returns the directories below dir down to sub (included),
// outermost first.
func dirsBetween(dir, sub string) []string {
	var out []string
	for d := sub; d != dir && under(d, dir); d = path.Dir(d) {
		out = append(out, d)
		if path.Dir(d) == d {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// under reports whether slash path p is dir or below it.
func under(p, dir string) bool {
	if dir == "." {
		return !strings.HasPrefix(p, "../") && p != ".." && !path.IsAbs(p)
	}
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

func anyUnder(byKey map[string]*manifest.File, dir string) *manifest.File {
	var best *manifest.File
	for k, f := range byKey {
		if under(path.Dir(k), dir) && (best == nil || f.Path < best.Path) {
			best = f
		}
	}
	return best
}

// displayDir writes a root directory (a key) as the file paths are
// written, from one file under it.
func displayDir(f *manifest.File, key, dir string) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(key, dir), "/")
	sp := f.SlashPath()
	if strings.HasSuffix(sp, "/"+rel) {
		return strings.TrimSuffix(sp, "/"+rel)
	}
	if sp == rel {
		return "."
	}
	return dir
}

// displayMissing writes a root directory (a key) that holds no input as
// the file paths are written, from the file of the object that declares
// it: relative when that file's path is (the key, under an absolute
// repository root, is absolute).
func displayMissing(f *manifest.File, key, dir string) string {
	rel, err := filepath.Rel(filepath.FromSlash(path.Dir(key)), filepath.FromSlash(dir))
	if err != nil || key == "" {
		return dir
	}
	return path.Join(path.Dir(f.SlashPath()), filepath.ToSlash(rel))
}

// fileKeys returns how files are keyed to match GitOps paths, and the
// repository root in those keys: absolute slash paths under an absolute
// repository root, else the files' own paths under the deepest
// directory common to them.
func fileKeys(files []*manifest.File, repoRoot string) (func(*manifest.File) string, string) {
	if repoRoot != "" && filepath.IsAbs(repoRoot) {
		abs := map[*manifest.File]string{}
		for _, f := range files {
			a, err := filepath.Abs(f.Path)
			if err != nil {
				a = f.Path
			}
			abs[f] = filepath.ToSlash(a)
		}
		return func(f *manifest.File) string { return abs[f] }, filepath.ToSlash(filepath.Clean(repoRoot))
	}
	base := ""
	for i, f := range files {
		d := path.Dir(f.SlashPath())
		if i == 0 {
			base = d
			continue
		}
		for !under(d, base) {
			if base == "." || base == "/" || path.Dir(base) == base {
				break
			}
			base = path.Dir(base)
		}
	}
	if base == "" {
		base = "."
	}
	return func(f *manifest.File) string { return f.SlashPath() }, base
}

// matchAny reports whether a slash path matches one of an ApplicationSet
// generator's path globs (path.Match per segment; "*" matches one
// directory).
func matchAny(patterns []string, p string) bool {
	for _, pat := range patterns {
		if ok, _ := path.Match(strings.TrimPrefix(path.Clean(pat), "./"), p); ok {
			return true
		}
	}
	return false
}

// sourceURLs returns the URL of each Flux source object among the files
// (GitRepository, OCIRepository, Bucket), by kind/name.
func sourceURLs(files []*manifest.File) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		for _, d := range f.Docs {
			switch d.Kind {
			case "GitRepository", "OCIRepository", "Bucket":
			default:
				continue
			}
			for _, o := range d.Objects() {
				if !strings.HasSuffix(o.Group, "toolkit.fluxcd.io") {
					continue
				}
				u := ""
				if v := get(o.Root(), "spec", "url"); v != nil && v.Kind == yaml.ScalarNode {
					u = v.Value
				}
				if v := get(o.Root(), "spec", "endpoint"); u == "" && v != nil && v.Kind == yaml.ScalarNode {
					u = v.Value
				}
				out[o.Kind+"/"+o.Name] = u
			}
		}
	}
	return out
}

// fromThisRepository reports whether a root's path is read from the
// repository being linted, as far as the inputs tell. A Flux source other
// than flux-system (bootstrap's, the repository itself) that the inputs
// define is another repository, or another branch of this one; a source
// of another kind (an OCIRepository, a Bucket, an ExternalArtifact) holds
// what was pushed or generated, not this tree. An Argo CD repoURL that is
// none of the repository's remotes, when they are known, is another
// repository. Without knowledge either way the path is taken as this
// repository's: a path under which no input lies deploys nothing here.
func fromThisRepository(d gitopsDecl, sources map[string]string, remotes []string) bool {
	if d.repoURL != "" {
		return len(remotes) == 0 || sameRepository(d.repoURL, remotes)
	}
	switch d.sourceKind {
	case "", "GitRepository":
	default:
		return false
	}
	if d.sourceName == "" || d.sourceName == "flux-system" {
		return true
	}
	_, defined := sources["GitRepository/"+d.sourceName]
	return !defined
}

// sameRepository reports whether a repository URL is one of remotes,
// compared without scheme, user, ".git" suffix and case.
func sameRepository(u string, remotes []string) bool {
	n := NormalizeRepositoryURL(u)
	for _, r := range remotes {
		if NormalizeRepositoryURL(r) == n {
			return true
		}
	}
	return false
}

// NormalizeRepositoryURL writes a Git URL as host/path, lowercased, so
// https://github.com/a/b.git, git@github.com:a/b and ssh://git@github.com/a/b
// compare equal.
func NormalizeRepositoryURL(u string) string {
	u = strings.TrimSpace(strings.ToLower(u))
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	} else if i := strings.Index(u, ":"); i >= 0 && !strings.Contains(u[:i], "/") {
		u = u[:i] + "/" + u[i+1:] // scp-like git@host:path
	}
	if i := strings.Index(u, "@"); i >= 0 && i < strings.Index(u+"/", "/") {
		u = u[i+1:]
	}
	u = strings.TrimSuffix(strings.TrimSuffix(u, "/"), ".git")
	return u
}
