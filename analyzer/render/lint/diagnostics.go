package lint

import (
	"bytes"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render"
	"github.com/scalelint/scalelint/analyzer/render/kustomize"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// Positions turns a byte offset of a file (by path on disk) into a
// position of the workspace findings are reported in.
type Positions func(path string, off int) (token.Pos, bool)

// FilePositions returns the Positions of a workspace that holds each file
// whole, as one manifest.File (the command line's).
func FilePositions(ws *workspace.Workspace) Positions {
	byPath := make(map[string]*manifest.File, ws.Files().Len())
	for _, f := range ws.Files().All() {
		byPath[filepath.Clean(f.Path)] = f
	}
	return func(path string, off int) (token.Pos, bool) {
		f := byPath[filepath.Clean(path)]
		if f == nil || off < 0 || off > f.Tok.Size() {
			return token.NoPos, false
		}
		return f.Tok.Pos(off), true
	}
}

// SourceFiles returns, as text-only files (split into documents, nothing
// parsed), the files findings and problems point into that have does not
// hold: a chart's files, which the per-file reading does not read, and
// kustomize bases outside the paths walked.
func (r *Result) SourceFiles(fset *token.FileSet, have func(path string) bool) []*manifest.File {
	need := map[string]bool{}
	add := func(l render.Location) {
		if l.Path != "" {
			need[filepath.Clean(l.Path)] = true
		}
		for _, x := range l.Related {
			need[filepath.Clean(x.Path)] = true
		}
	}
	for _, u := range r.Units {
		need[filepath.Clean(u.anchor)] = true
		// The places of its objects (the audit's rows, the counts).
		for _, o := range u.Workspace.Objects().All() {
			for _, f := range []manifest.Field{o.KindAt, o.NameAt} {
				if l, ok := u.Locate(f.Pos, f.End); ok && f.IsValid() {
					add(l)
				}
			}
		}
		for _, l := range u.located {
			add(l.at)
			for _, x := range l.related {
				add(x.at)
			}
			for _, f := range l.fixes {
				for _, e := range f.edits {
					add(e.at)
				}
			}
			if l.suppression != nil {
				add(*l.suppression)
			}
		}
	}
	for _, p := range r.Problems {
		need[r.problemFile(p)] = true
	}
	var out []*manifest.File
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range need {
			if !yield(p) {
				return
			}
		}
	}) {
		if p == "" || have(p) {
			continue
		}
		data, ok := r.sources[p]
		if !ok {
			if data, ok = readSource(p, r.opts.config().RenderLimits.WithDefaults().MaxInput); !ok {
				continue
			}
			r.sources[p] = data
		}
		if r.rendering[p] == workspace.NotRendered {
			r.rendering[p] = workspace.RenderedYAML
		}
		out = append(out, manifest.Parse(fset, p, data, manifest.Options{SplitOnly: true, Limits: r.opts.config().Limits}))
	}
	return out
}

// Diagnostics returns every unit's findings at positions of ws (the
// workspace of the files users edit, which holds every file the findings
// point into: SourceFiles), one per place, rule and message, naming the
// value sets or builds it was found in; the problems of the renders; and
// the findings about the suppression comments of rendered files.
func (r *Result) Diagnostics(ws *workspace.Workspace, pos Positions) []analyzer.Diagnostic {
	r.positions = pos
	type key struct {
		rule       string
		pos, end   token.Pos
		msg        string
		suppressed bool
	}
	var out []analyzer.Diagnostic
	index := map[key]int{}
	merge := func(d analyzer.Diagnostic, set string) {
		k := key{d.Rule, d.Pos, d.End, d.Message, d.Suppression != nil}
		if i, ok := index[k]; ok {
			if !slices.Contains(out[i].Rendered.Sets, set) {
				out[i].Rendered.Sets = append(out[i].Rendered.Sets, set)
			}
			return
		}
		index[k] = len(out)
		out = append(out, d)
	}
	// An annotation is unused only when no value set or build used it.
	used := map[token.Pos]bool{}
	type pending struct {
		d   analyzer.Diagnostic
		set string
	}
	var unused []pending
	for _, u := range r.Units {
		for i := range u.Diags {
			d, ok := r.place(u, &u.Diags[i], &u.located[i])
			if !ok {
				continue
			}
			if s := d.Suppression; s != nil && s.Kind == "annotation" {
				used[s.Pos] = true
			}
			if d.Rule == analyzer.UnusedSuppression.Name {
				unused = append(unused, pending{d, u.Set})
				continue
			}
			merge(d, u.Set)
		}
	}
	for _, p := range unused {
		if !used[p.d.Pos] {
			merge(p.d, p.set)
		}
	}
	// A problem is reported once per place: the builds of two overlays
	// that fail on their base say so in words that differ only by the
	// way there (the shortest is kept), the value sets a template fails
	// with are listed.
	type place struct {
		rule     string
		pos, end token.Pos
	}
	at := map[place]int{}
	leftOut := map[int][]string{}
	for _, p := range r.Problems {
		d, ok := r.problem(p)
		if !ok {
			continue
		}
		k := place{d.Rule, d.Pos, d.End}
		if i, ok := at[k]; ok {
			if p.Set != "" && !slices.Contains(out[i].Rendered.Sets, p.Set) {
				out[i].Rendered.Sets = append(out[i].Rendered.Sets, p.Set)
			}
			if len(d.Message) < len(out[i].Message) {
				out[i].Message = d.Message
			}
			for _, t := range p.LeftOut {
				if !slices.Contains(leftOut[i], t) {
					leftOut[i] = append(leftOut[i], t)
				}
			}
			continue
		}
		at[k] = len(out)
		out = append(out, d)
		leftOut[len(out)-1] = slices.Clone(p.LeftOut)
	}
	// The templates each place left out, of every value set.
	for i, names := range leftOut {
		out[i].Message += render.LeftOutNote(names)
	}
	for i := range out {
		out[i].Message += tag(out[i].Rendered)
	}
	out = analyzer.StampSeverity(ws, out, r.opts.Analyzers, r.opts.config())
	// What only the autoscaling variants find is a warning at most: they
	// are value sets no one declared (scalelint enables an autoscaler the
	// chart leaves off, with the rest of its defaults, which a user who
	// enables it may well change: empty resources, no triggers).
	for i := range out {
		if d := &out[i]; d.Severity > analyzer.Warning && r.onlyVariants(d.Rendered) {
			d.Severity = analyzer.Warning
		}
	}
	own := func(f *manifest.File) bool { return r.rendering[filepath.Clean(f.Path)] != workspace.NotRendered }
	return append(out, analyzer.SuppressRendered(ws, out, r.opts.Analyzers, r.opts.config(), own)...)
}

// onlyVariants reports whether every value set a finding came from is an
// autoscaling variant.
func (r *Result) onlyVariants(rd *analyzer.Rendered) bool {
	if rd == nil || len(rd.Sets) == 0 {
		return false
	}
	for _, s := range rd.Sets {
		if !r.variants[setKey{rd.Root, s}] {
			return false
		}
	}
	return true
}

// tag names the value sets or builds a finding came from, after its
// message: " [values: values.yaml, ci/prod-values.yaml]".
func tag(r *analyzer.Rendered) string {
	if r == nil || len(r.Sets) == 0 {
		return ""
	}
	what := "values"
	if r.Kind == "kustomize" {
		what = "kustomization"
	}
	return " [" + what + ": " + strings.Join(r.Sets, ", ") + "]"
}

// place returns a unit's finding at positions of the caller's workspace.
func (r *Result) place(u *Unit, d *analyzer.Diagnostic, l *located) (analyzer.Diagnostic, bool) {
	nd := *d
	at := l.at
	p, end, ok := r.span(at)
	if !ok {
		// The source is not among the files: the chart's or
		// kustomization's own file, saying so.
		at = render.Location{Path: u.anchor, Note: "the " + u.what() + "'s first line: " + filepath.Base(at.Path) + " is not read"}
		if p, end, ok = r.span(at); !ok {
			return nd, false
		}
	}
	nd.Pos, nd.End = p, end
	if at.Note != "" {
		nd.Message += " (at " + at.Note + ")"
	}
	nd.Rendered = &analyzer.Rendered{Kind: u.Kind, Root: u.Root, Sets: []string{u.Set}}
	nd.Related = nil
	for _, t := range at.Related {
		if p, end, ok := r.span(t); ok {
			nd.Related = append(nd.Related, analyzer.Related{Pos: p, End: end, Message: "the template line that writes this value"})
			nd.Rendered.Template = analyzer.Span{Start: p, Stop: end}
			break
		}
	}
	for _, x := range l.related {
		if p, end, ok := r.span(x.at); ok {
			nd.Related = append(nd.Related, analyzer.Related{Pos: p, End: end, Message: x.msg})
		}
	}
	if len(d.Sources) > 0 {
		// The inputs' places too: a position of the unit's rendered
		// text, and its line there, mean nothing in the caller's
		// workspace. A source that has no place in the sources keeps
		// its words only.
		nd.Sources = make(map[string]analyzer.FactSource, len(d.Sources))
		for k, fs := range d.Sources {
			if fs.Pos.IsValid() {
				p, _, ok := r.Place(u, fs.Pos, fs.Pos)
				if !ok {
					p = token.NoPos
				}
				fs.Pos, fs.Line = p, 0
			}
			nd.Sources[k] = fs
		}
	}
	nd.SuggestedFixes = nil
	for _, f := range l.fixes {
		fx := analyzer.SuggestedFix{Message: f.msg, Safe: f.safe}
		for _, e := range f.edits {
			p, end, ok := r.span(e.at)
			if !ok {
				fx.Edits = nil
				break
			}
			fx.Edits = append(fx.Edits, analyzer.TextEdit{Pos: p, End: end, NewText: e.text})
		}
		if len(fx.Edits) > 0 {
			nd.SuggestedFixes = append(nd.SuggestedFixes, fx)
		}
	}
	if s := d.Suppression; s != nil {
		c := *s
		c.Pos = nd.Pos
		if l.suppression != nil {
			if p, _, ok := r.span(*l.suppression); ok {
				c.Pos = p
			}
		}
		nd.Suppression = &c
	}
	return nd, true
}

// span returns a location's range at positions of the caller's workspace.
func (r *Result) span(l render.Location) (token.Pos, token.Pos, bool) {
	if l.Path == "" || r.positions == nil {
		return token.NoPos, token.NoPos, false
	}
	p, ok := r.positions(l.Path, l.Start)
	if !ok {
		return token.NoPos, token.NoPos, false
	}
	end, ok := r.positions(l.Path, max(l.End, l.Start))
	if !ok {
		end = p
	}
	return p, end, true
}

// SetPositions says where the files findings point into are (Diagnostics
// does too): Place and PlaceOf answer from then on.
func (r *Result) SetPositions(pos Positions) { r.positions = pos }

// Place maps a position range of a unit's rendered text to positions of
// the workspace Diagnostics was given (for the audit's rows).
func (r *Result) Place(u *Unit, pos, end token.Pos) (token.Pos, token.Pos, bool) {
	l, ok := u.Locate(pos, end)
	if !ok {
		return token.NoPos, token.NoPos, false
	}
	return r.span(l)
}

// problem returns a render problem as a finding at its place, or at the
// first line of its chart's or kustomization's file when its place is not
// read.
func (r *Result) problem(p render.Problem) (analyzer.Diagnostic, bool) {
	file := r.problemFile(p)
	off := 0
	if file == filepath.Clean(p.Path) {
		off = lineColOffset(r.sources[file], p.Line, p.Col)
	}
	pos, ok := r.positions(file, off)
	if !ok {
		return analyzer.Diagnostic{}, false
	}
	end := pos
	if data := r.sources[file]; off <= len(data) {
		if nl := bytes.IndexByte(data[off:], '\n'); nl >= 0 {
			end = pos + token.Pos(nl)
		} else {
			end = pos + token.Pos(len(data)-off)
		}
	}
	msg := p.Message
	if file != filepath.Clean(p.Path) {
		msg += " (" + p.Path + ")"
	}
	d := analyzer.Diagnostic{Pos: pos, End: end, Rule: p.Rule, Message: msg}
	kind := "helm"
	if kustomize.IsKustomizationName(file) {
		kind = "kustomize"
	}
	d.Rendered = &analyzer.Rendered{Kind: kind, Root: filepath.Dir(file)}
	if p.Set != "" {
		d.Rendered.Sets = []string{p.Set}
	}
	return d, true
}

// problemFile returns the file a problem is reported in: its own when
// some render read it, else the nearest Chart.yaml or kustomization file
// above it.
func (r *Result) problemFile(p render.Problem) string {
	file := filepath.Clean(p.Path)
	if _, ok := r.sources[file]; ok {
		return file
	}
	for d := filepath.Dir(file); ; d = filepath.Dir(d) {
		for _, n := range []string{"Chart.yaml", "kustomization.yaml", "kustomization.yml", "Kustomization"} {
			if _, ok := r.sources[filepath.Join(d, n)]; ok {
				return filepath.Join(d, n)
			}
		}
		if filepath.Dir(d) == d {
			return file
		}
	}
}

// lineColOffset returns the byte offset of a 1-based line and column (0:
// the line's start, or the text's for line 0).
func lineColOffset(text []byte, line, col int) int {
	off := 0
	for l := 1; l < line && off < len(text); l++ {
		nl := bytes.IndexByte(text[off:], '\n')
		if nl < 0 {
			return len(text)
		}
		off += nl + 1
	}
	if col > 1 {
		end := off
		for end < len(text) && text[end] != '\n' {
			end++
		}
		off = min(off+col-1, end)
	}
	return off
}

// PlaceOf returns where an object a unit deploys is in the sources (its
// name, else its kind), at a position of the workspace Diagnostics was
// given.
func (r *Result) PlaceOf(o *manifest.Object) (token.Pos, bool) {
	r.unitsOnce.Do(func() {
		r.unitOf = map[*manifest.File]*Unit{}
		for _, u := range r.Units {
			for f := range u.locators {
				r.unitOf[f] = u
			}
		}
	})
	u := r.unitOf[o.Doc.File]
	if u == nil {
		return token.NoPos, false
	}
	f := o.NameAt
	if !f.IsValid() {
		f = o.KindAt
	}
	p, _, ok := r.Place(u, f.Pos, f.End)
	return p, ok
}

// Autoscaler is an autoscaler one unit deploys.
type Autoscaler struct {
	Unit       *Unit
	Autoscaler *scaling.Autoscaler
	// Pos and End are its name's place in the sources, at positions of
	// the workspace Diagnostics was given (invalid when not placed).
	Pos, End token.Pos
}

// Autoscalers returns the autoscalers the units deploy, each once per
// place in the sources (a template rendered by several value sets, a base
// built by several overlays: the first unit's), in unit order. Call it
// after Diagnostics.
func (r *Result) Autoscalers() []Autoscaler {
	var out []Autoscaler
	seen := map[token.Pos]bool{}
	for _, u := range r.Units {
		for _, a := range u.Workspace.Autoscalers().All() {
			o := a.Object
			p, end, ok := r.Place(u, o.NameAt.Pos, o.NameAt.End)
			if !o.NameAt.IsValid() {
				p, end, ok = r.Place(u, o.KindAt.Pos, o.KindAt.End)
			}
			if ok && seen[p] {
				continue
			}
			seen[p] = true
			out = append(out, Autoscaler{Unit: u, Autoscaler: a, Pos: p, End: end})
		}
	}
	return out
}

// Objects counts the objects the units deploy, each once per place in the
// sources. A document the parser skipped counts as the one object its
// sniffed kind says, once per unit directory, rendered file (a template's
// output) and place in it, so the count does not depend on which kinds
// the rules asked to parse (report.ObjectCount counts plain files alike).
// Call it after Diagnostics.
func (r *Result) Objects() int {
	seen := map[token.Pos]bool{}
	skipped := map[string]bool{}
	n := 0
	for _, u := range r.Units {
		for _, o := range u.Workspace.Objects().All() {
			p, _, ok := r.Place(u, o.KindAt.Pos, o.KindAt.End)
			if ok && seen[p] {
				continue
			}
			seen[p] = true
			n++
		}
		for _, f := range u.Workspace.Files().All() {
			for _, d := range f.Docs {
				if d.Parsed() || d.Kind == "" {
					continue
				}
				key := fmt.Sprintf("%s\x00%s\x00%d", u.Dir, f.Path, d.Index)
				if !skipped[key] {
					skipped[key] = true
					n++
				}
			}
		}
	}
	return n
}
