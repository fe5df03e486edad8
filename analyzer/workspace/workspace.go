// Package workspace is the immutable set of parsed files a run lints, with
// an index of their objects and every autoscaler's scale target resolved.
//
// Data flow: []*manifest.File (parsed, each once; the LSP caches them by
// content) -> New -> deployment roots (kustomize.go, gitops.go: which root
// kustomizations, Flux Kustomization paths and Argo CD Application sources
// deploy which file, and the namespace they give it; GitOps paths resolved
// against the repository root, repo.go) -> index by group, kind and name ->
// autoscalers read (scaling.FromObject) and their targets resolved: the
// candidates with the target's group, kind, name and a compatible
// namespace that are deployed together with the autoscaler
// (DeployedTogether, the one notion resolution, conflicts and links
// between objects use), nearest first (a shared root, then the longest
// common directory with the autoscaler's file); those deployed apart or in
// other namespaces are kept to be reported. Documents the parser skipped
// are parsed only when a scale target names their kind (or Options.Kinds
// does).
//
// For a language server, which needs a workspace per edit:
//
//	base workspace + changed paths' files -> With -> the changed files
//	    indexed, the others' entries shared (layered maps, lists in
//	    chunks: package chunked);
//	    only the autoscalers whose target key the change touched resolved
//	    again (found by the index of target names, and listed: Reresolved);
//	    from scratch (New) when deployment roots may move
//	workspace + paths -> Focus -> a view listing only what bears on those
//	    files, for linting them again while lookups see everything
//
// The reverse indexes (AutoscalersOf: the autoscalers of a target;
// AutoscalersIn: those of a path) let With, Focus and the language
// server find what an edit reaches without a pass over the workspace.
package workspace

import (
	"go/token"
	"maps"
	"slices"
	"sort"
	"sync"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/parallel"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/traffic"
	"github.com/scalelint/scalelint/analyzer/workspace/chunked"
)

// Options tunes a workspace.
type Options struct {
	// DefaultNamespace is the namespace of objects that set none and that
	// no kustomization places; "default" when empty.
	DefaultNamespace string
	// NamespaceOf, when not nil, gives the default namespace of a file's
	// objects instead (the configuration that governs the file); "" is
	// DefaultNamespace. New calls it from several goroutines at once.
	NamespaceOf func(f *manifest.File) string
	// RepositoryRoot is the absolute directory GitOps paths (a Flux
	// Kustomization's spec.path, an Argo CD Application's source path)
	// are relative to (FindRepositoryRoot). Empty: the deepest directory
	// common to the files.
	RepositoryRoot string
	// RepositoryURLs are the repository's remote URLs, when known: an
	// Argo CD Application whose repoURL is none of them deploys another
	// repository.
	RepositoryURLs []string
	// TargetDistance bounds how far apart two objects outside a shared
	// deployment root may live and still be deployed together
	// (DeployedTogether): each within this many directories of the
	// deepest directory holding both. 2 relates sibling and parent
	// directories (deploy/autoscaling/hpa.yaml -> deploy/app.yaml) but not
	// unrelated trees of a large repository. Negative means unlimited; 0
	// means the default, 2.
	TargetDistance int
	// Release drops each document's node tree once its objects are
	// indexed (manifest.File.Release): for a one-shot run over many files,
	// where rules read views and Fields, not trees. The language server
	// keeps trees, which every request reads.
	Release bool
	// Kinds are parsed as the workspace is built (ObjectsOfKind), not on
	// first use: the kinds rules declare (analyzer.Analyzer.Kinds). With
	// them the workspace never changes once built, so it may be read while
	// With derives the next one from it.
	Kinds []string
	// Rendered says which files are linted through what renders them (a
	// Helm chart, a kustomization that builds): see Rendering. The
	// workspace indexes none of their objects. Nil: none.
	Rendered func(path string) Rendering
	// Generated marks a workspace of rendered output (one chart value set,
	// one kustomization build): its comments are copies of the files
	// users edit, whose suppression comments the rendering driver applies
	// to the findings mapped back to them, so the engine reads none here.
	Generated bool
	// LeftOut are the templates a render left out of a generated
	// workspace (LeftOut): the objects they define are missing from it.
	LeftOut []LeftOut
}

// Rendering says how the per-file reading treats a file that a chart or a
// kustomization renders. Its objects are linted as rendered, once per
// value set or build, and the findings mapped back to the file: reading
// them one by one as well would report each finding twice, and lint a
// kustomize base without the overlay that changes it.
type Rendering uint8

const (
	// NotRendered: a file read on its own.
	NotRendered Rendering = iota
	// RenderedYAML: a resource or patch of a kustomization that builds.
	// Its objects are left to the build; the problems of its text
	// (syntax, portability, limits) are still its own.
	RenderedYAML
	// RenderedChart: a file of a Helm chart (a template, a values file):
	// not a manifest, nothing of it is read per file.
	RenderedChart
)

// Workspace is an immutable set of files and what they hold.
type Workspace struct {
	// Fset is the FileSet given to New. A workspace made by With keeps
	// its base's, which need not hold the files it added: find a
	// position's file with FileOf.
	Fset  *token.FileSet
	files chunked.List[*manifest.File] // sorted by path (a path's files in the order given)

	opts   Options
	scopes scopes
	// kustomized is set when a kustomization or a GitOps root is among
	// the files: adding or removing a file may then change the scopes
	// (With).
	kustomized  bool
	byName      layered[nameKey, []*manifest.Object] // lists are copied before they change once shared
	byBase      byBase                               // every file, by token.File base (FileOf)
	objects     chunked.List[*manifest.Object]       // every indexed object, in file order
	routing     int                                  // of objects, those that may route to Services (routesToServices)
	labels      *labelIndex                          // workloads by pod label, built on first use (WithPodLabel)
	budgets     []*manifest.Object                   // the PodDisruptionBudgets (Budgets); With clips its copy
	autoscalers chunked.List[*scaling.Autoscaler]    // in file order
	// adding are the objects and autoscalers add indexed that are not in
	// objects and autoscalers yet (commit): a list in chunks is
	// appended to in batches.
	adding    []*manifest.Object
	addingAs  []*scaling.Autoscaler
	workloads layered[*manifest.Object, *scaling.Workload]
	resolved  layered[*scaling.Autoscaler, *Resolution]
	// byTarget lists the autoscalers resolved to each target, in file
	// order (AutoscalersOf).
	byTarget layered[*manifest.Object, []*scaling.Autoscaler]
	// byTargetName lists the autoscalers by the kind and name their
	// scale target names (With resolves again those of a changed key).
	byTargetName layered[nameKey, []*scaling.Autoscaler]
	// assertions are the files of end-to-end tests' assertions, by slash
	// path, with why (testAssertions): not indexed.
	assertions map[string]string
	// byTemplateRef lists the autoscalers by the kind and name their
	// target's workloadRef names (Resolution.templateRef): With resolves
	// them again when an object of that key changes.
	byTemplateRef layered[nameKey, []*scaling.Autoscaler]
	// reresolved are the autoscalers With resolved again (Reresolved);
	// derivedByWith is set on a workspace With made.
	reresolved    []*scaling.Autoscaler
	derivedByWith bool
	// lazyMu guards what parseKind changes: lazyKinds, kinds and the
	// index it adds to.
	lazyMu    sync.Mutex
	lazyKinds map[string][]*manifest.Document // skipped documents by kind
	kinds     map[string]bool                 // the kinds parseKind parsed
	// kindsShared is set on a workspace made by With and on its base,
	// which share the kinds map until parseKind adds a kind to one (it
	// copies the map first).
	kindsShared bool
	// focused is set on a view made by Focus, which lists (Files,
	// Autoscalers, Objects) part of the workspace and parses nothing.
	focused bool
	listed  chunked.List[*manifest.Object] // Objects() of a view
	// shared is set on a workspace made by With, whose lazyKinds lists
	// may be shared with the workspace it derives from: it copies a list
	// before appending to it.
	shared bool
	// derived holds what other packages derive from the whole workspace
	// (Derive); a view made by Focus shares its base's.
	derived *derivedTable
}

// nameKey indexes objects by what a scaleTargetRef names; the group and
// namespace are compared separately (a scaleTargetRef may omit the
// apiVersion, and kustomizations may set the namespace).
type nameKey struct{ kind, name string }

// canonicalGroup treats the deprecated groups that served the apps kinds
// as apps: a Deployment is the same resource under extensions/v1beta1.
func canonicalGroup(group, kind string) string {
	if group == "extensions" {
		switch kind {
		case "Deployment", "ReplicaSet", "DaemonSet":
			return "apps"
		}
	}
	return group
}

// New builds a workspace from parsed files.
func New(fset *token.FileSet, files []*manifest.File, opts Options) *Workspace {
	if opts.DefaultNamespace == "" {
		opts.DefaultNamespace = "default"
	}
	if opts.TargetDistance == 0 {
		opts.TargetDistance = 2
	}
	indexStart := startTiming()
	files = append([]*manifest.File(nil), files...)
	sort.SliceStable(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	docs := 0
	for _, f := range files {
		docs += len(f.Docs)
	}
	ws := &Workspace{
		Fset: fset, files: chunked.From(files), opts: opts, derived: &derivedTable{},
		byName:    newLayered[nameKey, []*manifest.Object](docs),
		workloads: newLayered[*manifest.Object, *scaling.Workload](docs / 2),
		lazyKinds: map[string][]*manifest.Document{},
		kinds:     map[string]bool{},
		labels:    &labelIndex{},
	}
	if !opts.Generated {
		// Rendered output is what the kustomizations deploy: a file of it
		// is named after its kustomization, and is none.
		ws.scopes = buildScopes(files, opts)
		ws.kustomized = ws.scopes.gitops
	}
	ws.assertions = testAssertions(files)
	for _, f := range files {
		ws.kustomized = ws.kustomized || ws.isKustomization(f)
		ws.index(f)
	}
	ws.commit()
	for _, k := range opts.Kinds {
		ws.parseKind(k)
	}
	for _, a := range ws.autoscalers.All() {
		ws.parseKind(a.Target.Kind)
	}
	if ws.routesToServices() {
		ws.parseKind("Service")
	}
	if opts.Release {
		parallel.Parts(len(files), 64, func(lo, hi int) {
			for _, f := range files[lo:hi] {
				if !ws.isKustomization(f) {
					f.Release()
				}
				f.DropText(nil, false) // read again by a late parse: drop it again
			}
		})
	}
	ws.byBase = newByBase(files)
	ws.resolved = newLayered[*scaling.Autoscaler, *Resolution](ws.autoscalers.Len())
	addTiming(&tIndex, indexStart)
	resolveStart := startTiming()
	ws.byTarget = newLayered[*manifest.Object, []*scaling.Autoscaler](ws.autoscalers.Len())
	ws.byTargetName = newLayered[nameKey, []*scaling.Autoscaler](ws.autoscalers.Len())
	ws.byTemplateRef = newLayered[nameKey, []*scaling.Autoscaler](0)
	// Resolving reads the finished index alone: every core resolves a part
	// of the autoscalers, and the results are recorded in file order.
	all := ws.autoscalers.Slice(0, ws.autoscalers.Len())
	rs := make([]*Resolution, len(all))
	parallel.Parts(len(all), 64, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			rs[i] = ws.resolve(all[i])
		}
	})
	for i, a := range all {
		k := nameKey{a.Target.Kind, a.Target.Name}
		as, _ := ws.byTargetName.get(k)
		ws.byTargetName.set(k, append(as, a))
		r := rs[i]
		ws.resolved.set(a, r)
		if r.Object != nil {
			for _, t := range r.objects() {
				as, _ := ws.byTarget.get(t)
				ws.byTarget.set(t, append(as, a)) // in file order: autoscalers are
			}
		}
		if r.templateRef() != (nameKey{}) {
			as, _ := ws.byTemplateRef.get(r.templateRef())
			ws.byTemplateRef.set(r.templateRef(), append(as, a))
		}
	}
	addTiming(&tResol, resolveStart)
	return ws
}

// index adds a file's objects to the index, and its skipped documents to
// those parsed when their kind is asked for (at once when it already
// was). Kustomizations, patches, templates and rendered files hold no
// objects of their own.
func (ws *Workspace) index(f *manifest.File) {
	if f.Template || ws.isKustomization(f) || ws.scopes.patches[f.SlashPath()] || ws.Rendering(f) != NotRendered || ws.assertions[f.SlashPath()] != "" {
		return
	}
	for _, d := range f.Docs {
		switch {
		case d.Parsed() || (d.Kind != "" && ws.kinds[d.Kind]):
			for _, o := range d.Objects() {
				ws.add(o)
			}
		case d.Kind != "" && ws.shared:
			ws.lazyKinds[d.Kind] = append(slices.Clip(ws.lazyKinds[d.Kind]), d) // copy on write
		case d.Kind != "":
			ws.lazyKinds[d.Kind] = append(ws.lazyKinds[d.Kind], d)
		}
	}
}

func (ws *Workspace) add(o *manifest.Object) {
	if o.Kind == "" || o.Kind == "Kustomization" || o.Kind == "Component" {
		return
	}
	k := nameKey{o.Kind, o.Name}
	objs, _ := ws.byName.get(k)
	if ws.byName.shared {
		objs = slices.Clip(objs) // shared with another workspace: copy on write
	}
	ws.byName.set(k, append(objs, o))
	ws.adding = append(ws.adding, o)
	if traffic.RoutesToServices(o) {
		ws.routing++
	}
	if scaling.IsAutoscaler(o) {
		ws.addingAs = append(ws.addingAs, scaling.FromObject(o))
	}
	if scaling.IsWorkload(o) {
		ws.workloads.set(o, scaling.WorkloadFromObject(o))
	}
	if traffic.Is(o) {
		traffic.FromObject(o) // while its tree is at hand
	}
	if scaling.IsBudget(o) {
		scaling.BudgetFromObject(o) // while its tree is at hand
		// Appended in place: a workspace With makes gets the list
		// clipped, so that its appends copy it.
		ws.budgets = append(ws.budgets, o)
	}
	ws.labels.indexAdded(o)
}

// parseKind parses the skipped documents of a kind and indexes their
// objects: a scale target or a rule asked for that kind.
func (ws *Workspace) parseKind(kind string) {
	if ws.focused {
		return // a view shares the index: it reads what was parsed
	}
	ws.lazyMu.Lock()
	defer ws.lazyMu.Unlock()
	if !ws.kinds[kind] {
		if ws.kindsShared {
			ws.kinds, ws.kindsShared = maps.Clone(ws.kinds), false
		}
		ws.kinds[kind] = true
	}
	docs := ws.lazyKinds[kind]
	delete(ws.lazyKinds, kind)
	for _, d := range docs {
		for _, o := range d.Objects() {
			ws.add(o)
		}
		if ws.opts.Release {
			d.Release()
		}
	}
	ws.commit()
}

// commit appends what add indexed to objects and autoscalers.
func (ws *Workspace) commit() {
	if len(ws.adding) > 0 {
		ws.objects = ws.objects.Splice(chunked.Edit[*manifest.Object]{Lo: ws.objects.Len(), Hi: ws.objects.Len(), With: ws.adding})
	}
	if len(ws.addingAs) > 0 {
		ws.autoscalers = ws.autoscalers.Splice(chunked.Edit[*scaling.Autoscaler]{Lo: ws.autoscalers.Len(), Hi: ws.autoscalers.Len(), With: ws.addingAs})
	}
	ws.adding, ws.addingAs = nil, nil
}

// isKustomization reports whether a file is a kustomization: one named so,
// except in rendered output (Options.Generated).
func (ws *Workspace) isKustomization(f *manifest.File) bool {
	return !ws.opts.Generated && IsKustomizationName(f.Path)
}

// Rendering says how the per-file reading treats a file (Options.Rendered).
func (ws *Workspace) Rendering(f *manifest.File) Rendering {
	if ws.opts.Rendered == nil || f == nil {
		return NotRendered
	}
	return ws.opts.Rendered(f.Path)
}

// Generated reports whether the workspace holds rendered output
// (Options.Generated).
func (ws *Workspace) Generated() bool { return ws.opts.Generated }

// FileOf returns the file that holds pos. It searches the workspace's
// own files, not Fset, which a workspace made by With shares with the one
// it derives from.
func (ws *Workspace) FileOf(pos token.Pos) *manifest.File {
	if !pos.IsValid() {
		return nil
	}
	return ws.byBase.find(int(pos))
}

// Unreadable returns the files, of the whole workspace (also from a view
// made by Focus), that hold objects scalelint could not read: templates,
// and files with a YAML syntax error. A rule that says where a missing
// object may be defined looks there. A file a chart or kustomization
// renders (Rendering) is read, through its render: it is not among them
// (the command line reads no such file on its own, and the language
// server, whose workspace holds them, read every template of a repository
// of charts again at each edit of an autoscaler whose target is missing).
func (ws *Workspace) Unreadable() []*manifest.File {
	var out []*manifest.File
	ws.byBase.each(func(f *manifest.File) {
		if ws.Rendering(f) != NotRendered {
			return
		}
		if f.Template {
			out = append(out, f)
			return
		}
		for _, p := range f.Problems() {
			if p.Rule == "yaml-syntax" {
				out = append(out, f)
				break
			}
		}
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Files returns the workspace's files, sorted by path (a path's files in
// the order given to New); of a view made by Focus, those of its paths.
func (ws *Workspace) Files() chunked.List[*manifest.File] { return ws.files }

// Autoscalers returns every autoscaler, in file order (of a view made by
// Focus, those it lists).
func (ws *Workspace) Autoscalers() chunked.List[*scaling.Autoscaler] { return ws.autoscalers }

// Objects returns every indexed object, in file order (of a view made by
// Focus, those in its files).
func (ws *Workspace) Objects() chunked.List[*manifest.Object] {
	if ws.focused {
		return ws.listed
	}
	return ws.objects
}

// ParseKind parses the documents of a kind (any group) the parser
// skipped, as ObjectsOfKind does, without listing the workspace's objects
// of it: what a driver calls before rules run concurrently (a language
// server does on every edit, over a view of a large workspace).
func (ws *Workspace) ParseKind(kind string) { ws.parseKind(kind) }

// ObjectsOfKind returns every object of a kind (any group), parsing the
// documents of that kind the parser skipped. Call it before rules run
// concurrently: the workspace's drivers do, for the kinds rules declare.
func (ws *Workspace) ObjectsOfKind(kind string) []*manifest.Object {
	ws.parseKind(kind)
	var out []*manifest.Object
	for _, o := range ws.objects.All() {
		if o.Kind == kind {
			out = append(out, o)
		}
	}
	return out
}

// Workload returns the workload view of an object, or nil.
func (ws *Workspace) Workload(o *manifest.Object) *scaling.Workload {
	w, _ := ws.workloads.get(o)
	return w
}

// Namespaces returns the namespaces an object is deployed in: in each
// root that deploys it, the namespace the root gives it (a
// kustomization's, a Flux targetNamespace; an Argo CD destination
// namespace when the object sets none), else its own, else the default
// namespace.
func (ws *Workspace) Namespaces(o *manifest.Object) []string {
	own := ws.ownNamespace(o)
	refs := ws.scopes.roots[o.Doc.File.SlashPath()]
	if len(refs) == 0 {
		return []string{own}
	}
	var out []string
	for _, r := range refs {
		ns := r.namespace
		if ns == "" || (!r.override && o.Namespace != "") {
			ns = own
		}
		if !slices.Contains(out, ns) {
			out = append(out, ns)
		}
	}
	return out
}

// ownNamespace is the namespace an object sets, else the default of its
// file.
func (ws *Workspace) ownNamespace(o *manifest.Object) string {
	if o.Namespace != "" {
		return o.Namespace
	}
	if ws.opts.NamespaceOf != nil {
		if ns := ws.opts.NamespaceOf(o.Doc.File); ns != "" {
			return ns
		}
	}
	return ws.opts.DefaultNamespace
}

// Roots returns the deployment roots that deploy an object's file: root
// kustomizations and the roots GitOps objects declare (Root).
func (ws *Workspace) Roots(o *manifest.Object) []*Root {
	var out []*Root
	for _, r := range ws.scopes.roots[o.Doc.File.SlashPath()] {
		if !slices.Contains(out, r.root) {
			out = append(out, r.root)
		}
	}
	return out
}

// AllRoots returns every deployment root of the workspace, kustomize's
// and those GitOps objects declare (charts included, for rendering), in
// the order they were found.
func (ws *Workspace) AllRoots() []*Root { return ws.scopes.list }

// DeployedTogether reports whether two objects are deployed together:
// the one notion scale target resolution, conflict detection and every
// link between objects by name use.
//
//   - Both deployed by roots (a root kustomization, a Flux Kustomization's
//     path, an Argo CD Application's path): together when a root deploys
//     both, whatever kustomizations lie between.
//   - Otherwise (plain directories of manifests, applied with kubectl
//     apply -f DIR -R): together when both files lie within
//     TargetDistance directories of the deepest directory that holds
//     both: deploy/hpa.yaml and deploy/app/deployment.yaml, and the
//     sibling components deploy/webapp/backend/ and deploy/webapp/frontend/;
//     not a docs/ snippet and a tree three levels down, nor the
//     directories of unrelated repositories linted together.
//
// An object is together with itself.
func (ws *Workspace) DeployedTogether(a, b *manifest.Object) bool {
	if a == b {
		return true
	}
	ra, rb := ws.Roots(a), ws.Roots(b)
	if len(ra) > 0 && len(rb) > 0 {
		for _, x := range ra {
			if slices.Contains(rb, x) {
				return true
			}
		}
		return false
	}
	return ws.nearTree(a.Doc.File, b.Doc.File)
}

// oneTree reports whether one file's directory holds the other's, at most
// TargetDistance levels apart.
// TargetDistance is the distance DeployedTogether allows between the
// directories of objects outside a shared root.
func (ws *Workspace) TargetDistance() int { return ws.opts.TargetDistance }

// nearTree reports whether two files lie within TargetDistance
// directories of the deepest directory that holds both.
func (ws *Workspace) nearTree(a, b *manifest.File) bool {
	d := ws.opts.TargetDistance
	if d < 0 {
		return true
	}
	c := manifest.CommonDirDepth(a, b)
	return a.DirDepth()-c <= d && b.DirDepth()-c <= d
}

// sharesRoot reports whether a root deploys both objects.
func (ws *Workspace) SharesRoot(a, b *manifest.Object) bool {
	ra := ws.Roots(a)
	if len(ra) == 0 {
		return false
	}
	rb := ws.Roots(b)
	for _, x := range ra {
		if slices.Contains(rb, x) {
			return true
		}
	}
	return false
}
