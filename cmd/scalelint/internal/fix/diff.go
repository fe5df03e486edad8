package fix

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/scalelint/scalelint/analyzer"
)

// unifiedDiff renders edits of src as a unified diff with three lines of
// context. The hunks come from the edits themselves: no line matching is
// needed.
func unifiedDiff(name string, src []byte, es []analyzer.FileEdit) string {
	lines := splitLines(src)
	lineOf := func(off int) int { // 0-based line holding off
		n := 0
		for i, l := range lines {
			if off < n+len(l) || i == len(lines)-1 {
				return i
			}
			n += len(l)
		}
		return 0
	}
	lineStart := func(i int) int {
		n := 0
		for k := 0; k < i; k++ {
			n += len(lines[k])
		}
		return n
	}
	// Group edits whose changed lines are within 6 lines of each other.
	type hunk struct{ first, last int } // old line range touched, inclusive
	var hunks []hunk
	var groups [][]analyzer.FileEdit
	for _, e := range es {
		first, last := lineOf(e.Start), lineOf(max(e.Start, e.End-1))
		if len(hunks) > 0 && first-hunks[len(hunks)-1].last <= 6 {
			hunks[len(hunks)-1].last = max(hunks[len(hunks)-1].last, last)
			groups[len(groups)-1] = append(groups[len(groups)-1], e)
			continue
		}
		hunks = append(hunks, hunk{first, last})
		groups = append(groups, []analyzer.FileEdit{e})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", quotePath("a/"+name), quotePath("b/"+name))
	for i, h := range hunks {
		from := max(0, h.first-3)
		to := min(len(lines)-1, h.last+3)
		base := lineStart(from)
		oldText := []byte{}
		for k := from; k <= to; k++ {
			oldText = append(oldText, lines[k]...)
		}
		var rel []analyzer.FileEdit
		for _, e := range groups[i] {
			rel = append(rel, analyzer.FileEdit{Start: e.Start - base, End: e.End - base, NewText: e.NewText})
		}
		newLines := splitLines(analyzer.ApplyEdits(oldText, rel))
		oldLines := lines[from : to+1]
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", from+1, len(oldLines), from+1, len(newLines))
		for _, op := range lineDiff(oldLines, newLines) {
			b.WriteString(op.kind + withNewline(op.line))
		}
	}
	return b.String()
}

// quotePath writes a diff header's path as git does: as it is, unless it
// holds a control character, a double quote or a backslash; then in
// double quotes with C escapes. A file name holding a line feed must not
// end the header line: "--- a/x\n+++ b/other" would make patch(1) write
// another file.
func quotePath(p string) string {
	needs := false
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == 0x7f || c == '"' || c == '\\' {
			needs = true
			break
		}
	}
	if !needs {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, "\\%03o", c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

type diffOp struct {
	kind string // " ", "-" or "+"
	line string
}

// lineDiff is a longest-common-subsequence diff of two short line lists
// (a hunk's worth).
func lineDiff(a, b []string) []diffOp {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, diffOp{" ", a[i]})
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, diffOp{"+", b[j]})
			j++
		default:
			ops = append(ops, diffOp{"-", a[i]})
			i++
		}
	}
	// Show removals before additions in each changed run, as diff does.
	for k := 0; k < len(ops); {
		if ops[k].kind == " " {
			k++
			continue
		}
		e := k
		for e < len(ops) && ops[e].kind != " " {
			e++
		}
		run := append([]diffOp(nil), ops[k:e]...)
		sort.SliceStable(run, func(x, y int) bool { return run[x].kind == "-" && run[y].kind == "+" })
		copy(ops[k:e], run)
		k = e
	}
	return ops
}

func splitLines(src []byte) []string {
	var out []string
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			out = append(out, string(src))
			break
		}
		out = append(out, string(src[:i+1]))
		src = src[i+1:]
	}
	if len(out) == 0 {
		out = []string{""}
	}
	return out
}

func withNewline(l string) string {
	if strings.HasSuffix(l, "\n") {
		return l
	}
	return l + "\n\\ No newline at end of file\n"
}
