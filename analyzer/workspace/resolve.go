package workspace

import (
	"sort"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
)

// Resolution is where an autoscaler's scale target was found.
type Resolution struct {
	// Object is the chosen definition of the target, or nil when no input
	// defines it.
	Object *manifest.Object
	// Workload is the chosen definition's workload view (nil when it has
	// none: a kind scalelint does not read).
	Workload *scaling.Workload
	// Variants are every definition that matched, nearest first: the same
	// object as defined by bases, overlays and per-environment folders.
	Variants []*manifest.Object
	// Apart are the definitions of the target that are not deployed with
	// the autoscaler (DeployedTogether) but close to it: deployed by
	// another root, or outside roots within twice TargetDistance
	// directories of a common one (a definition in an unrelated project
	// is not worth a mention). Never resolved to, but reported.
	Apart []*manifest.Object
	// OtherNamespace are the definitions of the name deployed with the
	// autoscaler, in other namespaces.
	OtherNamespace []*manifest.Object
	// Pods is the workload whose pod template the target's pods run, and
	// PodsObject its object: the target itself or, for an Argo Rollout
	// with a workloadRef and no template of its own, the Deployment or
	// ReplicaSet the ref names, deployed with the Rollout in its
	// namespace, as Argo Rollouts resolves it (argoproj/argo-rollouts
	// rollout/templateref.go: apps Deployment and ReplicaSet, spec.template;
	// the Rollout's namespace). Both nil when the ref's object is not
	// among the inputs.
	Pods       *scaling.Workload
	PodsObject *manifest.Object
}

// templateRef is the kind and name a Rollout target's workloadRef names
// (none for a target with a template of its own): an edit of an object of
// that key resolves the autoscaler again (With, byTemplateRef).
func (r *Resolution) templateRef() nameKey {
	if w := r.Workload; w != nil && !w.HasTemplate && w.TemplateRef != nil {
		return nameKey{w.TemplateRef.Kind, w.TemplateRef.Name}
	}
	return nameKey{}
}

// Target returns the resolution of an autoscaler's scale target.
func (ws *Workspace) Target(a *scaling.Autoscaler) *Resolution {
	if r, ok := ws.resolved.get(a); ok {
		return r
	}
	return &Resolution{}
}

// TargetNamed returns the object a's scaleTargetRef would resolve to if
// it named name instead (nil when none): the target a rule may propose.
func (ws *Workspace) TargetNamed(a *scaling.Autoscaler, name string) *manifest.Object {
	// Most names asked are of no object (a typo's neighbours): the index
	// answers them without a resolution.
	if objs, _ := ws.byName.get(nameKey{a.Target.Kind, name}); len(objs) == 0 {
		return nil
	}
	b := *a
	b.Target.Name = name
	return ws.resolve(&b).Object
}

func (ws *Workspace) resolve(a *scaling.Autoscaler) *Resolution {
	r := &Resolution{}
	t := a.Target
	if t.Name == "" || t.Kind == "" {
		return r
	}
	var cands []*manifest.Object
	group := canonicalGroup(t.Group, t.Kind)
	objs, _ := ws.byName.get(nameKey{t.Kind, t.Name})
	for _, o := range objs {
		// A scaleTargetRef without apiVersion names the kind in any group.
		if t.APIVersion != "" && canonicalGroup(o.Group, o.Kind) != group {
			continue
		}
		if o == a.Object {
			continue
		}
		together := ws.DeployedTogether(a.Object, o)
		switch {
		case together && ws.NamespaceCompatible(a.Object, o):
			cands = append(cands, o)
		case together:
			r.OtherNamespace = append(r.OtherNamespace, o)
		case ws.NamespaceCompatible(a.Object, o) && ws.nearApart(a.Object, o):
			r.Apart = append(r.Apart, o)
		}
	}
	// In file order, whatever order the index holds them in (With
	// appends what it adds).
	sortObjects(r.Apart)
	sortObjects(r.OtherNamespace)
	if len(cands) == 0 {
		return r
	}
	from := a.Object.Doc.File
	type ranked struct {
		o        *manifest.Object
		together bool
		depth    int
	}
	rs := make([]ranked, len(cands))
	for i, o := range cands {
		rs[i] = ranked{o, ws.SharesRoot(a.Object, o), manifest.CommonDirDepth(from, o.Doc.File)}
	}
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].together != rs[j].together {
			return rs[i].together
		}
		if rs[i].depth != rs[j].depth {
			return rs[i].depth > rs[j].depth
		}
		pi, pj := rs[i].o.Doc.File.Path, rs[j].o.Doc.File.Path
		if pi != pj {
			return pi < pj
		}
		if rs[i].o.Doc.Index != rs[j].o.Doc.Index {
			return rs[i].o.Doc.Index < rs[j].o.Doc.Index
		}
		return rs[i].o.ListItem < rs[j].o.ListItem
	})
	for _, x := range rs {
		r.Variants = append(r.Variants, x.o)
	}
	r.Object = r.Variants[0]
	r.Workload, _ = ws.workloads.get(r.Object)
	r.Pods, r.PodsObject = ws.PodsOf(r.Object)
	return r
}

// PodsOf returns the workload view whose pod template a workload's pods
// run, and its object: the workload's own or, for an Argo Rollout with a
// workloadRef and no template, the object the ref names (templateOf);
// nil, nil when o is no workload or its ref's object is not among the
// inputs.
func (ws *Workspace) PodsOf(o *manifest.Object) (*scaling.Workload, *manifest.Object) {
	w, _ := ws.workloads.get(o)
	if w == nil {
		return nil, nil
	}
	if w.HasTemplate || w.TemplateRef == nil {
		return w, o
	}
	t := ws.templateOf(o, w.TemplateRef)
	if t == nil {
		return nil, nil
	}
	tw, _ := ws.workloads.get(t)
	return tw, t
}

// templateOf returns the object a Rollout's workloadRef names: a
// Deployment or ReplicaSet of group apps (the kinds Argo Rollouts reads a
// pod template from, but PodTemplate, which scalelint does not read),
// deployed with the Rollout in its namespace, the nearest when several
// variants are; nil when there is none.
func (ws *Workspace) templateOf(ro *manifest.Object, ref *manifest.TemplateRef) *manifest.Object {
	if !ReadsTemplateOf(ref) {
		return nil
	}
	objs, _ := ws.byName.get(nameKey{ref.Kind, ref.Name})
	var best *manifest.Object
	bestTogether, bestDepth := false, -1
	for _, o := range objs {
		if o.Group != "apps" || !ws.DeployedTogether(ro, o) || !ws.NamespaceCompatible(ro, o) {
			continue
		}
		together, depth := ws.SharesRoot(ro, o), manifest.CommonDirDepth(ro.Doc.File, o.Doc.File)
		switch {
		case best == nil, together && !bestTogether, together == bestTogether && depth > bestDepth,
			together == bestTogether && depth == bestDepth && objectBefore(o, best):
			best, bestTogether, bestDepth = o, together, depth
		}
	}
	return best
}

// NamespaceCompatible reports whether two objects can be in the same
// namespace in some deployment of them.
func (ws *Workspace) NamespaceCompatible(a, b *manifest.Object) bool {
	if len(ws.scopes.roots) == 0 { // no kustomization places anything
		return ws.ownNamespace(a) == ws.ownNamespace(b)
	}
	for _, x := range ws.Namespaces(a) {
		for _, y := range ws.Namespaces(b) {
			if x == y {
				return true
			}
		}
	}
	return false
}

// nearApart reports whether a definition not deployed with an object is
// still worth naming: both deployed by roots (different ones), or within
// twice TargetDistance directories of a directory holding both.
func (ws *Workspace) nearApart(a, b *manifest.Object) bool {
	if len(ws.Roots(a)) > 0 && len(ws.Roots(b)) > 0 {
		return true
	}
	d := ws.opts.TargetDistance
	if d < 0 {
		return true
	}
	fa, fb := a.Doc.File, b.Doc.File
	c := manifest.CommonDirDepth(fa, fb)
	return fa.DirDepth()-c <= 2*d && fb.DirDepth()-c <= 2*d
}

// ReadsTemplateOf reports whether a workloadRef names a kind whose pod
// template scalelint reads and Argo Rollouts takes: an apps Deployment
// or ReplicaSet (Argo Rollouts takes a core PodTemplate too, which
// scalelint does not read).
func ReadsTemplateOf(ref *manifest.TemplateRef) bool {
	group, _ := manifest.SplitAPIVersion(ref.APIVersion)
	return group == "apps" && (ref.Kind == "Deployment" || ref.Kind == "ReplicaSet")
}

// objectBefore orders objects by file path, document and list item.
func objectBefore(a, b *manifest.Object) bool {
	if pa, pb := a.Doc.File.Path, b.Doc.File.Path; pa != pb {
		return pa < pb
	}
	if a.Doc.Index != b.Doc.Index {
		return a.Doc.Index < b.Doc.Index
	}
	return a.ListItem < b.ListItem
}

// sortObjects orders objects by file path, document and list item.
func sortObjects(objs []*manifest.Object) {
	if len(objs) < 2 {
		return
	}
	sort.SliceStable(objs, func(i, j int) bool {
		a, b := objs[i], objs[j]
		if a.Doc.File.Path != b.Doc.File.Path {
			return a.Doc.File.Path < b.Doc.File.Path
		}
		if a.Doc.Index != b.Doc.Index {
			return a.Doc.Index < b.Doc.Index
		}
		return a.ListItem < b.ListItem
	})
}
