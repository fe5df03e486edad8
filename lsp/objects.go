package lsp

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// objectAt returns the object whose text holds a byte offset of a file:
// the document's object, or the List item around it. Only the document at
// the offset is parsed.
func objectAt(f *manifest.File, off int) *manifest.Object {
	for _, d := range f.Docs {
		if off < d.Start || off > d.End {
			continue
		}
		objs := d.Objects()
		if len(objs) == 1 && objs[0].ListItem < 0 {
			return objs[0]
		}
		for _, o := range objs {
			if contains(o, o.Node, off) {
				return o
			}
		}
	}
	return nil
}

// contains reports whether node n of o covers a byte offset (its end
// included, where the cursor sits after the last character).
func contains(o *manifest.Object, n *yaml.Node, off int) bool {
	if n == nil {
		return false
	}
	f := o.File()
	return f.Offset(n) <= off && off <= f.EndOffset(n)
}

// autoscalerOf returns the autoscaler an object is, or nil.
func autoscalerOf(ws *workspace.Workspace, o *manifest.Object) *scaling.Autoscaler {
	for _, a := range ws.Autoscalers() {
		if a.Object == o {
			return a
		}
	}
	return nil
}

// scaledBy returns the autoscalers whose scale target is o.
func scaledBy(ws *workspace.Workspace, o *manifest.Object) []*scaling.Autoscaler {
	var out []*scaling.Autoscaler
	for _, a := range ws.Autoscalers() {
		if ws.Target(a).Object == o {
			out = append(out, a)
		}
	}
	return out
}

// nameNode returns the node of metadata.name, or nil.
func nameNode(o *manifest.Object) *yaml.Node {
	return o.Get(manifest.Path{manifest.Key("metadata"), manifest.Key("name")})
}

// lawFields are the nodes of an autoscaler that a law reads: where a hover
// shows the evaluated numbers.
func lawFields(a *scaling.Autoscaler) []*yaml.Node {
	o := a.Object
	nodes := []*yaml.Node{o.KindNode(), nameNode(o)}
	num := func(n scaling.Num) {
		if n.Set {
			nodes = append(nodes, n.Node, n.Key)
		}
	}
	for _, m := range a.Metrics {
		num(m.Utilization)
		num(m.Threshold)
		if m.Node != nil {
			if _, t := manifest.Lookup(m.Node, manifest.Path{manifest.Key("type")}); t != nil {
				nodes = append(nodes, t) // a KEDA trigger: its default threshold
			}
		}
	}
	num(a.Max)
	num(a.DownWindow)
	num(a.UpTolerance)
	for _, kv := range o.Annotations() {
		if isLawAnnotation(kv[0]) {
			nodes = append(nodes, kv[0], kv[1])
		}
	}
	return nodes
}

// isLawAnnotation reports whether a key node is a scalelint.dev annotation.
func isLawAnnotation(k *yaml.Node) bool {
	return k != nil && k.Kind == yaml.ScalarNode && len(k.Value) > len(scaling.Prefix) && k.Value[:len(scaling.Prefix)] == scaling.Prefix
}

// annotationAt returns the spec of the scalelint.dev annotation whose key
// or value holds the offset.
func annotationAt(o *manifest.Object, off int) (scaling.AnnotationSpec, *yaml.Node, bool) {
	for _, kv := range o.Annotations() {
		if !isLawAnnotation(kv[0]) || !(contains(o, kv[0], off) || contains(o, kv[1], off)) {
			continue
		}
		spec, ok := scaling.SpecOf(kv[0].Value[len(scaling.Prefix):])
		return spec, kv[0], ok
	}
	return scaling.AnnotationSpec{}, nil, false
}
