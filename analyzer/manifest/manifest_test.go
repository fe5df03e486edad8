package manifest

import (
	"fmt"
	"go/token"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest/lines"
)

func parse(t *testing.T, src string) *File {
	t.Helper()
	return Parse(token.NewFileSet(), "test.yaml", []byte(src), Options{})
}

// span returns the text a node covers, by its computed start and end.
func span(f *File, o *Object, path string) string {
	n := o.Get(ParsePath(path))
	if n == nil {
		return "<missing>"
	}
	return string(f.Text()[f.Offset(n):f.EndOffset(n)])
}

func TestPositionsAndEnds(t *testing.T) {
	src := "apiVersion: autoscaling/v2\n" +
		"kind: HorizontalPodAutoscaler\n" +
		"metadata:\n" +
		"  name: \"日本😀\" # a comment\n" +
		"  annotations: {a: 'it''s', b: \"x\\\"y\"}\n" +
		"spec:\n" +
		"  maxReplicas: 10\n" +
		"  description: |\n" +
		"    line one\n" +
		"      line two\n" +
		"\n" +
		"  plain: a long\n" +
		"    folded value\n" +
		"  list: [1, 2 ,3 ]\n" +
		"  anchored: &a !!str hello\n" +
		"  empty:\n" +
		"  last: 日本語\n"
	f := parse(t, src)
	o := f.Objects()[0]
	for path, want := range map[string]string{
		"metadata.name":          `"日本😀"`,
		`metadata.annotations.a`: `'it''s'`,
		`metadata.annotations.b`: `"x\"y"`,
		"metadata.annotations":   `{a: 'it''s', b: "x\"y"}`,
		"spec.maxReplicas":       "10",
		"spec.description":       "|\n    line one\n      line two",
		"spec.plain":             "a long\n    folded value",
		"spec.list":              "[1, 2 ,3 ]",
		"spec.list[2]":           "3",
		"spec.anchored":          "&a !!str hello",
		"spec.empty":             "",
		"spec.last":              "日本語",
		"spec":                   "maxReplicas: 10\n  description: |\n    line one\n      line two\n\n  plain: a long\n    folded value\n  list: [1, 2 ,3 ]\n  anchored: &a !!str hello\n  empty:\n  last: 日本語",
	} {
		if got := span(f, o, path); got != want {
			t.Errorf("%s: span %q, want %q", path, got, want)
		}
	}
	// Columns count code points: "  last: " is 8 of them before the value.
	line, col := f.Position(f.Pos(o.Get(ParsePath("spec.last"))))
	if line != 17 || col != 9 {
		t.Errorf("spec.last at %d:%d, want 17:9", line, col)
	}
	// After the value's 3 CJK code points (9 bytes), the end column is 12.
	_, col = f.Position(f.End(o.Get(ParsePath("spec.last"))))
	if col != 12 {
		t.Errorf("end column %d, want 12", col)
	}
}

func TestMultibyteBeforeFieldColumn(t *testing.T) {
	// An emoji (1 code point, 4 bytes, 2 UTF-16 units) and CJK text before a
	// field on the same line, in flow style.
	src := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: \"😀日本\", namespace: x}\nspec: {maxReplicas: 5}\n"
	f := parse(t, src)
	o := f.Objects()[0]
	n := o.Get(ParsePath("metadata.namespace"))
	line, col := f.Position(f.Pos(n))
	// `metadata: {name: "😀日本", namespace: ` is 35 code points (53 bytes);
	// the value is the 36th.
	if line != 3 || col != 36 {
		t.Fatalf("namespace value at %d:%d, want 3:36", line, col)
	}
	if off := f.Offset(n); string(f.Text()[off:off+1]) != "x" {
		t.Fatalf("offset %d points at %q", off, f.Text()[off:off+1])
	}
}

func TestBOMAndCRLF(t *testing.T) {
	src := "\ufeffapiVersion: apps/v1\r\nkind: Deployment\r\nmetadata:\r\n  name: web\r\nspec:\r\n  replicas: 3\r\n"
	f := parse(t, src)
	objs := f.Objects()
	if len(objs) != 1 || objs[0].Name != "web" {
		t.Fatalf("objects: %+v", objs)
	}
	n := objs[0].Get(ParsePath("spec.replicas"))
	if got := span(f, objs[0], "spec.replicas"); got != "3" {
		t.Errorf("replicas span %q", got)
	}
	line, col := f.Position(f.Pos(n))
	if line != 6 || col != 13 {
		t.Errorf("replicas at %d:%d, want 6:13", line, col)
	}
	// The BOM is not a column: apiVersion starts at 1:1.
	line, col = f.Position(f.Pos(objs[0].Root().Content[0]))
	if line != 1 || col != 1 {
		t.Errorf("apiVersion key at %d:%d, want 1:1", line, col)
	}
}

func TestMultiDocumentLinesAndLists(t *testing.T) {
	src := "# leading comment\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: s\n---\n# Source: chart/templates/hpa.yaml\napiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: a\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: b\n  spec:\n    replicas: 2\n...\n---\n{\"apiVersion\": \"apps/v1\", \"kind\": \"StatefulSet\", \"metadata\": {\"name\": \"j\"}}\n"
	f := parse(t, src)
	if len(f.Docs) != 3 {
		t.Fatalf("%d documents, want 3", len(f.Docs))
	}
	if f.Docs[1].Source != "chart/templates/hpa.yaml" {
		t.Errorf("source %q", f.Docs[1].Source)
	}
	objs := f.Objects()
	var names []string
	for _, o := range objs {
		names = append(names, o.Kind+"/"+o.Name)
	}
	if got := strings.Join(names, " "); got != "Service/s Deployment/a Deployment/b StatefulSet/j" {
		t.Fatalf("objects %s", got)
	}
	b := objs[2]
	line, col := f.Position(f.Pos(b.Get(ParsePath("spec.replicas"))))
	if line != 21 || col != 15 {
		t.Errorf("b replicas at %d:%d, want 21:15", line, col)
	}
	if b.ListItem != 1 {
		t.Errorf("list item %d", b.ListItem)
	}
	w := b.Typed().(*Workload)
	if w.Replicas == nil || *w.Replicas != 2 {
		t.Errorf("typed replicas %v", w.Replicas)
	}
	j := objs[3]
	if got := span(f, j, "metadata.name"); got != `"j"` {
		t.Errorf("json name span %q", got)
	}
}

func TestTypedDecodeErrorsArePositioned(t *testing.T) {
	src := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: h\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 1\n  maxReplicas: \"ten\"\n  behaviour:\n    scaleDown: {}\n  metrics:\n  - type: Resource\n    resource:\n      name: cpu\n      target: {type: Utilization, averageValue: lots}\n"
	f := parse(t, src)
	var msgs []string
	for _, p := range f.Problems() {
		line, col := f.Position(p.Pos)
		msgs = append(msgs, p.Rule+"@"+strconv.Itoa(line)+":"+strconv.Itoa(col)+" "+p.Message)
	}
	got := strings.Join(msgs, "\n")
	for _, want := range []string{
		`invalid-field@8:16 spec.maxReplicas: expected an integer, found string "ten"`,
		`invalid-field@15:49 spec.metrics[0].resource.target.averageValue: not a valid quantity`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	// Unknown fields are reported once the values decode.
	src2 := strings.Replace(strings.Replace(src, `"ten"`, "10", 1), "averageValue: lots", "averageUtilization: 50", 1)
	f2 := parse(t, src2)
	ps := f2.Problems()
	if len(ps) != 1 || !strings.Contains(ps[0].Message, `unknown field "spec.behaviour" (did you mean "behavior"?)`) {
		t.Fatalf("problems %+v", ps)
	}
	if line, col := f2.Position(ps[0].Pos); line != 9 || col != 3 {
		t.Errorf("unknown field at %d:%d, want 9:3", line, col)
	}
}

func TestSyntaxErrorsArePositioned(t *testing.T) {
	f := parse(t, "apiVersion: v1\nkind: ConfigMap\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n\tname: x\n")
	ps := f.Problems()
	if len(ps) != 1 || ps[0].Rule != "yaml-syntax" {
		t.Fatalf("problems %+v", ps)
	}
	if line, col := f.Position(ps[0].Pos); line != 7 || col != 1 {
		t.Errorf("syntax error at %d:%d, want 7:1", line, col)
	}
}

func TestTemplateFile(t *testing.T) {
	f := parse(t, "{{- if .Values.enabled }}\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}-web\n{{- end }}\n")
	ps := f.Problems()
	if !f.Template || len(ps) != 1 || ps[0].Rule != "template-file" {
		t.Fatalf("template %v problems %+v", f.Template, ps)
	}
	// Template text inside a quoted string is valid YAML: linted as usual.
	g := parse(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    summary: \"{{ $labels.instance }} down\"\n")
	if g.Template || len(g.Problems()) != 0 {
		t.Fatalf("quoted template text flagged: %+v", g.Problems())
	}
}

func TestLazyDocuments(t *testing.T) {
	// A file of kinds no rule reads is only sniffed.
	src := "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"
	f := Parse(token.NewFileSet(), "x.yaml", []byte(src), Options{Eager: IsReadKind})
	if f.Docs[0].Parsed() || f.Docs[1].Parsed() {
		t.Fatalf("eagerness: service parsed %v, configmap parsed %v", f.Docs[0].Parsed(), f.Docs[1].Parsed())
	}
	// A file with a kind rules read is parsed in full, so every syntax
	// error in it is found.
	mixed := Parse(token.NewFileSet(), "y.yaml", []byte(src+"---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n"), Options{Eager: IsReadKind})
	for i, d := range mixed.Docs {
		if !d.Parsed() {
			t.Errorf("mixed file: document %d not parsed", i)
		}
	}
	if f.Docs[0].Kind != "Service" {
		t.Errorf("sniffed kind %q", f.Docs[0].Kind)
	}
	if objs := f.Docs[0].Objects(); len(objs) != 1 || objs[0].Name != "s" {
		t.Fatalf("lazy objects %+v", objs)
	}
}

// TestLazyDocumentsSyntax: a file of kinds no rule reads still has its
// syntax checked, so a broken ConfigMap fails the run, while a valid one
// stays unparsed, and valid YAML outside the fast parser's subset (an
// anchor) passes. The expected error and its line are yaml.v3's own, on
// the broken document's text alone, moved to the document's first line.
func TestLazyDocumentsSyntax(t *testing.T) {
	const service = "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n---\n"
	cases := []struct {
		name, before, doc string
		broken            bool
	}{
		{"valid", "", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: b\n", false},
		{"anchor and alias", "", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: &l {a: b}\n  annotations: *l\n", false},
		{"bad indentation", "", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: b\n   c: d\n", true},
		{"unclosed flow, second document", service, "apiVersion: v1\nkind: Service\nmetadata:\n  name: t\nspec:\n  ports: [80\n", true},
	}
	for _, c := range cases {
		f := Parse(token.NewFileSet(), "x.yaml", []byte(c.before+c.doc), Options{Eager: IsReadKind})
		var got []string
		for _, p := range f.Problems() {
			got = append(got, fmt.Sprintf("%d %s", f.Tok.Position(p.Pos).Line, p.Message))
		}
		var n yaml.Node
		err := yaml.Unmarshal([]byte(c.doc), &n)
		if (err != nil) != c.broken {
			t.Fatalf("%s: yaml.v3 says %v, the case says broken=%v", c.name, err, c.broken)
		}
		if err == nil {
			if len(got) != 0 {
				t.Errorf("%s: problems %q, want none", c.name, got)
			}
			continue
		}
		m := yamlLineRe.FindStringSubmatch(err.Error()) // the parser's own reading of yaml.v3 errors
		line, _ := strconv.Atoi(m[1])
		if parserProblems[m[2]] {
			line++ // yaml.v3's parser errors name the line above (TestParserErrorLine, against PyYAML)
		}
		want := fmt.Sprintf("%d %s", line+strings.Count(c.before, "\n"), m[2])
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: problems %q, want [%q]", c.name, got, want)
		}
	}
	f := Parse(token.NewFileSet(), "x.yaml", []byte(cases[0].doc), Options{Eager: IsReadKind})
	if f.Docs[0].Parsed() {
		t.Errorf("a valid ConfigMap was kept parsed after its syntax check")
	}
}

// TestSplitOnly: a split-only parse (the language server's, which parses
// each document on its own afterwards) parses nothing: not a document
// the sniffer cannot read, not a broken one to check its syntax.
func TestSplitOnly(t *testing.T) {
	src := "kind: List\nitems: []\n---\napiVersion: v1\nkind: ConfigMap\ndata:\n  a: b\n   c: d\n---\napiVersion: apps/v1\nkind: Deployment\n"
	f := Parse(token.NewFileSet(), "x.yaml", []byte(src), Options{SplitOnly: true})
	if len(f.Docs) != 3 {
		t.Fatalf("%d documents, want 3", len(f.Docs))
	}
	for i, d := range f.Docs {
		if d.Parsed() {
			t.Errorf("document %d (%s) parsed", i, d.Kind)
		}
	}
	if d := f.Docs[2]; d.Kind != "Deployment" || d.Line != 9 {
		t.Errorf("third document sniffed as %q at line %d", d.Kind, d.Line)
	}
}

func TestHPAVersionsConvert(t *testing.T) {
	v1 := "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata: {name: a}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 4\n  targetCPUUtilizationPercentage: 70\n"
	b1 := "apiVersion: autoscaling/v2beta1\nkind: HorizontalPodAutoscaler\nmetadata: {name: b}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 4\n  metrics:\n  - type: Resource\n    resource: {name: cpu, targetAverageUtilization: 70}\n"
	for _, src := range []string{v1, b1} {
		f := parse(t, src)
		if ps := f.Problems(); len(ps) > 0 {
			t.Fatalf("problems %+v", ps)
		}
		h := f.Objects()[0].Typed().(*HPA)
		if len(h.Spec.Metrics) != 1 || *h.Spec.Metrics[0].Resource.Target.AverageUtilization != 70 || h.Spec.MaxReplicas != 4 {
			t.Errorf("%s: converted %+v", f.Objects()[0].APIVersion, h.Spec)
		}
	}
}

func TestKEDAValues(t *testing.T) {
	src := "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: c}\nspec:\n  scaleTargetRef: {name: web}\n  triggers:\n  - type: kafka\n    metadata:\n      lagThreshold: 50\n"
	f := parse(t, src)
	ps := f.Problems()
	// A number where KEDA's CRD wants a string is rejected by the API server.
	if len(ps) != 1 || !strings.Contains(ps[0].Message, `spec.triggers[0].metadata.lagThreshold: expected a string, found number 50`) {
		t.Fatalf("problems %+v", ps)
	}
	if KEDADefaultMaxReplicaCount() != 100 {
		t.Errorf("KEDA default max %d, want 100 (keda GetHPAMaxReplicas)", KEDADefaultMaxReplicaCount())
	}
}

func TestHostileAliasesAreRefused(t *testing.T) {
	src := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n  labels:\n    a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n    b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n    c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n    d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n    e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n    f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n    g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n    h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n    i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
	f := parse(t, src)
	ps := f.Problems()
	if len(ps) == 0 || !strings.Contains(ps[0].Message, "billion laughs") {
		t.Fatalf("problems %+v", ps)
	}
	rec := parse(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec: &s\n  template: *s\n")
	if len(rec.Problems()) == 0 {
		t.Fatalf("recursive alias not reported")
	}
}

func TestReleaseAndRestore(t *testing.T) {
	src := "apiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: a\n    annotations: {x: \"1\", scalelint.dev/pod-rate: \"1\"}\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: b\n  spec:\n    replicas: 2\n"
	f := parse(t, src)
	objs := f.Objects()
	before := span(f, objs[1], "spec.replicas")
	decoded := objs[1].Typed()
	if w, ok := decoded.(*Workload); !ok || w.Replicas == nil || *w.Replicas != 2 {
		t.Fatalf("decoded before release: %#v", decoded)
	}
	f.Release()
	if objs[1].node != nil || f.Docs[0].root != nil {
		t.Fatalf("release kept the trees")
	}
	// The Fields stay without the trees.
	// Only scalelint's annotations are kept (Object.Annotations).
	if objs[0].NameAt.Value != "a" || len(objs[0].Annotations) != 1 || objs[0].Annotations[0].Key != "scalelint.dev/pod-rate" || objs[0].Annotations[0].Value != "1" {
		t.Fatalf("fields after release: %+v %+v", objs[0].NameAt, objs[0].Annotations)
	}
	if got := span(f, objs[1], "spec.replicas"); got != before || got != "2" {
		t.Fatalf("restored span %q, want %q", got, before)
	}
	// Each list item gets its own node back, at its own span.
	for _, o := range objs {
		if got := o.FieldOf(nil, o.Root()); got.Pos != o.At.Pos || got.End != o.At.End {
			t.Fatalf("%s: reparsed at [%d, %d), was [%d, %d)", o, got.Pos, got.End, o.At.Pos, o.At.End)
		}
	}
	// The decoded object went with the tree; its type stays for type
	// switches, and Typed decodes it again, the same, for the caller.
	if n, ok := objs[1].TypedShape().(*Workload); !ok || n != nil || objs[1].typed.(*Workload) != nil {
		t.Fatalf("after release: TypedShape %#v, kept %#v", objs[1].TypedShape(), objs[1].typed)
	}
	if again := objs[1].Typed(); !reflect.DeepEqual(again, decoded) {
		t.Fatalf("decoded again after release:\n%#v\nwant\n%#v", again, decoded)
	}
	// A reparsed tree is the caller's alone: the released file keeps none.
	if objs[1].node != nil || f.Docs[0].root != nil || objs[1].typed.(*Workload) != nil {
		t.Fatalf("reading a released object brought its tree or decode back for good")
	}
}

func TestMemoBuildsOnce(t *testing.T) {
	f := parse(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n")
	o := f.Objects()[0]
	builds := 0
	build := func() any { builds++; return builds }
	type key struct{}
	first, second := o.Memo(key{}, build), o.Memo(key{}, build)
	if first != 1 || second != 1 || builds != 1 {
		t.Fatalf("memo gave %v then %v, built %d times", first, second, builds)
	}
	f.Release()
	if o.Memo(key{}, build) != 1 {
		t.Fatalf("memo lost on release")
	}
}

// TestSharedLineTable checks that a file whose only line break is "\n"
// converts every yaml.v3 (line, column) to the same offset with the one
// table it shares with token.File as with yaml.v3's own table (lineStarts,
// built independently).
func TestSharedLineTable(t *testing.T) {
	for _, src := range []string{"", "a", "a\n", "a\nb", "a\n\nb\n", "\n", "\n\n", "kind: X\nmetadata:\n  name: é\n", "\ufeffkind: X\n"} {
		shared := Parse(token.NewFileSet(), "f.yaml", []byte(src), Options{})
		own := &File{}
		text := []byte(src)
		own.text.Store(&text)
		ownLines := lineStarts(text)
		own.yamlLines.Store(&ownLines)
		if len(src) > 0 && !sameBreaks(text) {
			t.Fatalf("%q: not a shared-table case", src)
		}
		lines := strings.Count(src, "\n") + 2
		for line := 1; line <= lines; line++ {
			for col := 1; col <= 4; col++ {
				if a, b := shared.offsetOf(line, col), own.offsetOf(line, col); a != b {
					t.Errorf("%q: line %d col %d: shared table gives %d, yaml.v3's %d", src, line, col, a, b)
				}
			}
		}
	}
}

func TestDropTextReadsAgainAndChecks(t *testing.T) {
	src := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n"
	f := parse(t, src)
	reads := 0
	disk := src
	f.DropText(func() ([]byte, error) { reads++; return []byte(disk), nil }, true)
	if f.text.Load() != nil || f.Tok.LineCount() != 1 {
		t.Fatalf("text or lines kept after DropText: %d lines", f.Tok.LineCount())
	}
	if n := f.Lines().LineCount(); n != 4 || reads != 1 {
		t.Fatalf("line table read again: %d lines, %d reads", n, reads)
	}
	if got := string(f.LineText(4)); got != "  name: a" || reads != 1 {
		t.Fatalf("line 4 after reading again: %q (%d reads)", got, reads)
	}
	f.LineText(1)
	if reads != 1 || f.TextErr() != nil {
		t.Fatalf("read %d times, error %v", reads, f.TextErr())
	}
	// Dropped again and changed on disk: same length, other bytes.
	f.DropText(nil, false)
	disk = strings.Replace(src, "name: a", "name: b", 1)
	text := f.Text()
	if f.TextErr() == nil || !strings.Contains(f.TextErr().Error(), "changed while scalelint read it") {
		t.Fatalf("a changed file was not reported: %v", f.TextErr())
	}
	// The offsets stay valid: blanks of the parsed size, one line (the
	// line table went with the text; the run reports the file and fails).
	if len(text) != len(src) || strings.Contains(string(text), "name") {
		t.Fatalf("text after a failed read: %q", text)
	}
	if line, col := f.Position(f.Tok.Pos(len(src) - 2)); line != 1 || col != len(src)-1 {
		t.Fatalf("position after a failed read: %d:%d", line, col)
	}
}

// TestLineBoundsMatchesLines checks LineBounds at every offset against
// the line table (Lines: the independent reference), for each kind of
// line break and a last line with and without one, on a file holding its
// text and on one whose text was dropped: the dropped text is read once
// per call and not kept, and a change on disk falls back to Text, which
// reports it.
func TestLineBoundsMatchesLines(t *testing.T) {
	for _, src := range []string{
		"a: 1\nb: 2\nc: 3\n", "a: 1\r\nb: 2\r\nc: 3", "a: 1\rb: 2\r\rc: 3\r", "a: 1\n\nb: 2", "x",
	} {
		want := func(f *File, off int) (int, int) {
			line := f.Lines().Line(f.Tok.Pos(off))
			start := f.Tok.Offset(f.Lines().LineStart(line))
			end := len(src)
			if line < f.Lines().LineCount() {
				end = f.Tok.Offset(f.Lines().LineStart(line + 1))
			}
			return start, end
		}
		ref := parse(t, src)
		for _, dropped := range []bool{false, true} {
			f := parse(t, src)
			reads := 0
			if dropped {
				f.DropText(func() ([]byte, error) { reads++; return []byte(src), nil }, true)
			}
			for off := 0; off < len(src); off++ {
				ws, we := want(ref, off)
				s, e, ok := f.LineBounds(f.Tok.Pos(off))
				if !ok || s != ws || e != we {
					t.Errorf("%q (dropped %v) at %d: [%d, %d) %v, want [%d, %d)", src, dropped, off, s, e, ok, ws, we)
				}
			}
			if dropped && (f.text.Load() != nil || reads != len(src)) {
				t.Errorf("%q: text kept %v after %d reads (want one per call, %d)", src, f.text.Load() != nil, reads, len(src))
			}
		}
	}
	f := parse(t, "a: 1\nb: 2\n")
	f.DropText(func() ([]byte, error) { return []byte("a: 9\nb: 2\n"), nil }, true)
	if _, _, ok := f.LineBounds(f.Tok.Pos(6)); !ok || f.TextErr() == nil {
		t.Errorf("a file changed on disk was not reported: %v", f.TextErr())
	}
	if _, _, ok := f.LineBounds(token.NoPos); ok {
		t.Errorf("LineBounds accepted NoPos")
	}
}

// TestLineOfMatchesLines: LineOf counts lines as Lines does, at every
// offset, and never keeps a dropped text.
func TestLineOfMatchesLines(t *testing.T) {
	for _, src := range []string{
		"a: 1\nb: 2\nc: 3\n", "a: 1\r\nb: 2\r\nc: 3", "a: 1\rb: 2\r\rc: 3\r", "a: 1\n\nb: 2", "x",
	} {
		ref := parse(t, src)
		f := parse(t, src)
		f.DropText(func() ([]byte, error) { return []byte(src), nil }, true)
		for off := 0; off <= len(src); off++ {
			want := ref.Lines().Line(ref.Tok.Pos(off))
			if got := f.LineOf(f.Tok.Pos(off)); got != want {
				t.Errorf("%q at %d: line %d, want %d", src, off, got, want)
			}
			if got := ref.LineOf(ref.Tok.Pos(off)); got != want {
				t.Errorf("%q at %d (text kept): line %d, want %d", src, off, got, want)
			}
		}
		if f.text.Load() != nil {
			t.Errorf("%q: LineOf kept the dropped text", src)
		}
	}
}

// TestLazyParseLeavesKindAlone: a document parsed on first use (not a
// kind read as the file is read) is shared by the language server's
// snapshots, whose workspaces are built concurrently: one reads its Kind
// (workspace.HoldsGitOps) while another's Objects parses it. The parse
// must not write Kind and APIVersion when they are what the file's
// reading found (go test -race reports the write otherwise).
func TestLazyParseLeavesKindAlone(t *testing.T) {
	src := []byte("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\nspec:\n  path: ./deploy\n")
	f := Parse(token.NewFileSet(), "apps.yaml", src, Options{Eager: IsReadKind})
	d := f.Docs[0]
	if d.Parsed() {
		t.Fatal("a Flux Kustomization is parsed as its file is read; the test needs a lazily parsed kind")
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); d.Objects() }()
	var kind string
	go func() { defer wg.Done(); kind = d.Kind }()
	wg.Wait()
	if kind != "Kustomization" || d.Kind != "Kustomization" || d.APIVersion != "kustomize.toolkit.fluxcd.io/v1" {
		t.Errorf("kind %q, then %q %q", kind, d.APIVersion, d.Kind)
	}
}

// TestDropTextIntoRecycles: texts dropped with DropTextInto go back to be
// read into again, and each file read again, in the memory another file's
// text held, reads as its own; a text dropped with DropText (the caller's
// memory, such as bytes a test keeps) is never handed out.
func TestDropTextIntoRecycles(t *testing.T) {
	srcs := []string{
		"apiVersion: v1\nkind: A\nmetadata:\n  name: a\n",
		"apiVersion: v1\nkind: B\nmetadata:\n  name: a-longer-name\n",
		"kind: C\n",
	}
	var files []*File
	for _, src := range srcs {
		f := parse(t, src)
		f.DropTextInto(func(buf []byte) ([]byte, error) { return append(buf, src...), nil }, true)
		files = append(files, f)
	}
	for round := 0; round < 20; round++ {
		for i, f := range files {
			if got := string(f.Text()); got != srcs[i] || f.TextErr() != nil {
				t.Fatalf("round %d, file %d: %q, %v; want %q", round, i, got, f.TextErr(), srcs[i])
			}
			if got, want := string(f.LineText(2)), strings.Split(srcs[i], "\n")[1]; got != want {
				t.Fatalf("round %d, file %d: line 2 %q, want %q", round, i, got, want)
			}
			f.DropText(nil, false) // the reload and its recycling given before
		}
	}

	kept := []byte(srcs[0])
	f := parse(t, srcs[0])
	f.DropText(func() ([]byte, error) { return kept, nil }, true)
	f.Text()
	f.DropText(nil, false)
	for range 10 {
		if b := TextBuffer(); cap(b) > 0 && &b[:1][0] == &kept[0] {
			t.Fatal("a text dropped with DropText was handed out to be read into")
		}
	}
}

// TestAppendLineStartsReusesMemory: a line table made in the memory of
// another (a dropped file's, longer or shorter, holding its starts) is the
// table made afresh; for "\n" line breaks both are go/token's own
// (token.File.SetLinesForContent, the independent reference).
func TestAppendLineStartsReusesMemory(t *testing.T) {
	for _, src := range []string{"", "a", "a\n", "a\nb", "a\n\nb\n", "\n\n", "a\r\nb\rc\n", "a\r", "x: 1\ny: 2\nz: 3\n"} {
		fresh := appendLineStarts(nil, []byte(src))
		for _, dirty := range [][]int{{7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, {5}, make([]int, 0, 64)} {
			if got := appendLineStarts(dirty, []byte(src)); !slices.Equal(got, fresh) {
				t.Errorf("%q in memory of %v: %v, want %v", src, dirty, got, fresh)
			}
		}
		if strings.Contains(src, "\r") {
			continue
		}
		ref := token.NewFileSet().AddFile("f", -1, len(src))
		ref.SetLinesForContent([]byte(src))
		if !slices.Equal(fresh, ref.Lines()) && len(src) > 0 {
			t.Errorf("%q: %v, go/token's %v", src, fresh, ref.Lines())
		}
	}
}

// TestPositionOfDroppedTextAsHeld checks Position on a file whose text
// and line table were dropped against Position on the same file holding
// its text (the reference: the line table and the code points of the
// text), at every offset, for each kind of line break: an ASCII file
// dropped by a one-shot run (DropTextInto) is answered from its packed
// line table without reading it again; a
// file with other characters (columns count code points) or a byte order
// mark is read again.
func TestPositionOfDroppedTextAsHeld(t *testing.T) {
	for _, c := range []struct {
		src       string
		readAgain bool
	}{
		{"a: 1\nb: 2\nc: 3\n", false},
		{"a: 1\r\nb: 2\r\nc: 3", false},
		{"a: 1\rb: 2\r\rc: 3\r", false},
		{"a: 1\n\n\nb: 2", false},
		{"x", false},
		{"a: " + strings.Repeat("y", 300) + "\nb: 2\n", false}, // a length of two uvarint bytes
		{strings.Repeat("a: 1\n", 3*lines.Stride+5), false},    // past a few marks of the packed table
		{"a: é\nb: 2\n", true},
		{"\ufeffa: 1\nb: 2\n", true},
	} {
		held := parse(t, c.src)
		dropped := parse(t, c.src)
		reads := 0
		dropped.DropTextInto(func(buf []byte) ([]byte, error) { reads++; return append(buf[:0], c.src...), nil }, true)
		for off := 0; off <= len(c.src); off++ {
			wl, wc := held.Position(held.Tok.Pos(off))
			if l, col := dropped.Position(dropped.Tok.Pos(off)); l != wl || col != wc {
				t.Errorf("%q at %d: %d:%d, want %d:%d", c.src, off, l, col, wl, wc)
			}
			if c.readAgain {
				dropped.DropText(nil, false)
			}
		}
		if got := reads > 0; got != c.readAgain {
			t.Errorf("%q: read again %d times, want reading again %v", c.src, reads, c.readAgain)
		}
	}
}

// TestDirDepthAsSplit checks DirDepth and CommonDirDepth, which split
// nothing, against the directories split out of each cleaned path (the
// reference: strings.Split of path.Dir), for every pair of paths.
func TestDirDepthAsSplit(t *testing.T) {
	paths := []string{"x.yaml", "./x.yaml", "/x.yaml", "a/x.yaml", "a/b/x.yaml", "a/b/c/x.yaml", "a/bb/x.yaml",
		"/a/b/x.yaml", "a//b/../c/x.yaml", "ab/x.yaml", "a/b/c/d/e/x.yaml", "../a/x.yaml", "../../a/b/x.yaml"}
	split := func(p string) []string {
		d := path.Dir(filepath.ToSlash(filepath.Clean(p)))
		if d == "." || d == "/" {
			return nil
		}
		return strings.Split(strings.TrimPrefix(d, "/"), "/")
	}
	fset := token.NewFileSet()
	files := map[string]*File{}
	for _, p := range paths {
		files[p] = Parse(fset, p, []byte("a: 1\n"), Options{})
		if got, want := files[p].DirDepth(), len(split(p)); got != want {
			t.Errorf("DirDepth(%q) = %d, want %d", p, got, want)
		}
	}
	for _, a := range paths {
		for _, b := range paths {
			da, db := split(a), split(b)
			want := 0
			for want < len(da) && want < len(db) && da[want] == db[want] {
				want++
			}
			if got := CommonDirDepth(files[a], files[b]); got != want {
				t.Errorf("CommonDirDepth(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// TestDropTextKeepsNoPackedTable: DropText (the language server's, which
// maps positions with a compact table of its own) keeps no packed line
// table, so an ASCII file's position reads it again.
func TestDropTextKeepsNoPackedTable(t *testing.T) {
	src := "a: 1\nb: 2\n"
	f := parse(t, src)
	reads := 0
	f.DropText(func() ([]byte, error) { reads++; return []byte(src), nil }, true)
	if l, c := f.Position(f.Tok.Pos(8)); l != 2 || c != 4 || reads != 1 || f.packed != nil {
		t.Errorf("Position = %d:%d after %d reads, packed table %v; want 2:4 after one read, none", l, c, reads, f.packed != nil)
	}
}

// TestParserErrorLine: a yaml.v3 parser error (not a scanner error) names
// the line above the one it means. The wanted lines are PyYAML's (6.0) for
// the same text, an independent reader: its context mark (the collection
// being read), or its problem mark when the collection starts the text and
// yaml.v3 falls back to the problem.
func TestParserErrorLine(t *testing.T) {
	const service = "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n---\n" // 4 lines before the document
	cases := []struct {
		name, before, doc, msg string
		line                   int // in the document, 1-based
	}{
		// kubernetes-engine-samples' ai-ml/gke-model-armor/configuring-the-gateway/llm-gateway.yaml:
		// PyYAML: while parsing a block mapping, line 6, column 7.
		{"mapping indented past its parent", "", "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: g\nspec:\n      gatewayClassName: x\n      listeners:\n      -   name: http\n        protocol: HTTP\n", "did not find expected key", 6},
		{"same, second document", service, "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: g\nspec:\n      gatewayClassName: x\n      listeners:\n      -   name: http\n        protocol: HTTP\n", "did not find expected key", 6},
		// PyYAML: while parsing a flow sequence, line 6, column 10.
		{"unclosed flow sequence", "", "apiVersion: v1\nkind: Service\nmetadata:\n  name: t\nspec:\n  ports: [80\n", "did not find expected ',' or ']'", 6},
		// PyYAML: while parsing a block collection, line 2, column 3.
		{"key after a sequence entry", "", "a:\n  - b\n  c: d\n", "did not find expected '-' indicator", 2},
		// PyYAML: while parsing a block collection, line 1; expected <block end>, line 2.
		{"key after a top-level sequence", "", "- a\nb: 1\n", "did not find expected '-' indicator", 2},
	}
	for _, c := range cases {
		f := Parse(token.NewFileSet(), "x.yaml", []byte(c.before+c.doc), Options{Eager: IsReadKind})
		var got []string
		for _, p := range f.Problems() {
			got = append(got, fmt.Sprintf("%d %s", f.Tok.Position(p.Pos).Line, p.Message))
		}
		want := fmt.Sprintf("%d %s", c.line+strings.Count(c.before, "\n"), c.msg)
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: problems %q, want [%q]", c.name, got, want)
		}
	}
}
