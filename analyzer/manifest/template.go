package manifest

import (
	"bytes"
)

// detectTemplate marks a file as a Helm/Go template when it holds "{{"
// and does not read as valid manifests: a document that fails to parse,
// or a field that fails to decode. A rendered manifest that merely quotes
// template text in a string (alerting rules, annotations) is YAML and is
// linted as usual.
func (f *File) detectTemplate() {
	i := bytes.Index(f.Content, []byte("{{"))
	if i < 0 {
		return
	}
	broken := false
	for _, d := range f.Docs {
		d.parse()
		for _, p := range d.problems {
			if p.Rule == "yaml-syntax" || p.Rule == "invalid-field" {
				broken = true
			}
		}
	}
	if !broken {
		return
	}
	f.Template = true
	end := i + 2
	if j := bytes.Index(f.Content[i:], []byte("}}")); j >= 0 {
		if nl := bytes.IndexByte(f.Content[i:], '\n'); nl < 0 || j < nl {
			end = i + j + 2
		}
	}
	f.addProblem(Problem{Rule: "template-file", Pos: f.Tok.Pos(i), End: f.Tok.Pos(end),
		Message: "file holds Helm/Go template syntax and is not YAML until rendered; it was not linted " +
			"(lint the rendered output: helm template RELEASE CHART | scalelint check -)"})
}
