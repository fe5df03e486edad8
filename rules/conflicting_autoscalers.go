package rules

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// ConflictingAutoscalers reports two autoscalers on one workload.
var ConflictingAutoscalers = &analyzer.Analyzer{
	Name:     "conflicting-autoscalers",
	Severity: analyzer.Error,
	Doc:      doc("conflicting-autoscalers"),
	URL:      analyzer.RulesReferenceURL + "#conflicting-autoscalers",
	Run: func(pass *analyzer.Pass) error {
		ws := pass.Workspace
		byTarget := map[*manifest.Object][]*scaling.Autoscaler{}
		var order []*manifest.Object
		for _, a := range ws.Autoscalers().All() {
			t := ws.Target(a).Object
			if t == nil {
				continue
			}
			if len(byTarget[t]) == 0 {
				order = append(order, t)
			}
			byTarget[t] = append(byTarget[t], a)
		}
		identity := func(a *scaling.Autoscaler) string {
			ns := ws.Namespaces(a.Object)
			return a.Object.Kind + "/" + fmt.Sprint(ns) + "/" + a.Object.Name
		}
		for _, t := range order {
			as := byTarget[t]
			for i, a := range as {
				for j, b := range as {
					if i == j || identity(a) == identity(b) || !ws.DeployedTogether(a.Object, b.Object) {
						continue
					}
					ra, rb := analyzer.FieldSpan(a.Object, a.Target.NameAt), analyzer.FieldSpan(b.Object, b.Object.NameAt)
					rt := analyzer.FieldSpan(t, t.NameAt)
					d := analyzer.Diagnostic{
						Pos: ra.Pos(), End: ra.End(), Object: a.Object, Field: "spec.scaleTargetRef",
						Message: fmt.Sprintf("%s %q and %s %q both scale %s %q: their replica counts fight",
							a.Object.Kind, a.Object.Name, b.Object.Kind, b.Object.Name, t.Kind, t.Name),
						Related: []analyzer.Related{
							{Pos: rb.Pos(), End: rb.End(), Message: fmt.Sprintf("the other autoscaler, %s %q", b.Object.Kind, b.Object.Name)},
							{Pos: rt.Pos(), End: rt.End(), Message: fmt.Sprintf("the workload, %s %q", t.Kind, t.Name)},
						},
					}
					meant := meantWorkload(ws, a, t)
					if meant != nil {
						proposeMeant(&d, a, t, meant)
					} else if meantWorkload(ws, b, t) == nil && !surelyTogether(ws, a.Object, b.Object) {
						d.Severity = analyzer.Warning
						d.Message += " if both are applied (no kustomization, chart or GitOps object deploys both; only their nearby directories, which kubectl apply -R -f applies together, suggest it, and manifests side by side are often alternatives: apply one)"
					}
					pass.Report(d)
				}
			}
		}
		return nil
	},
}

// meantWorkload returns the workload an autoscaler in a conflict on t
// was most likely written for, or nil: one of its own name (an HPA is
// named after its workload by helm create, kubectl autoscale and most
// charts), of the target's kind, deployed with it in its namespace, that
// no autoscaler scales. A scaleTargetRef copied from a sibling autoscaler
// and not renamed (stefanprodan/podinfo's deploy/webapp: the frontend HPA
// scales the backend Deployment) leaves exactly that: two autoscalers on
// one workload and none on the other.
func meantWorkload(ws *workspace.Workspace, a *scaling.Autoscaler, t *manifest.Object) *manifest.Object {
	if a.Object.Name == t.Name || a.Object.Name == "" {
		return nil
	}
	// AutoscalersOf, not the run's autoscalers: a language server's
	// focused view lists only those near the edit (workspace.Focus).
	c := ws.TargetNamed(a, a.Object.Name)
	if c == nil || c == t || len(ws.AutoscalersOf(c)) > 0 {
		return nil
	}
	return c
}

// proposeMeant adds to a conflict the workload c the autoscaler was
// meant for (meantWorkload), and a fix that renames the ref; the fix is
// not marked safe (the workload to scale is the user's choice).
func proposeMeant(d *analyzer.Diagnostic, a *scaling.Autoscaler, t, c *manifest.Object) {
	d.Message += fmt.Sprintf("; %s %q, named as this autoscaler is, is scaled by none: did you mean scaleTargetRef.name %q?", c.Kind, c.Name, c.Name)
	rc := analyzer.FieldSpan(c, c.NameAt)
	d.Related = append(d.Related, analyzer.Related{Pos: rc.Pos(), End: rc.End(), Message: fmt.Sprintf("%s %q, which no autoscaler scales", c.Kind, c.Name)})
	if at := a.Target.NameAt; at.IsValid() && at.Kind() == yaml.ScalarNode && at.Value == t.Name {
		d.SuggestedFixes = []analyzer.SuggestedFix{{Message: fmt.Sprintf("Scale %s %q instead", c.Kind, c.Name), Edits: []analyzer.TextEdit{replaceScalar(at, c.Name)}}}
	}
}

// surelyTogether reports whether two autoscalers are certainly deployed
// together: one file holds both, or one root (a kustomization, a chart's
// value set, a GitOps object) deploys both. Otherwise they were compared
// because their directories are near (workspace.DeployedTogether: how
// kubectl apply -R -f applies plain manifests), which is a guess:
// tutorials keep alternatives side by side (kubernetes/examples'
// AI/vllm-deployment/hpa holds an HPA on a server metric and one on a
// GPU metric for one Deployment, each applied on its own by its guide).
// Such a conflict is a warning, unless either autoscaler was written for
// another workload (meantWorkload): that is a mistake wherever they are
// applied.
func surelyTogether(ws *workspace.Workspace, a, b *manifest.Object) bool {
	return a.Doc.File == b.Doc.File || ws.SharesRoot(a, b)
}

// ProposalPeers returns the autoscalers whose finding may propose an
// object as the workload their scaleTargetRef meant, or stop proposing it,
// after an edit: conflicting-autoscalers' (meantWorkload: a workload of the
// autoscaler's own name that no autoscaler scales) for those named as one
// of objs (the objects of the edited files, and the targets the edit
// reaches, whose autoscalers change), and unresolved-scale-target's
// (meantNames: an object of the target's kind, by the autoscaler's own
// name or a near one) for the unresolved ones of the kind of one of moved
// (the objects that came, went or changed name or namespace: an edit that
// moves none proposes nothing new there). With each autoscaler named as
// one of objs come the other autoscalers of its target: whether one of a
// conflict's autoscalers was meant for another workload also sets the
// severity of its partner's finding (surelyTogether). A language server
// relints their files with the edit, before and after it, as it does
// BudgetPeers'.
func ProposalPeers(ws *workspace.Workspace, objs, moved []*manifest.Object) []*scaling.Autoscaler {
	names, kinds := map[string]bool{}, map[string]bool{}
	for _, o := range objs {
		if o != nil {
			names[o.Name] = true
		}
	}
	for _, o := range moved {
		names[o.Name], kinds[o.Kind] = true, true
	}
	if len(names) == 0 {
		return nil
	}
	var out []*scaling.Autoscaler
	for name := range names {
		for _, a := range ws.AutoscalersNamed(name) {
			out = append(out, a)
			if t := ws.Target(a).Object; t != nil {
				out = append(out, ws.AutoscalersOf(t)...)
			}
		}
	}
	if len(kinds) > 0 {
		// An edit that moves an object is rare: a pass over every
		// autoscaler then, not at each edit of a field.
		for _, a := range ws.Autoscalers().All() {
			if kinds[a.Target.Kind] && ws.Target(a).Object == nil {
				out = append(out, a)
			}
		}
	}
	return out
}
