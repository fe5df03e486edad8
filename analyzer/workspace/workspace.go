// Package workspace is the immutable set of parsed files a run lints, with
// an index of their objects and every autoscaler's scale target resolved.
//
// Data flow: []*manifest.File (parsed, each once; the LSP caches them by
// content) -> New -> kustomization scopes (which root kustomizations deploy
// which file, and the namespace they give it) -> index by group, kind and
// name -> autoscalers read (scaling.FromObject) and their targets resolved:
// the candidates with the target's group, kind, name and a compatible
// namespace, nearest first (a shared kustomization root, then the longest
// common directory with the autoscaler's file). Documents the parser
// skipped are parsed only when a scale target names their kind.
package workspace

import (
	"go/token"
	"sort"
	"sync"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
)

// Options tunes a workspace.
type Options struct {
	// DefaultNamespace is the namespace of objects that set none and that
	// no kustomization places; "default" when empty.
	DefaultNamespace string
	// TargetDistance is how many directories above an autoscaler's own a
	// scale target outside every shared kustomization may live: 2 finds
	// targets in sibling and parent directories (deploy/autoscaling/hpa.yaml
	// -> deploy/app.yaml) but not in unrelated trees of a large repository.
	// Negative means unlimited; 0 means the default, 2.
	TargetDistance int
	// Release drops each document's node tree once its objects are
	// indexed (manifest.File.Release): for a one-shot run over many files,
	// where rules read views and Fields, not trees. The language server
	// keeps trees, which every request reads.
	Release bool
	// Remember keeps what rules derive from unchanged objects (the law
	// evaluations) on the objects, for the next workspace made of the
	// same parsed files: the language server, which makes one per edit.
	Remember bool
}

// Workspace is an immutable set of files and what they hold.
type Workspace struct {
	Fset  *token.FileSet
	Files []*manifest.File // sorted by path

	opts        Options
	scopes      scopes
	byName      map[nameKey][]*manifest.Object
	byFile      map[*token.File]*manifest.File
	objects     []*manifest.Object // every indexed object, in file order
	autoscalers []*scaling.Autoscaler
	workloads   map[*manifest.Object]*scaling.Workload
	resolved    map[*scaling.Autoscaler]*Resolution
	lazyKinds   map[string][]*manifest.Document
	lazyMu      sync.Mutex
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
	files = append([]*manifest.File(nil), files...)
	sort.SliceStable(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	docs := 0
	for _, f := range files {
		docs += len(f.Docs)
	}
	ws := &Workspace{
		Fset: fset, Files: files, opts: opts,
		byName:    make(map[nameKey][]*manifest.Object, docs),
		byFile:    make(map[*token.File]*manifest.File, len(files)),
		workloads: make(map[*manifest.Object]*scaling.Workload, docs/2),
		resolved:  map[*scaling.Autoscaler]*Resolution{},
		lazyKinds: map[string][]*manifest.Document{},
	}
	ws.scopes = buildScopes(files)
	for _, f := range files {
		ws.byFile[f.Tok] = f
		if f.Template || IsKustomizationName(f.Path) || ws.scopes.patches[f.SlashPath()] {
			continue
		}
		for _, d := range f.Docs {
			if d.Parsed() {
				for _, o := range d.Objects() {
					ws.add(o)
				}
			} else if d.Kind != "" {
				ws.lazyKinds[d.Kind] = append(ws.lazyKinds[d.Kind], d)
			}
		}
	}
	for _, a := range ws.autoscalers {
		ws.parseKind(a.Target.Kind)
	}
	if opts.Release {
		for _, f := range files {
			if !IsKustomizationName(f.Path) {
				f.Release()
			}
			f.DropText(nil, false) // read again by a late parse: drop it again
		}
	}
	ws.resolved = make(map[*scaling.Autoscaler]*Resolution, len(ws.autoscalers))
	for _, a := range ws.autoscalers {
		ws.resolved[a] = ws.resolve(a)
	}
	return ws
}

func (ws *Workspace) add(o *manifest.Object) {
	if o.Kind == "" || o.Kind == "Kustomization" || o.Kind == "Component" {
		return
	}
	k := nameKey{o.Kind, o.Name}
	ws.byName[k] = append(ws.byName[k], o)
	ws.objects = append(ws.objects, o)
	if scaling.IsAutoscaler(o) {
		ws.autoscalers = append(ws.autoscalers, scaling.FromObject(o))
	}
	if scaling.IsWorkload(o) {
		ws.workloads[o] = scaling.WorkloadFromObject(o)
	}
}

// parseKind parses the skipped documents of a kind and indexes their
// objects: a scale target or a rule asked for that kind.
func (ws *Workspace) parseKind(kind string) {
	ws.lazyMu.Lock()
	docs := ws.lazyKinds[kind]
	delete(ws.lazyKinds, kind)
	ws.lazyMu.Unlock()
	for _, d := range docs {
		for _, o := range d.Objects() {
			ws.add(o)
		}
		if ws.opts.Release {
			d.Release()
		}
	}
}

// FileOf returns the file that holds pos.
func (ws *Workspace) FileOf(pos token.Pos) *manifest.File {
	if tf := ws.Fset.File(pos); tf != nil {
		return ws.byFile[tf]
	}
	return nil
}

// Remembers reports whether rules may keep what they derive from unchanged
// objects on them (Options.Remember).
func (ws *Workspace) Remembers() bool { return ws.opts.Remember }

// Autoscalers returns every autoscaler, in file order.
func (ws *Workspace) Autoscalers() []*scaling.Autoscaler { return ws.autoscalers }

// Objects returns every indexed object, in file order.
func (ws *Workspace) Objects() []*manifest.Object { return ws.objects }

// ObjectsOfKind returns every object of a kind (any group), parsing the
// documents of that kind the parser skipped. Call it before rules run
// concurrently: the workspace's drivers do, for the kinds rules declare.
func (ws *Workspace) ObjectsOfKind(kind string) []*manifest.Object {
	ws.parseKind(kind)
	var out []*manifest.Object
	for _, o := range ws.objects {
		if o.Kind == kind {
			out = append(out, o)
		}
	}
	return out
}

// Workload returns the workload view of an object, or nil.
func (ws *Workspace) Workload(o *manifest.Object) *scaling.Workload {
	return ws.workloads[o]
}

// Namespaces returns the namespaces an object is deployed in: the one a
// kustomization gives it in each root that deploys it, else its own, else
// the default namespace.
func (ws *Workspace) Namespaces(o *manifest.Object) []string {
	own := ws.ownNamespace(o)
	refs := ws.scopes.roots[o.Doc.File.SlashPath()]
	if len(refs) == 0 {
		return []string{own}
	}
	var out []string
	for _, r := range refs {
		ns := r.namespace
		if ns == "" {
			ns = own
		}
		out = append(out, ns)
	}
	return out
}

// ownNamespace is the namespace an object sets, else the default.
func (ws *Workspace) ownNamespace(o *manifest.Object) string {
	if o.Namespace != "" {
		return o.Namespace
	}
	return ws.opts.DefaultNamespace
}

// Roots returns the root kustomizations that deploy an object's file.
func (ws *Workspace) Roots(o *manifest.Object) []string {
	var out []string
	for _, r := range ws.scopes.roots[o.Doc.File.SlashPath()] {
		out = append(out, r.root)
	}
	return out
}

// DeployedTogether reports whether two objects can be deployed together:
// when both belong to kustomizations they must share a root; objects
// outside every kustomization are scoped by path, by the caller.
func (ws *Workspace) DeployedTogether(a, b *manifest.Object) bool {
	ra, rb := ws.Roots(a), ws.Roots(b)
	if len(ra) == 0 || len(rb) == 0 {
		return true
	}
	for _, x := range ra {
		for _, y := range rb {
			if x == y {
				return true
			}
		}
	}
	return false
}

// commonDirDepth is the number of leading directories two files share.
func commonDirDepth(a, b *manifest.File) int {
	da, db := a.DirParts(), b.DirParts()
	n := 0
	for n < len(da) && n < len(db) && da[n] == db[n] {
		n++
	}
	return n
}

// near reports whether a target candidate's file is within the allowed
// distance of the autoscaler's file: in the subtree of its directory's
// TargetDistance-th ancestor.
func (ws *Workspace) near(from, to *manifest.File) bool {
	if ws.opts.TargetDistance < 0 {
		return true
	}
	return commonDirDepth(from, to) >= len(from.DirParts())-ws.opts.TargetDistance
}
