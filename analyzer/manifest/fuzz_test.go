package manifest

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seedFromCorpus adds the real-world corpus and the rule fixtures' YAML
// to a fuzz target's seed corpus.
func seedFromCorpus(f *testing.F, limit int) {
	n := 0
	root := filepath.Join("..", "..", "testdata", "realworld")
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || n >= limit {
			return nil
		}
		if strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json") {
			if data, err := os.ReadFile(p); err == nil && len(data) < 64<<10 {
				f.Add(data)
				n++
			}
		}
		return nil
	})
	for _, s := range []string{"", "---\n", "a: &a [*a]\n", "\ufeffkind: List\nitems: [{kind: Deployment}]\n",
		"a:\r\n  b: 1\r", "{{ x }}", "key: \"\\u00e9\"\n", "- [a, {b: c}]\n", "a: |\n  x\n b: 1\n"} {
		f.Add([]byte(s))
	}
}

// FuzzParse: parsing and decoding any bytes never panics or hangs, and
// every position it reports lies inside the file, start before end.
func FuzzParse(f *testing.F) {
	seedFromCorpus(f, 400)
	f.Fuzz(func(t *testing.T, data []byte) {
		fset := token.NewFileSet()
		file := Parse(fset, "fuzz.yaml", data, Options{Eager: IsReadKind, Limits: Limits{MaxNodes: 20000}})
		inFile := func(what string, p token.Pos) {
			if !p.IsValid() {
				return
			}
			// Not file.Tok.Offset: it clamps a position outside the file.
			if off := int(p) - file.Tok.Base(); off < 0 || off > len(data) {
				t.Fatalf("%s offset %d outside the file (%d bytes)", what, off, len(data))
			}
			file.Position(p)
		}
		for _, pr := range file.Problems() {
			inFile("problem start", pr.Pos)
			inFile("problem end", pr.End)
			if pr.End < pr.Pos {
				t.Fatalf("problem ends before it starts: %+v", pr)
			}
		}
		objs := file.Objects()
		for _, o := range objs {
			inFile("object", o.At.Pos)
			inFile("object end", o.At.End)
			if o.At.End < o.At.Pos {
				t.Fatalf("object ends before it starts")
			}
			for _, a := range o.Annotations {
				inFile("annotation", a.At.KeyPos())
				inFile("annotation end", a.At.End)
			}
		}
		// A released tree comes back the same.
		file.Release()
		for _, o := range objs {
			if got := o.FieldOf(nil, o.Root()); got.Pos != o.At.Pos || got.End != o.At.End {
				t.Fatalf("restored object at [%d, %d), was [%d, %d)", got.Pos, got.End, o.At.Pos, o.At.End)
			}
		}
	})
}
