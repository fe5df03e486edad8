package scaling

// Bound says how an input's value relates to the true quantity.
type Bound int

const (
	Exact   Bound = iota // the value itself: an annotation, the configuration, a field read as written
	AtLeast              // a lower bound: the quantity is at least the value
	AtMost               // an upper bound: the quantity is at most the value
)

func (b Bound) String() string {
	return [...]string{"exact", "lower bound", "upper bound"}[b]
}

// Relation is the bound as a relation sign: "=", "≥" or "≤".
func (b Bound) Relation() string {
	return [...]string{"=", "≥", "≤"}[b]
}

// MergeInferred adds inferred inputs under the merged ones (MergeInputs),
// in place, and returns merged: an annotation (on the autoscaler or its
// target) or a configured default always wins over an inference, and an
// inference wins over a built-in default. merged must be the caller's
// own map (MergeInputs returns a fresh one), as it is changed.
func MergeInferred(merged, inferred Inputs) Inputs {
	for k, v := range inferred {
		if cur, ok := merged[k]; ok && cur.Origin != FromBuiltin {
			continue
		}
		v.Origin = FromInference
		merged[k] = v
	}
	return merged
}

// IsBound reports whether the input is an inferred bound rather than a
// value: a rule uses it only in the direction its Bound makes sound.
func (in Input) IsBound() bool { return in.Origin == FromInference && in.Bound != Exact }
