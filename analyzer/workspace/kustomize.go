package workspace

import (
	"path"
	"path/filepath"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// kustomization is what scalelint reads of a kustomization file: which
// files and directories it deploys, which files are patches, and the
// namespace it sets.
type kustomization struct {
	file      *manifest.File
	dir       string
	namespace string
	includes  []string // cleaned paths of resources/bases/components entries
	patches   []string // cleaned paths of patch files
}

// IsKustomizationName reports whether a file name is one kustomize reads
// as a kustomization.
func IsKustomizationName(p string) bool { return manifest.IsKustomizationName(p) }

func readKustomization(f *manifest.File) *kustomization {
	if len(f.Docs) == 0 {
		return nil
	}
	root := f.Docs[0].Root()
	if root == nil || root.Kind != yaml.MappingNode {
		return nil
	}
	k := &kustomization{file: f, dir: cleanDir(f.Path)}
	get := func(key string) *yaml.Node {
		_, v := manifest.Lookup(root, manifest.Path{manifest.Key(key)})
		return v
	}
	if n := get("namespace"); n != nil && n.Kind == yaml.ScalarNode {
		k.namespace = n.Value
	}
	for _, key := range []string{"resources", "bases", "components"} {
		for _, e := range seqStrings(get(key)) {
			if p, ok := k.local(e); ok {
				k.includes = append(k.includes, p)
			}
		}
	}
	for _, e := range seqStrings(get("patchesStrategicMerge")) {
		if p, ok := k.local(e); ok {
			k.patches = append(k.patches, p)
		}
	}
	for _, key := range []string{"patches", "patchesJson6902"} {
		if n := get(key); n != nil && n.Kind == yaml.SequenceNode {
			for _, item := range n.Content {
				_, pv := manifest.Lookup(item, manifest.Path{manifest.Key("path")})
				if pv != nil && pv.Kind == yaml.ScalarNode {
					if p, ok := k.local(pv.Value); ok {
						k.patches = append(k.patches, p)
					}
				}
			}
		}
	}
	return k
}

func seqStrings(n *yaml.Node) []string {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	var out []string
	for _, c := range n.Content {
		if c.Kind == yaml.ScalarNode {
			out = append(out, c.Value)
		}
	}
	return out
}

// local resolves a kustomization entry relative to its directory; remote
// entries (URLs, git) are not local.
func (k *kustomization) local(e string) (string, bool) {
	if strings.Contains(e, "://") || strings.HasPrefix(e, "github.com/") || strings.HasPrefix(e, "git@") {
		return "", false
	}
	return path.Clean(path.Join(k.dir, filepath.ToSlash(e))), true
}

func cleanDir(p string) string {
	return path.Dir(filepath.ToSlash(filepath.Clean(p)))
}

// scopes records which deployment roots deploy each file.
type scopes struct {
	// roots[file] lists the roots that deploy the file (directly or
	// through included kustomizations), each with the namespace it gives
	// the file's objects.
	roots   map[string][]rootRef
	patches map[string]bool
	// list holds every root, kustomize's and GitOps', in path order.
	list []*Root
	// gitops is set when a GitOps object declares a root: a file that
	// comes or goes may then change the scopes (With).
	gitops bool
}

type rootRef struct {
	root *Root
	// namespace is the one the root gives the file's objects; "" when it
	// gives none. override is false for a namespace that only objects
	// setting none take (an Argo CD destination namespace).
	namespace string
	override  bool
}

// add records that root deploys file, once per root and namespace.
func (s *scopes) add(file string, ref rootRef) {
	for _, r := range s.roots[file] {
		if r == ref {
			return
		}
	}
	s.roots[file] = append(s.roots[file], ref)
}

// kustomizations indexes the kustomizations of a workspace by directory.
type kustomizations struct {
	byDir    map[string]*kustomization
	all      []*kustomization
	included map[*kustomization]bool
	// reached are the kustomizations a GitOps root deploys: included
	// in what it generates or builds, so not roots of their own.
	reached   map[*kustomization]bool
	filePaths map[string]bool
}

func buildScopes(files []*manifest.File, opts Options) scopes {
	s := scopes{roots: map[string][]rootRef{}, patches: map[string]bool{}}
	ks := kustomizations{byDir: map[string]*kustomization{}, included: map[*kustomization]bool{}, reached: map[*kustomization]bool{}}
	for _, f := range files {
		if !IsKustomizationName(f.Path) {
			continue
		}
		if k := readKustomization(f); k != nil {
			ks.byDir[k.dir] = k
			ks.all = append(ks.all, k)
		}
	}
	for _, k := range ks.all {
		for _, p := range k.includes {
			if sub, ok := ks.byDir[p]; ok {
				ks.included[sub] = true
			}
		}
		for _, p := range k.patches {
			s.patches[p] = true
		}
	}
	// A patch of a GitOps object (an overlay setting a Flux
	// Kustomization's path) declares no root of its own.
	decls := readGitOps(files, s.patches)
	if len(ks.all) == 0 && len(decls) == 0 {
		return s
	}
	ks.filePaths = make(map[string]bool, len(files))
	for _, f := range files {
		ks.filePaths[f.SlashPath()] = true
	}
	sort.Slice(ks.all, func(i, j int) bool { return ks.all[i].file.Path < ks.all[j].file.Path })
	if len(decls) > 0 {
		s.gitops = true
		s.addGitOps(files, &ks, decls, opts)
	}
	for _, k := range ks.all {
		if ks.included[k] || ks.reached[k] {
			continue
		}
		r := &Root{Kind: KustomizeRoot, Path: k.file.SlashPath()}
		s.list = append(s.list, r)
		s.visit(&ks, k, r, "", false)
	}
	return s
}

// visit records root for every file a kustomization deploys, through the
// kustomizations it includes. ns is the namespace given from outside (a
// Flux targetNamespace, an including kustomization's); the outermost
// namespace that overrides wins.
func (s *scopes) visit(ks *kustomizations, k *kustomization, root *Root, ns string, override bool) {
	seen := map[*kustomization]bool{}
	var walk func(k *kustomization, ns string, override bool, depth int)
	walk = func(k *kustomization, ns string, override bool, depth int) {
		if seen[k] || depth > 64 {
			return
		}
		seen[k] = true
		if root.Kind != KustomizeRoot {
			ks.reached[k] = true
		}
		if !override && k.namespace != "" {
			ns, override = k.namespace, true
		}
		for _, p := range k.includes {
			if sub, ok := ks.byDir[p]; ok {
				walk(sub, ns, override, depth+1)
			} else if ks.filePaths[p] {
				s.add(p, rootRef{root, ns, override})
			}
		}
	}
	walk(k, ns, override, 0)
}
