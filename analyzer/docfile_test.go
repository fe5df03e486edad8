package analyzer

import (
	"reflect"
	"strings"
	"testing"
)

const goodDoc = "# Title of a rule\n\n" +
	"## What it does\n\nReports `x`.\n\n" +
	"## Why is this bad\n\nBecause.\n\nA second paragraph.\n\n" +
	"## Example\n\n```yaml\nspec:\n  # a comment, not a heading\n  a: 1\n```\n\n" +
	"## Use instead\n\n```yaml\nspec:\n  a: 2\n```\n\n" +
	"## Fix\n\nNone.\n\n" +
	"## References\n\n- one: https://example.com/a\n- two\n"

func TestParseDoc(t *testing.T) {
	d, err := ParseDoc("good.md", []byte(goodDoc))
	if err != nil {
		t.Fatal(err)
	}
	want := Doc{
		Title:      "Title of a rule",
		What:       "Reports `x`.",
		Why:        "Because.\n\nA second paragraph.",
		Example:    "spec:\n  # a comment, not a heading\n  a: 1",
		UseInstead: "spec:\n  a: 2",
		Fix:        "None.",
		References: []string{"one: https://example.com/a", "two"},
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("ParseDoc =\n%#v\nwant\n%#v", d, want)
	}
	// CRLF line ends read the same.
	if d2, err := ParseDoc("crlf.md", []byte(strings.ReplaceAll(goodDoc, "\n", "\r\n"))); err != nil || !reflect.DeepEqual(d2, want) {
		t.Errorf("with CRLF: %v\n%#v", err, d2)
	}
}

// Each broken form is refused with the file and line of the problem.
func TestParseDocErrors(t *testing.T) {
	edit := func(old, new string) string {
		if !strings.Contains(goodDoc, old) {
			t.Fatalf("test case: %q not in the good file", old)
		}
		return strings.Replace(goodDoc, old, new, 1)
	}
	for _, c := range []struct {
		name, src, want string
	}{
		{"missing section", edit("## Fix\n\nNone.\n\n", ""), `bad.md:28: section "References" out of order`},
		{"missing last section", goodDoc[:strings.Index(goodDoc, "## References")], `missing section "References"`},
		{"unknown section", edit("## Fix", "## Fixes"), `bad.md:28: unknown section "Fixes"`},
		{"duplicate section", edit("## Fix\n", "## Fix\n\nOne.\n\n## Fix\n"), `bad.md:32: section "Fix" again (first at line 28)`},
		{"out of order", edit("## What it does\n\nReports `x`.\n\n## Why is this bad", "## Why is this bad\n\nReports `x`.\n\n## What it does"),
			`bad.md:3: section "Why is this bad" out of order`},
		{"empty section", edit("None.", ""), `bad.md:28: section "Fix" is empty`},
		{"no title", edit("# Title of a rule\n", ""), `bad.md:1: no title`},
		{"text before the title", "intro\n" + goodDoc, `bad.md:1: text before the title`},
		{"empty title", edit("# Title of a rule", "#"), `no title`},
		{"title with a period", edit("# Title of a rule", "# Title of a rule."), `bad.md:1: the title ends with a period`},
		{"text before the first section", edit("# Title of a rule\n\n", "# Title of a rule\n\nstray\n\n"), `bad.md:3: text before the first section`},
		{"a second title", edit("## Fix", "# Fix"), `bad.md:28: unexpected heading "# Fix"`},
		{"a subsection", edit("## Fix\n\n", "## Fix\n\n### Details\n\n"), `bad.md:30: unexpected heading "### Details"`},
		{"example not a block", edit("## Example\n\n```yaml", "## Example\n\nsee below\n\n```yaml"), `bad.md:15: expected a ${BT}yaml fenced block`},
		{"example in another language", edit("## Example\n\n```yaml", "## Example\n\n```json"), `bad.md:15: expected a ${BT}yaml fenced block`},
		{"text after the block", edit("  a: 2\n```\n", "  a: 2\n```\nand more\n"), `bad.md:27: text after the fenced block`},
		{"empty block", edit("```yaml\nspec:\n  a: 2\n```", "```yaml\n```"), `bad.md:23: empty YAML block`},
		{"unclosed fence", edit("  a: 2\n```\n", "  a: 2\n"), `bad.md:23: code fence never closed`},
		{"reference not an item", edit("- two", "two"), `bad.md:35: expected a list item`},
		{"reference continued", edit("- two", "- two\n  continued"), `bad.md:36: expected a list item`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseDoc("bad.md", []byte(c.src))
			want := strings.ReplaceAll(c.want, "${BT}", "```")
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("ParseDoc: %v, want an error containing %q", err, want)
			}
		})
	}
}

// The two rules this package reports have their documentation files, and
// the files parsed.
func TestBuiltinDocs(t *testing.T) {
	for _, err := range docErrors {
		t.Error(err)
	}
	for _, a := range []*Analyzer{InvalidSuppression, UnusedSuppression} {
		d, err := ReadDoc(docFiles, "docs/"+a.Name+".md")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Doc, d) {
			t.Errorf("%s: Doc is not its file docs/%s.md", a.Name, a.Name)
		}
		if a.URL != RulesReferenceURL+"#"+a.Name {
			t.Errorf("%s: URL %q", a.Name, a.URL)
		}
	}
	entries, err := docFiles.ReadDir("docs")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("docs/ holds %d files, want the two of invalid-suppression and unused-suppression", len(entries))
	}
}
