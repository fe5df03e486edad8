package lsp

import (
	"strings"

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
			if within(o, o.At, off) {
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
	for _, a := range ws.Autoscalers().All() {
		if a.Object == o {
			return a
		}
	}
	return nil
}

// scaledBy returns the autoscalers whose scale target is o.
func scaledBy(ws *workspace.Workspace, o *manifest.Object) []*scaling.Autoscaler {
	var out []*scaling.Autoscaler
	for _, a := range ws.Autoscalers().All() {
		if ws.Target(a).Object == o {
			out = append(out, a)
		}
	}
	return out
}

// nameField returns the Field of metadata.name; invalid when it is not
// written.
func nameField(o *manifest.Object) manifest.Field {
	f, _ := o.FieldAt(manifest.Path{manifest.Key("metadata"), manifest.Key("name")})
	return f
}

// within reports whether a Field of o, its key or its value, covers a byte
// offset (the value's end included, where the cursor sits after the last
// character).
func within(o *manifest.Object, f manifest.Field, off int) bool {
	if !f.IsValid() {
		return false
	}
	tf := o.File().Tok
	return tf.Offset(f.Start()) <= off && off <= tf.Offset(f.End)
}

// lawFields are the fields of an autoscaler that a law reads: where a
// hover shows the evaluated numbers.
func lawFields(a *scaling.Autoscaler) []manifest.Field {
	o := a.Object
	fields := []manifest.Field{o.KindAt, nameField(o)}
	num := func(n scaling.Num) {
		if n.Set {
			fields = append(fields, n.At)
		}
	}
	for _, m := range a.Metrics {
		num(m.Utilization)
		num(m.Threshold)
		if m.TypeAt.IsValid() {
			fields = append(fields, m.TypeAt) // a KEDA trigger: its default threshold
		}
	}
	num(a.Max)
	num(a.DownWindow)
	num(a.UpTolerance)
	for _, an := range o.Annotations {
		if isLawAnnotation(an.Key) {
			fields = append(fields, an.At)
		}
	}
	return fields
}

// isLawAnnotation reports whether an annotation key is a scalelint.dev
// annotation.
func isLawAnnotation(key string) bool {
	return len(key) > len(scaling.Prefix) && strings.HasPrefix(key, scaling.Prefix)
}

// annotationAt reports whether the offset is on a scalelint.dev
// annotation of o (on), and the annotation's spec when it is known.
func annotationAt(o *manifest.Object, off int) (spec scaling.AnnotationSpec, on, known bool) {
	for _, an := range o.Annotations {
		if !isLawAnnotation(an.Key) || !within(o, an.At, off) {
			continue
		}
		spec, known = scaling.SpecOf(an.Key[len(scaling.Prefix):])
		return spec, true, known
	}
	return scaling.AnnotationSpec{}, false, false
}
