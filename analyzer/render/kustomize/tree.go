package kustomize

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render"
)

// Tree is a directory tree holding kustomizations, read once, from which
// each root kustomization is built.
type Tree struct {
	Root string // as given; absolute when cwd is set
	// cwd is the working directory when relative inputs include a
	// directory above it ("../../base" from inside an overlay): the tree
	// is read at absolute paths then, and shown relative to cwd again.
	cwd   string
	files map[string][]byte // by slash path below Root, as read
	// built are the files the in-memory filesystem holds: kustomization
	// files rewritten (remote entries cut, origin annotations on).
	built map[string][]byte
	// annotated are the copies of kustomizations that turn kustomize's
	// origin annotations on, staged for a build they are the root of
	// when a file they reach could not be stamped (stampOrigins).
	annotated map[string][]byte
	// slim are files holding CRDs, staged without their schemas
	// (slimCRDs) unless a build fails with them so: those stamped are
	// slimmed as they are stamped (stampOrigins), the others on the first
	// build that takes them (slimFiles).
	slim     map[string][]byte
	slimOnce sync.Once
	// crdOnly are the files of slim that hold CRDs and nothing else
	// (buildsOnlyCRDs).
	crdOnly map[string]bool
	// wholeLater are the stamped files of CRDs whose copy with the CRDs
	// whole is made only when a build that reaches them takes them so
	// (stagedWhole): built holds them as read. Encoding megabytes of schema that
	// no build read was most of the time of a tree of operators'
	// install files (kubeflow/manifests: 1.5 of 5.5 s).
	wholeLater map[string]*wholeCopy
	// crdSchemas are the files kustomizations list under crds: kustomize
	// reads their schemas, so they are never slimmed.
	crdSchemas map[string]bool
	kusts      map[string]*kustomization // by directory (slash, below Root)
	lim        render.Limits
	mu         sync.Mutex
	cache      map[string]*render.YAML // files parsed for locating
	// Problems are found once per tree: remote entries, files refused.
	Problems []render.Problem

	schemaOnce sync.Once
	custom     bool // a kustomization sets kustomize's schema (customSchema)
}

// kustomization is what is read of a kustomization file.
type kustomization struct {
	file     string   // slash path below the tree root
	dir      string   // its directory ("." for the root)
	includes []string // local directories and files of resources/bases/components
	patches  []patch
	y        *render.YAML
	// unread is set when scalelint could not read the file (or write it
	// back with its remote references cut): it is not built.
	unread bool
	// doc is the kustomization as read, with what was cut from it;
	// changed says it differs from the file (writeKustomization).
	doc     *yaml.Node
	changed bool
	// unstamped is set when a file it lists as a resource could not be
	// stamped with its path (stampOrigins).
	unstamped bool
	// cut is set when entries were cut from the copy built (remote ones,
	// helmCharts): what they would have brought is missing from its build.
	cut bool
	// component is a kustomize Component (kind: Component): a reusable
	// set of patches and resources meant to be included by the
	// kustomizations that list it under components, never built alone
	// (its patches name targets only the including kustomization holds).
	component bool
}

// patch is a patch a kustomization applies.
type patch struct {
	file   string     // slash path below the tree root; "" when inline
	inline *yaml.Node // the patch: value node, when inline
	target *yaml.Node // the target selector, if any
	json   bool       // a JSON 6902 patch (a list of operations)
	owner  *kustomization
	entry  *yaml.Node // where the kustomization lists it
}

// kustomizationNames are the names kustomize reads as a kustomization,
// in the order it looks for them.
var kustomizationNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// IsKustomizationName reports whether a file name is one kustomize reads
// as a kustomization.
func IsKustomizationName(p string) bool {
	return slices.Contains(kustomizationNames, filepath.Base(p))
}

// Open reads the kustomizations of the given kustomization files (paths
// on disk) and every local kustomization they include, wherever it is,
// into one tree rooted at their common directory (or higher, where an
// include's path climbs above it on its way): only the files below
// the kustomizations' directories are read (load restrictions let a
// kustomization read nothing else), the editor's unsaved texts (overlay,
// by path on disk; may be nil) over them.
func Open(kustFiles []string, lim render.Limits, overlay map[string][]byte) *Tree {
	lim = lim.WithDefaults()
	dirs, via := includedDirs(kustFiles, lim, overlay)
	cwd := ""
	if slices.ContainsFunc(append(slices.Clone(dirs), via...), aboveWorkingDir) {
		// A relative path cannot name the common directory of "." and
		// "../../base": read the tree at absolute paths.
		if wd, err := os.Getwd(); err == nil {
			cwd = wd
			kustFiles = absolute(wd, kustFiles)
			if overlay != nil {
				abs := make(map[string][]byte, len(overlay))
				for p, data := range overlay {
					abs[absolute(wd, []string{p})[0]] = data
				}
				overlay = abs
			}
			dirs, via = includedDirs(kustFiles, lim, overlay)
		}
	}
	// The root holds the directories an include passes through too: kustomize
	// resolves "../../../x/base" lexically, so a path that climbs above the
	// kustomizations' common directory and comes down again (as
	// aws-samples/eks-workshop-v2's "../../../../../../manifests/base-application/ui")
	// names a directory the in-memory tree must have.
	root := commonDir(append(slices.Clone(dirs), via...))
	var rels []string
	for _, d := range dirs {
		if r, err := filepath.Rel(root, d); err == nil {
			rels = append(rels, filepath.ToSlash(r))
		}
	}
	keep := func(rel string) bool {
		if dir, ok := strings.CutSuffix(rel, "/"); ok {
			for _, r := range rels {
				// Below a kustomization's directory, or on the way to one.
				if r == "." || within(r, dir) || within(dir, r) {
					return true
				}
			}
			return false
		}
		for _, r := range rels {
			if r == "." || within(r, path.Dir(rel)) {
				return true
			}
		}
		return false
	}
	files, problems := render.ReadTree(root, "", lim, keep)
	t := newTree(root, lim, render.WithOverlay(root, files, overlay), problems)
	if cwd != "" {
		t.cwd = cwd
		// The problems found while reading name paths on disk as read.
		for i := range t.Problems {
			t.Problems[i].Path = t.shown(t.Problems[i].Path)
		}
	}
	return t
}

// aboveWorkingDir reports whether a relative path names a directory above
// the working directory.
func aboveWorkingDir(p string) bool {
	return !filepath.IsAbs(p) && (p == ".." || strings.HasPrefix(p, ".."+string(filepath.Separator)))
}

// absolute returns the paths joined to dir when relative.
func absolute(dir string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if filepath.IsAbs(p) {
			out[i] = filepath.Clean(p)
		} else {
			out[i] = filepath.Join(dir, p)
		}
	}
	return out
}

// within reports whether slash path p is dir or below it.
func within(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// includedDirs returns the directories of the kustomization files and of
// every local kustomization they include, transitively (cleaned, sorted),
// and the highest directory each include's path climbs to on its way
// ("a/b" for "a/b/c/../../b/d" read in a/b/c).
func includedDirs(kustFiles []string, lim render.Limits, overlay map[string][]byte) ([]string, []string) {
	seen := map[string]bool{}
	var queue []string
	for _, f := range kustFiles {
		queue = append(queue, filepath.Clean(filepath.Dir(f)))
	}
	var out, via []string
	for len(queue) > 0 && len(out) < lim.MaxFiles {
		dir := queue[0]
		queue = queue[1:]
		if seen[dir] {
			continue
		}
		seen[dir] = true
		out = append(out, dir)
		_, data, ok := readKustomizationIn(dir, lim, overlay)
		if !ok {
			continue
		}
		y := render.ParseYAML(data)
		if len(y.Docs) == 0 {
			continue
		}
		for _, key := range []string{"resources", "bases", "components"} {
			_, seq := render.Lookup(y.Docs[0], manifest.Path{manifest.Key(key)})
			if seq == nil || seq.Kind != yaml.SequenceNode {
				continue
			}
			for _, e := range seq.Content {
				if e.Kind != yaml.ScalarNode || IsRemoteRef(e.Value) {
					continue
				}
				sub := filepath.Join(dir, filepath.FromSlash(e.Value))
				if _, _, ok := readKustomizationIn(sub, lim, overlay); ok {
					queue = append(queue, filepath.Clean(sub))
					if top := climbsTo(dir, e.Value); top != dir {
						via = append(via, top)
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out, via
}

// readKustomizationIn reads the kustomization file of a directory, from
// overlay or from disk.
func readKustomizationIn(dir string, lim render.Limits, overlay map[string][]byte) (string, []byte, bool) {
	for _, n := range kustomizationNames {
		p := filepath.Join(dir, n)
		if data, ok := overlay[p]; ok {
			return p, data, true
		}
		if data, err := render.ReadFile(p, lim.MaxInput); err == nil {
			return p, data, true
		}
	}
	return "", nil, false
}

// climbsTo returns the highest directory that the slash path rel, read in
// dir, passes through when its elements are followed one by one.
func climbsTo(dir, rel string) string {
	depth, lowest := 0, 0
	for _, el := range strings.Split(rel, "/") {
		switch el {
		case "", ".":
		case "..":
			depth--
			lowest = min(lowest, depth)
		default:
			depth++
		}
	}
	return filepath.Join(dir, strings.Repeat("../", -lowest))
}

// commonDir returns the deepest directory holding every one of dirs.
func commonDir(dirs []string) string {
	if len(dirs) == 0 {
		return "."
	}
	common := dirs[0]
	for _, d := range dirs[1:] {
		for common != "." && common != string(filepath.Separator) && !strings.HasPrefix(d+string(filepath.Separator), common+string(filepath.Separator)) {
			common = filepath.Dir(common)
		}
	}
	return common
}

func newTree(root string, lim render.Limits, files []render.TreeFile, problems []render.Problem) *Tree {
	t := &Tree{Root: root, files: map[string][]byte{}, built: map[string][]byte{}, kusts: map[string]*kustomization{}, lim: lim}
	t.Problems = problems
	for _, f := range files {
		t.files[f.Rel] = f.Data
		t.built[f.Rel] = f.Data
	}
	var names []string
	for rel := range t.files {
		if IsKustomizationName(rel) {
			names = append(names, rel)
		}
	}
	sort.Strings(names)
	for _, rel := range names {
		t.readKustomization(rel)
	}
	// Each resource file's objects say where they came from (stampOrigins);
	// where one cannot, kustomize's origin annotations do.
	t.stampOrigins()
	for _, rel := range names {
		k := t.kusts[path.Dir(rel)]
		if text, ok := t.writeKustomization(k, false); ok {
			t.built[k.file] = text
		}
		// Built as a root over a file that could not be stamped, it turns
		// kustomize's origin annotations on (only a root's count).
		if t.firstIn(k, func(k *kustomization) bool { return k.unstamped }) != nil {
			if text, ok := t.writeKustomization(k, true); ok {
				if t.annotated == nil {
					t.annotated = map[string][]byte{}
				}
				t.annotated[k.file] = text
			}
		}
	}
	return t
}

// readKustomization reads a kustomization file: what it includes and
// patches; its remote entries are reported and cut from the copy built.
func (t *Tree) readKustomization(rel string) {
	data := t.files[rel]
	y := render.ParseYAML(data)
	k := &kustomization{file: rel, dir: path.Dir(rel), y: y}
	t.kusts[k.dir] = k
	if len(y.Docs) == 0 || y.Docs[0].Kind != yaml.MappingNode {
		// Not read here, so its remote entries could not be cut: it is
		// not built (kustomize would read what scalelint did not).
		k.unread = true
		return
	}
	doc := y.Docs[0]
	if _, kind := render.Lookup(doc, manifest.Path{manifest.Key("kind")}); kind != nil && kind.Kind == yaml.ScalarNode && kind.Value == "Component" {
		k.component = true
	}
	changed := t.cutRemote(k, doc)
	k.cut = changed
	_, crds := render.Lookup(doc, manifest.Path{manifest.Key("crds")})
	for _, e := range scalars(crds) {
		if t.crdSchemas == nil {
			t.crdSchemas = map[string]bool{}
		}
		t.crdSchemas[path.Clean(path.Join(k.dir, e.Value))] = true
	}
	for _, key := range []string{"resources", "bases", "components"} {
		_, seq := render.Lookup(doc, manifest.Path{manifest.Key(key)})
		for _, e := range scalars(seq) {
			k.includes = append(k.includes, path.Clean(path.Join(k.dir, e.Value)))
		}
	}
	k.patches = t.readPatches(k, doc)
	k.doc, k.changed = doc, changed
}

// writeKustomization returns the copy of a kustomization the build reads
// when it differs from the file (ok): remote entries cut, and, with
// annotate, kustomize's origin annotations on. Annotating changes k.doc:
// the copy without is written first.
func (t *Tree) writeKustomization(k *kustomization, annotate bool) ([]byte, bool) {
	if k == nil || k.doc == nil {
		return nil, false
	}
	doc, changed := k.doc, k.changed
	if k.cut && onlyTypeMeta(doc) {
		// Nothing left but what was cut: kustomize refuses an empty
		// kustomization ("kustomization.yaml is empty"), which this one
		// is not as written. Its origin annotations keep it from being
		// empty, and cost nothing where there is nothing to build.
		annotate = true
	}
	if annotate {
		_, bm := render.Lookup(doc, manifest.Path{manifest.Key("buildMetadata")})
		if bm == nil {
			doc.Content = append(doc.Content,
				&yaml.Node{Kind: yaml.ScalarNode, Value: "buildMetadata"},
				&yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "originAnnotations"}}})
			changed = true
		} else if bm.Kind == yaml.SequenceNode && !hasScalar(bm, "originAnnotations") {
			bm.Content = append(bm.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "originAnnotations"})
			changed = true
		}
	}
	if !changed {
		return nil, false
	}
	// What was cut may have held an anchor that a kept entry's alias
	// names (bjw-s' app-template example: releaseName: &releaseName in a
	// remote helmCharts entry, *releaseName in commonAnnotations), and
	// the copy would not parse: the aliases are written out in full.
	if !expandAliases(doc, new(int)) {
		k.unread = true
		return nil, false
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		k.unread = true
		return nil, false
	}
	return withoutDeprecated(out, k), true
}

// aliasBudget bounds the nodes expandAliases copies: a kustomization's
// aliases name a few scalars; a tree of nested aliases that would copy
// more (an alias bomb) is not built.
const aliasBudget = 1 << 14

// expandAliases replaces every alias below n with a copy of the node it
// names (without its anchor), within aliasBudget copied nodes; it reports
// whether the budget held. n is changed in place.
func expandAliases(n *yaml.Node, copied *int) bool {
	for i, c := range n.Content {
		if c.Kind == yaml.AliasNode && c.Alias != nil {
			cp, ok := copyNode(c.Alias, copied)
			if !ok {
				return false
			}
			n.Content[i] = cp
			continue
		}
		if !expandAliases(c, copied) {
			return false
		}
	}
	return true
}

// copyNode deep-copies n, aliases expanded, counting the nodes copied.
func copyNode(n *yaml.Node, copied *int) (*yaml.Node, bool) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return copyNode(n.Alias, copied)
	}
	if *copied++; *copied > aliasBudget {
		return nil, false
	}
	cp := *n
	cp.Anchor = ""
	cp.Content = make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		cc, ok := copyNode(c, copied)
		if !ok {
			return nil, false
		}
		cp.Content[i] = cc
	}
	return &cp, true
}

// onlyTypeMeta reports whether a kustomization holds no field but
// apiVersion and kind.
func onlyTypeMeta(doc *yaml.Node) bool {
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if k := doc.Content[i].Value; k != "apiVersion" && k != "kind" {
			return false
		}
	}
	return true
}

// withoutDeprecated rewrites a kustomization's deprecated fields (bases,
// commonLabels, imageTags, patchesJson6902, patchesStrategicMerge) into
// their replacements with kustomize's own conversion, as `kustomize edit
// fix` does: kustomize warns about them on the process's standard error
// at every build, which is not scalelint's output. The text is returned
// unchanged when the conversion does not apply.
func withoutDeprecated(text []byte, k *kustomization) []byte {
	var kz types.Kustomization
	if err := kz.Unmarshal(text); err != nil {
		return text // kustomize reports it
	}
	if w := kz.CheckDeprecatedFields(); w == nil || len(*w) == 0 {
		return text
	}
	// The conversion tells a patch file from an inline patch by reading
	// it: the kustomization's patch files, relative to its directory.
	fs := filesys.MakeFsInMemory()
	for _, p := range k.patches {
		if p.file != "" {
			if rel, err := filepath.Rel(k.dir, p.file); err == nil {
				_ = fs.WriteFile(filepath.ToSlash(rel), nil)
			}
		}
	}
	kz.FixKustomization()
	if err := kz.FixKustomizationPreMarshalling(fs); err != nil {
		return text
	}
	out, err := sigsyaml.Marshal(&kz)
	if err != nil {
		return text
	}
	return out
}

// dropKeys removes keys from a mapping node.
func dropKeys(m *yaml.Node, keys ...string) {
	filterKeys(m, func(k string) bool { return !slices.Contains(keys, k) })
}

// scalars returns the scalar items of a sequence node (none for nil).
func scalars(seq *yaml.Node) []*yaml.Node {
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return nil
	}
	var out []*yaml.Node
	for _, e := range seq.Content {
		if e.Kind == yaml.ScalarNode {
			out = append(out, e)
		}
	}
	return out
}

// cutRemote removes from a kustomization every reference kustomize would
// fetch (a URL it downloads, a git repository it clones by running git),
// reporting each once: the build reads only the tree. The fields are
// every one kustomize loads a file or a directory from.
func (t *Tree) cutRemote(k *kustomization, doc *yaml.Node) bool {
	changed := false
	report := func(what string, e *yaml.Node) {
		t.Problems = append(t.Problems, render.Problem{Rule: render.RuleIncomplete, Path: t.path(k.file), Line: e.Line, Col: e.Column,
			Message: fmt.Sprintf("remote %s %q is not fetched; the kustomization is built without it", what, e.Value)})
		changed = true
	}
	// cutSeq drops the remote scalars of a list; ref reads the
	// reference out of an item ("key=url" of a generator's files).
	cutSeq := func(seq *yaml.Node, what string, ref func(string) string) {
		if seq == nil || seq.Kind != yaml.SequenceNode {
			return
		}
		kept := seq.Content[:0:0]
		for _, e := range seq.Content {
			if e.Kind == yaml.ScalarNode && !strings.Contains(e.Value, "\n") && IsRemoteRef(ref(e.Value)) {
				report(what, e)
				continue
			}
			kept = append(kept, e)
		}
		seq.Content = kept
	}
	// cutKey drops a mapping's key whose value is remote.
	cutKey := func(m *yaml.Node, key, what string) {
		if m == nil || m.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			if v := m.Content[i+1]; m.Content[i].Value == key && v.Kind == yaml.ScalarNode && IsRemoteRef(v.Value) {
				report(what, v)
				m.Content = append(m.Content[:i:i], m.Content[i+2:]...)
				return
			}
		}
	}
	same := func(s string) string { return s }
	field := func(key string) *yaml.Node {
		_, v := render.Lookup(doc, manifest.Path{manifest.Key(key)})
		return v
	}
	for _, key := range []string{"resources", "bases", "components", "crds", "configurations", "generators", "transformers", "validators", "patchesStrategicMerge"} {
		cutSeq(field(key), strings.TrimSuffix(key, "s")+" entry", same)
	}
	cutKey(field("openapi"), "path", "OpenAPI schema")
	// A patch or replacement read from a URL goes whole.
	for _, key := range []string{"patches", "patchesJson6902", "replacements"} {
		if seq := field(key); seq != nil && seq.Kind == yaml.SequenceNode {
			kept := seq.Content[:0:0]
			for _, item := range seq.Content {
				if _, p := render.Lookup(item, manifest.Path{manifest.Key("path")}); p != nil && p.Kind == yaml.ScalarNode && IsRemoteRef(p.Value) {
					report(strings.TrimSuffix(key, "s")+" path", p)
					continue
				}
				kept = append(kept, item)
			}
			seq.Content = kept
		}
	}
	fileRef := func(s string) string {
		if _, f, ok := strings.Cut(s, "="); ok {
			return f
		}
		return s
	}
	for _, key := range []string{"configMapGenerator", "secretGenerator"} {
		if seq := field(key); seq != nil && seq.Kind == yaml.SequenceNode {
			for _, item := range seq.Content {
				_, files := render.Lookup(item, manifest.Path{manifest.Key("files")})
				cutSeq(files, "generator file", fileRef)
				_, envs := render.Lookup(item, manifest.Path{manifest.Key("envs")})
				cutSeq(envs, "generator env file", same)
				cutKey(item, "env", "generator env file")
			}
		}
	}
	// helmCharts are inflated only under --enable-helm, by running the
	// helm program (kustomize's HelmChartInflationGenerator): without it
	// the whole build fails, with it scalelint would run a program. The
	// build goes on without them, each said (Argo CD and Flux builds
	// often enable helm; argo-cd's test/e2e/testdata/kustomize-api-versions).
	if seq := field("helmCharts"); seq != nil {
		for _, item := range seq.Content {
			name := "helmCharts entry"
			if _, n := render.Lookup(item, manifest.Path{manifest.Key("name")}); n != nil && n.Kind == yaml.ScalarNode {
				name = n.Value
			}
			t.Problems = append(t.Problems, render.Problem{Rule: render.RuleIncomplete, Path: t.path(k.file), Line: item.Line, Col: item.Column,
				Message: fmt.Sprintf("Helm chart %q is not inflated (kustomize inflates helmCharts only with --enable-helm, by running the helm program, which scalelint does not run); the kustomization is built without it%s", name, localChart(item))})
		}
		dropKeys(doc, "helmCharts", "helmGlobals")
		changed = true
	}
	return changed
}

// localChart is what a helmCharts entry of a chart in the repository (no
// repo) adds to the message that it is not inflated: such a chart, when
// among the paths checked, renders on its own with the entry's values
// (lint's kustomizeReleases).
func localChart(item *yaml.Node) string {
	if _, repo := render.Lookup(item, manifest.Path{manifest.Key("repo")}); repo != nil && repo.Value != "" {
		return ""
	}
	return "; the chart, when the paths checked hold it at its chartHome, renders on its own with this entry's values, name and namespace"
}

// IsRemoteRef reports whether kustomize fetches a reference instead of
// reading it from the tree: a URL it downloads (http, https), or what it
// takes for a git repository and clones (a scheme ssh://, https://,
// http:// or file://, an scp-style user@host:path, or a github.com/
// path, with or without a git:: prefix), as its loader decides
// (sigs.k8s.io/kustomize/api internal/loader and internal/git).
func IsRemoteRef(s string) bool {
	s = strings.TrimSpace(s)
	l := strings.ToLower(s)
	l = strings.TrimPrefix(l, "git::")
	for _, scheme := range []string{"ssh://", "https://", "http://", "file://"} {
		if strings.HasPrefix(l, scheme) {
			return true
		}
	}
	return userAt.MatchString(l) || strings.HasPrefix(l, "github.com/") || strings.HasPrefix(l, "github.com:")
}

// userAt is the username of an scp-style git URL, as kustomize reads it.
var userAt = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9-]*@`)

func hasScalar(seq *yaml.Node, v string) bool {
	for _, c := range seq.Content {
		if c.Value == v {
			return true
		}
	}
	return false
}

// readPatches lists a kustomization's patches.
func (t *Tree) readPatches(k *kustomization, doc *yaml.Node) []patch {
	var out []patch
	add := func(n *yaml.Node, json bool) {
		switch n.Kind {
		case yaml.ScalarNode: // patchesStrategicMerge: a path or an inline patch
			if strings.Contains(n.Value, "\n") {
				out = append(out, patch{inline: n, owner: k, entry: n})
			} else {
				out = append(out, patch{file: path.Clean(path.Join(k.dir, n.Value)), owner: k, entry: n})
			}
		case yaml.MappingNode:
			p := patch{owner: k, json: json, entry: n}
			_, p.target = render.Lookup(n, manifest.Path{manifest.Key("target")})
			if _, f := render.Lookup(n, manifest.Path{manifest.Key("path")}); f != nil && f.Kind == yaml.ScalarNode {
				p.file, p.entry = path.Clean(path.Join(k.dir, f.Value)), f
			} else if _, in := render.Lookup(n, manifest.Path{manifest.Key("patch")}); in != nil && in.Kind == yaml.ScalarNode {
				p.inline = in
			} else {
				return
			}
			out = append(out, p)
		}
	}
	for _, key := range []string{"patchesStrategicMerge", "patchesJson6902", "patches"} {
		_, seq := render.Lookup(doc, manifest.Path{manifest.Key(key)})
		if seq == nil || seq.Kind != yaml.SequenceNode {
			continue
		}
		for _, n := range seq.Content {
			add(n, key == "patchesJson6902")
		}
	}
	return out
}

func (t *Tree) kustAt(dir string) (string, bool) {
	for _, n := range kustomizationNames {
		if _, ok := t.files[path.Join(dir, n)]; ok {
			return path.Join(dir, n), true
		}
	}
	return "", false
}

// path returns a slash path below the tree root as a path on disk.
func (t *Tree) path(rel string) string {
	return t.shown(filepath.Join(t.Root, filepath.FromSlash(rel)))
}

// shown returns a path on disk as the inputs were given: relative to the
// working directory when the tree was read at absolute paths for them.
func (t *Tree) shown(p string) string {
	if t.cwd != "" && filepath.IsAbs(p) {
		if r, err := filepath.Rel(t.cwd, p); err == nil {
			return r
		}
	}
	return p
}

// below returns a path on disk (as shown) relative to the tree root.
func (t *Tree) below(p string) (string, error) {
	if t.cwd != "" && !filepath.IsAbs(p) {
		p = filepath.Join(t.cwd, p)
	}
	return filepath.Rel(t.Root, p)
}

// Roots returns the directories (slash, below the tree root) of the
// kustomizations that no other kustomization of the tree includes. A
// Component is never a root: it is built only as part of a kustomization
// that lists it (kustomize's components field), so one that nothing
// includes (a repository's optional components, commented out of its
// kustomization until a user enables them) is not built at all.
func (t *Tree) Roots() []string {
	included := map[string]bool{}
	for _, k := range t.kusts {
		for _, inc := range k.includes {
			if _, ok := t.kusts[inc]; ok && inc != k.dir {
				included[inc] = true
			}
		}
	}
	var out []string
	for dir, k := range t.kusts {
		if !included[dir] && !k.component {
			out = append(out, dir)
		}
	}
	sort.Strings(out)
	return out
}

// Covered returns the files (paths on disk) that the builds of the given
// roots read: the kustomization files on the way, the resources they
// deploy and the patches they apply. A driver lints them through those
// builds, not one by one.
func (t *Tree) Covered(roots []string) map[string]bool {
	out := map[string]bool{}
	var ks []*kustomization
	for _, r := range roots {
		if k := t.kusts[r]; k != nil {
			ks = append(ks, k)
		}
	}
	t.reach(ks, func(k *kustomization) {
		out[t.path(k.file)] = true
		for _, inc := range k.includes {
			if _, sub := t.kusts[inc]; !sub {
				if _, ok := t.files[inc]; ok {
					out[t.path(inc)] = true
				}
			}
		}
		for _, p := range k.patches {
			if _, ok := t.files[p.file]; ok && p.file != "" {
				out[t.path(p.file)] = true
			}
		}
	})
	return out
}

// reach calls visit once for each kustomization the given ones include,
// themselves and below (resources, bases, components), at most 64 deep.
func (t *Tree) reach(from []*kustomization, visit func(k *kustomization)) {
	seen := map[*kustomization]bool{}
	var walk func(k *kustomization, depth int)
	walk = func(k *kustomization, depth int) {
		if seen[k] || depth > 64 {
			return
		}
		seen[k] = true
		visit(k)
		for _, inc := range k.includes {
			if sub, ok := t.kusts[inc]; ok {
				walk(sub, depth+1)
			}
		}
	}
	for _, k := range from {
		walk(k, 0)
	}
}

// Path returns a slash path below the tree root as a path on disk.
func (t *Tree) Path(rel string) string { return t.path(rel) }

// Data returns a file of the tree by its path on disk.
func (t *Tree) Data(p string) ([]byte, bool) {
	rel, err := t.below(p)
	if err != nil {
		return nil, false
	}
	d, ok := t.files[filepath.ToSlash(rel)]
	return d, ok
}
