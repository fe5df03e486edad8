package chart

import (
	"sort"
	"strconv"
	"strings"
	"text/template/parse"

	"helm.sh/helm/v4/pkg/chart/common"
)

// The source map of a rendered template comes from the template itself:
// before rendering, a marker action is inserted in each template at every
// place that starts output (each line of text, each action), and the
// markers are cut out of the rendered text again. A marker's position in
// the output says which template bytes (text, copied verbatim) or which
// action produced what follows it, so a rendered position maps back
// exactly, whatever conditionals, loops and trimming the template holds.
//
// Only the file's own text and actions are marked, never the body of a
// define or block: text there may be captured (include ... | trunc 63,
// eq (include ...) "true", fromYaml) where a marker would change the
// result. Their output is part of the action that includes them. A file
// may be included whole too (checksum/config: {{ include (print
// $.Template.BasePath "/configmap.yaml") . | sha256sum }}): a marker is
// written only while its own file is the one Helm renders, which the
// marker reads from $.Template.Name. Markers
// hold no line break and are placed where no trim marker ({{- or -}})
// can remove the whitespace they would stand in, so the output, once
// they are cut, is byte for byte what Helm renders without them.

// markFunc is the template function a marker action calls.
const markFunc = "scalelintMark"

// Marker bytes in the output: markOpen, the mark's number, markClose.
const (
	markOpen  = '\x1e'
	markClose = '\x1f'
)

// mark is one place of a template that starts output.
type mark struct {
	tpl *template // the template it is in
	// off is the template offset of the text, or of the action's "{{".
	off int
	// text is the length of the verbatim text that follows the mark (0
	// for an action).
	text int
	// action is set on an action's mark (not on text, nor on a
	// {{ template }} call).
	action bool
	// ref is the values path the action writes, when it is a plain
	// reference (resolvePipe), resolved as the template is instrumented:
	// a mark holds no node of the template's parse tree, which every node
	// links whole (parse.Node's tree), so the trees are not kept for as
	// long as the render's locators.
	ref ref
	// loop is set inside a range: the text is rendered once per
	// item, so an edit of it changes every item's output.
	loop bool
}

// scope records which values path "." and variables stand for, and
// whether the place is inside a range.
type scope struct {
	dot  ref
	vars map[string]ref
	loop bool
}

// ref is a values path, or unknown.
type ref struct {
	known bool
	root  bool     // the template's top-level context: .Values.a is a
	path  []string // below .Values
}

// insertion is a marker to insert at a template offset; trim writes it
// with a left trim ({{- ), which removes the whitespace before it.
type insertion struct {
	at   int
	id   int
	trim bool
}

// instrument returns the template text with markers inserted, adding its
// marks to *marks. A template that does not parse is returned unchanged
// (Helm reports the error).
func instrument(t *template, src string, marks *[]mark) string {
	tree := parse.New(t.key)
	tree.Mode = parse.SkipFuncCheck
	if _, err := tree.Parse(src, "", "", map[string]*parse.Tree{}); err != nil || tree.Root == nil {
		return src
	}
	w := &walker{src: src, tpl: t, marks: marks}
	w.list(tree.Root, scope{dot: ref{known: true, root: true}, vars: map[string]ref{"$": {known: true, root: true}}})
	if len(w.ins) == 0 {
		return src
	}
	sort.SliceStable(w.ins, func(i, j int) bool { return w.ins[i].at < w.ins[j].at })
	var b strings.Builder
	b.Grow(len(src) + len(w.ins)*24)
	prev := 0
	for _, in := range w.ins {
		b.WriteString(src[prev:in.at])
		if in.trim {
			b.WriteString("{{- " + markFunc + " ")
		} else {
			b.WriteString("{{" + markFunc + " ")
		}
		b.WriteString(strconv.Itoa(in.id))
		b.WriteString(" $}}")
		prev = in.at
	}
	b.WriteString(src[prev:])
	return b.String()
}

type walker struct {
	src   string
	tpl   *template
	marks *[]mark
	ins   []insertion
}

func (w *walker) add(at int, m mark) {
	id := len(*w.marks)
	*w.marks = append(*w.marks, m)
	w.ins = append(w.ins, insertion{at: at, id: id})
}

func (w *walker) list(l *parse.ListNode, sc scope) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		sc = w.node(n, sc)
	}
}

// node marks one node and returns the scope after it (a variable
// declaration changes it).
func (w *walker) node(n parse.Node, sc scope) scope {
	switch n := n.(type) {
	case *parse.TextNode:
		w.text(n, sc.loop)
	case *parse.ActionNode:
		if len(n.Pipe.Decl) > 0 {
			if n.Pipe.IsAssign || len(n.Pipe.Decl) != 1 {
				return sc
			}
			r, _ := sc.resolvePipe(n.Pipe)
			vars := make(map[string]ref, len(sc.vars)+1)
			for k, v := range sc.vars {
				vars[k] = v
			}
			vars[n.Pipe.Decl[0].Ident[0]] = r
			return scope{dot: sc.dot, vars: vars, loop: sc.loop}
		}
		r, _ := sc.resolvePipe(n.Pipe)
		w.action(int(n.Pos), mark{action: true, ref: r, loop: sc.loop})
	case *parse.TemplateNode:
		w.action(int(n.Pos), mark{loop: sc.loop})
	case *parse.IfNode:
		w.list(n.List, sc)
		w.list(n.ElseList, sc)
	case *parse.WithNode:
		inner := sc
		inner.dot, _ = sc.resolvePipe(n.Pipe)
		w.list(n.List, inner)
		w.list(n.ElseList, sc)
	case *parse.RangeNode:
		inner := sc
		inner.dot = ref{}
		inner.loop = true
		w.list(n.List, inner)
		w.list(n.ElseList, sc)
	}
	return sc
}

// text marks a text node where it starts and where each of its lines'
// content starts (after the indentation, never inside whitespace a trim
// marker may remove).
func (w *walker) text(n *parse.TextNode, loop bool) {
	start := int(n.Pos)
	t := n.Text
	if start < 0 || start+len(t) > len(w.src) || w.src[start:start+len(t)] != string(t) {
		return // not where the parser says: leave it unmarked
	}
	lineStart := true
	var pending []int
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c == '\n':
			lineStart = true
		case lineStart && (c == ' ' || c == '\t' || c == '\r'):
		case lineStart || i == 0:
			pending = append(pending, i)
			lineStart = false
		}
	}
	for k, i := range pending {
		end := len(t)
		if k+1 < len(pending) {
			end = pending[k+1]
		}
		w.add(start+i, mark{tpl: w.tpl, off: start + i, text: end - i, loop: loop})
	}
}

// action marks the start of an action's output. Behind a left trim
// ("{{- "), the marker goes before the whitespace the trim removes, which
// then stays between the marker and the action and is removed as before;
// but not right behind a "{" of the text ("input {\n  {{- include ...":
// the marker's "{{" would make "{{{", which does not parse): there the
// marker goes just before the action with a left trim of its own, which
// removes the same whitespace.
func (w *walker) action(pos int, m mark) {
	open := strings.LastIndex(w.src[:min(pos, len(w.src))], "{{")
	if open < 0 {
		return
	}
	at := open
	if strings.HasPrefix(w.src[open:], "{{- ") || strings.HasPrefix(w.src[open:], "{{-\t") || strings.HasPrefix(w.src[open:], "{{-\n") || strings.HasPrefix(w.src[open:], "{{-\r") {
		for at > 0 && strings.IndexByte(" \t\r\n", w.src[at-1]) >= 0 {
			at--
		}
	}
	m.tpl, m.off = w.tpl, open
	if at > 0 && w.src[at-1] == '{' {
		w.add(open, m)
		w.ins[len(w.ins)-1].trim = true
		return
	}
	w.add(at, m)
}

// resolvePipe returns the values path a pipeline's value comes from, when
// it is a plain reference (.Values.a.b, $.Values.a, $v.x, .x under
// with) passed through value-preserving functions only, and whether the
// pipeline may replace it by a default.
func (sc scope) resolvePipe(p *parse.PipeNode) (ref, bool) {
	if p == nil || len(p.Cmds) == 0 {
		return ref{}, false
	}
	defaulted := false
	var r ref
	for i, c := range p.Cmds {
		if len(c.Args) == 0 {
			return ref{}, false
		}
		fn, isFn := c.Args[0].(*parse.IdentifierNode)
		if i == 0 {
			if !isFn {
				if len(c.Args) != 1 {
					return ref{}, false
				}
				r = sc.resolve(c.Args[0])
				continue
			}
			// A function applied to the reference, its last argument.
			if !keepsValue[fn.Ident] || len(c.Args) < 2 {
				return ref{}, false
			}
			if fn.Ident == "default" {
				defaulted = true
				if len(c.Args) != 3 {
					return ref{}, false
				}
			} else if len(c.Args) != 2 {
				return ref{}, false
			}
			r = sc.resolve(c.Args[len(c.Args)-1])
			continue
		}
		if !isFn || !keepsValue[fn.Ident] {
			return ref{}, false
		}
		if fn.Ident == "default" {
			defaulted = true
		}
	}
	return r, defaulted
}

// keepsValue are the functions whose result shows the value it was given
// (quoted, converted, indented, or written as YAML), and default, which
// shows it unless it is empty.
var keepsValue = map[string]bool{
	"default": true, "quote": true, "squote": true, "int": true, "int64": true,
	"float64": true, "toString": true, "toYaml": true, "toJson": true, "nindent": true,
	"indent": true, "trim": true, "required": true, "toYamlPretty": true,
}

// resolve returns the values path of a reference node.
func (sc scope) resolve(n parse.Node) ref {
	var base ref
	var idents []string
	switch n := n.(type) {
	case *parse.FieldNode:
		base, idents = sc.dot, n.Ident
	case *parse.VariableNode:
		v, ok := sc.vars[n.Ident[0]]
		if !ok {
			return ref{}
		}
		base, idents = v, n.Ident[1:]
	case *parse.DotNode:
		return sc.dot
	default:
		return ref{}
	}
	if !base.known {
		return ref{}
	}
	if base.root {
		if len(idents) == 0 || idents[0] != "Values" {
			return ref{}
		}
		return ref{known: true, path: append([]string(nil), idents[1:]...)}
	}
	return ref{known: true, path: append(append([]string(nil), base.path...), idents...)}
}

// strip cuts the markers out of rendered text and returns the text and
// where each mark's output starts in it.
func strip(s string) ([]byte, []span) {
	out := make([]byte, 0, len(s))
	var spans []span
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], markOpen)
		if j < 0 {
			out = append(out, s[i:]...)
			break
		}
		out = append(out, s[i:i+j]...)
		i += j + 1
		k := strings.IndexByte(s[i:], markClose)
		if k < 0 {
			break
		}
		if id, err := strconv.Atoi(s[i : i+k]); err == nil {
			spans = append(spans, span{at: len(out), id: id})
		}
		i += k + 1
	}
	return out, spans
}

// markText returns a marker's output: the marker while its template is
// the file being rendered ($.Template.Name), else nothing.
func markText(marks []mark, id int, data any) string {
	if id < 0 || id >= len(marks) || templateName(data) != marks[id].tpl.key {
		return ""
	}
	return string(markOpen) + strconv.Itoa(id) + string(markClose)
}

// templateName reads .Template.Name of a template's top-level data.
func templateName(data any) string {
	var m map[string]any
	switch d := data.(type) {
	case map[string]any:
		m = d
	case common.Values:
		m = d
	default:
		return ""
	}
	var t map[string]any
	switch d := m["Template"].(type) {
	case map[string]any:
		t = d
	case common.Values:
		t = d
	}
	name, _ := t["Name"].(string)
	return name
}

// span says that the output from at on comes from mark id.
type span struct{ at, id int }
