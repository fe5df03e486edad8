package scaling

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

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
	Count        int // minAvailable as a number of pods
	Percent      int // minAvailable as a percentage; -1 when a count
	MatchLabels  map[string]string
	expressions  []selectorRequirement
}

// selectorRequirement is one matchExpressions entry.
type selectorRequirement struct {
	key, op string
	values  []string
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
		if r.op == "In" {
			for _, v := range r.values {
				labels = append(labels, [2]string{r.key, v})
			}
			return false, labels
		}
	}
	return false, nil
}

// Required returns how many healthy pods the budget asks for at a scale
// of pods, and how the budget says it, for the message.
func (b *Budget) Required(pods int) (int, string) {
	if b.Percent < 0 {
		return b.Count, fmt.Sprintf("minAvailable %d", b.Count)
	}
	n := int(math.Ceil(float64(b.Percent) * float64(pods) / 100))
	unit := "pods"
	if pods == 1 {
		unit = "pod"
	}
	return n, fmt.Sprintf("minAvailable %d%% of %d %s, which rounds up to %d", b.Percent, pods, unit, n)
}

// Selects reports whether the budget's selector selects a pod template's
// labels (metav1.LabelSelector: every matchLabels pair and every
// requirement).
func (b *Budget) Selects(w *Workload) bool {
	for k, v := range b.MatchLabels {
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
	b := &Budget{Object: o, MinAvailable: o.FieldOf(k, v), Percent: -1}
	switch v.ShortTag() {
	case "!!int":
		n, err := strconv.Atoi(v.Value)
		if err != nil || n < 0 {
			return nil
		}
		b.Count = n
	case "!!str":
		p, ok := strings.CutSuffix(v.Value, "%")
		n, err := strconv.Atoi(p)
		if !ok || err != nil || n < 0 || n > 100 {
			return nil // not an IntOrString the controller reads
		}
		b.Percent = n
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
	r.key = strings.Clone(r.key)
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
			r.values = append(r.values, strings.Clone(v.Value))
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
