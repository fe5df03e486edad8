package lint

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"helm.sh/helm/v4/pkg/chart/common"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/chart"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// A release is a chart of the repository as a GitOps object deploys it:
// with the object's values, release name and namespace, which are what
// Flux or Argo CD render, and which none of the chart's own value sets
// holds.
type release struct {
	dir  string // the chart's directory, as a unit's Dir
	set  chart.ValueSet
	opts chart.Options // ReleaseName and Namespace
}

// RenderReleases renders and lints, as one more value set of each, the
// charts of the repository that GitOps objects of the workspace deploy
// with values of their own: an Argo CD source whose path is the chart
// and that has helm settings (valueFiles below the path, values or
// valuesObject, parameters, releaseName; the destination's namespace), a
// Flux HelmRelease whose chart is a path of a GitRepository (spec.values,
// releaseName, targetNamespace). What such an object takes from outside
// the repository (a Flux valuesFrom ConfigMap, an Argo CD $ref or remote
// values file) is not read: the release is not rendered, and a
// render-incomplete problem says why, at the object. Call it once the
// workspace of the run's files is built, like DeployTogether.
//
// releaseFiles are the paths on disk of the run's helmfile.yaml files,
// whose releases of local charts render alike (helmfile.go), and of its CI
// files, whose helm commands of local charts with values do (ci.go;
// ListsReleases names both), as do the helmCharts entries of local charts
// of the plan's kustomizations (kustomizecharts.go).
func (r *Result) RenderReleases(ctx context.Context, ws *workspace.Workspace, releaseFiles []string) {
	charts := map[string]string{} // by absolute directory: the units' Dir
	for _, u := range r.Units {
		if u.Kind == "helm" && u.Dir != "" {
			if abs, err := filepath.Abs(u.Dir); err == nil {
				charts[abs] = u.Dir
			}
		}
	}
	if len(charts) == 0 {
		return
	}
	var rels []release
	for _, root := range ws.AllRoots() {
		if root.Object == nil || root.Empty {
			continue
		}
		for _, p := range root.Paths {
			abs, err := filepath.Abs(filepath.FromSlash(p))
			if err != nil || charts[abs] == "" {
				continue
			}
			rs, problems := releasesOf(root.Object, p, charts[abs])
			rels = append(rels, rs...)
			r.Problems = append(r.Problems, problems...)
			if len(problems) > 0 {
				// The problems are placed in the object's file. A copy:
				// a file whose text was dropped lends its text again in
				// recycled memory (manifest.File.DropTextInto).
				f := root.Object.File()
				r.sources[filepath.Clean(f.Path)] = bytes.Clone(f.Text())
			}
		}
	}
	var helmfiles, ciFiles []string
	for _, p := range releaseFiles {
		if IsCIFileName(p) {
			ciFiles = append(ciFiles, p)
		} else {
			helmfiles = append(helmfiles, p)
		}
	}
	// The files that list releases: the problems are placed in them.
	type lister func(string, map[string]string, func(string) ([]byte, error)) ([]release, []render.Problem, []byte)
	for _, files := range []struct {
		paths []string
		read  lister
	}{{r.releasers, kustomizeReleases}, {helmfiles, helmfileReleases}, {ciFiles, ciReleases}} {
		for _, p := range files.paths {
			rs, problems, data := files.read(p, charts, r.readOverlaid)
			rels = append(rels, rs...)
			r.Problems = append(r.Problems, problems...)
			if len(problems) > 0 {
				r.sources[filepath.Clean(p)] = data
			}
		}
	}
	byDir := map[string][]release{}
	var dirs []string
	for _, rel := range rels {
		if byDir[rel.dir] == nil {
			dirs = append(dirs, rel.dir)
		}
		byDir[rel.dir] = append(byDir[rel.dir], rel)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		cfg, c, problems := loadChart(dir, r.isSource, r.opts)
		r.Problems = append(r.Problems, problems...)
		if c == nil {
			continue
		}
		base := renderOptions(cfg, r.opts)
		var jobs []job
		used := map[string]bool{} // the chart's own files the releases layer
		for _, rel := range byDir[dir] {
			o := base
			o.ReleaseName, o.Namespace = rel.opts.ReleaseName, rel.opts.Namespace
			if rel.opts.KubeVersion != "" {
				o.KubeVersion = rel.opts.KubeVersion
			}
			o.APIVersions = append(slices.Clone(o.APIVersions), rel.opts.APIVersions...)
			// Values files below the chart are read, and findings
			// point into them, as the chart's own (valueSet).
			set := valueSet(c, dir, rel.set.Files, rel.set.Set)
			set.Name, set.Values = rel.set.Name, rel.set.Values
			jobs = append(jobs, job{set: set, opts: o})
			for _, f := range set.Files {
				used[f] = true
			}
		}
		r.dropBeside(dir, used)
		units, problems := renderJobs(ctx, c, dir, jobs, r.opts)
		c.Release()
		// The bytes of the files a finding of these sets may name (a
		// values file no other set read was dropped by the first render).
		files := map[string][]byte{}
		for _, rel := range c.Files() {
			if data, ok := c.Data(rel); ok {
				files[c.Path(rel)] = data
			}
		}
		r.add(units, problems, files, workspace.RenderedChart)
	}
}

// dropBeside drops the value sets of the chart at dir whose values file
// beside values.yaml a release layers (used, as the chart names its
// files): the release says what it is deployed with, and that is linted.
func (r *Result) dropBeside(dir string, used map[string]bool) {
	dropped := map[string]bool{}
	units := r.Units[:0]
	for _, u := range r.Units {
		if u.Kind == "helm" && u.Dir == dir && used[u.beside] {
			dropped[u.Set] = true
			continue
		}
		units = append(units, u)
	}
	r.Units = units
	if len(dropped) == 0 {
		return
	}
	problems := r.Problems[:0]
	for _, p := range r.Problems {
		if dropped[p.Set] && render.Within(filepath.Clean(dir), filepath.Clean(p.Path)) {
			continue
		}
		problems = append(problems, p)
	}
	r.Problems = problems
}

// readOverlaid reads a file that names releases (a helmfile, a
// kustomization), the editor's unsaved text first (Options.Overlay),
// within the input limit of the configuration that governs it.
func (r *Result) readOverlaid(p string) ([]byte, error) {
	if data, ok := r.opts.Overlay[filepath.Clean(p)]; ok {
		return data, nil
	}
	return render.ReadFile(p, r.opts.config().For(p).RenderLimits.WithDefaults().MaxInput)
}

// releasesOf returns the releases an object makes of the chart at the
// root path p (as Root.Paths writes it; dir is the unit's Dir), or the
// problems that keep one from rendering.
func releasesOf(o *manifest.Object, p, dir string) ([]release, []render.Problem) {
	n := o.Root()
	if n == nil {
		return nil, nil
	}
	switch {
	case o.Group == "helm.toolkit.fluxcd.io" && o.Kind == "HelmRelease":
		return fluxRelease(o, n, dir)
	case o.Group == "argoproj.io" && o.Kind == "Application":
		var out []release
		var problems []render.Problem
		for _, src := range argoSources(n) {
			sp, _ := scalarAt(src, "path")
			if sp == "" || !samePath(p, sp) {
				continue
			}
			if _, helm := manifest.Lookup(src, manifest.ParsePath("helm")); helm == nil {
				continue // rendered with the chart's own values: its defaults
			}
			rel, problem, ok := argoRelease(o, n, src, dir)
			if ok {
				out = append(out, rel)
			} else if problem.Message != "" {
				problems = append(problems, problem)
			}
		}
		return out, problems
	}
	return nil, nil // an ApplicationSet's template: its values are templated
}

// fluxRelease reads a Flux HelmRelease (helm.toolkit.fluxcd.io v2): its
// release name is spec.releaseName, else [targetNamespace-]name; its
// namespace spec.targetNamespace, else its own; its values spec.values
// (https://fluxcd.io/flux/components/helm/helmreleases/#values).
func fluxRelease(o *manifest.Object, n *yaml.Node, dir string) ([]release, []render.Problem) {
	name := "HelmRelease " + qualified(o)
	for _, key := range []string{"spec.valuesFrom", "spec.chart.spec.valuesFiles", "spec.chart.spec.valuesFile", "spec.postRenderers"} {
		if k, v := manifest.Lookup(n, manifest.ParsePath(key)); v != nil && !isNull(v) {
			why := map[string]string{
				"spec.valuesFrom":             "takes values from ConfigMaps or Secrets (valuesFrom), which are not read",
				"spec.chart.spec.valuesFiles": "sets valuesFiles, which replace the chart's values.yaml in the chart Flux builds",
				"spec.chart.spec.valuesFile":  "sets valuesFile, which replaces the chart's values.yaml in the chart Flux builds",
				"spec.postRenderers":          "post-renders the chart (postRenderers), which scalelint does not",
			}[key]
			return nil, []render.Problem{problemAt(o, k, name+" "+why+": the chart is not rendered with this release's values")}
		}
	}
	rel := release{dir: dir, set: chart.ValueSet{Name: name}}
	target, _ := scalarAt(n, "spec.targetNamespace")
	rel.opts.ReleaseName, _ = scalarAt(n, "spec.releaseName")
	if rel.opts.ReleaseName == "" {
		rel.opts.ReleaseName = o.Name
		if target != "" {
			rel.opts.ReleaseName = target + "-" + o.Name
		}
	}
	rel.opts.Namespace = o.Namespace
	if target != "" {
		rel.opts.Namespace = target
	}
	if k, v := manifest.Lookup(n, manifest.ParsePath("spec.values")); v != nil && !isNull(v) {
		m, err := valuesOf(v)
		if err != nil {
			return nil, []render.Problem{problemAt(o, k, fmt.Sprintf("%s: spec.values are not values helm reads (%v): the chart is not rendered with this release's values", name, err))}
		}
		rel.set.Values = []map[string]any{m}
	}
	return []release{rel}, nil
}

// argoRelease reads an Argo CD source's helm settings
// (https://argo-cd.readthedocs.io/en/stable/user-guide/helm/): valueFiles
// relative to the source's path, then values (valuesObject instead when
// set), then parameters (--set, --set-string with forceString); the
// release name helm.releaseName, else the Application's name; the
// namespace the destination's. It reports false, with the problem when
// there is one, for a source it does not render.
func argoRelease(o *manifest.Object, n, src *yaml.Node, dir string) (release, render.Problem, bool) {
	name := "Application " + qualified(o)
	helmKey, helm := manifest.Lookup(src, manifest.ParsePath("helm"))
	rel := release{dir: dir, set: chart.ValueSet{Name: name}}
	rel.opts.ReleaseName, _ = scalarAt(helm, "releaseName")
	if rel.opts.ReleaseName == "" {
		rel.opts.ReleaseName = o.Name
	}
	rel.opts.Namespace, _ = scalarAt(n, "spec.destination.namespace")
	fail := func(at *yaml.Node, why string) (release, render.Problem, bool) {
		return release{}, problemAt(o, at, name+" "+why+": the chart is not rendered with this source's values"), false
	}
	ignoreMissing, _ := scalarAt(helm, "ignoreMissingValueFiles")
	if _, files := manifest.Lookup(helm, manifest.ParsePath("valueFiles")); files != nil && files.Kind == yaml.SequenceNode {
		for _, f := range files.Content {
			if f.Kind != yaml.ScalarNode {
				continue
			}
			switch {
			case strings.Contains(f.Value, "{{"):
				return release{}, render.Problem{}, false // templated
			case strings.HasPrefix(f.Value, "$") || strings.Contains(f.Value, "://") || path.IsAbs(f.Value):
				return fail(f, fmt.Sprintf("reads values file %q from another source or a URL, which is not read", f.Value))
			}
			p := filepath.Join(dir, filepath.FromSlash(f.Value))
			if _, err := os.Stat(p); err != nil {
				if ignoreMissing == "true" {
					continue
				}
				return fail(f, fmt.Sprintf("reads values file %q, which the repository does not hold at %s", f.Value, p))
			}
			rel.set.Files = append(rel.set.Files, p)
		}
	}
	values := "values"
	if _, v := manifest.Lookup(helm, manifest.ParsePath("valuesObject")); v != nil && !isNull(v) {
		values = "valuesObject"
	}
	if k, v := manifest.Lookup(helm, manifest.ParsePath(values)); v != nil && !isNull(v) {
		var m map[string]any
		var err error
		if v.Kind == yaml.ScalarNode {
			m, err = common.ReadValues([]byte(v.Value))
		} else {
			m, err = valuesOf(v)
		}
		if strings.Contains(v.Value, "{{") {
			return release{}, render.Problem{}, false // templated
		}
		if err != nil {
			return fail(k, fmt.Sprintf("has helm.%s that are not values helm reads (%v)", values, err))
		}
		rel.set.Values = []map[string]any{m}
	}
	if _, params := manifest.Lookup(helm, manifest.ParsePath("parameters")); params != nil && params.Kind == yaml.SequenceNode {
		for _, e := range params.Content {
			pn, _ := scalarAt(e, "name")
			pv, _ := scalarAt(e, "value")
			if pn == "" {
				continue
			}
			if fs, _ := scalarAt(e, "forceString"); fs == "true" {
				return fail(e, fmt.Sprintf("sets parameter %s as a string (forceString), which scalelint does not", pn))
			}
			rel.set.Set = append(rel.set.Set, pn+"="+pv)
		}
	}
	if _, fp := manifest.Lookup(helm, manifest.ParsePath("fileParameters")); fp != nil && !isNull(fp) {
		return fail(helmKey, "sets fileParameters, which are not read")
	}
	return rel, render.Problem{}, true
}

// argoSources returns an Application's sources: spec.source, then each
// of spec.sources.
func argoSources(n *yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	if _, s := manifest.Lookup(n, manifest.ParsePath("spec.source")); s != nil && s.Kind == yaml.MappingNode {
		out = append(out, s)
	}
	if _, ss := manifest.Lookup(n, manifest.ParsePath("spec.sources")); ss != nil && ss.Kind == yaml.SequenceNode {
		out = append(out, ss.Content...)
	}
	return out
}

// samePath reports whether a root path (as Root.Paths writes it: on disk)
// is the GitOps path sp (relative to the repository root).
func samePath(rootPath, sp string) bool {
	rp := path.Clean(filepath.ToSlash(rootPath))
	sp = strings.TrimPrefix(path.Clean("/"+sp), "/")
	return sp != "" && (rp == sp || strings.HasSuffix(rp, "/"+sp))
}

// valuesOf converts a mapping node to values as helm reads them from a
// values file (common.ReadValues: JSON's types through sigs.k8s.io/yaml).
func valuesOf(v *yaml.Node) (map[string]any, error) {
	if v.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("not a mapping")
	}
	var m map[string]any
	if err := v.Decode(&m); err != nil {
		return nil, err
	}
	data, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return common.ReadValues(data)
}

func scalarAt(n *yaml.Node, p string) (string, bool) {
	if n == nil {
		return "", false
	}
	_, v := manifest.Lookup(n, manifest.ParsePath(p))
	if v == nil || v.Kind != yaml.ScalarNode || isNull(v) {
		return "", false
	}
	return v.Value, true
}

func isNull(v *yaml.Node) bool { return v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" }

func qualified(o *manifest.Object) string {
	if o.Namespace != "" {
		return fmt.Sprintf("%q", o.Namespace+"/"+o.Name)
	}
	return fmt.Sprintf("%q", o.Name)
}

// problemAt is a render-incomplete problem at a node of an object's file.
func problemAt(o *manifest.Object, at *yaml.Node, msg string) render.Problem {
	f := o.File()
	line, col := f.Position(o.Pos(at))
	return render.Problem{Rule: render.RuleIncomplete, Path: f.Path, Line: line, Col: col, Message: msg}
}
