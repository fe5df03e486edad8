package kustomize

import (
	"bytes"
	"io"
	"sort"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/parallel"
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
	// The files to stamp, each once, stamped on every core.
	var todo []string
	seen := map[string]bool{}
	for _, k := range t.kusts {
		for _, inc := range k.includes {
			if _, ok := t.built[inc]; !ok || seen[inc] || IsKustomizationName(inc) {
				continue // a directory (its kustomization's own), or missing (kustomize says so)
			}
			seen[inc] = true
			todo = append(todo, inc)
		}
	}
	sort.Strings(todo)
	type stamped struct {
		text     []byte // nil: could not be
		slim     bool   // text is the slim copy (it holds CRDs)
		onlyCRDs bool   // and nothing else
	}
	out := make([]stamped, len(todo))
	parallel.Parts(len(todo), 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			rel, data := todo[i], t.built[todo[i]]
			switch {
			case patches[rel]:
			case t.slimmable(rel, data):
				out[i].text, out[i].slim, out[i].onlyCRDs = stampSlim(data, rel)
			default:
				out[i].text = stamp(data, rel)
			}
		}
	})
	stampedOf := map[string]stamped{}
	for i, rel := range todo {
		s := out[i]
		stampedOf[rel] = s
		switch {
		case s.text == nil:
		case s.slim:
			if t.slim == nil {
				t.slim, t.wholeLater = map[string][]byte{}, map[string]*wholeCopy{}
			}
			t.slim[rel], t.wholeLater[rel] = s.text, &wholeCopy{}
			t.noteOnlyCRDs(rel, s.onlyCRDs)
		default:
			t.built[rel] = s.text
		}
	}
	for _, k := range t.kusts {
		for _, inc := range k.includes {
			if s, ok := stampedOf[inc]; ok && s.text == nil {
				k.unstamped = true
			}
		}
	}
}

// wholeCopy is a file's stamped copy with its CRDs whole, made once.
type wholeCopy struct {
	once sync.Once
	text []byte
}

// stagedWhole returns the copy of a file staged for a build that takes
// its CRDs whole and reaches the file (reached: its includes): for a file
// stamped slim (wholeLater), stamped whole, once; a file the build does
// not reach as a resource is staged as read (no object of it is built,
// so its stamps would not be read).
func (t *Tree) stagedWhole(rel string, reached map[string]bool) []byte {
	w := t.wholeLater[rel]
	if w == nil || !reached[rel] {
		return t.built[rel]
	}
	w.once.Do(func() {
		w.text = stamp(t.built[rel], rel)
		if w.text == nil {
			w.text = t.built[rel] // not so: stampSlim stamped the same documents
		}
	})
	return w.text
}

// includedBy returns the files a kustomization's build reads as
// resources: the includes, other than kustomizations, of those it reaches.
func (t *Tree) includedBy(k *kustomization) map[string]bool {
	out := map[string]bool{}
	t.reach([]*kustomization{k}, func(k *kustomization) {
		for _, inc := range k.includes {
			if _, sub := t.kusts[inc]; !sub {
				out[inc] = true
			}
		}
	})
	return out
}

// stamp returns the file's text with every object stamped (stampKey:
// rel), a List's items each, or nil when a document does not parse or is
// not an object with a metadata mapping.
func stamp(data []byte, rel string) []byte {
	return rewriteDocs(data, func(d *yaml.Node) bool { return stampDoc(d, rel) })
}

// stampSlim is stamp of a file that may hold CRDs (slimmable), slimming
// them in the same pass (slimCRDs): slim says the text is the slim copy,
// false when the file held no CRD after all (the text is stamp's).
func stampSlim(data []byte, rel string) (text []byte, slim, onlyCRDs bool) {
	var n crdCount
	text = rewriteDocs(data, func(d *yaml.Node) bool {
		if !stampDoc(d, rel) {
			return false
		}
		n.slim(d)
		return true
	})
	return text, text != nil && n.crds > 0, text != nil && n.only()
}

// stampDoc stamps a document's object, or a List's items each.
func stampDoc(d *yaml.Node, rel string) bool {
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
