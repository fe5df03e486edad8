package kustomize

import (
	"bytes"
	"io"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render"
)

// stampKey is the annotation each object of a resource file carries in
// the copy staged for kustomize: the file's slash path below the tree
// root, read back from the built objects (and removed) to locate them.
//
// Why not kustomize's own origin annotations (buildMetadata:
// [originAnnotations])? With any buildMetadata on, kustomize records every
// transformer that runs on every resource in a second annotation, which
// it parses and writes again as YAML at each step, and removes at the
// end: on argo-cd's repository that bookkeeping was 43% of the run's CPU
// time. A stamp costs one parse of each resource file per tree.
const stampKey = "scalelint.dev/source-file"

// stampOrigins stamps the objects of every file the kustomizations list
// as a resource, in the copies staged for kustomize (Tree.built). A file
// that is also a patch somewhere (its stamp would be patched onto its
// target), or one whose documents are not all objects, is left as it is,
// and the kustomizations that list it are marked unstamped: the builds
// that reach them turn kustomize's origin annotations on.
func (t *Tree) stampOrigins() {
	patches := map[string]bool{}
	for _, k := range t.kusts {
		for _, p := range k.patches {
			patches[p.file] = true
		}
	}
	stamped := map[string][]byte{} // nil: could not be
	for _, k := range t.kusts {
		for _, inc := range k.includes {
			s, done := stamped[inc]
			if !done {
				data, ok := t.built[inc]
				if !ok || IsKustomizationName(inc) {
					continue // a directory (its kustomization's own), or missing (kustomize says so)
				}
				if !patches[inc] {
					s = stamp(data, inc)
				}
				stamped[inc] = s
			}
			if s == nil {
				k.unstamped = true
			}
		}
	}
	for rel, s := range stamped {
		if s != nil {
			t.built[rel] = s
		}
	}
}

// stamp returns the file's text with every object stamped (stampKey:
// rel), a List's items each, or nil when a document does not parse or is
// not an object with a metadata mapping.
func stamp(data []byte, rel string) []byte {
	return rewriteDocs(data, func(d *yaml.Node) bool {
		// A List's items are the objects kustomize reads from it.
		_, items := render.Lookup(d, manifest.Path{manifest.Key("items")})
		if _, kind := render.Lookup(d, manifest.Path{manifest.Key("kind")}); kind != nil && items != nil && strings.HasSuffix(kind.Value, "List") {
			if items.Kind != yaml.SequenceNode {
				return false
			}
			for _, it := range items.Content {
				if !stampObject(it, rel) {
					return false
				}
			}
			return true
		}
		return stampObject(d, rel)
	})
}

// rewriteDocs returns a file's text with each document changed by edit,
// written again, or nil when a document does not parse or edit refuses
// it. Empty documents are dropped, as kustomize skips them; a file with
// no document at all is nil.
func rewriteDocs(data []byte, edit func(doc *yaml.Node) bool) []byte {
	var out bytes.Buffer
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for n := 0; ; n++ {
		var root yaml.Node
		if err := dec.Decode(&root); err == io.EOF && n > 0 {
			break
		} else if err != nil {
			return nil
		}
		if len(root.Content) == 0 || root.Content[0].Kind == yaml.ScalarNode && root.Content[0].Tag == "!!null" {
			continue
		}
		if !edit(root.Content[0]) {
			return nil
		}
		b, err := yaml.Marshal(root.Content[0])
		if err != nil {
			return nil
		}
		out.WriteString("---\n")
		out.Write(b)
	}
	if out.Len() == 0 {
		return nil
	}
	return out.Bytes()
}

// stampObject adds the stamp to an object's annotations.
func stampObject(o *yaml.Node, rel string) bool {
	if o.Kind != yaml.MappingNode {
		return false
	}
	_, meta := render.Lookup(o, manifest.Path{manifest.Key("metadata")})
	if meta == nil || meta.Kind != yaml.MappingNode {
		return false
	}
	_, ann := render.Lookup(meta, manifest.Path{manifest.Key("annotations")})
	if ann == nil {
		ann = &yaml.Node{Kind: yaml.MappingNode}
		meta.Content = append(meta.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "annotations"}, ann)
	}
	if ann.Kind == yaml.ScalarNode && ann.Tag == "!!null" {
		// "annotations:" with nothing after it (Helm writes it so): none.
		ann.Kind, ann.Tag, ann.Value, ann.Style = yaml.MappingNode, "", "", 0
	}
	if ann.Kind != yaml.MappingNode {
		return false
	}
	ann.Content = append(ann.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: stampKey}, &yaml.Node{Kind: yaml.ScalarNode, Value: rel, Style: yaml.DoubleQuotedStyle})
	return true
}
