package manifest

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
	sigsjson "sigs.k8s.io/json"
)

// decodeBoth decodes a workload twice: writing JSON only for the fields
// the subset type reads (what decodeInto does for a lenient decode), and
// writing all of it (the independent reference: the plain YAML -> JSON ->
// struct path). Both must give the same value and the same problems.
func decodeBoth(t *testing.T, name string, n *yaml.Node) {
	t.Helper()
	lim := Limits{}.withDefaults()
	var sub, full appsWorkload
	got := decodeInto(n, &sub, lim, false)
	data, encErrs := toJSON(n, lim, nil)
	want := decodeFull(data, encErrs, n, &full, lim)
	if !reflect.DeepEqual(sub, full) {
		t.Errorf("%s: projected decode %+v, full decode %+v", name, sub, full)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: projected decode found %d problems, full %d:\n%v\n%v", name, len(got), len(want), got, want)
	}
	for i := range got {
		if got[i].Node != want[i].Node || got[i].Message != want[i].Message {
			t.Errorf("%s: problem %d: projected %q at %p, full %q at %p", name, i, got[i].Message, got[i].Node, want[i].Message, want[i].Node)
		}
	}
}

// decodeFull is decodeInto's lenient path over the whole object's JSON.
func decodeFull(data []byte, encErrs []encodeError, n *yaml.Node, out *appsWorkload, lim Limits) []FieldError {
	var errs []FieldError
	for _, ee := range encErrs {
		errs = append(errs, FieldError{Node: ee.node, Message: ee.msg, Limit: ee.limit})
		if ee.limit {
			return errs
		}
	}
	if _, err := sigsjson.UnmarshalStrict(data, out, sigsjson.DisallowDuplicateFields); err != nil {
		n0 := len(errs)
		errs = append(errs, locate(n, reflect.TypeOf(out), nil, lim)...)
		if len(errs) == n0 {
			errs = append(errs, FieldError{Node: n, Message: cleanJSONError(err)})
		}
	}
	return errs
}

func TestProjectedDecodeMatchesFull(t *testing.T) {
	docs := map[string]string{
		"plain":                            "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: a\n        image: x\n        env: [{name: A, value: \"1\"}]\n        resources: {requests: {cpu: 250m}, limits: {cpu: \"1\"}}\n",
		"duplicate key in an unread field": "kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: a\n        image: x\n        image: y\n",
		"NaN in an unread field":           "kind: Deployment\nspec:\n  template:\n    metadata:\n      annotations: {x: .nan}\n    spec:\n      containers: [{name: a}]\n",
		"type error in a read field":       "kind: Deployment\nspec:\n  replicas: three\n  template:\n    spec:\n      containers:\n      - name: 5\n        resources: {requests: {cpu: lots}}\n",
		"merge and alias":                  "kind: Deployment\nx: &r {requests: {cpu: 100m}}\nspec:\n  template:\n    spec:\n      containers:\n      - <<: {name: m}\n        resources: *r\n        ports: [{containerPort: 80}]\n",
		"non-scalar key":                   "kind: Deployment\nspec:\n  ? [a]\n  : 1\n  replicas: 2\n",
		"sidecar":                          "kind: Deployment\nspec:\n  template:\n    spec:\n      initContainers:\n      - name: s\n        restartPolicy: Always\n        resources: {limits: {cpu: 2}}\n      containers: [{name: a}]\n      resources: {requests: {cpu: 1}}\n",
		"huge int in unread field":         "kind: Deployment\nspec:\n  minReadySeconds: 99999999999999999999999\n  template: {spec: {containers: [{name: a}]}}\n",
	}
	for name, src := range docs {
		var root yaml.Node
		if err := yaml.Unmarshal([]byte(src), &root); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		decodeBoth(t, name, root.Content[0])
	}
	// The real corpus: every workload document of it.
	var files []string
	filepath.WalkDir("../../testdata/realworld", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			files = append(files, p)
		}
		return nil
	})
	checked := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(strings.NewReader(string(data)))
		for {
			var root yaml.Node
			if dec.Decode(&root) != nil {
				break
			}
			if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
				continue
			}
			n := root.Content[0]
			switch scalarValue(mapValue(n, "kind")) {
			case "Deployment", "StatefulSet", "ReplicaSet", "Rollout":
				decodeBoth(t, path, n)
				checked++
			}
		}
	}
	if len(files) > 0 && checked == 0 {
		t.Fatalf("no workload found in %d corpus files", len(files))
	}
	t.Logf("%d corpus workloads decoded both ways", checked)
}

// TestHostileNumberRefused: a number longer than MaxQuantityLen in a field
// the decode reads is refused at its node before resource.ParseQuantity
// sees it (the value below made it compute 10^1410065417: found by
// FuzzClassifyTrigger; without the check this test does not return).
// Long numbers in labels, annotations and fields the decode skips (env)
// are strings Kubernetes never parses as quantities: no problem.
func TestHostileNumberRefused(t *testing.T) {
	long := "1" + strings.Repeat("0", 300) + "E000000010000000000"
	src := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: {id: \"" + long + "\"}\n" +
		"  annotations: {id: \"" + long + "\"}\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n" +
		"        env: [{name: ID, value: \"" + long + "\"}]\n        resources:\n          requests: {cpu: \"" + long + "\"}\n"
	f := Parse(token.NewFileSet(), "x.yaml", []byte(src), Options{})
	ps := f.Problems()
	if len(ps) != 1 {
		t.Fatalf("problems %+v, want one", ps)
	}
	pos := f.Tok.Position(ps[0].Pos)
	want := fmt.Sprintf("a number %d characters long: scalelint reads numbers of at most %d characters", len(long), MaxQuantityLen)
	if pos.Line != 14 || pos.Column != 27 || !strings.HasPrefix(ps[0].Message, want) {
		t.Errorf("problem at %d:%d %q, want 14:27 %q", pos.Line, pos.Column, ps[0].Message, want)
	}
	// Short ones hang it too: large exponents, with or without a mantissa
	// past int64 (each checked to hang resource.ParseQuantity of the
	// apimachinery in go.mod for over 3 s; "2E6024865272343" is from
	// kubernetes/kubernetes#131063, the negative ones are #141306).
	for _, short := range []string{"10000000000000000000E10000000000", "1.0000000000000000001E2147483648", "10000000000000000000e+000000010000000000", "1.50000000000000000000e-2147483647", "2E6024865272343", "15e-400000000", "1.5e-2147483647"} {
		g := Parse(token.NewFileSet(), "y.yaml", []byte(strings.Replace(src, long, short, -1)), Options{})
		ps := g.Problems()
		if len(ps) != 1 || !strings.HasPrefix(ps[0].Message, "exponent ") {
			t.Errorf("%s: problems %+v, want one about its exponent", short, ps)
		}
	}
	// At the limits, a number is read as usual.
	for _, ok := range []string{strings.Repeat("0", MaxQuantityLen-1) + "1", "1000000000000000000000e400", "1000000000000000000000e-400", "10000000000000000000000m", "100000000000000000000e000"} {
		g := Parse(token.NewFileSet(), "y.yaml", []byte(strings.Replace(src, long, ok, -1)), Options{})
		if ps := g.Problems(); len(ps) != 0 {
			t.Errorf("%s: %+v", ok, ps)
		}
	}
}

// TestKeyWithControlCharacter: a key holding a control character ("\x01",
// written with YAML's escape) is one key among the others: the object's
// JSON escapes it as JSON does (Go's \x01 is no JSON escape, which made
// the whole object fail to decode, and its triggers and target vanish).
func TestKeyWithControlCharacter(t *testing.T) {
	src := "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata:\n  name: s\n  annotations:\n    \"bad\\x01key\\u2028\": x\n" +
		"spec:\n  scaleTargetRef: {name: w}\n  triggers:\n  - type: kafka\n    metadata: {topic: t, lagThreshold: \"10\"}\n"
	f := Parse(token.NewFileSet(), "x.yaml", []byte(src), Options{})
	o := f.Docs[0].Objects()[0]
	so, ok := o.Typed().(*ScaledObject)
	if !ok || len(so.Spec.Triggers) != 1 || so.Spec.ScaleTargetRef == nil || so.Spec.ScaleTargetRef.Name != "w" {
		t.Fatalf("decoded %+v", o.Typed())
	}
	if ps := f.Problems(); len(ps) != 0 {
		t.Errorf("problems %+v", ps)
	}
}

// TestBinaryKind: a kind or a value tagged !!binary is read decoded, as
// kubectl reads it (go-yaml v2 decodes the base64): the HPA is an HPA.
func TestBinaryKind(t *testing.T) {
	src := "apiVersion: autoscaling/v2\nkind: !!binary SG9yaXpvbnRhbFBvZEF1dG9zY2FsZXI=\nmetadata:\n  name: !!binary d2Vi\n" +
		"spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 3\n"
	f := Parse(token.NewFileSet(), "x.yaml", []byte(src), Options{Eager: IsReadKind})
	objs := f.Docs[0].Objects()
	if len(objs) != 1 || objs[0].Kind != "HorizontalPodAutoscaler" || objs[0].Name != "web" {
		t.Fatalf("objects %v", objs)
	}
	if _, ok := objs[0].Typed().(*HPA); !ok {
		t.Errorf("typed %T", objs[0].Typed())
	}
	if ps := f.Problems(); len(ps) != 0 {
		t.Errorf("problems %+v", ps)
	}
	bad := strings.Replace(src, "d2Vi", "not*base64", 1)
	g := Parse(token.NewFileSet(), "y.yaml", []byte(bad), Options{Eager: IsReadKind})
	g.Docs[0].Objects()[0].Typed()
	if ps := g.Problems(); len(ps) != 1 || !strings.Contains(ps[0].Message, "is not base64") {
		t.Errorf("problems %+v", ps)
	}
}
