package rules

import (
	"go/token"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
)

// deleteLine returns an edit that removes the whole line holding pos.
func deleteLine(f *manifest.File, pos token.Pos) (analyzer.TextEdit, bool) {
	if !pos.IsValid() {
		return analyzer.TextEdit{}, false
	}
	line := f.Tok.Line(pos)
	start := f.Tok.Offset(f.Tok.LineStart(line))
	end := len(f.Content)
	if line < f.Tok.LineCount() {
		end = f.Tok.Offset(f.Tok.LineStart(line + 1))
	}
	return analyzer.TextEdit{Pos: f.Tok.Pos(start), End: f.Tok.Pos(end)}, true
}

// replaceScalar returns an edit that replaces a scalar node's text with a
// new value, keeping its quoting style.
func replaceScalar(o *manifest.Object, n *yaml.Node, value string) analyzer.TextEdit {
	text := value
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		text = `"` + value + `"`
	case n.Style&yaml.SingleQuotedStyle != 0:
		text = `'` + value + `'`
	}
	return analyzer.TextEdit{Pos: o.Pos(n), End: o.End(n), NewText: text}
}
