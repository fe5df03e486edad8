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
func IsKustomizationName(p string) bool {
	switch filepath.Base(p) {
	case "kustomization.yaml", "kustomization.yml", "Kustomization":
		return true
	}
	return false
}

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

// scopes records which kustomization roots deploy each file.
type scopes struct {
	// roots[file] lists the root kustomizations that deploy the file
	// (directly or through included kustomizations), each with the
	// namespace the outermost kustomization setting one gives it.
	roots   map[string][]rootRef
	patches map[string]bool
}

type rootRef struct {
	root      string // the root kustomization's file path
	namespace string // "" when no kustomization on the way sets one
}

func buildScopes(files []*manifest.File) scopes {
	s := scopes{roots: map[string][]rootRef{}, patches: map[string]bool{}}
	byDir := map[string]*kustomization{}
	var all []*kustomization
	for _, f := range files {
		if !IsKustomizationName(f.Path) {
			continue
		}
		if k := readKustomization(f); k != nil {
			byDir[k.dir] = k
			all = append(all, k)
		}
	}
	if len(all) == 0 {
		return s
	}
	filePaths := make(map[string]bool, len(files))
	for _, f := range files {
		filePaths[f.SlashPath()] = true
	}
	included := map[*kustomization]bool{}
	for _, k := range all {
		for _, p := range k.includes {
			if sub, ok := byDir[p]; ok {
				included[sub] = true
			}
		}
		for _, p := range k.patches {
			s.patches[p] = true
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].file.Path < all[j].file.Path })
	for _, root := range all {
		if included[root] {
			continue
		}
		rootPath := root.file.SlashPath()
		seen := map[*kustomization]bool{}
		var visit func(k *kustomization, ns string, depth int)
		visit = func(k *kustomization, ns string, depth int) {
			if seen[k] || depth > 64 {
				return
			}
			seen[k] = true
			if ns == "" {
				ns = k.namespace // the outermost namespace wins
			}
			for _, p := range k.includes {
				if sub, ok := byDir[p]; ok {
					visit(sub, ns, depth+1)
				} else if filePaths[p] {
					s.roots[p] = append(s.roots[p], rootRef{rootPath, ns})
				}
			}
		}
		visit(root, "", 0)
	}
	return s
}
