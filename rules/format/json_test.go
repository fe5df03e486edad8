package format

import (
	"encoding/json"
	"math"
	"testing"
)

// A finite Float is written byte for byte as encoding/json writes the
// float64 (the reference is encoding/json itself); a non-finite one as the
// protocol buffers' JSON mapping spells it, where a float64 fails.
func TestFloatMarshalJSON(t *testing.T) {
	tenth := 0.1
	for _, v := range []float64{0, math.Copysign(0, -1), 1, -1, 0.1, tenth + 0.2, 89.4922, 1e-6, 9.99e-7, 1e-7, 1.5e-9, 1e20, 1e21,
		123456789012345678901234567890, 1e300, -1e300, math.MaxFloat64, math.SmallestNonzeroFloat64, 1.0000000000000006e+300} {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(Float(v))
		if err != nil {
			t.Fatalf("json.Marshal(Float(%v)): %v", v, err)
		}
		if string(got) != string(want) {
			t.Errorf("json.Marshal(Float(%v)) = %s, encoding/json writes the float64 %s", v, got, want)
		}
	}
	for _, c := range []struct {
		v    float64
		want string
	}{
		{math.Inf(1), `"Infinity"`},
		{math.Inf(-1), `"-Infinity"`},
		{math.NaN(), `"NaN"`},
	} {
		if _, err := json.Marshal(c.v); err == nil {
			t.Fatalf("encoding/json writes the float64 %v: this type is no longer needed", c.v)
		}
		got, err := json.Marshal(struct {
			F *Float `json:"f"`
		}{ptrTo(Float(c.v))})
		if err != nil {
			t.Fatalf("%v: %v", c.v, err)
		}
		if want := `{"f":` + c.want + `}`; string(got) != want {
			t.Errorf("%v: got %s, want %s", c.v, got, want)
		}
	}
}

func TestFloatUnmarshalJSON(t *testing.T) {
	var doc struct{ A, B, C, D, E Float }
	if err := json.Unmarshal([]byte(`{"A": 1.5e-9, "B": "Infinity", "C": "-Infinity", "D": "NaN", "E": null}`), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.A != 1.5e-9 || !math.IsInf(float64(doc.B), 1) || !math.IsInf(float64(doc.C), -1) || !math.IsNaN(float64(doc.D)) || doc.E != 0 {
		t.Errorf("read %+v", doc)
	}
	for _, bad := range []string{`"inf"`, `"1"`, `true`, `{}`} {
		var f Float
		if err := json.Unmarshal([]byte(bad), &f); err == nil {
			t.Errorf("%s read as %v, want an error", bad, f)
		}
	}
}

func TestJSONSig(t *testing.T) {
	// RoundSig's six digits, and +Inf kept for MarshalJSON to write.
	if got := JSONSig(89.49224); got != 89.4922 {
		t.Errorf("JSONSig(89.49224) = %v", got)
	}
	if got := JSONSig(math.Inf(1)); !math.IsInf(float64(got), 1) {
		t.Errorf("JSONSig(+Inf) = %v", got)
	}
}

// TestJSONApart: six digits when they keep v on its side of ref, more
// when they would not (1.1000004 to six digits is 1.1, onto the bound).
func TestJSONApart(t *testing.T) {
	for _, c := range []struct{ v, ref, want float64 }{
		{1.0526315789, 1.1, 1.05263},
		{1.1000004, 1.1, 1.1000004},
		{1.0999996, 1.1, 1.0999996},
		{1.1 + 5e-10, 1.1, 1.1}, // equal to the laws (1e-9)
		{1.25, 1.1, 1.25},
	} {
		if got := JSONApart(c.v, c.ref); float64(got) != c.want {
			t.Errorf("JSONApart(%v, %v) = %v, want %v", c.v, c.ref, got, c.want)
		}
	}
}

func ptrTo[T any](v T) *T { return &v }
