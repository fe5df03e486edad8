package rules

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/scalelint/scalelint/analyzer"
)

// docDirs are the directories of rule documentation files: this package's
// rules, and the rules the driver reports (analyzer/docs).
var docDirs = []string{"docs", filepath.Join("..", "analyzer", "docs")}

// TestDocFiles checks that every rule has its documentation file, that the
// file parses into the rule's Doc, and that every file documents a rule.
func TestDocFiles(t *testing.T) {
	for _, err := range docErrors {
		t.Errorf("a documentation file does not parse: %v", err)
	}
	byName := map[string]*analyzer.Analyzer{}
	for _, a := range All() {
		byName[a.Name] = a
		var path string
		for _, dir := range docDirs {
			if p := filepath.Join(dir, a.Name+".md"); fileExists(p) {
				path = p
			}
		}
		if path == "" {
			t.Errorf("rule %s has no documentation file (rules/docs/%s.md)", a.Name, a.Name)
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, err := analyzer.ParseDoc(path, src)
		if err != nil {
			t.Errorf("rule %s: %v", a.Name, err)
			continue
		}
		if !reflect.DeepEqual(a.Doc, d) {
			t.Errorf("rule %s: its Doc is not %s", a.Name, path)
		}
	}
	for _, dir := range docDirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name, ok := strings.CutSuffix(e.Name(), ".md")
			if !ok {
				t.Errorf("%s: a documentation directory holds only NAME.md files", filepath.Join(dir, e.Name()))
				continue
			}
			if byName[name] == nil {
				t.Errorf("%s documents no rule: rules.All() has no %s", filepath.Join(dir, e.Name()), name)
			}
		}
	}
}

// TestDocs checks the documentation every rule must have: every section, a
// sentence-case title, a URL into the rules reference, and for the rules
// of a law, the section of rules/laws/README.md it rests on.
func TestDocs(t *testing.T) {
	laws := map[string]string{
		"tolerance-trap": "§1", "scale-up-rounds": "§1",
		"latency-floor": "§2", "latency-target": "§2.5",
		"retry-trap":   "§3",
		"ceiling-trap": "§4", "empty-ceiling-band": "§4", "ceiling-over-peak": "§4",
		"bound-exceeds-timeout": "§5",
	}
	for _, a := range All() {
		d := a.Doc
		for name, s := range map[string]string{"Title": d.Title, "What": d.What, "Why": d.Why, "Example": d.Example,
			"UseInstead": d.UseInstead, "Fix": d.Fix} {
			if strings.TrimSpace(s) == "" {
				t.Errorf("%s: empty Doc.%s", a.Name, name)
			}
		}
		if len(d.References) == 0 {
			t.Errorf("%s: no references", a.Name)
		}
		if d.Title == "" || strings.HasSuffix(d.Title, ".") || !unicode.IsUpper([]rune(d.Title)[0]) {
			t.Errorf("%s: title %q must be sentence case without a final period", a.Name, d.Title)
		}
		if a.Severity == 0 {
			t.Errorf("%s: no default severity", a.Name)
		}
		if want := analyzer.RulesReferenceURL + "#" + a.Name; a.URL != want {
			t.Errorf("%s: URL %q, want %q", a.Name, a.URL, want)
		}
		if sec, ok := laws[a.Name]; ok && !strings.Contains(d.Why, "rules/laws/README.md "+sec) {
			t.Errorf("%s: Why does not cite the law it rests on, rules/laws/README.md %s", a.Name, sec)
		}
	}
}

// TestDocLinks checks the links into the repository's Markdown that rule
// documentation holds (https://github.com/scalelint/scalelint/blob/main/
// PATH#ANCHOR): the file exists and has a heading with that anchor.
func TestDocLinks(t *testing.T) {
	link := regexp.MustCompile(`https://github\.com/scalelint/scalelint/blob/main/([^\s#)]+)(?:#([^\s)]+))?`)
	for _, a := range All() {
		text := strings.Join(append([]string{a.Doc.What, a.Doc.Why, a.Doc.Fix, a.URL}, a.Doc.References...), "\n")
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			path := filepath.Join("..", filepath.FromSlash(m[1]))
			src, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%s links to %s, which does not exist", a.Name, m[1])
				continue
			}
			if m[2] != "" && !headingAnchors(string(src))[m[2]] {
				t.Errorf("%s links to %s#%s: no heading there has that anchor", a.Name, m[1], m[2])
			}
		}
	}
}

// headingAnchors returns the anchors GitHub gives the Markdown headings of
// src: the heading's text in lower case, without punctuation, spaces as
// hyphens.
func headingAnchors(src string) map[string]bool {
	out := map[string]bool{}
	fence := false
	for _, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(l, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		out[b.String()] = true
	}
	return out
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
