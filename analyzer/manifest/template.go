package manifest

import (
	"bytes"
	"path/filepath"
	"strings"
)

// A file is a template when what stands where YAML data would is text a
// tool replaces before the file is applied. Each syntax has its own hint:
// the tool that renders it. Go templates (Helm) and Jinja share "{{ }}";
// what is inside the braces tells them apart.
type templateSyntax int

const (
	goTemplate    templateSyntax = iota // {{ .Values.x }}, {{- if }}: Helm
	jinja                               // {% if %}, {{ var }}: Ansible, cookiecutter, j2
	terraform                           // %{ if }, ${var.x}: Terraform's templatefile()
	envsubst                            // ${VAR}, ${VAR:=default}: envsubst, Flux post-build substitution
	pipelineToken                       // #{Token}#, __TOKEN__: CI/CD token replacement
)

// templateMessages are the template-file messages, each with the hint
// that fits the syntax.
var templateMessages = [...]string{
	goTemplate: "file holds Helm/Go template syntax and is not YAML until rendered; it was not linted " +
		"(a chart's template: check the chart's directory, which renders it, or helm template RELEASE CHART | scalelint check -; " +
		"another tool's: lint what it renders)",
	jinja: "file holds Jinja template syntax ({% %}, {{ }}) and is not YAML until rendered; it was not linted " +
		"(lint what the template renders to, e.g. from Ansible's template module or j2: ... | scalelint check -)",
	terraform: "file holds Terraform template syntax (%{ }, ${ }) and is not YAML until rendered; it was not linted " +
		"(lint what Terraform's templatefile() renders: ... | scalelint check -)",
	envsubst: "file holds ${VAR} placeholders where typed values belong; it was not linted " +
		"(lint it after substitution: envsubst < FILE | scalelint check -, or flux build kustomization for Flux post-build variables)",
	pipelineToken: "file holds pipeline tokens (#{...}#, __TOKEN__) where values belong; it was not linted " +
		"(lint it after the pipeline's token replacement step)",
}

// templateMark is one placeholder or template action in a file.
type templateMark struct {
	syntax     templateSyntax
	start, end int // byte range in the file
	// structural marks stand where YAML structure would: a line that
	// starts with an action, an action as an unquoted value, a Terraform
	// directive. Other marks are values a tool substitutes.
	structural bool
	// action is set for "{{ }}", which Go templates and Jinja share.
	action bool
}

// detectTemplate marks a file as a template and reports it once
// (template-file) when template syntax makes it unparsable or untypeable:
//
//   - Go or Jinja actions where YAML data would be: a line that starts
//     with "{{" or "{%" ("{{- if", "{{/* */}}", "{% for %}"), or an
//     unquoted value that starts with "{{" ("name: {{ .Release.Name }}");
//   - "{{", "{%" or a Terraform directive "%{" anywhere in a file that does
//     not read as valid manifests;
//   - a placeholder (${VAR}, ${var.x}, #{Token}#, __TOKEN__) on the line
//     of a syntax error, or inside a field whose value has the wrong type
//     (maxReplicas: ${MAX}), or a #{Token}# standing as a value, which
//     YAML reads as a comment.
//
// Template text inside quoted strings or block scalars of otherwise valid
// manifests (alerting rules, dashboards, image: app:${TAG}) is YAML and is
// linted as usual; so is a placeholder of a syntax scalelint does not
// know, which stays an invalid-field or yaml-syntax error.
func (f *File) detectTemplate() {
	src := f.Text()
	// A renderer's output (Options.RenderedOutput) is never a template
	// to render: what looks like one is the text of a value.
	if f.opts.RenderedOutput || !MayHoldTemplate(src) {
		return
	}
	marks := templateMarks(src)
	if len(marks) == 0 {
		return
	}
	byName := strings.HasSuffix(f.Path, ".tftpl") || strings.Contains(filepath.Base(f.Path), ".tftpl.") ||
		strings.HasSuffix(f.Path, ".tpl") || strings.Contains(filepath.Base(f.Path), ".tpl.")
	// "{{ }}" is Jinja in a file with Jinja's own "{% %}" or "{# #}", or
	// where no action reads as Go's; else every "{{ }}" is Go's (a Helm
	// function scalelint does not know starts an action now and then).
	jinjaBlocks, goActions := false, false
	for _, m := range marks {
		jinjaBlocks = jinjaBlocks || (m.syntax == jinja && !m.action)
		goActions = goActions || (m.syntax == goTemplate && m.action)
	}
	for i := range marks {
		switch {
		case marks[i].action && (jinjaBlocks || !goActions):
			marks[i].syntax = jinja
		case marks[i].action:
			marks[i].syntax = goTemplate
		case marks[i].syntax == envsubst && byName:
			marks[i].syntax = terraform
		}
	}
	// An action where data would be is a template whatever else holds;
	// so is any Go action in a manifest of a chart's templates directory:
	// Helm renders the file, even where its actions sit inside values.
	chartManifest := inChartTemplates(f.Path) && topLevelKeys(src)
	for _, m := range marks {
		if (m.structural && m.syntax != terraform) || (m.syntax == goTemplate && chartManifest) {
			f.markTemplate(m)
			return
		}
	}
	var broken []Problem
	for _, d := range f.Docs {
		if !d.Parsed() {
			continue // valid YAML of a kind no rule types (checkSyntax)
		}
		for _, p := range d.problems {
			if p.Rule == "yaml-syntax" || p.Rule == "invalid-field" {
				broken = append(broken, p)
			}
		}
	}
	if len(broken) == 0 {
		for _, m := range marks {
			if m.syntax == pipelineToken && m.structural {
				f.markTemplate(m) // "#{Token}#" as a value: YAML read a comment
				return
			}
		}
		return
	}
	// A file that does not parse and holds block syntax is a template.
	for _, m := range marks {
		if m.syntax == goTemplate || m.syntax == jinja || (m.syntax == terraform && m.structural) {
			f.markTemplate(m)
			return
		}
	}
	// Otherwise a placeholder must be where the file breaks.
	for _, p := range broken {
		for _, m := range marks {
			if f.explains(m, p) {
				f.markTemplate(m)
				return
			}
		}
	}
}

// explains reports whether a placeholder is the likely cause of a
// problem: inside the invalid field's value, or on the syntax error's line
// or the line before it (yaml.v3 names the line after a broken token at
// times).
func (f *File) explains(m templateMark, p Problem) bool {
	if !p.Pos.IsValid() {
		return false
	}
	pos, end := f.Tok.Offset(p.Pos), f.Tok.Offset(p.End)
	if p.Rule == "invalid-field" {
		return m.start < end && m.end > pos || m.start == pos
	}
	line := f.Lines().Position(p.Pos).Line
	ml := f.Lines().Position(f.Tok.Pos(m.start)).Line
	return ml == line || ml == line-1
}

// markTemplate makes the file a template, reported once at the mark.
func (f *File) markTemplate(m templateMark) {
	f.Template = true
	f.addProblem(Problem{Rule: "template-file", Pos: f.Tok.Pos(m.start), End: f.Tok.Pos(m.end),
		Message: templateMessages[m.syntax]})
}

// MayHoldTemplate is a cheap test that a text holds some template syntax
// (template detection, which is the whole file's, is skipped for most
// files): a language server that parses a file one document at a time
// parses such a file whole.
func MayHoldTemplate(src []byte) bool {
	// "{{", "{%", "{#", "${", "%{", "#{": a "{" with one of them next or
	// before; and "__". Found with IndexByte, which reads many bytes at a
	// time: scanning for any of five bytes read one at a time, over every
	// file of a run, cost about as much as reading the files.
	for i := 0; i < len(src); {
		j := bytes.IndexByte(src[i:], '{')
		if j < 0 {
			break
		}
		k := i + j
		if k+1 < len(src) && (src[k+1] == '{' || src[k+1] == '%' || src[k+1] == '#') ||
			k > 0 && (src[k-1] == '$' || src[k-1] == '%' || src[k-1] == '#') {
			return true
		}
		i = k + 1
	}
	for i := 0; i < len(src); {
		j := bytes.IndexByte(src[i:], '_')
		if j < 0 {
			break
		}
		k := i + j
		if k+1 < len(src) && src[k+1] == '_' {
			return true
		}
		i = k + 1
	}
	return false
}

// templateMarks finds the template actions and placeholders of a file, in
// order, line by line. A structural mark is one that stands where YAML
// data would (see templateMark); block scalar content is text, never
// structure.
func templateMarks(src []byte) []templateMark {
	var out []templateMark
	blockIndent := -1 // inside a block scalar whose key is indented this much
	// A quoted scalar may span lines (kustomize writes a multi-line
	// value with trailing spaces that way): its text is a value, never
	// structure, on every line it covers.
	var quote byte
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
		inBlock := quote == 0 && blockIndent >= 0 && (blank || indent > blockIndent)
		if !inBlock {
			blockIndent = -1
		}
		var marks []templateMark
		marks, quote = lineMarks(line, off, indent, inBlock, quote)
		out = append(out, marks...)
		if !inBlock && quote == 0 && opensBlockScalar(trimmed) {
			blockIndent = indent
		}
		off = end + 1
	}
	return out
}

// lineMarks finds the marks of one line starting at offset off. quote is
// the quoted scalar open at the line's start (0: none); it returns the
// one open at its end.
func lineMarks(line []byte, off, indent int, inBlock bool, quote byte) ([]templateMark, byte) {
	var out []templateMark
	valueStart := indent // where an unquoted value may start: line start, after ": " or "- "
	for i := indent; i < len(line); i++ {
		c := line[i]
		if quote != 0 {
			switch {
			case quote == '"' && c == '\\':
				i++ // an escape: \" does not close the string
				continue
			case quote == '\'' && c == '\'' && i+1 < len(line) && line[i+1] == '\'':
				i++ // '' is a quote inside a single-quoted string
				continue
			case c == quote:
				quote = 0
			}
			// Placeholders inside quotes are values, never structure.
			if m, n := placeholderAt(line, i); n > 0 {
				m.start, m.end = off+i, off+i+n
				out = append(out, m)
				i += n - 1
			}
			continue
		}
		if !inBlock && (c == '"' || c == '\'') && (i == valueStart || i == indent) {
			quote = c
			continue
		}
		if c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') && !bytes.HasPrefix(line[i:], []byte("#{")) {
			break // a comment
		}
		if m, n := placeholderAt(line, i); n > 0 {
			m.start, m.end = off+i, off+i+n
			m.structural = !inBlock && i == valueStart && structuralAt(m.syntax, line, i, indent)
			out = append(out, m)
			if line[i] == '#' && i > 0 && (line[i-1] == ' ' || line[i-1] == '\t') && !m.structural {
				break // YAML reads the rest of the line as a comment
			}
			i += n - 1
			continue
		}
		if c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			break // "#{" that is no token: a comment
		}
		if (c == ':' || c == '-') && i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t') && (c == ':' || i == valueStart) {
			j := i + 1
			for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
				j++
			}
			valueStart = j
			i = j - 1
		}
	}
	return out, quote
}

// structuralAt reports whether a mark at the start of a value stands
// where YAML data would: any Go or Jinja action there; a Terraform
// directive at the start of a line; a pipeline token "#{...}#", which
// YAML reads as a comment.
func structuralAt(s templateSyntax, line []byte, i, indent int) bool {
	switch s {
	case goTemplate, jinja:
		return true
	case terraform:
		return i == indent && bytes.HasPrefix(line[i:], []byte("%{"))
	case pipelineToken:
		return line[i] == '#'
	}
	return false
}

// placeholderAt reads a template action or placeholder starting at
// line[i], returning it and its length (0 when there is none).
func placeholderAt(line []byte, i int) (templateMark, int) {
	rest := line[i:]
	closing := func(open, close string) int {
		if !bytes.HasPrefix(rest, []byte(open)) {
			return 0
		}
		if j := bytes.Index(rest[len(open):], []byte(close)); j >= 0 {
			return len(open) + j + len(close)
		}
		return len(rest) // unclosed on this line: a block action
	}
	switch {
	case bytes.HasPrefix(rest, []byte("{{")):
		n := closing("{{", "}}")
		inner := rest[2:n]
		if bytes.HasSuffix(inner, []byte("}}")) {
			inner = inner[:len(inner)-2]
		}
		return templateMark{syntax: actionSyntax(inner), action: true}, n
	case bytes.HasPrefix(rest, []byte("{%")):
		return templateMark{syntax: jinja}, closing("{%", "%}")
	case bytes.HasPrefix(rest, []byte("{#")):
		return templateMark{syntax: jinja}, closing("{#", "#}")
	case bytes.HasPrefix(rest, []byte("%{")):
		return templateMark{syntax: terraform}, closing("%{", "}")
	case bytes.HasPrefix(rest, []byte("${")) && (i == 0 || line[i-1] != '$'):
		j := bytes.IndexByte(rest, '}')
		if j < 0 {
			return templateMark{}, 0
		}
		if isEnvName(rest[2:j]) {
			return templateMark{syntax: envsubst}, j + 1
		}
		return templateMark{syntax: terraform}, j + 1
	case bytes.HasPrefix(rest, []byte("#{")):
		if j := bytes.Index(rest, []byte("}#")); j > 2 && isTokenName(rest[2:j]) {
			return templateMark{syntax: pipelineToken}, j + 2
		}
	case bytes.HasPrefix(rest, []byte("__")) && (i == 0 || !isWordByte(line[i-1])):
		if j := bytes.Index(rest[2:], []byte("__")); j > 0 && isTokenName(rest[2:2+j]) &&
			(2+j+2 == len(rest) || !isWordByte(rest[2+j+2])) {
			return templateMark{syntax: pipelineToken}, j + 4
		}
	}
	return templateMark{}, 0
}

// actionSyntax tells a Go template action from a Jinja expression by what
// it starts with: Go actions start with a field (.Values), a variable
// ($x), a trim marker, a comment, or one of the template language's or
// Helm's words; a Jinja expression with a plain name ({{ image_tag }},
// {{ cookiecutter.name }}).
func actionSyntax(inner []byte) templateSyntax {
	s := strings.TrimSpace(string(inner))
	s = strings.TrimPrefix(strings.TrimSuffix(s, "-"), "-")
	s = strings.TrimSpace(s)
	if s == "" || s[0] == '.' || s[0] == '$' || s[0] == '(' || s[0] == '"' || strings.HasPrefix(s, "/*") {
		return goTemplate
	}
	word := s
	if k := strings.IndexAny(s, " \t|(."); k >= 0 {
		word = s[:k]
	}
	if goWords[word] {
		return goTemplate
	}
	return jinja
}

// goWords are Go template keywords and the functions Helm charts call
// first in an action (Go's text/template, sprig, Helm).
var goWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`if else end range with define template block break continue
		include tpl required toYaml toJson toPrettyJson fromYaml fromJson quote squote default printf print println
		len index not and or eq ne lt le gt ge nindent indent trim trimSuffix trimPrefix upper lower title replace
		b64enc b64dec sha256sum lookup list dict get set hasKey ternary semverCompare contains hasPrefix hasSuffix
		empty coalesce toString int int64 float64 add sub mul div mod max min splitList join cat regexReplaceAll
		uuidv4 randAlphaNum now date trunc kindIs typeOf`) {
		goWords[w] = true
	}
}

// isEnvName reports whether a ${...} body is a shell variable, with an
// optional default (${VAR}, ${VAR:=x}, ${VAR:-x}, ${VAR=x}): envsubst
// and Flux's post-build substitution.
func isEnvName(b []byte) bool {
	if k := bytes.IndexAny(b, ":=-"); k > 0 {
		b = b[:k]
	}
	if len(b) == 0 || !(b[0] == '_' || isLetter(b[0])) {
		return false
	}
	for _, c := range b {
		if !(c == '_' || isLetter(c) || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

// isTokenName reports whether a token's body is a name: letters, digits,
// '_', '.', '-' (Build.BuildId, IMAGE_TAG), starting with a letter.
func isTokenName(b []byte) bool {
	if len(b) == 0 || !isLetter(b[0]) {
		return false
	}
	for _, c := range b {
		if !(isLetter(c) || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

func isWordByte(c byte) bool { return isLetter(c) || (c >= '0' && c <= '9') || c == '_' }

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
