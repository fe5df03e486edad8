package workspace

import (
	"slices"
	"testing"
)

// TestLeftOutOf: what a left-out template may define is read from its
// kind: lines; a kind written by a template action, or no kind: line at
// all (the objects come from an included helper), may be any kind.
func TestLeftOutOf(t *testing.T) {
	cases := []struct {
		name, text string
		kinds      []string
		any        bool
	}{
		{"plain", "apiVersion: v1\nkind: ConfigMap\n---\nkind: 'Service' # the port\n", []string{"ConfigMap", "Service"}, false},
		{"list item", "items:\n- kind: \"LimitRange\"\n", []string{"LimitRange"}, false},
		{"from a value", "kind: {{ .Values.kind }}\n", nil, true},
		{"from a helper", "{{ include \"chart.vpa\" . }}\n", nil, true},
	}
	for _, c := range cases {
		l := LeftOutOf("t.yaml", []byte(c.text))
		if !slices.Equal(l.Kinds, c.kinds) || l.AnyKind != c.any {
			t.Errorf("%s: kinds %v, any %v; want %v, %v", c.name, l.Kinds, l.AnyKind, c.kinds, c.any)
		}
	}
	ws := New(nil, nil, Options{LeftOut: []LeftOut{LeftOutOf("a.yaml", []byte("kind: ConfigMap\n"))}})
	if ws.MayLack("LimitRange") || !ws.MayLack("ConfigMap") {
		t.Errorf("MayLack: LimitRange %v, ConfigMap %v; want false, true", ws.MayLack("LimitRange"), ws.MayLack("ConfigMap"))
	}
}
