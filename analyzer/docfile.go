package analyzer

import (
	"fmt"
	"io/fs"
	"strings"
)

// A rule's documentation is written as a Markdown file, one per rule
// (rules/docs/NAME.md; analyzer/docs for the rules the driver reports),
// embedded in the binary and parsed into Doc when the package loads:
//
//	# Title                       sentence case, no final period
//	## What it does               Markdown
//	## Why is this bad            Markdown: the law, and the section of
//	                              rules/laws/README.md it rests on
//	## Example                    one ```yaml fenced block
//	## Use instead                one ```yaml fenced block
//	## Fix                        Markdown
//	## References                 a list, one "- " item per line
//
// Every section is required, once, in this order; any other heading is an
// error. Doc stays the single source: `scalelint explain`, the rules
// reference (rules/README.md), LSP hover and SARIF help all render it.

// docSections are the sections of a rule's documentation file, in order.
var docSections = []string{"What it does", "Why is this bad", "Example", "Use instead", "Fix", "References"}

// ReadDoc reads and parses the documentation file at path in fsys.
func ReadDoc(fsys fs.FS, path string) (Doc, error) {
	src, err := fs.ReadFile(fsys, path)
	if err != nil {
		return Doc{}, err
	}
	return ParseDoc(path, src)
}

// ParseDoc parses a rule's documentation file; name is the file's name for
// error messages, which give its line. On an error the Doc holds the
// sections that parsed.
func ParseDoc(name string, src []byte) (Doc, error) {
	var d Doc
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	errorf := func(line int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}

	type section struct {
		title string
		line  int      // of its heading
		body  []string // its lines
		first int      // line number of body[0]
	}
	var sections []*section
	titleLine := 0
	fence := 0 // line of the open fence, 0 when none
	for i, l := range lines {
		n := i + 1
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			if fence == 0 {
				fence = n
			} else {
				fence = 0
			}
		}
		if fence == 0 && strings.HasPrefix(l, "#") {
			level := len(l) - len(strings.TrimLeft(l, "#"))
			text := strings.TrimSpace(l[level:])
			switch {
			case level == 1 && titleLine == 0 && len(sections) == 0:
				titleLine, d.Title = n, text
				continue
			case level == 2:
				sections = append(sections, &section{title: text, line: n, first: n + 1})
				continue
			}
			return d, errorf(n, "unexpected heading %q: a rule's file has one title (#) and the sections %s (##)", l, quoteAll(docSections))
		}
		switch {
		case len(sections) > 0:
			s := sections[len(sections)-1]
			s.body = append(s.body, l)
		case strings.TrimSpace(l) == "":
		case titleLine == 0:
			return d, errorf(n, "text before the title: the file starts with \"# Title\"")
		default:
			return d, errorf(n, "text before the first section")
		}
	}
	if fence != 0 {
		return d, errorf(fence, "code fence never closed")
	}
	if titleLine == 0 || d.Title == "" {
		return d, errorf(1, "no title: the file starts with \"# Title\"")
	}
	if strings.HasSuffix(d.Title, ".") {
		return d, errorf(titleLine, "the title ends with a period")
	}

	seen := map[string]int{}
	for _, s := range sections {
		k := indexOf(docSections, s.title)
		if k < 0 {
			return d, errorf(s.line, "unknown section %q (the sections are %s)", s.title, quoteAll(docSections))
		}
		if prev, dup := seen[s.title]; dup {
			return d, errorf(s.line, "section %q again (first at line %d)", s.title, prev)
		}
		if len(seen) != k {
			return d, errorf(s.line, "section %q out of order: the sections are %s", s.title, quoteAll(docSections))
		}
		seen[s.title] = s.line
		body := strings.TrimSpace(strings.Join(s.body, "\n"))
		if body == "" {
			return d, errorf(s.line, "section %q is empty", s.title)
		}
		var err error
		switch s.title {
		case "What it does":
			d.What = body
		case "Why is this bad":
			d.Why = body
		case "Example":
			d.Example, err = yamlBlock(s.body, s.first, errorf)
		case "Use instead":
			d.UseInstead, err = yamlBlock(s.body, s.first, errorf)
		case "Fix":
			d.Fix = body
		case "References":
			d.References, err = listItems(s.body, s.first, errorf)
		}
		if err != nil {
			return d, err
		}
	}
	if len(seen) < len(docSections) {
		return d, errorf(len(lines), "missing section %q", docSections[len(seen)])
	}
	return d, nil
}

// yamlBlock returns the content of a section that must be exactly one
// ```yaml fenced block.
func yamlBlock(body []string, first int, errorf func(int, string, ...any) error) (string, error) {
	start, end := -1, -1
	for i, l := range body {
		if strings.TrimSpace(l) == "" {
			continue
		}
		switch {
		case start < 0:
			if strings.TrimRight(l, " ") != "```yaml" {
				return "", errorf(first+i, "expected a ```yaml fenced block")
			}
			start = i
		case end < 0:
			if strings.HasPrefix(l, "```") {
				end = i
			}
		default:
			return "", errorf(first+i, "text after the fenced block: the section holds one ```yaml block")
		}
	}
	if end < 0 {
		return "", errorf(first, "expected a ```yaml fenced block")
	}
	content := strings.Trim(strings.Join(body[start+1:end], "\n"), "\n")
	if strings.TrimSpace(content) == "" {
		return "", errorf(first+start, "empty YAML block")
	}
	return content, nil
}

// listItems returns the items of a section that must be a list with one
// "- " item per line.
func listItems(body []string, first int, errorf func(int, string, ...any) error) ([]string, error) {
	var items []string
	for i, l := range body {
		if strings.TrimSpace(l) == "" {
			continue
		}
		item, ok := strings.CutPrefix(l, "- ")
		if !ok || strings.TrimSpace(item) == "" {
			return items, errorf(first+i, "expected a list item, \"- \" and the reference on one line")
		}
		items = append(items, strings.TrimSpace(item))
	}
	return items, nil
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}
