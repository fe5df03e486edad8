package rules

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The product is self-contained: rule documentation, messages, code and
// test comments, scripts and goldens cite the repository's own files
// (rules/laws/README.md §N for the laws) or public URLs, never a document a
// user of scalelint does not have: the project's design notes and research
// files, or the blog posts the laws come from referred to as local copies
// ("the seed", their proposition numbers). TestNoOutsideReferences greps the
// repository for such references; TestLawSectionsResolve checks that every
// §N cited is a section of rules/laws/README.md.

// outsideRefs are the references to documents outside the repository.
var outsideRefs = []*regexp.Regexp{
	regexp.MustCompile(`\b(LAWS|DESIGN|semantics|peers|inference-sources|lsp-testing)\.md\b`),
	regexp.MustCompile(`(\.\./|/work/|\b)shared/(bench|corpus|seeds|notes|reference)\b|\.\./shared\b|/work/shared\b`),
	regexp.MustCompile(`\b(Definition|Proposition|Corollary)s? \d`),
	regexp.MustCompile(`\b(Def|Prop|Cor)\. ?\d`),
}

// seedWord finds "seed" in prose; seedAllowed are the uses that mean a
// random-number seed or a fuzz seed corpus, not the blog texts.
var (
	seedWord    = regexp.MustCompile(`(?i)\bseed(s|'s|’s)?\b`)
	seedAllowed = regexp.MustCompile(`(?i)seeds? corpus|fuzz(ing)? seeds?|seeds? (already )?ran in go test|random seeds?|rng seeds?|seeded( with Seed)?|\.Seed\b|-{1,2}seed\b|"seed"|seed %d|seed of the (demand )?noise|seed \d+ step`)
)

// scanned reports whether a file is checked: the repository's sources,
// docs, scripts and goldens, but not third-party copies (the real-world
// corpus, the SARIF schema), dependencies or build output.
func scanned(rel string, d fs.DirEntry) (bool, error) {
	if d.IsDir() {
		switch rel {
		case ".git", filepath.Join("testdata", "realworld"), filepath.Join("testdata", "sarif"),
			filepath.Join("vscode-extension", "out"), filepath.Join("vscode-extension", "dist"), "bin":
			return false, filepath.SkipDir
		}
		if d.Name() == "node_modules" {
			return false, filepath.SkipDir
		}
		return false, nil
	}
	if rel == filepath.Join("rules", "selfcontained_test.go") {
		return false, nil // this file names what it looks for
	}
	switch filepath.Ext(rel) {
	case ".go", ".md", ".ts", ".lua", ".js", ".mjs", ".sh", ".txtar", ".yaml", ".yml":
		return true, nil
	case ".json":
		return d.Name() != "package-lock.json", nil
	}
	return rel == filepath.Join(".ci", "run"), nil
}

// prose returns the text of a file a reader sees as words: for Go, its
// comments and string literals (identifiers such as a random seed variable
// are code); for every other file, all of it. Each piece keeps its line.
type piece struct {
	line int
	text string
}

func prose(path string, src []byte) []piece {
	if filepath.Ext(path) != ".go" {
		var out []piece
		for i, l := range strings.Split(string(src), "\n") {
			out = append(out, piece{i + 1, l})
		}
		return out
	}
	fset := token.NewFileSet()
	file := fset.AddFile(path, -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	var out []piece
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.COMMENT && tok != token.STRING {
			continue
		}
		line := fset.Position(pos).Line
		for i, l := range strings.Split(lit, "\n") {
			out = append(out, piece{line + i, l})
		}
	}
	return out
}

// walkRepo calls fn for every scanned file, with its path relative to the
// repository root.
func walkRepo(t *testing.T, fn func(rel string, src []byte)) {
	t.Helper()
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		ok, skip := scanned(rel, d)
		if skip != nil || !ok {
			return skip
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fn(rel, src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestNoOutsideReferences(t *testing.T) {
	var hits []string
	walkRepo(t, func(rel string, src []byte) {
		for _, p := range prose(rel, src) {
			for _, re := range outsideRefs {
				if m := re.FindString(p.text); m != "" {
					hits = append(hits, rel+":"+strconv.Itoa(p.line)+": "+m)
				}
			}
			for _, loc := range seedWord.FindAllStringIndex(p.text, -1) {
				if !seedUseAllowed(p.text, loc) {
					hits = append(hits, rel+":"+strconv.Itoa(p.line)+": "+p.text[loc[0]:loc[1]]+" (the blog texts? cite them by title, or rules/laws/README.md)")
				}
			}
		}
	})
	sort.Strings(hits)
	for _, h := range hits {
		t.Error(h)
	}
}

// seedUseAllowed reports whether the "seed" at loc is a random or fuzz seed.
func seedUseAllowed(text string, loc []int) bool {
	for _, a := range seedAllowed.FindAllStringIndex(text, -1) {
		if a[0] <= loc[0] && loc[1] <= a[1] {
			return true
		}
	}
	return false
}

// TestLawSectionsResolve checks every §N cited in the repository against
// the sections of rules/laws/README.md, the one numbered document.
func TestLawSectionsResolve(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("laws", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^##+ (\d+(?:\.\d+)?)\.? `).FindAllStringSubmatch(string(readme), -1) {
		sections[m[1]] = true
	}
	if len(sections) < 9 {
		t.Fatalf("rules/laws/README.md has %d numbered sections, want §1 … §9 at least", len(sections))
	}
	cite := regexp.MustCompile(`§ ?(\d+(?:\.\d+)?)`)
	walkRepo(t, func(rel string, src []byte) {
		for i, l := range strings.Split(string(src), "\n") {
			for _, m := range cite.FindAllStringSubmatch(l, -1) {
				if n := strings.TrimSuffix(m[1], "."); !sections[n] {
					t.Errorf("%s:%d: §%s is not a section of rules/laws/README.md", rel, i+1, n)
				}
			}
		}
	})
}
