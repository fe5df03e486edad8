package rules

import (
	"fmt"
	"math"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/rules/format"
)

// CeilingTrap reports replica ceilings at or below the amplified need.
var CeilingTrap = &analyzer.Analyzer{
	Name:     "ceiling-trap",
	Severity: analyzer.Error,
	Doc:      doc("ceiling-trap"),
	URL:      analyzer.RulesReferenceURL + "#ceiling-trap",
	Run: func(pass *analyzer.Pass) error {
		for _, e := range evaluations(pass) {
			c := e.Ceiling
			if c == nil || !c.HasFloor || !c.Trapped {
				continue
			}
			a := e.Autoscaler
			r := ceilingRange(a)
			ceil := format.Num(c.Ceiling, 0)
			if !a.Max.Set {
				ceil += " (KEDA's default)"
			}
			fix := math.Floor(c.Floor) + 1
			file := a.Object.File()
			var sev analyzer.Severity
			if c.Bounded {
				sev = analyzer.Warning // an inferred A counts the requests through the routes read
			}
			d := analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "spec.maxReplicas", Severity: sev,
				Message: fmt.Sprintf("ceiling %s is at or below the amplified need A·λ/c %s %s pods (A %s, demand %s, pod rate %s): after a trigger this service stays failed; above it, recovery time falls as 1/(M − %s)%s",
					ceil, relation(c.Bounded, "≥"), format.Num(c.Floor, 2), amplificationText(e, c.Amplification, file), format.Num(c.Demand, 3), format.Num(c.PodRate, 3), mStar(c), throughRoutes(c.Bounded)),
				Facts:   map[string]float64{"ceiling": c.Ceiling, "ceilingFloor": c.Floor, "amplification": c.Amplification, "demand": c.Demand, "podRate": c.PodRate},
				Sources: factSources(e, "amplification", amplificationInput(e), "demand", "demand", "podRate", "pod-rate"),
			}
			if !c.HasTop || fix <= c.Top {
				if edit, ok := setField(a.Object, maxPath(a), format.Plain(fix, 0)); ok {
					msg := fmt.Sprintf("Raise the ceiling to %s", format.Plain(fix, 0))
					if c.Bounded {
						msg += " (the least that may escape: A is at least " + format.Num(c.Amplification, 3) + ")"
					}
					d.SuggestedFixes = []analyzer.SuggestedFix{{Message: msg, Edits: []analyzer.TextEdit{edit}}}
				}
			}
			pass.Report(d)
		}
		return nil
	},
}

// maxPath is the field path of the replica ceiling.
func maxPath(a *scaling.Autoscaler) manifest.Path {
	if a.Kind == scaling.HPA {
		return manifest.ParsePath("spec.maxReplicas")
	}
	return manifest.ParsePath("spec.maxReplicaCount")
}

// ceilingRange is where a ceiling finding goes: the maxReplicas value, or
// the spec key when KEDA's default applies.
func ceilingRange(a *scaling.Autoscaler) analyzer.Span {
	return analyzer.FieldSpan(a.Object, boundField(a, a.Max))
}

// boundField is the field of a replica bound (a.Min or a.Max): its value
// when written, else the spec key, where the default applies.
func boundField(a *scaling.Autoscaler, n scaling.Num) manifest.Field {
	f := n.At
	if !n.Set {
		if spec, ok := a.Object.FieldAt(manifest.ParsePath("spec")); ok {
			f = manifest.Field{Pos: spec.KeyPos(), End: spec.KeyEnd()}
		}
	}
	return f
}

// mStar is M* for a message: the number, or "M*" when only a lower bound
// on it is known.
func mStar(c *CeilingEval) string {
	if c.Bounded {
		return "M*"
	}
	return format.Num(c.Floor, 2)
}
