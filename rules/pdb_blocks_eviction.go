package rules

import (
	"fmt"
	"math"

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
// selects), derived once per workspace: a pass over every pair of
// autoscaler and budget took 2 s at 10,000 services and 3,000 budgets.
type budgets struct {
	list []*scaling.Budget
	// byLabel lists each budget under one label of its matchLabels, the
	// one the fewest workloads carry; unlabelled lists those with
	// matchExpressions only, which every pod template is asked about.
	byLabel    map[label][]*scaling.Budget
	unlabelled []*scaling.Budget
	// selected are, per budget, the workload objects whose pod templates
	// its selector selects, deployed with it or not (selectsOnly asks).
	selected map[*scaling.Budget][]*manifest.Object
}

// label is one key and value of a selector or a pod template.
type label struct{ key, value string }

type budgetsKey struct{}

// budgetsOf returns the workspace's budgets (Derive: once per workspace,
// whatever the rule's passes).
func budgetsOf(ws *workspace.Workspace) *budgets {
	return ws.Derive(budgetsKey{}, func() any {
		out := &budgets{}
		// The driver parsed the kind (Kinds) before the rules ran, and
		// the index built the views.
		used := map[label]bool{} // the labels the budgets select by
		for _, o := range ws.AllObjects().All() {
			if o.Kind != "PodDisruptionBudget" {
				continue
			}
			if b := scaling.BudgetFromObject(o); b != nil {
				out.list = append(out.list, b)
				for k, v := range b.MatchLabels {
					used[label{k, v}] = true
				}
			}
		}
		if len(out.list) == 0 {
			return out
		}
		// The workloads by each label of their pod templates that a
		// budget selects by.
		byLabel := map[label][]*manifest.Object{}
		var labelled []*manifest.Object
		for _, o := range ws.AllObjects().All() {
			w, _ := ws.PodsOf(o)
			if w == nil {
				continue
			}
			has := false
			w.EachLabel(func(k, v string) {
				has = true
				if l := (label{k, v}); used[l] {
					byLabel[l] = append(byLabel[l], o)
				}
			})
			if has {
				labelled = append(labelled, o)
			}
		}
		out.byLabel = map[label][]*scaling.Budget{}
		out.selected = map[*scaling.Budget][]*manifest.Object{}
		for _, b := range out.list {
			cands, key, keyed := labelled, label{}, false
			for k, v := range b.MatchLabels {
				if c := byLabel[label{k, v}]; !keyed || len(c) < len(cands) {
					cands, key, keyed = c, label{k, v}, true
				}
			}
			var sel []*manifest.Object
			for _, o := range cands {
				if w, _ := ws.PodsOf(o); b.Selects(w) {
					sel = append(sel, o)
				}
			}
			if len(sel) == 0 {
				continue // selects no pod template among the inputs
			}
			out.selected[b] = sel
			if keyed {
				out.byLabel[key] = append(out.byLabel[key], b)
			} else {
				out.unlabelled = append(out.unlabelled, b)
			}
		}
		return out
	}).(*budgets)
}

// of returns the budgets whose selectors select a pod template.
func (bs *budgets) of(w *scaling.Workload) []*scaling.Budget {
	var out []*scaling.Budget
	w.EachLabel(func(k, v string) {
		for _, b := range bs.byLabel[label{k, v}] {
			if b.Selects(w) {
				out = append(out, b)
			}
		}
	})
	for _, b := range bs.unlabelled {
		if b.Selects(w) {
			out = append(out, b)
		}
	}
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
	for _, o := range bs.selected[b] {
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
			for _, p := range bs.selected[b] {
				if !seen[p] && ws.Linkable(b.Object, p) {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	}
	return out
}
