package rules

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// UnresolvedScaleTarget reports autoscalers whose target is not among the
// inputs, and says where a definition of that name is when one is: in
// another namespace, not deployed with the autoscaler (another root, an
// unrelated directory tree), or in a file that failed to parse.
var UnresolvedScaleTarget = &analyzer.Analyzer{
	Name:     "unresolved-scale-target",
	Severity: analyzer.Info,
	Doc:      doc("unresolved-scale-target"),
	URL:      analyzer.RulesReferenceURL + "#unresolved-scale-target",
	Run: func(pass *analyzer.Pass) error {
		ws := pass.Workspace
		var unreadable []*manifest.File
		unreadableOnce := false
		reportedRef := map[*manifest.Object]bool{} // once per Rollout, however many autoscalers scale it
		var meant meantNames
		for _, a := range ws.Autoscalers().All() {
			if a.Kind == scaling.ScaledJob {
				continue
			}
			t := a.Target
			r := analyzer.FieldSpan(a.Object, t.NameAt)
			if t.Name == "" {
				pass.Report(analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "spec.scaleTargetRef.name",
					Message: "scaleTargetRef names no target: set scaleTargetRef.name"})
				continue
			}
			res := ws.Target(a)
			if res.Object != nil {
				if d, ok := unresolvedTemplate(res); ok && !reportedRef[res.Object] {
					reportedRef[res.Object] = true
					pass.Report(d)
				}
				continue
			}
			d := analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: a.Object, Field: "spec.scaleTargetRef.name"}
			target := fmt.Sprintf("scale target %s %q (%s)", t.Kind, t.Name, t.APIVersion)
			const skipped = "; checks that need its pods are skipped"
			switch {
			case len(res.Apart) > 0:
				o := res.Apart[0]
				d.Message = target + " is not deployed with this autoscaler: " + apart(ws, a.Object, o) + skipped
				d.Related = append(d.Related, relatedObject(o, "the definition deployed apart"))
			case len(res.OtherNamespace) > 0:
				o := res.OtherNamespace[0]
				d.Message = fmt.Sprintf("%s is not in this autoscaler's namespace %s: it is defined in namespace %s%s",
					target, quoteList(ws.Namespaces(a.Object)), quoteList(ws.Namespaces(o)), skipped)
				d.Related = append(d.Related, relatedObject(o, "the definition in another namespace"))
			case ws.Generated() && ws.MayLack(t.Kind):
				d.Message = target + " is not among the objects rendered with this autoscaler, and a template that may define it stopped the render and was left out (render-error or render-incomplete says why)" + skipped
			case ws.Generated():
				// One chart value set or one kustomization build: the
				// objects it renders are all this workspace sees, so a
				// definition elsewhere in the repository may exist; say
				// only what is known.
				d.Message = target + " is not among the objects rendered with this autoscaler" + skipped
			default:
				d.Message = target + " is not among the inputs" + skipped
				if !unreadableOnce {
					unreadable, unreadableOnce = ws.Unreadable(), true
				}
				if f, why := unparsedDefinition(unreadable, t); f != nil {
					d.Message = fmt.Sprintf("%s is not among the inputs that parse: %s defines a %s named %q but %s%s",
						target, f.Path, t.Kind, t.Name, why, skipped)
				}
			}
			if len(res.Apart) == 0 && len(res.OtherNamespace) == 0 {
				meant.propose(pass, &d, a)
			}
			pass.Report(d)
		}
		return nil
	},
}

// meantNames proposes, for a scaleTargetRef whose name resolves to
// nothing, the name it most likely meant: the autoscaler's own name (an
// HPA is named after its workload by helm create, kubectl autoscale and
// most charts), else a name one typo away (oneEdit), of an object the ref
// would resolve to (workspace.TargetNamed: its kind and group, namespace,
// deployment with the autoscaler). Each is an index lookup: no pass over
// the workspace's objects, which a language server would make at every
// edit.
type meantNames struct{}

func (meantNames) propose(pass *analyzer.Pass, d *analyzer.Diagnostic, a *scaling.Autoscaler) {
	t := a.Target
	ws := pass.Workspace
	var c *manifest.Object
	if a.Object.Name != t.Name {
		c = ws.TargetNamed(a, a.Object.Name)
	}
	for _, name := range oneEdit(t.Name) {
		if c != nil {
			break
		}
		c = ws.TargetNamed(a, name)
	}
	if c == nil {
		return
	}
	d.Message += fmt.Sprintf("; did you mean %s %q?", c.Kind, c.Name)
	rc := analyzer.FieldSpan(c, c.NameAt)
	d.Related = append(d.Related, analyzer.Related{Pos: rc.Pos(), End: rc.End(), Message: fmt.Sprintf("%s %q, which the ref may have meant", c.Kind, c.Name)})
	if at := t.NameAt; at.IsValid() && at.Kind() == yaml.ScalarNode && at.Value == t.Name {
		d.SuggestedFixes = []analyzer.SuggestedFix{{Message: fmt.Sprintf("Scale %s %q", c.Kind, c.Name), Edits: []analyzer.TextEdit{replaceScalar(at, c.Name)}}}
	}
}

// unresolvedTemplate reports an Argo Rollout target whose workloadRef
// names no object scalelint reads the pod template of: not among the
// inputs deployed with the Rollout in its namespace, a PodTemplate
// (Argo Rollouts reads one; scalelint does not), or a kind Argo Rollouts
// refuses (rollout/templateref.go: "workload of type ... is not
// supported"). It is said at the ref, on the Rollout.
func unresolvedTemplate(res *workspace.Resolution) (analyzer.Diagnostic, bool) {
	w := res.Workload
	if w == nil || w.HasTemplate || w.TemplateRef == nil || res.Pods != nil {
		return analyzer.Diagnostic{}, false
	}
	ref, o := w.TemplateRef, res.Object
	at := o.NearestField(manifest.Path{manifest.Key("spec"), manifest.Key("workloadRef"), manifest.Key("name")})
	r := analyzer.FieldSpan(o, at)
	group, _ := manifest.SplitAPIVersion(ref.APIVersion)
	what := fmt.Sprintf("%s %q", ref.Kind, ref.Name)
	const skipped = "; checks that need its pods are skipped"
	var msg string
	switch {
	case workspace.ReadsTemplateOf(ref):
		msg = fmt.Sprintf("the %s whose pod template this %s runs (its workloadRef) is not among the inputs deployed with it in its namespace%s", what, o.Kind, skipped)
	case group == "" && ref.Kind == "PodTemplate":
		msg = fmt.Sprintf("this %s runs the pod template of %s (its workloadRef), which scalelint does not read%s", o.Kind, what, skipped)
	default:
		msg = fmt.Sprintf("this %s's workloadRef names %s (%s), a kind Argo Rollouts takes no pod template from (an apps Deployment or ReplicaSet, or a PodTemplate): it refuses the Rollout%s", o.Kind, what, ref.APIVersion, skipped)
	}
	return analyzer.Diagnostic{Pos: r.Pos(), End: r.End(), Object: o, Field: "spec.workloadRef.name", Message: msg}, true
}

// apart says why a definition of the target is not deployed with the
// autoscaler (workspace.DeployedTogether): the roots that deploy each, or
// the distance between their directories.
func apart(ws *workspace.Workspace, a, o *manifest.Object) string {
	ra, ro := ws.Roots(a), ws.Roots(o)
	if len(ra) > 0 && len(ro) > 0 {
		return fmt.Sprintf("the definition in %s is deployed by %s, this autoscaler by %s, and no root deploys both",
			o.File().Path, rootList(ro), rootList(ra))
	}
	return fmt.Sprintf("the definition in %s lies in another directory tree (deployed together means one root deploys both, or both files lie within %d directories of one that holds them)",
		o.File().Path, ws.TargetDistance())
}

func rootList(rs []*workspace.Root) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, r.String())
	}
	return strings.Join(parts, " and ")
}

func quoteList(ss []string) string {
	var parts []string
	for _, s := range ss {
		parts = append(parts, fmt.Sprintf("%q", s))
	}
	return strings.Join(parts, ", ")
}

func relatedObject(o *manifest.Object, what string) analyzer.Related {
	s := analyzer.FieldSpan(o, o.NameAt)
	return analyzer.Related{Pos: s.Pos(), End: s.End(), Message: what}
}

// unparsedDefinition finds a file that would define the target but that
// scalelint could not read (workspace.Unreadable): a document of the
// target's kind that failed to parse, or a template, whose text names it
// (metadata.name). It returns the file and what became of it.
func unparsedDefinition(unreadable []*manifest.File, t scaling.Ref) (*manifest.File, string) {
	var nameRe, kindRe *regexp.Regexp
	for _, f := range unreadable {
		if nameRe == nil {
			nameRe = regexp.MustCompile(`(?m)^\s+name:\s*["']?` + regexp.QuoteMeta(t.Name) + `["']?\s*(#.*)?$`)
			kindRe = regexp.MustCompile(`(?m)^\s*kind:\s*["']?` + regexp.QuoteMeta(t.Kind) + `["']?\s*(#.*)?$`)
		}
		if f.Template {
			// The literal name first: a regular expression over every
			// template of a repository of charts cost an edit in the
			// editor half a second.
			if text := f.Text(); bytes.Contains(text, []byte(t.Name)) && kindRe.Match(text) && nameRe.Match(text) {
				return f, "it is a template, not linted (template-file)"
			}
			continue
		}
		for _, d := range f.Docs {
			if !d.Parsed() || len(d.Objects()) > 0 {
				continue
			}
			broken := false
			for _, p := range f.Problems() {
				if p.Rule == "yaml-syntax" && f.Tok.Offset(p.Pos) >= d.Start && f.Tok.Offset(p.Pos) < d.End {
					broken = true
				}
			}
			if !broken {
				continue
			}
			text := f.Text()[d.Start:d.End]
			if bytes.Contains(text, []byte(t.Name)) && kindRe.Match(text) && nameRe.Match(text) {
				return f, "it does not parse (yaml-syntax)"
			}
		}
	}
	return nil, ""
}

// nameRunes are the characters of an object's name (a DNS subdomain:
// lowercase letters, digits, '-' and '.').
const nameRunes = "-.0123456789abcdefghijklmnopqrstuvwxyz"

// oneEdit returns the names one typo away from name, in byte order: a
// character left out, one added, one changed, or two neighbours swapped
// (a Damerau-Levenshtein distance of one).
func oneEdit(name string) []string {
	seen := map[string]bool{name: true}
	var out []string
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for i := 0; i <= len(name); i++ {
		for _, r := range nameRunes {
			add(name[:i] + string(r) + name[i:])
			if i < len(name) {
				add(name[:i] + string(r) + name[i+1:])
			}
		}
		if i < len(name) {
			add(name[:i] + name[i+1:])
		}
		if i+1 < len(name) {
			add(name[:i] + string(name[i+1]) + string(name[i]) + name[i+2:])
		}
	}
	sort.Strings(out)
	return out
}
