package kustomize

import (
	"sort"
	"strconv"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render"
)

// locator maps positions of a built stream back to the patch that set a
// field, else to the resource file the object came from. It answers with
// a patch or resource line only when the value written there is the
// value built: never a wrong line.
type locator struct {
	t    *Tree
	root *kustomization
	text []byte
	docs []doc

	mu sync.Mutex
	y  *render.YAML // the built text parsed, on first use; nil after Release
}

// Release drops the parse of the built text (render.Releaser).
func (l *locator) Release() {
	l.mu.Lock()
	l.y = nil
	l.mu.Unlock()
}

func (l *locator) Locate(start, end int) render.Location {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.y == nil {
		l.y = render.ParseYAML(l.text)
	}
	i := sort.Search(len(l.docs), func(i int) bool { return l.docs[i].end > start })
	if i >= len(l.docs) || l.docs[i].origin == "" {
		return l.fallback(l.root.file, "the kustomization: the object's source file is not known")
	}
	d := l.docs[i]
	p, steps, _ := l.y.PathAt(start)
	if len(steps) == 0 {
		return l.fallback(d.origin, "the resource file's first line: the field could not be traced")
	}
	leaf := steps[len(steps)-1].Value
	onKey := steps[len(steps)-1].Key != nil && l.y.Pos(steps[len(steps)-1].Key) == start && l.y.Pos(leaf) != start
	for _, k := range l.chain(d.origin) {
		for j := len(k.patches) - 1; j >= 0; j-- {
			if loc, ok := l.inPatch(k.patches[j], d, p, steps, onKey); ok {
				return loc
			}
		}
	}
	return l.inResource(d, p, steps, onKey)
}

// chain returns the kustomizations from the root down to the one that
// lists the file, outermost first: their patches apply in the reverse
// order, so the first found is the last applied.
func (l *locator) chain(file string) []*kustomization {
	var best []*kustomization
	var visit func(k *kustomization, path []*kustomization, depth int)
	seen := map[*kustomization]bool{}
	visit = func(k *kustomization, trail []*kustomization, depth int) {
		if best != nil || depth > 64 || seen[k] {
			return
		}
		seen[k] = true
		trail = append(trail, k)
		for _, inc := range k.includes {
			if inc == file {
				best = append([]*kustomization(nil), trail...)
				return
			}
		}
		for _, inc := range k.includes {
			if sub, ok := l.t.kusts[inc]; ok {
				visit(sub, trail, depth+1)
			}
		}
	}
	visit(l.root, nil, 0)
	return best
}

// inPatch finds the field in a patch that applies to the object.
func (l *locator) inPatch(pt patch, d doc, p manifest.Path, steps []render.Step, onKey bool) (render.Location, bool) {
	var src *render.YAML
	var toFile func(off int) (string, int)
	if pt.file != "" {
		data, ok := l.t.files[pt.file]
		if !ok {
			return render.Location{}, false
		}
		src = l.t.parsed(pt.file, data)
		toFile = func(off int) (string, int) { return pt.file, off }
	} else {
		src, toFile = l.inline(pt)
		if src == nil {
			return render.Location{}, false
		}
	}
	if pt.target != nil && !targets(pt.target, d) {
		return render.Location{}, false
	}
	for _, root := range src.Docs {
		var node, key *yaml.Node
		switch root.Kind {
		case yaml.SequenceNode: // JSON 6902 operations
			key, node = jsonPatchNode(root, p)
		case yaml.MappingNode:
			if pt.json || (pt.target == nil && !sameObject(root, d)) {
				continue
			}
			key, node = lookupAligned(root, p, steps)
		}
		if loc, ok := l.located(src, toFile, key, node, steps, onKey); ok {
			return loc, true
		}
	}
	return render.Location{}, false
}

// inResource finds the field in the resource file the object came from.
func (l *locator) inResource(d doc, p manifest.Path, steps []render.Step, onKey bool) render.Location {
	data, ok := l.t.files[d.origin]
	if !ok {
		return l.fallback(l.root.file, "the kustomization: the object's source file is not in the tree")
	}
	src := l.t.parsed(d.origin, data)
	toFile := func(off int) (string, int) { return d.origin, off }
	for i, root := range src.Docs {
		if !sameObject(root, d) {
			continue
		}
		key, node := lookupAligned(root, p, steps)
		if loc, ok := l.located(src, toFile, key, node, steps, onKey); ok {
			return loc
		}
		if key != nil {
			// The field is there with another value: a transformer of
			// the kustomization changed it.
			file, off := toFile(src.Pos(key))
			return render.Location{Path: l.t.path(file), Start: off, End: off + len(key.Value),
				Note: "the value built differs from this line's: a transformer of the kustomization changed it"}
		}
		file, off := toFile(src.Start[i])
		_, lineEnd := src.LineBounds(off)
		return render.Location{Path: l.t.path(file), Start: off, End: lineEnd,
			Note: "the object's first line: the field is not written in its file (a kustomization adds it)"}
	}
	return l.fallback(d.origin, "the resource file's first line: the object could not be found in it")
}

// located answers when the node found holds the built value (or, for a
// position on a key, the key is there).
func (l *locator) located(src *render.YAML, toFile func(int) (string, int), key, node *yaml.Node, steps []render.Step, onKey bool) (render.Location, bool) {
	if node == nil {
		return render.Location{}, false
	}
	leaf := steps[len(steps)-1].Value
	if onKey && key != nil {
		file, off := toFile(src.Pos(key))
		return render.Location{Path: l.t.path(file), Start: off, End: off + len(key.Value), Exact: true}, true
	}
	if node.Kind != yaml.ScalarNode || leaf.Kind != yaml.ScalarNode || node.Value != leaf.Value {
		return render.Location{}, false
	}
	s := src.Pos(node)
	e := render.ScalarEnd(src, node, s)
	file, off := toFile(s)
	// The bytes are the same when the built text writes the scalar as the
	// source does (kustomize reformats: quotes may differ).
	bs := l.y.Pos(leaf)
	be := render.ScalarEnd(l.y, leaf, bs)
	return render.Location{Path: l.t.path(file), Start: off, End: off + (e - s),
		Exact: string(src.Text[s:e]) == string(l.text[bs:be])}, true
}

// inline parses an inline patch (a block scalar of the kustomization) and
// maps its offsets to the kustomization file's.
func (l *locator) inline(pt patch) (*render.YAML, func(int) (string, int)) {
	n := pt.inline
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
		return nil, nil // a quoted patch: offsets cannot be mapped line by line
	}
	k := pt.owner
	src := render.ParseYAML([]byte(n.Value))
	first := n.Line + 1 // the block's content starts on the line after | or >
	// Its indentation is that of its first non-empty line.
	indent := -1
	for line := first; indent < 0 && line <= first+len(strings.Split(n.Value, "\n")); line++ {
		s, e := k.y.LineBounds(k.y.Offset(line, 1))
		text := string(k.y.Text[s:e])
		if strings.TrimSpace(text) != "" {
			indent = len(text) - len(strings.TrimLeft(text, " "))
		}
	}
	if indent < 0 {
		return nil, nil
	}
	return src, func(off int) (string, int) {
		line := src.Line(off)
		ls, _ := src.LineBounds(off)
		return k.file, k.y.Offset(first+line-1, 1) + indent + (off - ls)
	}
}

// fallback is a file's first line, with a note saying why.
func (l *locator) fallback(file, note string) render.Location {
	data := l.t.files[file]
	end := len(data)
	if i := strings.IndexByte(string(data), '\n'); i >= 0 {
		end = i
	}
	return render.Location{Path: l.t.path(file), End: end, Note: note}
}

// parsed returns a file of the tree parsed for locating (cached).
func (t *Tree) parsed(rel string, data []byte) *render.YAML {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cache == nil {
		t.cache = map[string]*render.YAML{}
	}
	y, ok := t.cache[rel]
	if !ok {
		y = render.ParseYAML(data)
		t.cache[rel] = y
	}
	return y
}

// ReleaseParsed drops the files parsed for locating (a one-shot run, once
// every root is built and its findings located): a later Locate parses
// again what it reads.
func (t *Tree) ReleaseParsed() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cache = nil
}

// sameObject reports whether a document is the object: its kind, and its
// name before the kustomization's prefixes and suffixes.
func sameObject(root *yaml.Node, d doc) bool {
	_, kind := render.Lookup(root, manifest.Path{manifest.Key("kind")})
	_, name := render.Lookup(root, manifest.Path{manifest.Key("metadata"), manifest.Key("name")})
	return kind != nil && kind.Value == d.kind && name != nil && (name.Value == d.name || strings.Contains(d.name, name.Value))
}

// targets reports whether a patch's target selector may select the
// object (kind and name; selectors by label are taken to match: the value
// check decides).
func targets(target *yaml.Node, d doc) bool {
	_, kind := render.Lookup(target, manifest.Path{manifest.Key("kind")})
	_, name := render.Lookup(target, manifest.Path{manifest.Key("name")})
	if kind != nil && kind.Value != d.kind {
		return false
	}
	return name == nil || name.Value == d.name || strings.Contains(d.name, name.Value)
}

// lookupAligned finds a path in a source document, matching list items
// by their name (strategic merge lists of containers, ports, env) where
// the built item has one, else by position.
func lookupAligned(n *yaml.Node, p manifest.Path, steps []render.Step) (key, val *yaml.Node) {
	val = n
	for i, e := range p {
		if val == nil {
			return nil, nil
		}
		if !e.IsIdx {
			key, val = render.Lookup(val, manifest.Path{e})
			continue
		}
		if val.Kind != yaml.SequenceNode {
			return nil, nil
		}
		key = nil
		if _, name := render.Lookup(steps[i].Value, manifest.Path{manifest.Key("name")}); name != nil && name.Kind == yaml.ScalarNode {
			var found *yaml.Node
			for _, item := range val.Content {
				if _, nm := render.Lookup(item, manifest.Path{manifest.Key("name")}); nm != nil && nm.Value == name.Value {
					found = item
				}
			}
			val = found
			continue
		}
		if e.Index >= len(val.Content) {
			return nil, nil
		}
		val = val.Content[e.Index]
	}
	return key, val
}

// jsonPatchNode finds, among JSON 6902 operations, the last add or
// replace whose path is the field or holds it, and the field's node in
// its value.
func jsonPatchNode(ops *yaml.Node, p manifest.Path) (key, val *yaml.Node) {
	ptr := pointer(p)
	for i := len(ops.Content) - 1; i >= 0; i-- {
		op := ops.Content[i]
		_, kind := render.Lookup(op, manifest.Path{manifest.Key("op")})
		_, opPath := render.Lookup(op, manifest.Path{manifest.Key("path")})
		k, v := render.Lookup(op, manifest.Path{manifest.Key("value")})
		if kind == nil || opPath == nil || v == nil || (kind.Value != "add" && kind.Value != "replace") {
			continue
		}
		switch {
		case opPath.Value == ptr:
			return k, v
		case strings.HasPrefix(ptr, opPath.Value+"/"):
			rest := parsePointer(strings.TrimPrefix(ptr, opPath.Value))
			if kk, vv := render.Lookup(v, rest); vv != nil {
				return kk, vv
			}
		}
	}
	return nil, nil
}

// pointer writes a path as a JSON pointer (RFC 6901).
func pointer(p manifest.Path) string {
	var b strings.Builder
	for _, e := range p {
		b.WriteByte('/')
		if e.IsIdx {
			b.WriteString(strconv.Itoa(e.Index))
			continue
		}
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(e.Key))
	}
	return b.String()
}

func parsePointer(s string) manifest.Path {
	var p manifest.Path
	for _, part := range strings.Split(strings.TrimPrefix(s, "/"), "/") {
		part = strings.NewReplacer("~1", "/", "~0", "~").Replace(part)
		if n, err := strconv.Atoi(part); err == nil {
			p = append(p, manifest.Index(n))
		} else {
			p = append(p, manifest.Key(part))
		}
	}
	return p
}
