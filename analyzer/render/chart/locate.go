package chart

import (
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render"
)

// locator maps positions of one rendered template back to the template
// and, for a value from a plain values reference, to the values file.
type locator struct {
	r     *run
	t     *template
	text  []byte
	spans []span
	y     *render.YAML // parsed on first use
}

// Release drops the parse of the rendered text (render.Releaser).
func (l *locator) Release() { l.y = nil }

// Locate maps a byte range of the rendered text.
func (l *locator) Locate(start, end int) render.Location {
	i := sort.Search(len(l.spans), func(i int) bool { return l.spans[i].at > start }) - 1
	if i < 0 {
		return l.fallback()
	}
	sp := l.spans[i]
	m := l.r.marks[sp.id]
	if m.tpl == nil || m.tpl.source != l.sourceOf(m) {
		return l.fallback()
	}
	if !m.action && m.text > 0 {
		if v, ok := l.emptyValue(i, start, end); ok {
			return v
		}
		// Verbatim template text: offsets map one to one.
		d := start - sp.at
		if d >= m.text {
			return l.actionLine(m)
		}
		e := end - sp.at
		if e > m.text || e < d {
			e = m.text
		}
		return render.Location{Path: m.tpl.source, Start: m.off + d, End: m.off + e, Exact: !m.loop}
	}
	tplLoc := l.actionLine(m)
	if v, ok := l.valuesLocation(m, sp.at, start, end); ok {
		v.Related = append(v.Related, tplLoc)
		return v
	}
	return tplLoc
}

// emptyValue locates a null scalar that an action wrote as nothing
// ("maxReplicas: {{ .Values.autoscaling.maxReplicas }}" with the value
// ""): the rendered node starts in the verbatim text before the action
// (YAML places an empty value where its key's separator ends), so the
// span at start is the template's blank, not the action. When the
// action's value is a values scalar, that is where the finding is (with
// the template line related), as for a value the action writes out.
func (l *locator) emptyValue(i, start, end int) (render.Location, bool) {
	if i+1 >= len(l.spans) {
		return render.Location{}, false
	}
	next := l.spans[i+1]
	m := l.r.marks[next.id]
	if !m.action || m.tpl == nil || m.tpl.source != l.sourceOf(m) || next.at < start || next.at > len(l.text) {
		return render.Location{}, false
	}
	for _, c := range l.text[start:next.at] {
		if c != ' ' && c != '\t' {
			return render.Location{}, false // more than blanks before the action
		}
	}
	if _, _, leaf, ok := l.scalarAt(start); !ok || leaf.Tag != "!!null" || leaf.Value != "" {
		return render.Location{}, false
	}
	v, ok := l.valuesLocation(m, next.at, start, end)
	if ok {
		v.Related = append(v.Related, l.actionLine(m))
	}
	return v, ok
}

// scalarAt returns the path to the scalar of the rendered text that
// starts at off, the steps to it and the scalar (the text is parsed on
// first use), or false when no scalar starts there.
func (l *locator) scalarAt(off int) (manifest.Path, []render.Step, *yaml.Node, bool) {
	if l.y == nil {
		l.y = render.ParseYAML(l.text)
	}
	path, steps, _ := l.y.PathAt(off)
	if len(steps) == 0 {
		return nil, nil, nil, false
	}
	leaf := steps[len(steps)-1].Value
	if leaf.Kind != yaml.ScalarNode || l.y.Pos(leaf) != off {
		return nil, nil, nil, false
	}
	return path, steps, leaf, true
}

// sourceOf returns the file a mark's template is on disk (marks hold it).
func (l *locator) sourceOf(m mark) string { return m.tpl.source }

// actionLine returns the location of a mark's action: the "{{" to the
// end of its line.
func (l *locator) actionLine(m mark) render.Location {
	loc := render.Location{Path: m.tpl.source, Start: m.off, End: m.off}
	if data, ok := l.r.c.templateText(m.tpl); ok && m.off <= len(data) {
		end := m.off
		for end < len(data) && data[end] != '\n' {
			end++
		}
		loc.End = end
	}
	return loc
}

// fallback is the template's first line, saying the field is not written
// in it.
func (l *locator) fallback() render.Location {
	loc := render.Location{Path: l.t.source, Note: "the template's first line: the rendered field could not be traced to a line of it"}
	if data, ok := l.r.c.templateText(l.t); ok {
		if i := strings.IndexByte(string(data), '\n'); i >= 0 {
			loc.End = i
		} else {
			loc.End = len(data)
		}
	}
	return loc
}

// templateText returns a template's bytes as read from disk.
func (c *Chart) templateText(t *template) ([]byte, bool) {
	if t.rel == "" {
		return nil, false
	}
	d, ok := c.data[t.rel]
	return d, ok
}

// valuesLocation finds the values line behind a rendered value that an
// action wrote from a plain values reference: the reference's path, plus
// the path below the node where the action's output starts (a block
// written by toYaml), looked up in the value set's files and the charts'
// defaults, the last that sets it winning, as helm merges them. It
// answers only when the rendered scalar is the values scalar.
func (l *locator) valuesLocation(m mark, actionAt, start, end int) (render.Location, bool) {
	ref := m.ref
	if !m.action {
		return render.Location{}, false
	}
	if !ref.known || ref.root {
		return render.Location{}, false
	}
	path, steps, leaf, ok := l.scalarAt(start)
	if !ok {
		return render.Location{}, false // not a value the action wrote
	}
	// The first step whose node starts in the action's output is the
	// referenced value; the steps below it are inside it (toYaml).
	j := len(steps) - 1
	for j > 0 && l.y.Pos(steps[j-1].Value) >= actionAt {
		j--
	}
	vpath := append(append([]string(nil), ref.path...), keysOf(path[j+1:])...)
	if len(path[j+1:]) != len(keysOf(path[j+1:])) {
		return render.Location{}, false // an index inside the block
	}
	file, node, y, ok := l.r.lookupValue(m.tpl.chart, vpath)
	if !ok || node.Kind != yaml.ScalarNode || node.Value != leaf.Value {
		return render.Location{}, false
	}
	vs := y.Pos(node)
	ve := render.ScalarEnd(y, node, vs)
	rendered := l.text[start:min(render.ScalarEnd(l.y, leaf, start), len(l.text))]
	loc := render.Location{Path: file, Start: vs, End: ve, Set: l.r.set.Name,
		Exact: string(y.Text[vs:ve]) == string(rendered)}
	return loc, true
}

func keysOf(p manifest.Path) []string {
	var out []string
	for _, e := range p {
		if !e.IsIdx {
			out = append(out, e.Key)
		}
	}
	return out
}

// lookupValue finds the values file that sets a path for a chart of the
// tree: the value set's files (last first), then the defaults of each
// chart from the root down to this one. It returns the file, the value's
// node and the parsed file.
func (r *run) lookupValue(n *node, vpath []string) (string, *yaml.Node, *render.YAML, bool) {
	full := append(n.valuesPath(), vpath...)
	if setsPath(r.set.Values, full) {
		return "", nil, nil, false // written inline elsewhere: no line here
	}
	for i := len(r.set.Files) - 1; i >= 0; i-- {
		f := r.set.Files[i]
		data, err := r.c.valuesFile(f)
		if err != nil {
			continue
		}
		if node, y, ok := r.find(r.c.display(f), data, full); ok {
			return r.c.display(f), node, y, true
		}
	}
	if len(r.set.Set) > 0 || len(r.set.Enable) > 0 {
		for _, s := range append(append([]string(nil), r.set.Set...), r.set.Enable...) {
			if strings.HasPrefix(s, strings.Join(full, ".")) {
				return "", nil, nil, false // set on the command line: no line
			}
		}
	}
	// Defaults: the parent's values for a subchart win over its own.
	var chain []*node
	for c := n; c != nil; c = c.parent {
		chain = append(chain, c)
	}
	for k := len(chain) - 1; k >= 0; k-- {
		c := chain[k]
		if c.packaged != "" {
			continue
		}
		rel := "values.yaml"
		if c.dir != "" {
			rel = c.dir + "/values.yaml"
		}
		data, ok := r.c.data[rel]
		if !ok {
			continue
		}
		// The path below chart c: drop the prefix down to c.
		sub := full[len(c.valuesPath()):]
		if node, y, ok := r.find(r.c.diskPath(rel), data, sub); ok {
			return r.c.diskPath(rel), node, y, true
		}
	}
	return "", nil, nil, false
}

func (r *run) find(file string, data []byte, p []string) (*yaml.Node, *render.YAML, bool) {
	y := r.c.valuesYAML(file, data)
	if len(y.Docs) == 0 {
		return nil, nil, false
	}
	mp := make(manifest.Path, len(p))
	for i, k := range p {
		mp[i] = manifest.Key(k)
	}
	_, v := render.Lookup(y.Docs[0], mp)
	if v == nil || (v.Kind == yaml.ScalarNode && v.Tag == "!!null") {
		return nil, nil, false
	}
	return v, y, true
}
