package rules

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

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
		for _, b := range budgets.list {
			if !budgets.selectsOnly(ws, b, r.Object) {
				continue
			}
			required, how := b.required(floor)
			if required < floor {
				continue
			}
			at := floorRange(a)
			bat := analyzer.KeySpan(b.obj, b.minAvailable)
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
					a.Object.Kind, a.Object.Name, r.Object.Kind, r.Object.Name, floorText, b.obj.Name, how,
					floor, required, minName, required+1),
				Related: []analyzer.Related{
					{Pos: bat.Pos(), End: bat.End(), Message: fmt.Sprintf("PodDisruptionBudget %q selects the pods of %s %q", b.obj.Name, r.Object.Kind, r.Object.Name)},
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
// minReplicaCount when it is 1 or more and no idleReplicaCount takes the
// workload below it when idle. ok is false for other autoscalers and for a
// floor that is not a number (invalid-field and replica-bounds report it).
func autoscalerFloor(a *scaling.Autoscaler) (floor int, ok bool) {
	if a.Min.Invalid || a.Min.V < 1 || a.Min.V != math.Trunc(a.Min.V) || a.Min.V > math.MaxInt32 {
		return 0, false
	}
	switch a.Kind {
	case scaling.HPA:
	case scaling.ScaledObject:
		if _, ok := a.Object.FieldAt(manifest.ParsePath("spec.idleReplicaCount")); ok {
			return 0, false
		}
	default:
		return 0, false
	}
	return int(a.Min.V), true
}

// budget is a PodDisruptionBudget written with minAvailable and a
// selector scalelint can evaluate.
type budget struct {
	obj          *manifest.Object
	minAvailable manifest.Field
	count        int // minAvailable as a number of pods
	percent      int // minAvailable as a percentage; -1 when a count
	matchLabels  map[string]string
	expressions  []selectorRequirement
}

// selectorRequirement is one matchExpressions entry.
type selectorRequirement struct {
	key, op string
	values  []string
}

// required returns how many healthy pods the budget asks for at a scale
// of pods, and how the budget says it, for the message.
func (b *budget) required(pods int) (int, string) {
	if b.percent < 0 {
		return b.count, fmt.Sprintf("minAvailable %d", b.count)
	}
	n := int(math.Ceil(float64(b.percent) * float64(pods) / 100))
	unit := "pods"
	if pods == 1 {
		unit = "pod"
	}
	return n, fmt.Sprintf("minAvailable %d%% of %d %s, which rounds up to %d", b.percent, pods, unit, n)
}

// selects reports whether the budget's selector selects a pod template's
// labels (metav1.LabelSelector: every matchLabels pair and every
// requirement).
func (b *budget) selects(w *scaling.Workload) bool {
	for k, v := range b.matchLabels {
		if got, ok := w.Label(k); !ok || got != v {
			return false
		}
	}
	for _, r := range b.expressions {
		v, has := w.Label(r.key)
		in := has && slices.Contains(r.values, v)
		switch r.op {
		case "In":
			if !in {
				return false
			}
		case "NotIn":
			if in {
				return false
			}
		case "Exists":
			if !has {
				return false
			}
		case "DoesNotExist":
			if has {
				return false
			}
		}
	}
	return true
}

// budgets are a workspace's PodDisruptionBudgets that scalelint can
// evaluate, and the workloads each selects, derived once per workspace.
type budgets struct {
	list []*budget
	// workloads are the workload objects of the workspace whose pod
	// templates carry labels, by "key=value" of each label (the budgets'
	// candidates).
	workloads map[string][]*manifest.Object
	all       []*manifest.Object // every workload object with labels
}

type budgetsKey struct{}

// budgetsOf returns the workspace's budgets (Derive: once per workspace,
// whatever the rule's passes).
func budgetsOf(ws *workspace.Workspace) *budgets {
	return ws.Derive(budgetsKey{}, func() any {
		out := &budgets{}
		// The driver parsed the kind (Kinds) before the rules ran.
		for _, o := range ws.AllObjects().All() {
			if o.Kind != "PodDisruptionBudget" {
				continue
			}
			if b := readBudget(o); b != nil {
				out.list = append(out.list, b)
			}
		}
		if len(out.list) == 0 {
			return out
		}
		out.workloads = map[string][]*manifest.Object{}
		for _, o := range ws.AllObjects().All() {
			w, _ := ws.PodsOf(o)
			if w == nil {
				continue
			}
			labeled := false
			w.EachLabel(func(k, v string) {
				out.workloads[k+"="+v] = append(out.workloads[k+"="+v], o)
				labeled = true
			})
			if labeled {
				out.all = append(out.all, o)
			}
		}
		return out
	}).(*budgets)
}

// selectsOnly reports whether the budget selects the pods of target and
// of no other workload deployed with it (variants of the target, one
// object defined in several places, count as the target).
func (bs *budgets) selectsOnly(ws *workspace.Workspace, b *budget, target *manifest.Object) bool {
	if !ws.Linkable(b.obj, target) {
		return false
	}
	cands := bs.all
	for k, v := range b.matchLabels {
		cands = bs.workloads[k+"="+v] // any one pair narrows the search
		break
	}
	found := false
	for _, o := range cands {
		w, _ := ws.PodsOf(o)
		if w == nil || !b.selects(w) || !ws.Linkable(b.obj, o) {
			continue
		}
		if o.Kind != target.Kind || o.Name != target.Name {
			return false // a second workload's pods count too
		}
		found = found || o == target
	}
	return found
}

// readBudget reads a policy PodDisruptionBudget written with minAvailable
// and a non-empty selector of known operators; nil for any other.
func readBudget(o *manifest.Object) *budget {
	if o.Group != "policy" || o.Kind != "PodDisruptionBudget" {
		return nil
	}
	root := o.Root()
	if root == nil {
		return nil
	}
	if _, v := manifest.Lookup(root, manifest.ParsePath("spec.maxUnavailable")); v != nil {
		return nil // the API server refuses both; maxUnavailable allows its own count
	}
	k, v := manifest.Lookup(root, manifest.ParsePath("spec.minAvailable"))
	if v == nil || v.Kind != yaml.ScalarNode {
		return nil
	}
	b := &budget{obj: o, minAvailable: o.FieldOf(k, v), percent: -1}
	switch v.ShortTag() {
	case "!!int":
		n, err := strconv.Atoi(v.Value)
		if err != nil || n < 0 {
			return nil
		}
		b.count = n
	case "!!str":
		p, ok := strings.CutSuffix(v.Value, "%")
		n, err := strconv.Atoi(p)
		if !ok || err != nil || n < 0 || n > 100 {
			return nil // not an IntOrString the controller reads
		}
		b.percent = n
	default:
		return nil
	}
	_, sel := manifest.Lookup(root, manifest.ParsePath("spec.selector"))
	if sel == nil || sel.Kind != yaml.MappingNode {
		return nil
	}
	if _, ml := manifest.Lookup(sel, manifest.ParsePath("matchLabels")); ml != nil {
		if ml.Kind != yaml.MappingNode {
			return nil
		}
		b.matchLabels = map[string]string{}
		for i := 0; i+1 < len(ml.Content); i += 2 {
			kn, vn := ml.Content[i], ml.Content[i+1]
			if kn.Kind != yaml.ScalarNode || vn.Kind != yaml.ScalarNode {
				return nil
			}
			b.matchLabels[kn.Value] = vn.Value
		}
	}
	if _, me := manifest.Lookup(sel, manifest.ParsePath("matchExpressions")); me != nil {
		if me.Kind != yaml.SequenceNode {
			return nil
		}
		for _, e := range me.Content {
			r, ok := readRequirement(e)
			if !ok {
				return nil
			}
			b.expressions = append(b.expressions, r)
		}
	}
	if len(b.matchLabels) == 0 && len(b.expressions) == 0 {
		return nil // an empty selector: every pod of the namespace, or none (policy/v1beta1)
	}
	return b
}

// readRequirement reads a matchExpressions entry; ok is false for one
// the API server would refuse or an operator it does not know.
func readRequirement(n *yaml.Node) (selectorRequirement, bool) {
	var r selectorRequirement
	if n.Kind != yaml.MappingNode {
		return r, false
	}
	scalar := func(key string) (string, bool) {
		_, v := manifest.Lookup(n, manifest.ParsePath(key))
		if v == nil || v.Kind != yaml.ScalarNode {
			return "", false
		}
		return v.Value, true
	}
	var ok bool
	if r.key, ok = scalar("key"); !ok {
		return r, false
	}
	if r.op, ok = scalar("operator"); !ok {
		return r, false
	}
	_, vs := manifest.Lookup(n, manifest.ParsePath("values"))
	if vs != nil {
		if vs.Kind != yaml.SequenceNode {
			return r, false
		}
		for _, v := range vs.Content {
			if v.Kind != yaml.ScalarNode {
				return r, false
			}
			r.values = append(r.values, v.Value)
		}
	}
	switch r.op {
	case "In", "NotIn":
		return r, len(r.values) > 0
	case "Exists", "DoesNotExist":
		return r, len(r.values) == 0
	}
	return r, false
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
		for _, b := range bs.list {
			if !b.selects(w) || !ws.Linkable(b.obj, o) {
				continue
			}
			for _, p := range bs.all {
				if pw, _ := ws.PodsOf(p); pw != nil && !seen[p] && b.selects(pw) && ws.Linkable(b.obj, p) {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	}
	return out
}
