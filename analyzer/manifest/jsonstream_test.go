package manifest

import (
	"bytes"
	"go/token"
	"io"
	"testing"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// kubectlObjects is what kubectl applies from src: the objects
// apimachinery's YAMLOrJSONDecoder (kubectl's reader of -f files) decodes,
// as kind/name, until the end or an error.
func kubectlObjects(src []byte) (names []string, err error) {
	d := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(src), 4096)
	for {
		var o struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := d.Decode(&o); err == io.EOF {
			return names, nil
		} else if err != nil {
			return names, err
		}
		names = append(names, o.Kind+"/"+o.Metadata.Name)
	}
}

// A file of JSON objects written one after another is read as kubectl
// reads it (kubectlObjects, the independent oracle): every object, each
// at its own line; argo-cd's reposerver/repository/testdata/json-list
// holds one. What is not such a stream keeps YAML's reading.
func TestJSONStream(t *testing.T) {
	for _, c := range []struct {
		name, src string
		lines     []int // the lines of the objects' kind; nil: not split
	}{
		{"two objects, a line each", "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\"}}\n{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"b\"}}\n", []int{1, 2}},
		{"objects over lines, with a brace in a string", "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\",\n  \"metadata\": {\"name\": \"a\"},\n  \"data\": {\"k\": \"}{\\\"\"}\n}\n\n{\"apiVersion\": \"v1\", \"kind\": \"Secret\",\n \"metadata\": {\"name\": \"s\"}}\n", []int{3, 8}},
		{"CRLF line ends", "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\"}}\r\n{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"b\"}}\r\n", []int{1, 2}},
		{"one object", "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\"}}\n", nil},
		{"YAML flow mappings, not JSON", "{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n{apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n", nil},
		{"objects on one line", "{\"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\"}} {\"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"b\"}}\n", nil},
		{"a YAML file", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := Parse(token.NewFileSet(), "list.json", []byte(c.src), Options{})
			if c.lines == nil {
				if jsonStream([]byte(c.src)) != nil {
					t.Errorf("split as a JSON stream: %q", c.src)
				}
				return
			}
			for _, p := range f.Problems() {
				t.Errorf("problem: %s", p.Message)
			}
			want, err := kubectlObjects([]byte(c.src))
			if err != nil {
				t.Fatalf("kubectl's decoder: %v", err)
			}
			var got []string
			var lines []int
			for _, o := range f.Objects() {
				got = append(got, o.Kind+"/"+o.Name)
				lines = append(lines, f.Lines().Line(o.KindAt.Start()))
			}
			if len(got) != len(want) || len(want) != len(c.lines) {
				t.Fatalf("objects %v, kubectl applies %v", got, want)
			}
			for i := range want {
				if got[i] != want[i] || lines[i] != c.lines[i] {
					t.Errorf("object %d: %s at line %d, want %s at line %d", i, got[i], lines[i], want[i], c.lines[i])
				}
			}
		})
	}
}
