package scaling

import "sync"

// Inputs are the law inputs of one autoscaler, by annotation name without
// the prefix.
type Inputs map[string]Input

// MergeInputs gathers the law inputs of an autoscaler. An annotation on
// the autoscaler wins over one on its target (w may be nil), which wins
// over the repository's configured defaults, which win over scalelint's
// built-in defaults (the repository README, "Annotations").
func MergeInputs(a *Autoscaler, w *Workload, defaults Inputs) Inputs {
	builtins := builtinInputs()
	out := make(Inputs, len(builtins)+len(defaults)+len(a.Annotations)+1) // +1: the dead time's inferred floor
	for k, v := range builtins {
		out[k] = v
	}
	for k, v := range defaults {
		v.Origin = FromConfig
		out[k] = v
	}
	if w != nil {
		for k, v := range w.Annotations {
			out[k] = v
		}
	}
	for k, v := range a.Annotations {
		out[k] = v
	}
	return out
}

// builtinInputs are the built-in defaults, parsed once.
var builtinInputs = sync.OnceValue(func() Inputs {
	out := Inputs{}
	for _, spec := range Annotations {
		if spec.Default == "" {
			continue
		}
		if in, err := ParseValue(spec, spec.Default); err == nil {
			in.Origin = FromBuiltin
			out[spec.Name] = in
		}
	}
	return out
})
