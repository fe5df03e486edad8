package workspace

import (
	"slices"
	"sync"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
)

// The pod labels index answers which workloads a label selector may
// select (a PodDisruptionBudget's), and the budgets list which objects
// are PodDisruptionBudgets, without a pass over every object: at 10,000
// services such a pass on every edit of a language server cost more than
// the edit (each object read is a cache miss).
//
// The index is built on first use, and only then: a workspace whose rules
// never ask holds none. A workspace made by With from one whose index is
// built derives its own from it (the changed files' workloads removed and
// added), so a language server builds it once per session.

// podLabel is one label of a pod template.
type podLabel struct{ key, value string }

// labelIndex lists the workload objects by each label of their own pod
// templates (a Rollout that runs another object's template is listed
// under none: that object is).
type labelIndex struct {
	mu    sync.Mutex
	built bool
	m     layered[podLabel, []*manifest.Object] // lists are copied before they change
}

// WithPodLabel returns the workload objects whose pod templates carry a
// label, in the order they were indexed; the caller must not change the
// list.
func (ws *Workspace) WithPodLabel(key, value string) []*manifest.Object {
	ix := ws.labels
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if !ix.built {
		ix.m = newLayered[podLabel, []*manifest.Object](0)
		for _, o := range ws.objects.All() {
			ix.add(o, false)
		}
		ix.built = true
	}
	objs, _ := ix.m.get(podLabel{key, value})
	return objs
}

// add indexes a workload object under its pod template's labels. Once the
// index is read (readers hold its lists, and workspaces With derives
// share them), a list is copied before it grows: shared, their spare
// capacity would be written by two workspaces. While it is built it is
// not: a label thousands of workloads carry was copied for each of
// them (at 10,000 services, hundreds of megabytes and a second).
func (ix *labelIndex) add(o *manifest.Object, shared bool) {
	if !scaling.IsWorkload(o) {
		return
	}
	scaling.WorkloadFromObject(o).EachLabel(func(k, v string) {
		l := podLabel{k, v}
		objs, _ := ix.m.get(l)
		if shared {
			objs = slices.Clip(objs)
		}
		ix.m.set(l, append(objs, o))
	})
}

// remove drops a workload object from the index.
func (ix *labelIndex) remove(o *manifest.Object) {
	if !scaling.IsWorkload(o) {
		return
	}
	scaling.WorkloadFromObject(o).EachLabel(func(k, v string) {
		l := podLabel{k, v}
		objs, _ := ix.m.get(l)
		if objs = slices.DeleteFunc(slices.Clone(objs), func(x *manifest.Object) bool { return x == o }); len(objs) > 0 {
			ix.m.set(l, objs)
		} else {
			ix.m.delete(l)
		}
	})
}

// indexAdded adds an object New or With indexes to a built index.
func (ix *labelIndex) indexAdded(o *manifest.Object) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.built {
		ix.add(o, true)
	}
}

// derive returns the index of a workspace made by With: derived from this
// one when it is built (With then removes and adds the changed files'
// workloads), else a new one, built on first use.
func (ix *labelIndex) derive() *labelIndex {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if !ix.built {
		return &labelIndex{}
	}
	return &labelIndex{built: true, m: ix.m.derive()}
}

// Budgets returns the PodDisruptionBudgets of the policy group among the
// indexed objects, in the order they were indexed; the caller must not
// change the list.
func (ws *Workspace) Budgets() []*manifest.Object { return ws.budgets }
