package scaling

import (
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

type budgetKey struct{}

// Budgets are parsed as their file is read, and their views built then
// (workspace.Prepare), while the text is at hand: parsed on demand after a
// large run dropped the texts, 3,000 of them were read from disk again.
func init() { manifest.RegisterEagerKind("policy", "PodDisruptionBudget") }

// IsBudget reports whether an object is a PodDisruptionBudget of the
// policy group (v1, v1beta1).
func IsBudget(o *manifest.Object) bool { return o.Group == "policy" && o.Kind == "PodDisruptionBudget" }

// BudgetFromObject reads a PodDisruptionBudget; nil for other objects and
// for a budget scalelint does not evaluate (readBudget). The view is built
// once per object, from its tree: the workspace builds it when it indexes
// the object, while the tree is at hand (a large run drops the trees), so
// a rule that asks later parses nothing again.
func BudgetFromObject(o *manifest.Object) *Budget {
	if !IsBudget(o) {
		return nil
	}
	b, _ := o.Memo(budgetKey{}, func() any { return readBudget(o) }).(*Budget)
	return b
}

// Budget is a PodDisruptionBudget written with minAvailable and a
// selector scalelint can evaluate (pdb-blocks-eviction).
type Budget struct {
	Object       *manifest.Object
	MinAvailable manifest.Field
	// minAvailable as the API reads it (a count, or a percentage of the
	// controllers' scale).
	minAvailable intstr.IntOrString
	MatchLabels  map[string]string
	expressions  []metav1.LabelSelectorRequirement
	// selector is the budget's selector as the API server evaluates it
	// (metav1.LabelSelectorAsSelector).
	selector labels.Selector
}

// SelectorLabels returns labels the pods the budget selects carry: with
// every true, each of them (its matchLabels); else one of them at least
// (the values of its first In requirement); none when it writes neither,
// and only a pass over every workload could say what it selects.
func (b *Budget) SelectorLabels() (every bool, labels [][2]string) {
	if len(b.MatchLabels) > 0 {
		for k, v := range b.MatchLabels {
			labels = append(labels, [2]string{k, v})
		}
		return true, labels
	}
	for _, r := range b.expressions {
		if r.Operator == metav1.LabelSelectorOpIn {
			for _, v := range r.Values {
				labels = append(labels, [2]string{r.Key, v})
			}
			return false, labels
		}
	}
	return false, nil
}

// Required returns how many healthy pods the budget asks for at a scale
// of pods, as the disruption controller counts (a percentage rounded up:
// intstr.GetScaledValueFromIntOrPercent with roundUp), and how the budget
// says it, for the message.
func (b *Budget) Required(pods int) (int, string) {
	n, _ := intstr.GetScaledValueFromIntOrPercent(&b.minAvailable, pods, true) // readBudget kept only what it reads
	if b.minAvailable.Type == intstr.Int {
		return n, fmt.Sprintf("minAvailable %d", n)
	}
	unit := "pods"
	if pods == 1 {
		unit = "pod"
	}
	return n, fmt.Sprintf("minAvailable %s of %d %s, which rounds up to %d", b.minAvailable.StrVal, pods, unit, n)
}

// Selects reports whether the budget's selector selects a pod template's
// labels.
func (b *Budget) Selects(w *Workload) bool { return b.selector.Matches(podLabelSet{w}) }

// podLabelSet is a pod template's labels as labels.Labels.
type podLabelSet struct{ w *Workload }

func (p podLabelSet) Has(key string) bool              { _, ok := p.w.Label(key); return ok }
func (p podLabelSet) Get(key string) string            { v, _ := p.w.Label(key); return v }
func (p podLabelSet) Lookup(key string) (string, bool) { return p.w.Label(key) }

// readBudget reads a policy PodDisruptionBudget written with minAvailable
// and a non-empty selector of known operators; nil for any other.
func readBudget(o *manifest.Object) *Budget {
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
	b := &Budget{Object: o, MinAvailable: o.FieldOf(k, v)}
	switch v.ShortTag() {
	case "!!int":
		n, err := strconv.ParseInt(v.Value, 10, 32)
		if err != nil || n < 0 {
			return nil
		}
		b.minAvailable = intstr.FromInt32(int32(n))
	case "!!str":
		b.minAvailable = intstr.FromString(strings.Clone(v.Value))
		if p, err := intstr.GetScaledValueFromIntOrPercent(&b.minAvailable, 100, true); err != nil || p < 0 || p > 100 {
			return nil // not a percentage the controller reads
		}
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
		b.MatchLabels = map[string]string{}
		for i := 0; i+1 < len(ml.Content); i += 2 {
			kn, vn := ml.Content[i], ml.Content[i+1]
			if kn.Kind != yaml.ScalarNode || vn.Kind != yaml.ScalarNode {
				return nil
			}
			b.MatchLabels[strings.Clone(kn.Value)] = strings.Clone(vn.Value) // nothing of the tree kept
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
	if len(b.MatchLabels) == 0 && len(b.expressions) == 0 {
		return nil // an empty selector: every pod of the namespace, or none (policy/v1beta1)
	}
	selector, err := metav1.LabelSelectorAsSelector(&metav1.LabelSelector{MatchLabels: b.MatchLabels, MatchExpressions: b.expressions})
	if err != nil {
		return nil // an operator, key or value the API server refuses
	}
	b.selector = selector
	return b
}

// readRequirement reads a matchExpressions entry's scalars; ok is false
// for an entry that is not a mapping of them (LabelSelectorAsSelector
// judges the operator and the values).
func readRequirement(n *yaml.Node) (metav1.LabelSelectorRequirement, bool) {
	var r metav1.LabelSelectorRequirement
	if n.Kind != yaml.MappingNode {
		return r, false
	}
	scalar := func(key string) (string, bool) {
		_, v := manifest.Lookup(n, manifest.ParsePath(key))
		if v == nil || v.Kind != yaml.ScalarNode {
			return "", false
		}
		return strings.Clone(v.Value), true
	}
	key, ok := scalar("key")
	op, ok2 := scalar("operator")
	if !ok || !ok2 {
		return r, false
	}
	r.Key, r.Operator = key, metav1.LabelSelectorOperator(op)
	if _, vs := manifest.Lookup(n, manifest.ParsePath("values")); vs != nil {
		if vs.Kind != yaml.SequenceNode {
			return r, false
		}
		for _, v := range vs.Content {
			if v.Kind != yaml.ScalarNode {
				return r, false
			}
			r.Values = append(r.Values, strings.Clone(v.Value))
		}
	}
	return r, true
}
