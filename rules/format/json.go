package format

import (
	"math"
	"strconv"
)

// Float is a number of a JSON document. encoding/json writes it as it
// writes a float64 when it is finite, and as the string "Infinity",
// "-Infinity" or "NaN" when it is not, where a float64 fails the whole
// document ("json: unsupported value: +Inf"). A standing delay T/c, a
// growth factor or a margin overflows to +Inf for an extreme but valid
// manifest (a threshold of 1e300 over a pod rate of 1e-9): the document
// must still be written, and say "unbounded" rather than a number.
//
// The strings are the spelling of the protocol buffers' JSON mapping
// (https://protobuf.dev/programming-guides/json/), which JavaScript's
// Number() and Python's float() read back; a consumer that expects a
// number fails loudly on them, or (jq, JavaScript) orders them after every
// number, rather than reading a null as 0. UnmarshalJSON reads both forms.
type Float float64

// MarshalJSON writes f as encoding/json writes a float64 (the ES6 number
// form: no exponent from 1e-6 up to 1e21), or as a string when it is not
// finite.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsInf(v, 1):
		return []byte(`"Infinity"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Infinity"`), nil
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	}
	abs, fmt := math.Abs(v), byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		fmt = 'e'
	}
	b := strconv.AppendFloat(make([]byte, 0, 24), v, fmt, -1, 64)
	if n := len(b); fmt == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // e-07 → e-7, as encoding/json writes it
		b = b[:n-1]
	}
	return b, nil
}

// UnmarshalJSON reads a number or one of the three strings MarshalJSON
// writes.
func (f *Float) UnmarshalJSON(b []byte) error {
	s := string(b)
	switch s {
	case `"Infinity"`:
		*f = Float(math.Inf(1))
		return nil
	case `"-Infinity"`:
		*f = Float(math.Inf(-1))
		return nil
	case `"NaN"`:
		*f = Float(math.NaN())
		return nil
	case "null":
		return nil // as encoding/json leaves a float64
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return &strconv.NumError{Func: "format.Float.UnmarshalJSON", Num: s, Err: strconv.ErrSyntax}
	}
	*f = Float(v)
	return nil
}

// JSONSig is v rounded to six significant digits (RoundSig) for a JSON
// document: the precision every JSON writer of scalelint gives a computed
// number, so outputs are stable across platforms.
func JSONSig(v float64) Float { return Float(RoundSig(v, 6)) }

// JSONApart is JSONSig for a number compared with a bound ref, with more
// significant digits where six would round it onto or across ref, as
// Apart writes it: a growth factor of 1.1000004 against 1.1 is not
// written 1.1. A v within a relative 1e-9 of ref is written as ref.
func JSONApart(v, ref float64) Float {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.IsNaN(ref) || math.IsInf(ref, 0) {
		return JSONSig(v)
	}
	if math.Abs(v-ref) <= 1e-9*math.Max(1, math.Abs(ref)) {
		return Float(ref)
	}
	for d := 6; d < 17; d++ {
		if x := RoundSig(v, d); cmp(x, ref) == cmp(v, ref) {
			return Float(x)
		}
	}
	return Float(v)
}
