package rules

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// PDBBlocksEviction reports an autoscaler whose floor (the fewest replicas
// it scales its workload down to) leaves a PodDisruptionBudget on the
// workload's pods no eviction to allow: at the floor a node drain waits
// until load scales the workload up.
//
// The budget's arithmetic is the disruption controller's
// (kubernetes/kubernetes pkg/controller/disruption/disruption.go,
// getExpectedPodCount): minAvailable N asks N healthy pods of the pods
// the budget selects; minAvailable P% asks P% of the scale of their
// controller, rounded up (intstr.GetScaledValueFromIntOrPercent with
// roundUp); the evictions allowed are the healthy pods less those asked
// for. At the floor m, with every pod healthy (the best case), that is
// m−N, or m−⌈P·m/100⌉: none when it is 0 or less. A budget written with
// maxUnavailable allows its own count at any scale (⌈P·m/100⌉ ≥ 1 for a
// percentage above zero), so only minAvailable is read.
//
// What is inferred, and why it is sound: the budget is compared with the
// autoscaler's target only when its selector (matchLabels, and
// matchExpressions with the four operators of metav1.LabelSelector)
// selects the pod template of that workload and of no other workload
// among the inputs deployed with it in its namespace; pods from outside
// the inputs would add to the count, a case the inputs cannot show. A
// ScaledObject whose floor is 0 (or that sets idleReplicaCount) runs no
// pods when idle and is not judged.
var PDBBlocksEviction = &analyzer.Analyzer{
	Name:     "pdb-blocks-eviction",
	Severity: analyzer.Warning,
	Doc:      doc("pdb-blocks-eviction"),
	URL:      analyzer.RulesReferenceURL + "#pdb-blocks-eviction",
	Kinds:    []string{"PodDisruptionBudget"},
	Run:      runPDBBlocksEviction,
}

func runPDBBlocksEviction(pass *analyzer.Pass) error {
	ws := pass.Workspace
	budgets := budgetsOf(ws)
	if len(budgets.list) == 0 {
		return nil
	}
	for _, a := range ws.Autoscalers().All() {
		floor, ok := autoscalerFloor(a)
		if !ok {
			continue
		}
		r := ws.Target(a)
		if r.Object == nil || r.Pods == nil {
			continue
		}
		for _, b := range budgets.of(r.Pods) {
			if !budgets.selectsOnly(ws, b, r.Object) {
				continue
			}
			required, how := b.Required(floor)
			if required < floor || idleBelow(a) {
				continue
			}
			at := floorRange(a)
			bat := analyzer.KeySpan(b.Object, b.MinAvailable)
			minName := "minReplicas"
			if a.Kind == scaling.ScaledObject {
				minName = "minReplicaCount"
			}
			floorText := fmt.Sprintf("%s %d", minName, floor)
			if !a.Min.Set {
				floorText += " (the default)"
			}
			pass.Report(analyzer.Diagnostic{
				Pos: at.Pos(), End: at.End(), Object: a.Object, Field: "spec." + minName,
				Message: fmt.Sprintf("%s %q lets %s %q scale down to %s, and PodDisruptionBudget %q asks %s: at that floor the budget allows no eviction (%d running, %d required healthy), so a node drain waits until load scales the workload up; set %s to at least %d, or write the budget as maxUnavailable",
					a.Object.Kind, a.Object.Name, r.Object.Kind, r.Object.Name, floorText, b.Object.Name, how,
					floor, required, minName, required+1),
				Related: []analyzer.Related{
					{Pos: bat.Pos(), End: bat.End(), Message: fmt.Sprintf("PodDisruptionBudget %q selects the pods of %s %q", b.Object.Name, r.Object.Kind, r.Object.Name)},
				},
			})
		}
	}
	return nil
}

// floorRange is where a finding on the floor goes: the written minimum,
// or the spec key when the default applies.
func floorRange(a *scaling.Autoscaler) analyzer.Span {
	return analyzer.KeySpan(a.Object, boundField(a, a.Min))
}

// autoscalerFloor returns the fewest replicas an autoscaler runs while it
// runs any: an HPA's minReplicas (1 by default), a ScaledObject's
// minReplicaCount when it is 1 or more (idleFloor asks about
// idleReplicaCount, which reads the object's tree: only once a budget is
// at hand). ok is false for other autoscalers and for a
// floor that is not a number (invalid-field and replica-bounds report it).
func autoscalerFloor(a *scaling.Autoscaler) (floor int, ok bool) {
	if a.Min.Invalid || a.Min.V < 1 || a.Min.V != math.Trunc(a.Min.V) || a.Min.V > math.MaxInt32 {
		return 0, false
	}
	switch a.Kind {
	case scaling.HPA:
	case scaling.ScaledObject:
	default:
		return 0, false
	}
	return int(a.Min.V), true
}

// idleBelow reports whether a ScaledObject sets idleReplicaCount, which
// KEDA scales its workload to, below minReplicaCount, while its triggers
// are idle.
func idleBelow(a *scaling.Autoscaler) bool {
	if a.Kind != scaling.ScaledObject {
		return false
	}
	_, ok := a.Object.FieldAt(manifest.ParsePath("spec.idleReplicaCount"))
	return ok
}

// budgets are a workspace's PodDisruptionBudgets that scalelint can
// evaluate, indexed for the two questions the rule asks at every
// autoscaler (which budgets select this pod template, and what else each
// selects), derived once per workspace from the workspace's own indexes
// (Budgets, WithPodLabel): a pass over every pair of autoscaler and budget
// took 2 s at 10,000 services and 3,000 budgets, and one over every
// object 20 ms of every edit in a language server.
type budgets struct {
	*filing

	mu       sync.Mutex
	selected map[*scaling.Budget][]*manifest.Object // selectedBy's answers
}

// filing is the budgets of a list of budget objects, each filed under a
// label of its selector (byLabel): of its matchLabels the one the fewest
// workloads carry (every pod it selects carries them all, so any is
// right; the rarest is the fastest), or each value of its In requirement.
// It depends on the list alone: consecutive workspaces of a language
// server whose edits left every budget alone share it (lastFiling).
type filing struct {
	objs    []*manifest.Object // the list it was made from (kept: see lastFiling)
	list    []*scaling.Budget
	byLabel map[label][]*scaling.Budget
}

// lastFiling is the filing of the last list of budget objects filed. A
// workspace's list (Workspace.Budgets) is copied whenever it changes, so
// a list with the same first element's address and length is the same
// list; the filing keeps the list, so that memory is not another's.
var lastFiling atomic.Pointer[filing]

// label is one key and value of a selector or a pod template.
type label struct{ key, value string }

type budgetsKey struct{}

// budgetsOf returns the workspace's budgets (Derive: once per workspace,
// whatever the rule's passes).
func budgetsOf(ws *workspace.Workspace) *budgets {
	return ws.Derive(budgetsKey{}, func() any {
		objs := ws.Budgets()
		f := lastFiling.Load()
		if f == nil || len(f.objs) != len(objs) || (len(objs) > 0 && &f.objs[0] != &objs[0]) {
			f = fileBudgets(ws, objs)
			lastFiling.Store(f)
		}
		return &budgets{filing: f, selected: map[*scaling.Budget][]*manifest.Object{}}
	}).(*budgets)
}

// fileBudgets files the budgets of a workspace's budget objects.
func fileBudgets(ws *workspace.Workspace, objs []*manifest.Object) *filing {
	out := &filing{objs: objs, byLabel: map[label][]*scaling.Budget{}}
	for _, o := range objs {
		b := scaling.BudgetFromObject(o)
		if b == nil {
			continue
		}
		every, ls := b.SelectorLabels()
		if len(ls) == 0 {
			continue // selects by NotIn, Exists or DoesNotExist only: not judged
		}
		out.list = append(out.list, b)
		if !every {
			for _, l := range ls {
				out.byLabel[label{l[0], l[1]}] = append(out.byLabel[label{l[0], l[1]}], b)
			}
			continue
		}
		best, n := ls[0], -1
		for _, l := range ls {
			if c := len(ws.WithPodLabel(l[0], l[1])); n < 0 || c < n {
				best, n = l, c
			}
		}
		out.byLabel[label{best[0], best[1]}] = append(out.byLabel[label{best[0], best[1]}], b)
	}
	return out
}

// selectedBy returns the workload objects whose own pod templates a
// budget selects, deployed with it or not.
func (bs *budgets) selectedBy(ws *workspace.Workspace, b *scaling.Budget) []*manifest.Object {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	if sel, ok := bs.selected[b]; ok {
		return sel
	}
	every, ls := b.SelectorLabels()
	var cands []*manifest.Object
	for _, l := range ls {
		c := ws.WithPodLabel(l[0], l[1])
		if every && cands != nil && len(c) >= len(cands) {
			continue // the least of the lists holds every selected pod
		}
		if every {
			cands = c
		} else {
			cands = append(cands, c...)
		}
	}
	var sel []*manifest.Object
	for _, o := range cands {
		if w := ws.Workload(o); w != nil && b.Selects(w) && !slices.Contains(sel, o) {
			sel = append(sel, o)
		}
	}
	bs.selected[b] = sel
	return sel
}

// of returns the budgets whose selectors select a pod template.
func (bs *budgets) of(w *scaling.Workload) []*scaling.Budget {
	var out []*scaling.Budget
	w.EachLabel(func(k, v string) {
		for _, b := range bs.byLabel[label{k, v}] {
			if !slices.Contains(out, b) && b.Selects(w) {
				out = append(out, b)
			}
		}
	})
	return out
}

// selectsOnly reports whether the budget selects the pods of target and
// of no other workload deployed with it (variants of the target, one
// object defined in several places, count as the target).
func (bs *budgets) selectsOnly(ws *workspace.Workspace, b *scaling.Budget, target *manifest.Object) bool {
	if !ws.Linkable(b.Object, target) {
		return false
	}
	found := false
	for _, o := range bs.selectedBy(ws, b) {
		if !ws.Linkable(b.Object, o) {
			continue
		}
		if o.Kind != target.Kind || o.Name != target.Name {
			return false // a second workload's pods count too
		}
		found = found || o == target
	}
	return found
}

// BudgetPeers returns the workloads whose autoscalers' pdb-blocks-eviction
// findings may change with objs (the objects of an edited file): those
// a PodDisruptionBudget selects together with a workload among objs, for
// a budget that selected one more workload no longer selects only the
// target. A language server relints them (and their autoscalers) with the
// edit, before and after it, as it does the readers of traffic objects
// (infer.Readers). An edited budget relints everything (Kinds).
func BudgetPeers(ws *workspace.Workspace, objs []*manifest.Object) []*manifest.Object {
	bs := budgetsOf(ws)
	if len(bs.list) == 0 {
		return nil
	}
	var out []*manifest.Object
	seen := map[*manifest.Object]bool{}
	for _, o := range objs {
		w, _ := ws.PodsOf(o)
		if w == nil {
			continue
		}
		for _, b := range bs.of(w) {
			if !ws.Linkable(b.Object, o) {
				continue
			}
			for _, p := range bs.selectedBy(ws, b) {
				if !seen[p] && ws.Linkable(b.Object, p) {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	}
	return out
}
