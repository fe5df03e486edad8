package output

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"testing"
)

// TestIndentAsJSONIndent: indent writes what json.Indent writes, on values
// json.Encoder encoded (without HTML escaping, as JSONStream does): nested
// objects and arrays, empty ones, strings holding brackets, commas,
// colons, quotes, backslashes and control characters, numbers, booleans
// and nulls, with the prefixes the outputs use.
func TestIndentAsJSONIndent(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	pieces := []string{"a", "{", "}", "[", "]", ",", ":", `"`, `\`, "\n", "\t", "\x01", "<&>", "é", " ", "\\\""}
	str := func() string {
		var b bytes.Buffer
		for range r.Intn(6) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		return b.String()
	}
	var value func(depth int) any
	value = func(depth int) any {
		switch k := r.Intn(8); {
		case depth > 3 || k == 0:
			return str()
		case k == 1:
			return r.Float64() * 1e6
		case k == 2:
			return r.Intn(2) == 0
		case k == 3:
			return nil
		case k < 6:
			m := map[string]any{}
			for range r.Intn(4) {
				m[str()] = value(depth + 1)
			}
			return m
		default:
			var l []any
			for range r.Intn(4) {
				l = append(l, value(depth+1))
			}
			if l == nil {
				return []any{}
			}
			return l
		}
	}
	for range 20000 {
		v := value(0)
		var compact bytes.Buffer
		enc := json.NewEncoder(&compact)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		src := bytes.TrimSuffix(compact.Bytes(), []byte("\n"))
		for _, prefix := range []string{"", "    ", "      "} {
			var want bytes.Buffer
			if err := json.Indent(&want, src, prefix, "  "); err != nil {
				t.Fatal(err)
			}
			if got := indent(nil, src, prefix); !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("indent(%s, %q):\n%s\njson.Indent:\n%s", src, prefix, got, want.Bytes())
			}
		}
	}
}
