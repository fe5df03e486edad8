package kustomize

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/scalelint/scalelint/analyzer/render"
)

// fsRoot is where the tree sits in the in-memory filesystem.
const fsRoot = "/tree"

const (
	originKey          = "config.kubernetes.io/origin"
	transformationsKey = "alpha.config.kubernetes.io/transformations"
)

// doc is one built resource: where its text is, and where it came from.
type doc struct {
	start, end int
	origin     string // slash path below the tree root; "" when unknown
	kind, name string // kind and original name (before prefixes)
}

// Build builds the kustomization in dir (slash, below the tree root). It
// returns the built stream, or the build error, reported once at the
// kustomization file (or the file the error names).
func (t *Tree) Build(ctx context.Context, dir string) (*render.Output, []render.Problem) {
	k := t.kusts[dir]
	if k == nil {
		return nil, []render.Problem{{Rule: render.RuleError, Path: t.path(dir), Message: "no kustomization in " + dir}}
	}
	if bad := t.unreadIn(k); bad != nil {
		p := render.Problem{Rule: render.RuleError, Path: t.path(bad.file), Line: 1, Col: 1,
			Message: "kustomization does not read as a YAML mapping; not built, its files are linted one by one instead"}
		return nil, []render.Problem{p}
	}
	// A build is tried with the CRDs slimmed first even when it patches
	// CRDs: most such patches set an annotation or a conversion webhook
	// and apply to the slim copy alike (KServe's config/crd, reached by
	// each of its 15 roots: 16 s with the CRDs whole, see
	// TestSlimBuildPatchedCRD); one into a schema fails there, and the
	// build is made again whole. A JSON patch or a replacement that
	// succeeds on the slim copy succeeds on the whole one: the slim
	// copy holds no path the whole one lacks (only a test op or a copy
	// of a whole CRD version could tell the two apart).
	slim := len(t.slimFiles()) > 0
	if slim && t.buildsOnlyCRDs(k) {
		return &render.Output{}, nil
	}
	out, problems := t.build(ctx, k, dir, slim)
	if problems != nil && slim && problems[0].Rule != render.RuleLimit && problems[0].Rule != render.RuleIncomplete {
		// Built again with the CRDs whole: the error may be the slimming's
		// (a JSON patch into a schema), and is then not the user's. Not
		// so a file the tree does not hold, or a target a remote entry
		// left out (RuleIncomplete): the slim copies hold every file and
		// every object's identity, and the whole build would fail alike
		// (kubeflow/manifests: 11 roots, built twice each).
		return t.build(ctx, k, dir, false)
	}
	return out, problems
}

// build builds k in dir, with the files of CRDs slimmed (slimCRDs) or
// whole.
func (t *Tree) build(ctx context.Context, k *kustomization, dir string, slim bool) (*render.Output, []render.Problem) {
	fs := namedFS{filesys.MakeFsInMemory()}
	var slimmed map[string][]byte
	var reached map[string]bool // of a build with the CRDs whole
	if slim {
		slimmed = t.slimFiles()
	} else if len(t.wholeLater) > 0 {
		reached = t.includedBy(k)
	}
	for rel, data := range t.built {
		if s, ok := slimmed[rel]; ok {
			data = s
		} else if !slim {
			data = t.stagedWhole(rel, reached)
		}
		if a, ok := t.annotated[rel]; ok && rel == k.file {
			data = a
		}
		if err := fs.WriteFile(path.Join(fsRoot, rel), data); err != nil {
			return nil, []render.Problem{{Rule: render.RuleError, Path: t.path(rel), Message: fmt.Sprintf("cannot stage for kustomize: %v", err)}}
		}
	}
	opts := krusty.MakeDefaultOptions()
	opts.LoadRestrictions = types.LoadRestrictionsRootOnly
	opts.PluginConfig = types.DisabledPluginConfig()
	ctx, cancel := context.WithTimeout(ctx, t.lim.Timeout)
	defer cancel()
	type result struct {
		out []byte
		err error
		res []doc
	}
	done := make(chan result, 1)
	custom := t.customSchema()
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("kustomize panicked: %v", r)}
			}
		}()
		// The resources read kustomize's schema too (their scope, for
		// their ids): all of the build is within withSchema.
		// The result is sent once withSchema has returned: a build that
		// set its own schema has restored the built-in one by then.
		var res result
		withSchema(custom, func() {
			var m resmap.ResMap
			var err error
			func() {
				defer render.Hush()() // restored on a panic too
				m, err = krusty.MakeKustomizer(opts).Run(fs, path.Join(fsRoot, dir))
			}()
			if err != nil {
				res = result{err: err}
				return
			}
			var buf bytes.Buffer
			var docs []doc
			for i, r := range m.Resources() {
				d := doc{kind: r.GetKind(), name: r.OrgId().Name}
				ann := r.GetAnnotations()
				if o := ann[stampKey]; o != "" {
					d.origin = o
				} else if o := ann[originKey]; o != "" {
					var origin struct {
						Path string `yaml:"path"`
						Repo string `yaml:"repo"`
					}
					if yaml.Unmarshal([]byte(o), &origin) == nil && origin.Repo == "" && origin.Path != "" {
						d.origin = path.Clean(path.Join(dir, origin.Path))
					}
				}
				delete(ann, originKey)
				delete(ann, stampKey)
				delete(ann, transformationsKey)
				if err := r.SetAnnotations(ann); err != nil {
					res = result{err: err}
					return
				}
				y, err := r.AsYAML()
				if err != nil {
					res = result{err: err}
					return
				}
				if i > 0 {
					buf.WriteString("---\n")
				}
				d.start = buf.Len()
				buf.Write(y)
				d.end = buf.Len()
				if buf.Len() > t.lim.MaxOutput {
					res = result{err: &limitError{fmt.Sprintf("the build is over the output limit of %d bytes; not linted", t.lim.MaxOutput)}}
					return
				}
				docs = append(docs, d)
			}
			res = result{out: buf.Bytes(), res: docs}
		})
		done <- res
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		return nil, []render.Problem{{Rule: render.RuleLimit, Path: t.path(k.file),
			Message: fmt.Sprintf("kustomize build took longer than the time limit of %s; not linted", t.lim.Timeout)}}
	}
	if r.err != nil {
		return nil, []render.Problem{t.buildProblem(k, r.err)}
	}
	o := &render.Output{Root: t.path(dir)}
	o.Files = []*render.File{{Source: t.path(k.file), Text: r.out, Locator: &locator{t: t, root: k, text: r.out, docs: r.res}}}
	return o, nil
}

// unreadIn returns a kustomization the build of k would read that
// scalelint could not read (so could not cut its remote references), or
// nil.
func (t *Tree) unreadIn(k *kustomization) *kustomization {
	return t.firstIn(k, func(k *kustomization) bool { return k.unread })
}

// cutIn returns a kustomization the build of k reads whose remote
// entries were cut from the copy built, or nil.
func (t *Tree) cutIn(k *kustomization) *kustomization {
	return t.firstIn(k, func(k *kustomization) bool { return k.cut })
}

// firstIn returns the first kustomization the build of k reads (k, then
// what it includes, depth first) for which is holds, or nil.
func (t *Tree) firstIn(k *kustomization, is func(*kustomization) bool) *kustomization {
	seen := map[*kustomization]bool{}
	var visit func(k *kustomization, depth int) *kustomization
	visit = func(k *kustomization, depth int) *kustomization {
		if seen[k] || depth > 64 {
			return nil
		}
		seen[k] = true
		if is(k) {
			return k
		}
		for _, inc := range k.includes {
			if sub := t.kusts[inc]; sub != nil {
				if bad := visit(sub, depth+1); bad != nil {
					return bad
				}
			}
		}
		return nil
	}
	return visit(k, 0)
}

type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }

var treePath = regexp.MustCompile(regexp.QuoteMeta(fsRoot) + `/([^\s'":]+)`)

// shownPath matches a path of the tree, or a quoted absolute path (which
// may lie above the tree).
var shownPath = regexp.MustCompile(`'/[^\s'":]*'|` + treePath.String())

// buildProblem places a build error at the kustomization file it names
// (the deepest), else at the root kustomization, with the tree's paths
// written as on disk.
func (t *Tree) buildProblem(root *kustomization, err error) render.Problem {
	if le, ok := err.(*limitError); ok {
		return render.Problem{Rule: render.RuleLimit, Path: t.path(root.file), Message: le.msg}
	}
	msg := strings.Join(strings.Fields(err.Error()), " ")
	p := render.Problem{Rule: render.RuleError, Path: t.path(root.file), Line: 1, Col: 1}
	for _, m := range treePath.FindAllStringSubmatch(msg, -1) {
		rel := strings.TrimSuffix(m[1], "/")
		if IsKustomizationName(rel) {
			if _, ok := t.files[rel]; ok {
				p.Path = t.path(rel)
			}
		} else if kf, ok := t.kustAt(rel); ok {
			p.Path = t.path(kf)
		}
	}
	// At the entry the error quotes, when it names one of the file's, or
	// at the patch of the object a patch error names.
	if rel, err := t.below(p.Path); err == nil {
		if k := t.kusts[path.Dir(filepath.ToSlash(rel))]; k != nil && len(k.y.Docs) > 0 {
			if e := quotedEntry(k.y.Docs[0], msg); e != nil {
				p.Line, p.Col = e.Line, e.Column
			} else if e := t.patchNamed(k, msg); e != nil {
				p.Line, p.Col = e.Line, e.Column
			}
		}
	}
	// A file above the tree ("../app.yaml" of a kustomization at its
	// root) is named as kustomize cleans it, '/app.yaml': shown on disk
	// too, in the messages about files (where a quoted absolute path is
	// a file's, not a patch's JSON pointer). One pass: a path shown may
	// itself hold fsRoot.
	above := unreadable(msg)
	msg = shownPath.ReplaceAllStringFunc(msg, func(s string) string {
		if q, ok := strings.CutPrefix(s, "'"); ok {
			q = strings.TrimSuffix(q, "'")
			switch {
			case strings.HasPrefix(q, fsRoot+"/"):
				return "'" + t.path(strings.TrimPrefix(q, fsRoot+"/")) + "'"
			case !above || q == fsRoot:
				return s
			}
			return "'" + t.path(".."+q) + "'" // fsRoot is one name: /x is ../x
		}
		return t.path(strings.TrimPrefix(s, fsRoot+"/"))
	})
	p.Message = "kustomization does not build: " + msg + "; its files are linted one by one instead"
	switch {
	case strings.Contains(msg, "external plugins disabled"):
		// A KRM function or exec plugin among its generators or
		// transformers (config.kubernetes.io/function): kustomize runs
		// it, a container or a program, only with --enable-alpha-plugins
		// (Argo CD and Flux builds may enable it); scalelint never runs
		// one, so what it would generate or change is not known.
		p.Rule = render.RuleIncomplete
		p.Message = "kustomization is not built: it runs a plugin (a KRM function or an exec plugin), which kustomize runs only with --enable-alpha-plugins and scalelint never runs: " + msg + "; its files are linted one by one instead"
	case unreadable(msg):
		// Not the kustomization's fault as written: a file the tree does
		// not hold (generated by a build step, or left out of a copy), or
		// one outside its directory, which kustomize's default load
		// restrictions (and scalelint) do not read.
		p.Rule = render.RuleIncomplete
		p.Message = "kustomization is not built: it reads a file the tree does not hold, or one outside its directory: " + msg + "; its files are linted one by one instead"
	case targetMissing(msg) && t.cutIn(root) != nil:
		// A patch or replacement whose object is not among what was
		// built, in a build that left remote entries out: the object
		// most likely comes from one of them (argo-cd's
		// examples/known-hosts patches argocd-server of a remote base).
		cut := t.cutIn(root)
		p.Rule = render.RuleIncomplete
		p.Message = "kustomization is not built: its build left out entries of " + t.path(cut.file) + " (remote, or helmCharts; said there), and what it patches is not among the rest (it may come from them): " + msg + "; its files are linted one by one instead"
	}
	return p
}

// targetMissing reports whether a build error says a patch, replacement
// or transformer found no object to act on.
func targetMissing(msg string) bool {
	for _, s := range []string{"no matches for Id", "failed to find unique target", "no resource matches", "nothing selected by"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// unreadable reports whether a build error says a file is missing or out
// of the kustomization's reach. Only the error of the innermost
// kustomization counts: kustomize tries a resource entry as a file before
// it tries it as a directory, and an error in a base it recursed into
// carries the file attempt's "'base' must resolve to a file" ahead of the
// directory's own (KEDA's config/crd: "... must resolve to a file':
// recursed accumulation of path 'config/crd': add operation does not
// apply: doc is missing path").
func unreadable(msg string) bool {
	msg = innermost(msg)
	for _, s := range []string{"doesn't exist", "no such file or directory", "is not in or below", "must resolve to a file"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// innermost returns the part of a build error that the innermost
// kustomization kustomize recursed into gave (kusttarget.go wraps it as
// "recursed accumulation of path 'P': ERR", "recursed merging from path
// 'P': ERR" or "couldn't make target for path 'P': ERR"), or the whole
// message when it names none.
func innermost(msg string) string {
	at := -1
	for _, m := range []string{"recursed accumulation of path '", "recursed merging from path '", "couldn't make target for path '"} {
		if i := strings.LastIndex(msg, m); i >= 0 && i+len(m) > at {
			at = i + len(m)
		}
	}
	if at < 0 {
		return msg
	}
	if end := strings.Index(msg[at:], "': "); end >= 0 {
		return msg[at+end+len("': "):]
	}
	return msg
}

// patchID is how kustomize names the object of a patch it cannot apply:
// "KIND.VERSION.GROUP/NAME.NAMESPACE".
var patchID = regexp.MustCompile(`patch "([^".]+)\.[^"/]*/([^"]+)\.[^".]*"`)

// patchNamed returns the entry of a kustomization's patch whose object an
// error names (a patch that matches no resource), or nil.
func (t *Tree) patchNamed(k *kustomization, msg string) *yaml.Node {
	m := patchID.FindStringSubmatch(msg)
	if m == nil {
		return nil
	}
	for _, pt := range k.patches {
		var src *render.YAML
		if pt.file != "" {
			data, ok := t.files[pt.file]
			if !ok {
				continue
			}
			src = t.parsed(pt.file, data)
		} else if pt.inline != nil {
			src = render.ParseYAML([]byte(pt.inline.Value))
		}
		if src == nil {
			continue
		}
		for _, d := range src.Docs {
			if sameObject(d, doc{kind: m[1], name: m[2]}) {
				return pt.entry
			}
		}
	}
	return nil
}

// quotedEntry returns the entry of a kustomization's lists (resources,
// components, patches' paths...) that an error message quotes, or nil.
func quotedEntry(doc *yaml.Node, msg string) *yaml.Node {
	var found *yaml.Node
	var visit func(n *yaml.Node, depth int)
	visit = func(n *yaml.Node, depth int) {
		if found != nil || depth > 16 {
			return
		}
		switch n.Kind {
		case yaml.ScalarNode:
			if n.Value != "" && !strings.Contains(n.Value, "\n") && strings.Contains(msg, "'"+n.Value+"'") {
				found = n
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				visit(c, depth+1)
			}
		case yaml.MappingNode:
			for i := 1; i < len(n.Content); i += 2 {
				visit(n.Content[i], depth+1)
			}
		}
	}
	visit(doc, 0)
	return found
}
