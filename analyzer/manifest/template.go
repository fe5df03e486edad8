package manifest

import (
	"bytes"
)

// detectTemplate marks a file as a Helm/Go template and reports it once
// (template-file). A file is a template when template actions stand where
// YAML data would: a line that starts with "{{" ("{{- if", "{{/* ... */}}",
// "{{ include ... }}"), or an unquoted value that starts with "{{"
// ("name: {{ .Release.Name }}"); or when it holds "{{" anywhere and does not
// read as valid manifests. Template text inside quoted strings or block
// scalars (alerting rules, dashboards rendered into a ConfigMap) is YAML
// and is linted as usual.
func (f *File) detectTemplate() {
	i := bytes.Index(f.Text(), []byte("{{"))
	if i < 0 {
		return
	}
	at := templateAction(f.Text())
	if at < 0 {
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
		at = i
	}
	f.Template = true
	end := at + 2
	if j := bytes.Index(f.Text()[at:], []byte("}}")); j >= 0 {
		if nl := bytes.IndexByte(f.Text()[at:], '\n'); nl < 0 || j < nl {
			end = at + j + 2
		}
	}
	f.addProblem(Problem{Rule: "template-file", Pos: f.Tok.Pos(at), End: f.Tok.Pos(end),
		Message: "file holds Helm/Go template syntax and is not YAML until rendered; it was not linted " +
			"(lint the rendered output: helm template RELEASE CHART | scalelint check -)"})
}

// templateAction returns the offset of the first template action that
// stands where YAML data would, or -1.
func templateAction(src []byte) int {
	blockIndent := -1 // inside a block scalar whose key is indented this much
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += off
		}
		line := src[off:end]
		trimmed := bytes.TrimLeft(line, " \t")
		indent := len(line) - len(trimmed)
		blank := len(bytes.TrimSpace(trimmed)) == 0
		if blockIndent >= 0 && (blank || indent > blockIndent) {
			off = end + 1
			continue // block scalar content
		}
		blockIndent = -1
		if bytes.HasPrefix(trimmed, []byte("{{")) {
			return off + indent
		}
		if bytes.HasPrefix(trimmed, []byte("- {{")) {
			return off + indent + 2
		}
		if k := unquotedValueTemplate(trimmed); k >= 0 {
			return off + indent + k
		}
		if opensBlockScalar(trimmed) {
			blockIndent = indent
		}
		off = end + 1
	}
	return -1
}

// unquotedValueTemplate finds ": {{" outside quotes and comments and
// returns the offset of its "{{", or -1.
func unquotedValueTemplate(line []byte) int {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			if i == 0 || line[i-1] == ' ' || line[i-1] == ':' {
				quote = c
			}
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return -1
		case c == ':' && i+1 < len(line):
			j := i + 1
			for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
				j++
			}
			if bytes.HasPrefix(line[j:], []byte("{{")) {
				return j
			}
		}
	}
	return -1
}

// opensBlockScalar reports whether a line ends with a block scalar
// indicator (| or >, with chomping and indentation indicators), before
// any comment.
func opensBlockScalar(line []byte) bool {
	if c := bytes.Index(line, []byte(" #")); c >= 0 {
		line = line[:c]
	}
	line = bytes.TrimRight(line, " \t\r")
	for len(line) > 0 && (line[len(line)-1] == '-' || line[len(line)-1] == '+' || (line[len(line)-1] >= '1' && line[len(line)-1] <= '9')) {
		line = line[:len(line)-1]
	}
	if len(line) == 0 {
		return false
	}
	last := line[len(line)-1]
	if last != '|' && last != '>' {
		return false
	}
	rest := bytes.TrimRight(line[:len(line)-1], " \t")
	return len(rest) == 0 || rest[len(rest)-1] == ':' || bytes.Equal(rest, []byte("-"))
}
