package manifest

import (
	"bytes"
	"strings"
)

// checkPortability finds tabs used as whitespace between YAML tokens (as
// in "key:\t\tvalue" or before a comment). YAML 1.2, yaml.v3 and kubectl's
// sigs.k8s.io/yaml accept them; PyYAML-based tools (pre-commit's
// check-yaml, yamllint, Ansible) reject the whole file. Tabs inside quoted
// strings, block scalars and comments are left alone; tabs that indent are
// a syntax error the parser reports.
func (f *File) checkPortability() {
	src := f.Text()
	if bytes.IndexByte(src, '\t') < 0 {
		return
	}
	blockIndent := -1
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += off
		}
		line := src[off:end]
		trimmed := bytes.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		blank := len(bytes.TrimSpace(trimmed)) == 0
		if blockIndent >= 0 && (blank || indent > blockIndent) {
			off = end + 1
			continue
		}
		blockIndent = -1
		// Every run of blanks holding a separating tab is one problem,
		// and its fix replaces the whole run: a fix applied once leaves
		// no tab for a second run to find ("key:\t\tvalue" took two).
		for _, r := range separatingTabs(trimmed) {
			at, end := off+indent+r[0], off+indent+r[1]
			f.addProblem(Problem{Rule: "yaml-portability", Pos: f.Tok.Pos(at), End: f.Tok.Pos(end),
				Message:    "tab used as whitespace: kubectl accepts it, but PyYAML-based tools (pre-commit check-yaml, yamllint, Ansible) reject this file; use spaces",
				Suggestion: strings.ReplaceAll(string(trimmed[r[0]:r[1]]), "\t", "  ")})
		}
		if opensBlockScalar(trimmed) {
			blockIndent = indent
		}
		off = end + 1
	}
}

// separatingTabs returns the runs of blanks ([start, end) in line) that
// hold a tab between tokens of a line (outside quotes and comments). A
// line that starts with a tab is indentation, which the parser reports.
func separatingTabs(line []byte) [][2]int {
	var runs [][2]int
	for from := 0; ; {
		i := separatingTab(line, from)
		if i < 0 {
			return runs
		}
		start, end := i, i+1
		for start > 0 && (line[start-1] == ' ' || line[start-1] == '\t') {
			start--
		}
		for end < len(line) && (line[end] == ' ' || line[end] == '\t') {
			end++
		}
		runs = append(runs, [2]int{start, end})
		from = end
	}
}

// separatingTab returns the index of the first tab between tokens of a
// line (outside quotes and comments) at or after from, or -1.
func separatingTab(line []byte, from int) int {
	if len(line) == 0 || line[0] == '\t' || line[0] == '#' {
		return -1
	}
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			if i == 0 || line[i-1] == ' ' || line[i-1] == '\t' || line[i-1] == ':' || line[i-1] == '[' || line[i-1] == '{' || line[i-1] == ',' {
				quote = c
			}
		case c == '#' && (line[i-1] == ' ' || line[i-1] == '\t'):
			return -1
		case c == '\t':
			// A tab inside a plain scalar ("a\tb") is content; one next to
			// an indicator or another blank separates tokens.
			prev := line[i-1]
			next := byte(0)
			if i+1 < len(line) {
				next = line[i+1]
			}
			if i >= from && (prev == ':' || prev == ' ' || prev == '\t' || prev == '-' || prev == ',' || next == '#' || next == '\t' || next == ' ' || next == 0 || next == '\r') {
				return i
			}
		}
	}
	return -1
}
