package manifest

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/suggest"
)

// autoscalerKinds are the kinds of autoscalers, with the apiVersion each
// is written with today: a document of one of them without apiVersion is
// an error to report, not a document to set aside.
var autoscalerKinds = map[string]string{
	"HorizontalPodAutoscaler": "autoscaling/v2",
	"ScaledObject":            "keda.sh/v1alpha1",
	"ScaledJob":               "keda.sh/v1alpha1",
}

// autoscalerGroups are the API groups of autoscalers and the kinds each
// serves as documents: an object of the group without one of them (no
// kind, a misspelled one) is an error.
var autoscalerGroups = map[string][]string{
	"autoscaling": {"HorizontalPodAutoscaler"},
	"keda.sh":     {"ScaledObject", "ScaledJob", "TriggerAuthentication", "ClusterTriggerAuthentication"},
	"keda.k8s.io": {"ScaledObject", "TriggerAuthentication"},
}

// identityProblems reports an object that is meant to be an autoscaler
// but that kubectl would refuse for its apiVersion or kind: an
// autoscaler's kind without apiVersion, or an autoscaler group's
// apiVersion without a kind it serves. Such an object is not typed, so
// nothing else reports it: it would vanish without a word. The problem
// sits at the misspelled key or kind when there is one (with a fix),
// else at the object's first line.
func (o *Object) identityProblems() []Problem {
	n := o.node
	if n == nil {
		return nil
	}
	kindsOfGroup, knownGroup := autoscalerGroups[o.Group]
	_, autoscalerKind := autoscalerKinds[o.Kind]
	switch {
	case o.APIVersion == "" && autoscalerKind:
		return []Problem{o.missingKey("apiVersion", fmt.Sprintf("this %s has no apiVersion (%s)", o.Kind, autoscalerKinds[o.Kind]))}
	case knownGroup && o.Kind == "":
		return []Problem{o.missingKey("kind", fmt.Sprintf("this %s object has no kind", o.APIVersion))}
	case knownGroup && !containsString(kindsOfGroup, o.Kind):
		v := mapValue(n, "kind")
		if v == nil || v.Kind != yaml.ScalarNode {
			return nil // a kind that is no string: the decode's business
		}
		msg := fmt.Sprintf("kind %q is not served by %s", o.Kind, o.APIVersion)
		p := Problem{Rule: "invalid-field", Pos: o.Pos(v), End: o.End(v), Object: o}
		if s := suggest.Closest(o.Kind, kindsOfGroup); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
			if v.Style == 0 {
				p.Suggestion = s
			}
		} else {
			msg += fmt.Sprintf(" (it serves %s)", strings.Join(kindsOfGroup, ", "))
		}
		p.Message = msg + ": kubectl refuses the object, and it is not linted"
		return []Problem{p}
	}
	return nil
}

// missingKey is the problem of an object without key: at the key that
// looks like a misspelling of it (with a fix renaming it), else at the
// object's first key.
func (o *Object) missingKey(key, what string) Problem {
	n := o.node
	var keys []*yaml.Node
	for _, kv := range mappingEntries(n) {
		if k := deref(kv[0]); k != nil && k.Kind == yaml.ScalarNode {
			keys = append(keys, kv[0])
		}
	}
	for _, k := range keys {
		if k.Value != key && suggest.Closest(k.Value, []string{key}) == key {
			p := Problem{Rule: "invalid-field", Pos: o.Pos(k), End: o.End(k), Object: o,
				Message: fmt.Sprintf("unknown key %q (did you mean %q?): %s, so kubectl refuses it and it is not linted", k.Value, key, what)}
			if k.Style == 0 {
				p.Suggestion = key
			}
			return p
		}
	}
	at := n
	if len(keys) > 0 {
		at = keys[0]
	}
	return Problem{Rule: "invalid-field", Pos: o.Pos(at), End: o.End(at), Object: o,
		Message: what + ": kubectl refuses it, and it is not linted"}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
