package render

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/audit"
	"github.com/scalelint/scalelint/cmd/scalelint/internal/report"
)

// mdEscape escapes text for a Markdown table cell of a pull-request
// comment. An "@" is followed by a zero-width space: a name such as
// "@org/team" in a manifest must not notify a team when the audit is
// posted (GitHub links a mention in the rendered text, escaped or not).
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '|', '\\', '`', '*', '_', '[', ']', '#', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\n', '\r':
			b.WriteByte(' ')
		case '@':
			b.WriteString("@\u200b")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// markdownBudget keeps a comment under GitHub's 65,536-character limit.
const markdownBudget = 60000

// missingCounts counts, over the rows, the autoscalers each missing input
// would help, most first.
func missingCounts(a *audit.Audit) []struct {
	Name  string
	Count int
} {
	n := map[string]int{}
	for _, r := range a.Rows {
		seen := map[string]bool{}
		for _, m := range r.Missing {
			for _, x := range m.Needs {
				if !seen[x] {
					seen[x] = true
					n[strings.TrimPrefix(x, scaling.Prefix)]++
				}
			}
		}
	}
	out := make([]struct {
		Name  string
		Count int
	}, 0, len(n))
	for k, v := range n {
		out = append(out, struct {
			Name  string
			Count int
		}{k, v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// writeMarkdown writes a pull-request comment: the counts; a table of
// the rows that fail, warn or are accepted; folded, the rows that pass and,
// shorter, those that could not be evaluated. It stays under GitHub's
// comment limit and says how many rows it left out.
func writeMarkdown(w io.Writer, a *audit.Audit, _ Options) error {
	var b strings.Builder
	c := a.Counts()
	b.WriteString("### scalelint audit\n\n")
	var parts []string
	for v, n := range c {
		if n == 0 {
			continue
		}
		s := fmt.Sprintf("%d %s", n, audit.Verdict(v))
		if audit.Verdict(v) == audit.Fail {
			s = "**" + s + "**"
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		parts = []string{"nothing to audit"}
	}
	fmt.Fprintf(&b, "%s: %s.\n", a.Subject(), strings.Join(parts, ", "))
	if len(a.Rows) == 0 {
		_, err := io.WriteString(w, b.String())
		return err
	}
	if ms := missingCounts(a); len(ms) > 0 {
		var xs []string
		for i, m := range ms {
			if i == 6 {
				break
			}
			xs = append(xs, fmt.Sprintf("`%s%s` (%d)", scaling.Prefix, m.Name, m.Count))
		}
		b.WriteString("Annotations that would let more laws be evaluated: " + strings.Join(xs, ", ") + ".\n")
	}
	var bad, pass, partial, unknown []*audit.Row
	na := 0
	for _, r := range a.Rows {
		switch {
		case r.Verdict <= audit.Accepted:
			bad = append(bad, r)
		case r.Verdict == audit.Pass:
			pass = append(pass, r)
		case r.Verdict == audit.Partial:
			partial = append(partial, r)
		case r.Verdict == audit.Unknown:
			unknown = append(unknown, r)
		default:
			na++
		}
	}
	left := len(a.Rows) - na
	full := false
	add := func(line string) bool {
		if full || b.Len()+len(line) > markdownBudget {
			full = true
			return false
		}
		b.WriteString(line)
		left--
		return true
	}
	where := func(r *audit.Row) string {
		return fmt.Sprintf("%s %s<br>%s → %s", mdEscape(r.Object.Kind), mdEscape(r.Object.Namespace+"/"+r.Object.Name),
			mdEscape(whereText(r)), mdEscape(targetText(r)))
	}
	head := "| verdict | margin | autoscaler | signal | g · rounds | standing delay vs floor | target vs 1/A | ceiling vs band | bound vs timeout | missing |\n" +
		"|---|--:|---|---|---|---|---|---|---|---|\n"
	row := func(r *audit.Row) string {
		v := r.Verdict.String()
		if r.Verdict == audit.Fail {
			v = "**fail**"
		}
		cells := []string{v, amargin(r.MarginPercent), where(r), mdEscape(signalLong(r))}
		for _, law := range audit.LawOrder {
			cells = append(cells, mdEscape(cell(r, law, false)))
		}
		cells = append(cells, mdEscape(missingText(r)))
		return "| " + strings.Join(cells, " | ") + " |\n"
	}
	b.WriteString("Worst first. A row passes only when every law that applies was evaluated and holds; partial rows have laws not evaluated, or holding only at a bound read from the manifests (≥, ≤). The margin is the distance of the evaluated law nearest its boundary from it, relative to the boundary; ? marks a law whose inputs are missing, - one that does not apply.\n")
	if len(bad) > 0 {
		b.WriteString("\n" + head)
		for _, r := range bad {
			add(row(r))
		}
	}
	if len(pass) > 0 && !full {
		summary := report.Plural(len(pass), "autoscaler") + " that passes"
		if len(pass) > 1 {
			summary = report.Plural(len(pass), "autoscaler") + " that pass, nearest their boundary first"
		}
		fmt.Fprintf(&b, "\n<details><summary>%s</summary>\n\n", summary)
		b.WriteString(head)
		for _, r := range pass {
			add(row(r))
		}
		b.WriteString("\n</details>\n")
	}
	if len(partial) > 0 && !full {
		fmt.Fprintf(&b, "\n<details><summary>%s evaluated in part: what held, what held only at a bound, what is missing</summary>\n\n", report.Plural(len(partial), "autoscaler"))
		b.WriteString(head)
		for _, r := range partial {
			add(row(r))
		}
		b.WriteString("\n</details>\n")
	}
	if len(unknown) > 0 && !full {
		fmt.Fprintf(&b, "\n<details><summary>%s that could not be evaluated</summary>\n\n| autoscaler | signal | needs |\n|---|---|---|\n", report.Plural(len(unknown), "autoscaler"))
		for _, r := range unknown {
			add(fmt.Sprintf("| %s | %s | %s |\n", where(r), mdEscape(signalLong(r)), mdEscape(missingText(r))))
		}
		b.WriteString("\n</details>\n")
	}
	if na > 0 {
		fmt.Fprintf(&b, "\n%s no law applies to (ScaledJobs, or no CPU, backlog or rate signal and no inputs).\n", report.Plural(na, "autoscaler"))
	}
	if left > 0 {
		fmt.Fprintf(&b, "\n%s not shown to keep this comment short: run `scalelint audit --format html` for all of them.\n", report.Plural(left, "more autoscaler"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
