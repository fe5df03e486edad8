package fastyaml_test

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/manifest/internal/fastyaml"
)

// fastYAMLv3 parses src as the fallback does, turning a parser panic into an
// error.
func fastYAMLv3(src []byte) (n *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml.v3 panicked: %v", r)
		}
	}()
	n = new(yaml.Node)
	err = yaml.Unmarshal(src, n)
	return n, err
}

func fastStripComments(n *yaml.Node) {
	if n == nil {
		return
	}
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	for _, c := range n.Content {
		fastStripComments(c)
	}
}

// fastNodeDiff describes the first difference between two trees, or is "".
func fastNodeDiff(got, want *yaml.Node, path string) string {
	if got == nil || want == nil {
		if got != want {
			return fmt.Sprintf("%s: got %v, want %v", path, got, want)
		}
		return ""
	}
	type field struct {
		name      string
		got, want any
	}
	for _, f := range []field{
		{"Kind", got.Kind, want.Kind},
		{"Style", got.Style, want.Style},
		{"Tag", got.Tag, want.Tag},
		{"Value", got.Value, want.Value},
		{"Anchor", got.Anchor, want.Anchor},
		{"Line", got.Line, want.Line},
		{"Column", got.Column, want.Column},
		{"HeadComment", got.HeadComment, want.HeadComment},
		{"LineComment", got.LineComment, want.LineComment},
		{"FootComment", got.FootComment, want.FootComment},
		{"Alias", got.Alias != nil, want.Alias != nil},
		{"Content==nil", got.Content == nil, want.Content == nil},
		{"len(Content)", len(got.Content), len(want.Content)},
	} {
		if f.got != f.want {
			return fmt.Sprintf("%s (%d:%d %q): %s = %#v, yaml.v3 has %#v", path, want.Line, want.Column, want.Value, f.name, f.got, f.want)
		}
	}
	for i := range got.Content {
		if d := fastNodeDiff(got.Content[i], want.Content[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// parse is fastyaml.Parse into fresh memory.
func parse(src []byte) (*yaml.Node, bool) { return fastyaml.Parse(src, nil) }

// checkFast runs Parse on src and, when it accepts, compares its tree
// with yaml.v3's, comments cleared on both sides.
func checkFast(src []byte) (accepted bool, err error) {
	if err := checkBound(src); err != nil {
		return false, err
	}
	got, ok := parse(src)
	if !ok {
		if got != nil {
			return false, errors.New("Parse declined but returned a node")
		}
		return false, nil
	}
	want, werr := fastYAMLv3(src)
	if werr != nil {
		return true, fmt.Errorf("Parse accepted a document yaml.v3 rejects: %v", werr)
	}
	fastStripComments(got)
	fastStripComments(want)
	if d := fastNodeDiff(got, want, "doc"); d != "" {
		return true, errors.New(d)
	}
	if !reflect.DeepEqual(got, want) {
		return true, errors.New("trees differ (reflect.DeepEqual)")
	}
	return true, nil
}

// checkBound checks that NodeBound is never below the nodes yaml.v3
// builds for src (counted in its tree, an alias as one node).
func checkBound(src []byte) error {
	want, err := fastYAMLv3(src)
	if err != nil {
		return nil // yaml.v3 stops at the error; what it built before is counted too, but not checked here
	}
	n := countNodes(want)
	if b, _ := fastyaml.NodeBound(src, math.MaxInt); b < n {
		return fmt.Errorf("NodeBound %d, below the %d nodes yaml.v3 builds", b, n)
	}
	return nil
}

func countNodes(n *yaml.Node) int {
	c := 1
	for _, k := range n.Content {
		c += countNodes(k)
	}
	return c
}

type fastDoc struct {
	name string
	src  []byte
}

// fastCorpusDocs splits every .yaml, .yml and .json file under root into
// documents as File parsing does.
func fastCorpusDocs(t testing.TB, root string) []fastDoc {
	t.Helper()
	var docs []fastDoc
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch filepath.Ext(path) {
		case ".yaml", ".yml", ".json":
		default:
			return nil
		}
		content, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f := manifest.Parse(token.NewFileSet(), path, content, manifest.Options{SplitOnly: true})
		for i, d := range f.Docs {
			docs = append(docs, fastDoc{fmt.Sprintf("%s#%d", path, i), content[d.Start:d.End]})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// fastRealworldDocs are the documents of testdata/realworld.
func fastRealworldDocs(t testing.TB) []fastDoc {
	docs := fastCorpusDocs(t, filepath.Join("..", "..", "..", "..", "testdata", "realworld"))
	if len(docs) == 0 {
		t.Fatal("no documents under testdata/realworld")
	}
	return docs
}

// fastGeneratedDocs generates the benchmark corpus of n services
// (testdata/bench/gen_corpus.py) into a temporary directory and returns
// its documents, or nil (with the reason) when python3 or the generator is
// missing.
func fastGeneratedDocs(t testing.TB, services int) ([]fastDoc, string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		return nil, "python3 not found"
	}
	script := filepath.Join("..", "..", "..", "..", "testdata", "bench", "gen_corpus.py")
	if _, err := os.Stat(script); err != nil {
		return nil, err.Error()
	}
	out := filepath.Join(t.TempDir(), "corpus")
	cmd := exec.Command(python, script, out, fmt.Sprint(services))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, b)
	}
	return fastCorpusDocs(t, out), ""
}

type fastAcceptance struct{ docs, accepted, bytes, acceptedBytes int }

func (a fastAcceptance) String() string {
	return fmt.Sprintf("%d/%d documents (%.1f%%), %d/%d bytes (%.1f%%)",
		a.accepted, a.docs, 100*float64(a.accepted)/float64(a.docs),
		a.acceptedBytes, a.bytes, 100*float64(a.acceptedBytes)/float64(a.bytes))
}

func fastDifferential(t *testing.T, docs []fastDoc) fastAcceptance {
	t.Helper()
	var a fastAcceptance
	for _, d := range docs {
		accepted, err := checkFast(d.src)
		if err != nil {
			t.Errorf("%s: %v\n%s", d.name, err, d.src)
			continue
		}
		a.docs++
		a.bytes += len(d.src)
		if accepted {
			a.accepted++
			a.acceptedBytes += len(d.src)
		}
	}
	return a
}

func TestParseRealworld(t *testing.T) {
	a := fastDifferential(t, fastRealworldDocs(t))
	t.Logf("testdata/realworld: Parse accepted %v", a)
	if a.accepted == 0 {
		t.Error("Parse accepted no real-world document")
	}
}

func TestParseGeneratedCorpus(t *testing.T) {
	docs, why := fastGeneratedDocs(t, 300)
	if docs == nil {
		t.Fatalf("generated corpus not checked: %s (python3 runs testdata/bench/gen_corpus.py)", why)
	}
	a := fastDifferential(t, docs)
	t.Logf("generated corpus (300 services): Parse accepted %v", a)
	if a.acceptedBytes*100 < a.bytes*95 {
		t.Errorf("Parse accepted %v; want at least 95%% of the bytes", a)
	}
}

// fastCases are inputs Parse must either accept with yaml.v3's tree
// (accept=true) or decline; the declined ones are outside the subset or
// invalid.
var fastCases = []struct {
	src    string
	accept bool
}{
	{"a: 1\nb:\nc: x\n", true},
	{"# c\n\n  a: 1\n  b: [x, 'y', \"z\"]\n", true},
	{"# c\n---\na:\n- x\n-\n- y\n", true},
	{"--- # comment\na: 1\n", true},
	{"\ufeffa: 1\r\nb: \"é\" # c\r\n", true},
	{"- a:\n- \n-   b: 1\n    c: 2\n", true},
	{"- - a\n  - b\n- - - c\n", true},
	{"a:\n  - x\n  - y: 1\n    z:\n    - w\n  -\nb: ~\n", true},
	{"k: {}\nl: []\nm: {a: 1, \"b\": [x, {c: d}], 'e':f}\n", true},
	{"key : value\n\"q\" : 'it''s'\n", true},
	{"a: \"\\t\\x41\\u00e9\\U0001F600\\N\\_\\L\\P\\0\\/\"\n", false}, // \/ is not a yaml.v3 escape
	{"a: \"\\t\\x41\\u00e9\\U0001F600\\N\\_\\L\\P\\0 \\\" \\\\\"\n", true},
	{"n: [1, 0x1F, 0o17, 017, 1_000, -0b101, 1e3, .5, +.inf, .NaN, 2001-12-14, 2001-12-14t21:59:43.10Z, 1.2.3, 1d, 0b2]\n", true},
	{"t: [true, True, TRUE, tRue, yes, on, null, Null, ~, '', <<, y, n]\n", true},
	{"<<: {a: 1}\n", true},
	{"- .0_0\n", true}, // found by FuzzParse: a float to yaml.v3
	{"日本: 語 # c\n  # indented comment\nx: \"😀\"\n", true},
	{"a: |\n  line one\n    line two\n\n  three\n\n\nb: >-\n  folded\n  text\n\n   more\n  end\nc: |+\n  keep\n\n", true},
	{"- |\n  x\n- >\n  y\n  z\n-\n", true},
	{"a: |\n  x\n  # not a comment\n# a comment\nb: 1\n", true},
	{"a: |\nb: 1\n", false}, // an empty block scalar
	{"a: |2\n   x\n", false},
	{"a: &x 1\nb: *x\n", false},
	{"a: !!str 1\n", false},
	{"a: b\n  c\n", true}, // a multi-line plain scalar
	{"a: 'b\n  c'\n", true},
	{"a: b\n\n  c\n\n\n  d # x\nz: 1\n", true},
	{"a: b\n\n  c\n\n\n  d # x\n  e\n", false},
	{"a: b\n  - c\n   d: e\n", false},
	{"a: b\n  - c\n  -d\n", true},
	{"- a\n  b\n- c\n d\n", true},
	{"- a\n  b: c\n", false},
	{"a:\n  b\n  c\n", true},
	{"a:\n  b\n  c: d\n", false},
	{"a: b\n  #c\n  d\n", false},
	{"a: b\n \t c\n", false},
	{"a: 1\n  2\n", true},
	{"a: \"x \\\n  y\"\n", true},
	{"a: \"x \\\n\n  y\"\n", true},
	{"a: \"x\n\n  y  \n  z\\t \"\n", true},
	{"a: 'x''\n  y  ''\n\n\n   z'\n", true},
	{"a: 'x\n'\n", false},
	{"- 'x\n  y'\n- \"a\n  b\"\n", true},
	{"'a\n  b': c\n", false},
	{"a:\n  'x\n   y': z\n", false},
	{"a: 'x\n  y' z\n", false},
	{"a: 'x\n  y'", true},
	{"a: 'x\n  y", false},
	{"a: 1\n---\n# c\n\n", true},
	{"a: |\n  x\n---\n", true},
	{"a: 1\n--- x\n", false},
	{"? a\n: b\n", false},
	{"%YAML 1.2\n---\na: 1\n", false},
	{"a: 1\n...\n", true},
	{"a: 1\n... # c\n#d\n", true},
	{"a: 1\n...\nb: 2\n", false},
	{"a: 1\n---\nb: 2\n", false},
	{"a:\tb\n", false},
	{"a: b: c\n", false},
	{"a: - b\n", false},
	{"a: 1\n b: 2\n", false},
	{"a:\n    b: 1\n  c: 2\n", false},
	{"- a: 1\n b: 2\n", false},
	{"a: 1\n- b\n", false},
	{"- a\nb: 1\n", false},
	{"a: [b\n", false},
	{"a: [b,]\n", false},
	{"a: {b}\n", false},
	{"a: \"x\"#c\n", false},
	{"a: \"x\" y\n", false},
	{"a: \x01\n", false},
	{"a: \xff\n", false},
	{"a: b\rc: d\n", false},
	{"", false},
	{"# only a comment\n", false},
	{"---\n", false},
	{"scalar\n", false},
	{"[a, b]\n", false},
	{"a: 1\nb", false},
	{"a:\n  - b\n  c: d\n", false},
}

func TestParseCases(t *testing.T) {
	for _, c := range fastCases {
		accepted, err := checkFast([]byte(c.src))
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		if accepted != c.accept {
			t.Errorf("%q: accepted = %v, want %v", c.src, accepted, c.accept)
		}
	}
}

func TestParseLimits(t *testing.T) {
	for _, c := range []struct {
		src    string
		accept bool
	}{
		{strings.Repeat("- ", 150) + "x\n", true},
		{strings.Repeat("- ", 250) + "x\n", false},
		{"a: " + strings.Repeat("[", 150) + strings.Repeat("]", 150) + "\n", true},
		{"a: " + strings.Repeat("[", 250) + strings.Repeat("]", 250) + "\n", false},
		{strings.Repeat("k", 1000) + ": v\n", true},
		{strings.Repeat("k", 1001) + ": v\n", false}, // yaml.v3's limit is 1024 characters
		{strings.Repeat("é", 500) + ": v\n", true},
		{"a: " + strings.Repeat("long value ", 10000) + "\n", true},
	} {
		accepted, err := checkFast([]byte(c.src))
		if err != nil {
			t.Errorf("%.40q: %v", c.src, err)
		} else if accepted != c.accept {
			t.Errorf("%.40q: accepted = %v, want %v", c.src, accepted, c.accept)
		}
	}
}

func TestParseAttachesNoComments(t *testing.T) {
	doc, ok := parse([]byte("# head\na: 1 # line\n# foot\n"))
	if !ok {
		t.Fatal("declined")
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.HeadComment != "" || n.LineComment != "" || n.FootComment != "" {
			t.Errorf("node %d:%d has comments", n.Line, n.Column)
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(doc)
}

func TestResolvePlainTag(t *testing.T) {
	values := []string{
		"", "~", "null", "true", "False", "yes", "no", "on", "0", "-0", "+1", "007", "08", "0x_1F",
		"0xG", "0b101", "-0b101", "0b", "0o17", "-0o17", "0o8", "1_000", "1__0", "_1", "1e3", "1E+3",
		"1e", ".5", ".", "..", ".e1", "-.5", "+.inf", "-.Inf", ".nan", "1.", "1.2.3", "9223372036854775807",
		"9223372036854775808", "18446744073709551616", "-9223372036854775809", "1e400", "0.1e-400",
		"2001-12-14", "2001-12-14t21:59:43.10Z", "2001-12-14 21:59:43.10", "2001-12-14 21:59:43.10 -5",
		"2001-13-14", "20011-12-14", "100m", "2Gi", "25%", "1d", "0x1p-2", "0X1F", "+0x1F", "-0x1F",
		"<<", "infinity", "+", "-", "0.", "-.", "+.5e-3", "1_2.5", "0b1_0", "0o1_7",
		// Found by FuzzParse: ParseFloat takes Go's digit separators.
		".0_0", "._5", ".5_", ".1_2e1_0", ".1e_1", "-.0_0", "+1_0.0_1",
	}
	// And random strings over the characters of numbers and timestamps.
	r := rand.New(rand.NewPCG(3, 7))
	const alphabet = "0123456789012345678901234567890123456789._-+eExXoObBaAfFpPiInN:tTzZ "
	for range 10000 {
		b := make([]byte, 1+r.IntN(10))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		values = append(values, string(b))
	}
	for _, v := range values {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte("- "+v), &n); err != nil {
			continue
		}
		s := n.Content[0].Content[0]
		if s.Kind != yaml.ScalarNode || s.Style != 0 || s.Value != v {
			continue // not a plain scalar holding v
		}
		if got := fastyaml.ResolvePlainTag(v); got != s.Tag {
			t.Errorf("resolvePlainTag(%q) = %s, yaml.v3 gives %s", v, got, s.Tag)
		}
	}
}

// fastYAMLGen builds random documents: well-formed block structure made of
// fragments mostly inside the supported subset, then a few perturbed lines
// (indentation off by one, a fragment just outside the subset), so that
// the differential check meets the subset's edges far more often than
// byte mutation does.
type fastYAMLGen struct {
	r     *rand.Rand
	lines []string
}

func (g *fastYAMLGen) pick(s ...string) string { return s[g.r.IntN(len(s))] }

func (g *fastYAMLGen) odds(n int) bool { return g.r.IntN(n) == 0 }

func (g *fastYAMLGen) key() string {
	if g.odds(6) {
		return g.pick(`"q"`, `'s'`, `"e\"s"`, "-x", "?x", ":x", "1", "0x1F", "true", "~", "null", "<<", "a:b",
			"a#b", "日本", "-", "x y z", "k ", "", "'", `"`, "&a k", "[a]", "{a: 1}", "? k", "a #b", "ǅ😀")
	}
	return g.pick("name", "image", "replicas", "app.kubernetes.io/name", "cpu", "a", "b", "c", "port", "k8s")
}

func (g *fastYAMLGen) scalar() string {
	if g.odds(4) {
		return g.pick("1", "-1", "0x1F", "0o17", "017", "1_000", "1.5", ".5", "1e3", "+.inf", ".NaN", "true",
			"False", "yes", "null", "~", "a b", "a#b", "a #c", "a  b", "x: y", "x:y", "-", "- x", "-x", "'x''y'",
			"'a'b", `"e\tf"`, `"\x41\u00e9"`, `"\/"`, `"a\"b"`, `"\`, "[1, 2]", `[a b, 'c', "d"]`, "[]", "{}",
			"{a: b, c: [d]}", `{"a":1}`, "{a}", "[a,]", "[a, [b, {c: d}]]", "{a: }", "&a x", "*a", "!t x", "@x",
			"`x`", "%x", "'open", `"open`, "2001-12-14", "1.2.3", "<<", "a\tb", "é", "😀", "'a\tb'", "c # d # e",
			"a:", "[a]#c", "[a] x", "0.", "-.5", "+1", "0b101", "1d", "'", `""`, "''", "? x", ": x", "|x", ">x")
	}
	return g.pick("nginx:1.25", "100m", "2Gi", "80", "true", "web", `"quoted value"`, "'single'", "a b c", "25%",
		"v1", "Deployment", "http://x/y", "x # comment", `"a\nb"`, "-jar", "1.0")
}

// node appends the lines of a block node at column ind.
func (g *fastYAMLGen) node(ind, depth int) {
	if depth > 4 || g.odds(3) {
		g.seq(ind, depth)
		return
	}
	g.mapping(ind, depth)
}

func (g *fastYAMLGen) mapping(ind, depth int) {
	sp := strings.Repeat(" ", ind)
	for n := 1 + g.r.IntN(4); n > 0; n-- {
		g.mapEntry(sp+g.key()+":", ind, depth)
	}
}

// mapEntry appends a key's value after head ("key:" at column ind).
func (g *fastYAMLGen) mapEntry(head string, ind, depth int) {
	switch {
	case depth < 5 && g.odds(3):
		g.lines = append(g.lines, head+g.pick("", " # c", "  "))
		switch g.r.IntN(5) {
		case 0:
			g.seq(ind, depth+1) // indentless
		case 1:
			// empty value
		default:
			g.node(ind+1+g.r.IntN(4), depth+1)
		}
	case g.odds(8):
		g.blockScalar(head+" "+g.pick("|", ">", "|-", ">+", "|+", "| # c", "|2"), ind)
	case g.odds(10):
		g.multiline(head+" ", ind)
	default:
		g.lines = append(g.lines, head+" "+g.scalar()+g.pick("", "", " # c", "  "))
	}
}

func (g *fastYAMLGen) seq(ind, depth int) {
	sp := strings.Repeat(" ", ind)
	for n := 1 + g.r.IntN(4); n > 0; n-- {
		switch g.r.IntN(6) {
		case 0:
			if depth < 5 {
				// A compact mapping.
				inner := ind + 2 + g.r.IntN(2)
				g.mapEntry(sp+"-"+strings.Repeat(" ", inner-ind-1)+g.key()+":", inner, depth+1)
				for m := g.r.IntN(3); m > 0; m-- {
					g.mapEntry(strings.Repeat(" ", inner)+g.key()+":", inner, depth+1)
				}
				break
			}
			fallthrough
		case 1:
			g.lines = append(g.lines, sp+g.pick("-", "- # c", "-  "))
			if depth < 5 && !g.odds(3) {
				g.node(ind+1+g.r.IntN(3), depth+1)
			}
		case 2:
			g.blockScalar(sp+"- "+g.pick("|", ">-", "|+"), ind)
		case 3:
			if g.odds(3) {
				g.multiline(sp+"- ", ind)
				break
			}
			fallthrough
		default:
			g.lines = append(g.lines, sp+"- "+g.scalar())
		}
	}
}

func (g *fastYAMLGen) blockScalar(head string, ind int) {
	g.lines = append(g.lines, head)
	in := strings.Repeat(" ", ind+1+g.r.IntN(3))
	for n := g.r.IntN(5); n > 0; n-- {
		g.lines = append(g.lines, g.pick(in+"text", in+"  more", "", in, in+"   ", in+"# not a comment", in+"\ttab", in+"a: b", in+"- x"))
	}
}

// multiline appends a plain or quoted scalar over several lines.
func (g *fastYAMLGen) multiline(head string, ind int) {
	q := g.pick("", "", "'", `"`)
	in := strings.Repeat(" ", ind+1+g.r.IntN(3))
	g.lines = append(g.lines, head+q+g.pick("first", "first  ", "a'' b", `a\"b`, `x \`, "x#y"))
	for n := g.r.IntN(3); n > 0; n-- {
		g.lines = append(g.lines, g.pick(in+"next", in+"  spaced  ", "", in, in+"- dash", in+"k: v", in+"# c", in+"x # c", in+`\`, in+"a''b"))
	}
	g.lines = append(g.lines, in+"last"+q+g.pick("", "", " # c", "x"))
}

func fastRandomYAML(r *rand.Rand) []byte {
	g := &fastYAMLGen{r: r}
	var b strings.Builder
	if g.odds(6) {
		b.WriteString(g.pick("---\n", "--- # c\n", "# c\n---\n", "\ufeff", "%YAML 1.2\n---\n", "--- x\n", "# c\n\n"))
	}
	g.node([]int{0, 0, 0, 2}[g.r.IntN(4)], 0)
	if g.odds(8) {
		g.lines = append(g.lines, g.pick("---", "...", "--- # c", "# end", "", "---\nx: 1"))
	}
	// Perturb a few lines.
	for n := g.r.IntN(3); n > 0 && len(g.lines) > 0; n-- {
		i := g.r.IntN(len(g.lines))
		switch g.r.IntN(6) {
		case 0:
			g.lines[i] = " " + g.lines[i]
		case 1:
			g.lines[i] = strings.TrimPrefix(g.lines[i], " ")
		case 2:
			g.lines = slices.Insert(g.lines, i, g.pick("", "# c", "  # c", "\t", "  ", "#"))
		case 3:
			g.lines[i] += g.pick(" x", ":", " # c", "\t", " ]", "'", `"`)
		case 4:
			g.lines = slices.Insert(g.lines, i, strings.Repeat(" ", g.r.IntN(6))+g.pick("words", "- x", "k: v", "'q'", "[a]"))
		default:
			g.lines = slices.Delete(g.lines, i, i+1)
		}
	}
	nl := "\n"
	if g.odds(8) {
		nl = "\r\n"
	}
	b.WriteString(strings.Join(g.lines, nl))
	if !g.odds(5) {
		b.WriteString(nl)
	}
	return []byte(b.String())
}

// TestParseRandom checks Parse against yaml.v3 on generated
// documents; FASTYAML_RANDOM sets how many (default 20,000).
func TestParseRandom(t *testing.T) {
	n := 20000
	if s := os.Getenv("FASTYAML_RANDOM"); s != "" {
		fmt.Sscan(s, &n)
	}
	seed := uint64(1)
	if s := os.Getenv("FASTYAML_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	accepted, failures := 0, 0
	for i := 0; i < n && failures < 10; i++ {
		src := fastRandomYAML(r)
		ok, err := checkFast(src)
		if err != nil {
			failures++
			t.Errorf("%q: %v", src, err)
		}
		if ok {
			accepted++
		}
	}
	t.Logf("Parse accepted %d of %d generated documents", accepted, n)
}

// FuzzParse checks that Parse never panics and, whenever it
// accepts a document, builds yaml.v3's tree.
func FuzzParse(f *testing.F) {
	for _, c := range fastCases {
		f.Add([]byte(c.src))
	}
	for _, d := range fastRealworldDocs(f) {
		f.Add(d.src)
	}
	r := rand.New(rand.NewPCG(1, 7))
	for range 300 {
		f.Add(fastRandomYAML(r))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, err := checkFast(src); err != nil {
			t.Fatalf("%q: %v", src, err)
		}
	})
}

// BenchmarkParse compares Parse with yaml.Unmarshal into a
// yaml.Node on the generated corpus's Deployments (testdata/realworld's
// when python3 is missing).
func BenchmarkParse(b *testing.B) {
	docs, why := fastGeneratedDocs(b, 100)
	if docs == nil {
		b.Logf("generated corpus unavailable (%s); using testdata/realworld", why)
		docs = fastRealworldDocs(b)
	}
	var deployments [][]byte
	size := 0
	for _, d := range docs {
		if bytes.Contains(d.src, []byte("\nkind: Deployment\n")) {
			deployments = append(deployments, d.src)
			size += len(d.src)
		}
	}
	if len(deployments) == 0 {
		b.Fatal("no Deployments")
	}
	accepted := 0
	for _, d := range deployments {
		if _, ok := parse(d); ok {
			accepted++
		}
	}
	b.Logf("%d Deployments, %d bytes; Parse accepts %d", len(deployments), size, accepted)
	b.Run("fastyaml.Parse", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			for _, d := range deployments {
				if _, ok := parse(d); !ok {
					var n yaml.Node
					_ = yaml.Unmarshal(d, &n)
				}
			}
		}
	})
	b.Run("yaml.v3", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			for _, d := range deployments {
				var n yaml.Node
				_ = yaml.Unmarshal(d, &n)
			}
		}
	})
}

func TestFastCheckText(t *testing.T) {
	// Byte values at every position of a line.
	for _, c := range []int{0, 1, 9, 10, 13, 0x1F, 0x20, 0x41, 0x7E, 0x7F, 0x80, 0xC3, 0xFF} {
		for pos := 0; pos < 20; pos++ {
			src := []byte(strings.Repeat("a", 20))
			src[pos] = byte(c)
			want := c >= 0x20 && c < 0x7F || c == '\t' || c == '\n'
			_, _, ok := fastyaml.CheckText(src)
			if ok != want {
				t.Errorf("byte %#x at %d: ok = %v, want %v", c, pos, ok, want)
			}
		}
	}
	for _, c := range []struct {
		s         string
		n         int
		ascii, ok bool
	}{
		{"a: b\nc: d\n", 2, true, true},
		{"a: b\r\nc: d\r\n", 2, true, true},
		{"abcdefgh\rijk\n", 0, false, false},
		{"abcdefghé\n", 1, false, true},
		{"abcdefgh\u0085", 0, false, false},
		{"abcdefgh\u2028", 0, false, false},
		{"abcdefgh\ufeff", 0, false, false},
		{"abcdefgh\ufffd\U0001F600", 0, false, true},
		{"abcdefgh\xed\xa0\x80", 0, false, false}, // a surrogate
		{"abcdefgh\xc0\x80", 0, false, false},     // overlong
	} {
		n, ascii, ok := fastyaml.CheckText([]byte(c.s))
		if ok != c.ok || ok && (n != c.n || ascii != c.ascii) {
			t.Errorf("%q: %d %v %v, want %d %v %v", c.s, n, ascii, ok, c.n, c.ascii, c.ok)
		}
	}
}

// TestCheckAsParse: Check, which builds the tree over src's memory
// without copying it, accepts what Parse accepts, and leaves src as it
// was, on the parser's cases and the documents of testdata/realworld.
func TestCheckAsParse(t *testing.T) {
	var srcs [][]byte
	for _, c := range fastCases {
		srcs = append(srcs, []byte(c.src))
	}
	for _, d := range fastRealworldDocs(t) {
		srcs = append(srcs, d.src)
	}
	accepted, declined := 0, 0
	for _, src := range srcs {
		before := bytes.Clone(src)
		_, want := fastyaml.Parse(src, nil)
		var a fastyaml.Arena
		got := fastyaml.Check(src, &a)
		a.Recycle()
		if got != want {
			t.Errorf("%.80q: Check = %v, Parse accepted %v", src, got, want)
		}
		if !bytes.Equal(src, before) {
			t.Errorf("%.80q: Check changed its input", before)
		}
		if want {
			accepted++
		} else {
			declined++
		}
	}
	if accepted == 0 || declined == 0 {
		t.Errorf("%d documents accepted, %d declined: want some of both", accepted, declined)
	}
}
