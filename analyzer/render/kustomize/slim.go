package kustomize

import (
	"bytes"
	"path"
	"slices"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render"
)

// CustomResourceDefinitions are the largest files of most kustomize trees
// (an operator's CRDs are often hundreds of kilobytes to megabytes of
// OpenAPI schema: argo-cd's applicationset-crd.yaml is 1.4 MB) and no rule
// reads them, but kustomize copies, annotates and re-encodes every
// resource of every root it builds: on argo-cd's repository the builds
// were 6.8 s of a 7.3 s run. So a file that holds CRDs is staged for the
// build without their schemas and printer columns (slimCRDs), its other
// objects whole:
// what identifies them (apiVersion, kind, metadata, spec.group, names,
// scope, the versions' names and flags) stays, so patches and
// replacements that select them still do. The file as written is what
// findings are located in (Tree.files); the text per-file reading lints
// is the file's own. A build that fails with slimmed CRDs is built again
// with them whole (Build), so no error comes from the slimming: a JSON
// patch or a replacement into a schema fails on the slim copy only.

// slimFiles returns the tree's files holding CRDs, slimmed: those
// stampOrigins slimmed, and the others (not stamped) slimmed here, once.
func (t *Tree) slimFiles() map[string][]byte {
	t.slimOnce.Do(func() {
		for rel, data := range t.built {
			if IsKustomizationName(rel) || t.crdSchemas[rel] || t.wholeLater[rel] != nil {
				continue // wholeLater: slimmed as stamped
			}
			if slim, only := slimCRDs(data); slim != nil {
				if t.slim == nil {
					t.slim = map[string][]byte{}
				}
				t.slim[rel] = slim
				t.noteOnlyCRDs(rel, only)
			}
		}
	})
	return t.slim
}

// slimThreshold is the size under which a file is staged as written:
// slimming it would save less than it costs to parse.
const slimThreshold = 16 << 10

// slimCRDs returns the file's text with every CustomResourceDefinition's
// schema cut and its other objects as they are (re-encoded: kustomize
// re-encodes every resource anyway), or nil when it holds no CRD or a
// document that is not an object (or when it is a CRD file kustomize
// reads as a schema: a crds entry, which is not passed here). Operators'
// install files mix their CRDs with their Deployments (KServe's
// kserve.yaml is 3.6 MB of which the CRDs are most).
func slimCRDs(data []byte) (slim []byte, onlyCRDs bool) {
	if len(data) < slimThreshold || !bytes.Contains(data, []byte("CustomResourceDefinition")) {
		return nil, false
	}
	var n crdCount
	out := rewriteDocs(data, func(d *yaml.Node) bool {
		if d.Kind != yaml.MappingNode {
			return false
		}
		n.slim(d) // another object: kept whole
		return true
	})
	if n.crds == 0 || out == nil {
		return nil, false
	}
	return out, n.only()
}

// crdCount counts the documents of a file slimmed, and the CRDs among
// them.
type crdCount struct{ docs, crds int }

// slim slims a document (slimDoc) and counts it.
func (n *crdCount) slim(d *yaml.Node) {
	n.docs++
	if slimDoc(d) {
		n.crds++
	}
}

// only reports whether every document counted was a CRD.
func (n crdCount) only() bool { return n.docs > 0 && n.crds == n.docs }

// noteOnlyCRDs records a slimmed file that holds CRDs and nothing else.
func (t *Tree) noteOnlyCRDs(rel string, only bool) {
	if !only {
		return
	}
	if t.crdOnly == nil {
		t.crdOnly = map[string]bool{}
	}
	t.crdOnly[rel] = true
}

// buildsOnlyCRDs reports whether every resource a kustomization's build
// reads (its own and its bases' and components', as far as reach goes) is
// a file of CRDs and nothing else (slimmed, so over slimThreshold), and
// nothing was cut from it (a remote base or a Helm chart could bring
// workloads), and none lists generators (a HelmChartInflationGenerator
// configuration could too). Such a build gives CRDs, and the ConfigMaps
// and Secrets of configMapGenerator and secretGenerator: nothing a rule
// reads. It is not built (Build): a root that
// patches the CRDs' schemas builds them whole, seconds for megabytes of
// schema (elastic/cloud-on-k8s' config/crds: 4.6 s of a 5.2 s run).
func (t *Tree) buildsOnlyCRDs(k *kustomization) bool {
	only, some := true, false
	t.reach([]*kustomization{k}, func(k *kustomization) {
		if k.cut || k.unread || k.doc == nil {
			only = false
		} else if _, gen := render.Lookup(k.doc, manifest.Path{manifest.Key("generators")}); gen != nil {
			only = false // a generator configuration may inflate a chart
		}
		for _, inc := range k.includes {
			if _, sub := t.kusts[inc]; sub {
				continue
			}
			if t.crdOnly[inc] {
				some = true
			} else {
				only = false
			}
		}
	})
	return only && some
}

// slimmable reports whether a file is worth slimming: large, naming
// CRDs, and not read by kustomize as a schema.
func (t *Tree) slimmable(rel string, data []byte) bool {
	return len(data) >= slimThreshold && !t.crdSchemas[rel] && bytes.Contains(data, []byte("CustomResourceDefinition"))
}

// slimDoc cuts a CRD document's schema (slimSpec), and reports whether it
// was one.
func slimDoc(d *yaml.Node) bool {
	if d.Kind != yaml.MappingNode {
		return false
	}
	_, kind := render.Lookup(d, manifest.Path{manifest.Key("kind")})
	_, api := render.Lookup(d, manifest.Path{manifest.Key("apiVersion")})
	if kind == nil || kind.Value != "CustomResourceDefinition" || api == nil || path.Dir(api.Value) != "apiextensions.k8s.io" {
		return false
	}
	if _, spec := render.Lookup(d, manifest.Path{manifest.Key("spec")}); spec != nil && spec.Kind == yaml.MappingNode {
		slimSpec(spec)
	}
	return true
}

// slimSpec keeps of a CRD's spec what names and serves it.
func slimSpec(spec *yaml.Node) {
	keep(spec, "group", "names", "scope", "versions", "conversion", "preserveUnknownFields")
	_, versions := render.Lookup(spec, manifest.Path{manifest.Key("versions")})
	if versions == nil || versions.Kind != yaml.SequenceNode {
		return
	}
	for _, v := range versions.Content {
		if v.Kind == yaml.MappingNode {
			keep(v, "name", "served", "storage", "deprecated", "deprecationWarning")
		}
	}
}

// keep drops a mapping's keys other than those named.
func keep(m *yaml.Node, keys ...string) {
	filterKeys(m, func(k string) bool { return slices.Contains(keys, k) })
}

// filterKeys keeps the entries of a mapping whose key passes.
func filterKeys(m *yaml.Node, pass func(key string) bool) {
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	kept := m.Content[:0:0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if pass(m.Content[i].Value) {
			kept = append(kept, m.Content[i], m.Content[i+1])
		}
	}
	m.Content = kept
}
