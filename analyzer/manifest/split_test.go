package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
	"golang.org/x/tools/txtar"
)

// The splitter is differential-tested against yaml.v3's own document
// stream (yaml.NewDecoder): every document yaml.v3 reads from a file,
// the parser must read too, with the same tree at the same lines and
// columns, and a stream yaml.v3 cannot read to its end must get a
// yaml-syntax or input-limit problem. Documents that are empty or null
// are not compared (kubectl skips them too).
//
// A byte order mark that starts a key's line inside a document is
// reported (yaml-syntax): yaml.v3 reads it as part of the key.
//
// One deviation is deliberate and applied to the oracle's input as well:
// a byte order mark that starts the line after a "---" line is dropped,
// as kubectl drops it (it splits the stream on "---" lines and its YAML
// reader drops a mark at the start of a document); yaml.v3 keeps it in the
// first key ("\ufeffapiVersion").

// streamDocs returns the non-null documents yaml.v3's decoder reads from
// src, and the error that stopped it, if any.
func streamDocs(src []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var out []*yaml.Node
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if len(n.Content) > 0 && !isNullScalar(n.Content[0]) {
			out = append(out, n.Content[0])
		}
	}
}

func isNullScalar(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// kubectlBOM drops a byte order mark that starts the line after a "---"
// line, as kubectl reads it, and returns the lines it was dropped from.
func kubectlBOM(src []byte) ([]byte, map[int]bool) {
	lines := map[int]bool{}
	var out []byte
	line := 1
	afterMarker := false
	exotic := !sameBreaks(src)
	for i := 0; i < len(src); {
		end, next := lineBounds(src, i, exotic)
		l := src[i:end]
		if afterMarker && bytes.HasPrefix(l, bom) {
			lines[line] = true
			out = append(out, src[i+len(bom):next]...)
			l = l[len(bom):]
		} else {
			out = append(out, src[i:next]...)
			if i == 0 {
				l = bytes.TrimPrefix(l, bom)
			}
		}
		afterMarker = isMarker(l, '-') && !hasText(l[3:])
		i = next
		line++
	}
	return out, lines
}

// treeString renders a node tree with what the parser must reproduce:
// kinds, tags, styles, values, anchors, aliases, lines and columns (the
// columns on bomLines moved by the mark yaml.v3 did not see). Comments are
// not compared (the fast parser attaches none).
func treeString(n *yaml.Node, bomLines map[int]bool) string {
	var b strings.Builder
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		col := n.Column
		if bomLines[n.Line] {
			col++
		}
		fmt.Fprintf(&b, "%s%d %s %d %q &%s *%s @%d:%d\n", strings.Repeat(" ", depth), n.Kind, n.ShortTag(), n.Style, n.Value, n.Anchor, aliasName(n), n.Line, col)
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

func aliasName(n *yaml.Node) string {
	if n.Kind == yaml.AliasNode {
		return n.Value
	}
	return ""
}

// checkSplit compares the parser's documents with yaml.v3's stream.
func checkSplit(t *testing.T, name string, src []byte) {
	t.Helper()
	oracleSrc, bomLines := kubectlBOM(src)
	want, streamErr := streamDocs(oracleSrc)
	f := Parse(token.NewFileSet(), name, src, Options{})
	if f.Template {
		return // not YAML until rendered
	}
	problem := false
	for _, p := range f.Problems() {
		if p.Rule == "yaml-syntax" || p.Rule == "input-limit" {
			problem = true
		}
	}
	var got []*yaml.Node
	for _, d := range f.Docs {
		if r := d.Root(); r != nil && !isNullScalar(r) {
			got = append(got, r)
		}
	}
	if streamErr != nil {
		if !problem {
			t.Errorf("%s: yaml.v3 stops with %q, the parser reports no yaml-syntax problem\n%q", name, streamErr, src)
		}
		// The documents before the error must still be read alike; the
		// document with the error is not (yaml.v3 may have read a first
		// part of it, "--- {a: 1}" before "b: 2", as a document), and
		// those after it yaml.v3 never reaches.
		m := regexp.MustCompile(`^yaml: line (\d+):`).FindStringSubmatch(streamErr.Error())
		if m == nil {
			return
		}
		errLine, _ := strconv.Atoi(m[1])
		before := func(ns []*yaml.Node) []*yaml.Node {
			var out []*yaml.Node
			for _, n := range ns {
				if n.Line < errLine {
					out = append(out, n)
				}
			}
			return out
		}
		// yaml.v3's decoder reads ahead: an error in a later document
		// can stop it before an earlier one.
		got, want = before(got), before(want)
		k := min(len(got), len(want))
		got, want = got[:k], want[:k]
	} else if problem {
		// yaml.v3 reads a stream scalelint refuses: only its own limits may.
		for _, p := range f.Problems() {
			if p.Rule == "yaml-syntax" && !strings.HasPrefix(p.Message, "byte order mark") {
				t.Errorf("%s: yaml.v3 reads the stream, the parser reports %q\n%q", name, p.Message, src)
				return
			}
		}
		return
	}
	if len(got) != len(want) {
		t.Errorf("%s: the parser reads %d documents, yaml.v3 %d\n%q", name, len(got), len(want), src)
		return
	}
	for i := range want {
		if g, w := treeString(got[i], nil), treeString(want[i], bomLines); g != w {
			t.Errorf("%s: document %d differs from yaml.v3's\n--- parser\n%s--- yaml.v3\n%s", name, i+1, g, w)
			return
		}
	}
}

// TestSplitCorpus runs the differential test on every file of the
// real-world corpus and every YAML file of the rule fixtures.
func TestSplitCorpus(t *testing.T) {
	n := 0
	err := filepath.WalkDir("../../testdata/realworld", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(p) {
		case ".yaml", ".yml", ".json":
		default:
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		checkSplit(t, p, data)
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fixtures, _ := filepath.Glob("../../rules/testdata/*.txtar")
	for _, p := range fixtures {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".yaml") || strings.HasSuffix(f.Name, ".yml") {
				checkSplit(t, p+"/"+f.Name, f.Data)
				n++
			}
		}
	}
	if n < 300 {
		t.Fatalf("only %d files compared: the corpus or the fixtures moved", n)
	}
}

// splitLines are the lines the generated streams are made of: document
// markers with and without comments and content, comments, directives,
// byte order marks where they start a line or follow a marker, block and
// flow content.
var splitLines = []string{
	"---", "--- # c", "---\t", "--- x", "--- {d: 1}", "--- |", "...", "... # c",
	"# c", "", "a: 1", "- x", "b:", "  c: 2", "  lit", "text", "%YAML 1.2",
	"\ufeffa: 1", "\ufeff---", "\ufeff# c", "\ufeff", "---\ufeff", "'q'",
}

var splitBreaks = []string{"\n", "\r\n", "\r"}

// TestSplitGenerated runs the differential test on every stream of up to
// three of splitLines ending in a line feed, every stream of up to two
// with each kind of line break, with and without a final one, and on
// 10,000 streams of three to seven lines drawn at random (the same every
// run).
func TestSplitGenerated(t *testing.T) {
	gen := func(idx []int, br string, final bool) []byte {
		var b strings.Builder
		for i, k := range idx {
			if i > 0 {
				b.WriteString(br)
			}
			b.WriteString(splitLines[k])
		}
		if final {
			b.WriteString(br)
		}
		return []byte(b.String())
	}
	n := len(splitLines)
	count := 0
	check := func(src []byte) {
		checkSplit(t, fmt.Sprintf("%q", src), src)
		count++
	}
	var rec func(idx []int)
	rec = func(idx []int) {
		if len(idx) > 0 {
			check(gen(idx, "\n", true))
			if len(idx) <= 2 {
				for _, br := range splitBreaks {
					check(gen(idx, br, false))
					if br != "\n" {
						check(gen(idx, br, true))
					}
				}
			}
		}
		if len(idx) == 3 || t.Failed() {
			return
		}
		for k := 0; k < n; k++ {
			rec(append(idx, k))
		}
	}
	rec(nil)
	r := rand.New(rand.NewPCG(15, 1))
	for i := 0; i < 10000 && !t.Failed(); i++ {
		idx := make([]int, 3+r.IntN(5))
		for j := range idx {
			idx[j] = r.IntN(n)
		}
		check(gen(idx, splitBreaks[r.IntN(len(splitBreaks))], r.IntN(2) == 0))
	}
	t.Logf("%d streams compared", count)
}

// TestEmptyDocumentThenHPA is issue 15's first case: a document after an
// empty one was dropped; and a byte order mark after "---" dropped the
// document too (cat a.yaml b.yaml, where b.yaml starts with one).
func TestEmptyDocumentThenHPA(t *testing.T) {
	hpa := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\n"
	for _, src := range []string{
		"---\n---\n" + hpa,
		"--- # one\n---\n" + hpa,
		"a: 1\n---\n---\n" + hpa,
		"a: 1\n---\n\ufeff" + hpa,
		"---\n\ufeff" + hpa,
		"a: 1\r---\r" + strings.ReplaceAll(hpa, "\n", "\r"),
	} {
		f := parse(t, src)
		var kinds []string
		for _, o := range f.Objects() {
			kinds = append(kinds, o.Kind)
		}
		if len(kinds) == 0 || kinds[len(kinds)-1] != "HorizontalPodAutoscaler" {
			t.Errorf("%q: objects %v, want the HPA last", src, kinds)
		}
		for _, p := range f.Problems() {
			t.Errorf("%q: %s %s", src, p.Rule, p.Message)
		}
	}
}

// TestMarkBeforeKey: a byte order mark that starts a key's line inside a
// document is reported where it is, not read as part of the key in
// silence ("\ufeffkind" hides the kind); one that readers drop is not.
func TestMarkBeforeKey(t *testing.T) {
	f := parse(t, "apiVersion: v1\n\ufeffkind: Service\n")
	ps := f.Problems()
	if len(ps) != 1 || ps[0].Rule != "yaml-syntax" || !strings.Contains(ps[0].Message, "byte order mark") {
		t.Fatalf("problems %+v", ps)
	}
	if line, col := f.Position(ps[0].Pos); line != 2 || col != 1 {
		t.Errorf("at %d:%d, want 2:1", line, col)
	}
	for _, src := range []string{"\ufeffkind: Service\n", "a: 1\n---\n\ufeffkind: Service\n", "a: |\n  x\n  \ufeffy\n"} {
		if ps := parse(t, src).Problems(); len(ps) != 0 {
			t.Errorf("%q: %+v", src, ps)
		}
	}
}
