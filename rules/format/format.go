// Package format writes numbers for people and for files: one function
// per output contract, so that a value the rules put in a message, the
// language server in a hover and the CLI in a table or a CSV cell reads
// the same wherever it appears. It imports nothing of the project.
//
// Two families:
//
//   - text for a person, rounded to what a reader can use: Num (a fixed
//     number of decimals at most), Sig (significant digits), Apart (Num
//     beside a bound), Secs and Pct (Num with a unit), Compact (an axis
//     label);
//   - values for a file or a machine: Exact (every digit the float holds),
//     Plain (a fix's value in a manifest), Round, RoundSig and the JSON
//     writers' JSONSig and JSONApart (a float rounded before it is written,
//     so outputs are stable across platforms).
//
// Non-finite values: +Inf is written "∞" (an unbounded time, a loop that
// never recovers); -Inf and NaN are written as strconv writes them, "-Inf"
// and "NaN", since they mean a bug upstream and must stay visible. In a
// JSON document a number has the type Float, which writes them as strings.
//
// A nonzero value is never written "0" by Num or Sig, whatever the
// decimals asked: one that rounds to zero keeps its first significant
// digits (Num(0.0004, 3) = "0.0004", Sig(1e-9, 3) = "1e-9"), so a pod rate
// of 1e-9 never reads as no rate at all.
//
// Magnitudes from 1e9 up and below 1e-4 are written by Num and Sig in
// exponent form, with the digits they keep and the exponent without a
// leading zero, as encoding/json writes it: Num(2e9, 3) = "2e+9" (not
// "2000000000"), Sig(0.0000012345, 3) = "1.23e-6". A value a manifest
// field is set to (a fix's edit) is written by Plain, never in exponent
// form, since an integer field does not read one.
//
// A number written beside a bound it is compared with is written by
// Apart, with as many digits as it takes not to round onto or across the
// bound ("g = 1.0999 ≤ 1.1", never "g = 1.1 ≤ 1.1").
package format

import (
	"math"
	"strconv"
	"strings"
)

// MaxDecimals is the most decimals Sig writes: a smaller value loses
// significant digits (Sig(0.0000012345, 3) = "0.000001").
const MaxDecimals = 6

// Num writes v with at most prec decimals, without trailing zeros or a
// trailing point: Num(89.46, 1) = "89.5", Num(90, 1) = "90",
// Num(0.1234, 3) = "0.123". The rounding is strconv's, correct on the
// binary value (Num(0.25, 1) = "0.2": 0.25 is a tie, broken to even); use
// Num(Round(v, prec), prec) to round halves away from zero. A nonzero
// value that rounds to zero is written with one significant digit
// instead (tiny): Num(0.04, 1) = "0.04", Num(-0.04, 1) = "-0.04",
// Num(1e-9, 3) = "1e-9". +Inf is "∞".
//
// From 1e9 up, and below 1e-4, the rounded value is written in exponent
// form with every digit it keeps: Num(2e9, 3) = "2e+9", Num(2200000001,
// 0) = "2.200000001e+9", Num(0.00004567, 6) = "4.6e-5".
func Num(v float64, prec int) string {
	if math.IsInf(v, 1) {
		return "∞"
	}
	s := Plain(v, prec)
	if (s == "0" || s == "-0") && v != 0 {
		return tiny(v, 1)
	}
	if x, err := strconv.ParseFloat(s, 64); err == nil && x != 0 && outsideDecimal(x) {
		return exponent(x)
	}
	return s
}

// Plain writes v as Num does but never in exponent form, and a nonzero
// value that rounds to zero as zero: the text a fix writes into a
// manifest field, which YAML and KEDA's integer metadata read as a
// number only without an exponent: Plain(2e9, 0) = "2000000000",
// Plain(89.46, 1) = "89.5", Plain(0.0004, 3) = "0". +Inf is "∞", and -Inf
// and NaN are written as strconv writes them.
func Plain(v float64, prec int) string {
	if math.IsInf(v, 1) {
		return "∞"
	}
	return trimZeros(strconv.FormatFloat(v, 'f', prec, 64))
}

// Exponent form starts at these magnitudes: a larger whole part is a row
// of digits nobody counts, and a smaller value a row of zeros.
const (
	expAbove = 1e9
	expBelow = 1e-4
)

// outsideDecimal reports whether a finite nonzero x is written in exponent
// form.
func outsideDecimal(x float64) bool {
	a := math.Abs(x)
	return !math.IsInf(a, 0) && (a >= expAbove || a < expBelow)
}

// exponent writes x in exponent form with the fewest digits that read back
// as x, the exponent without a leading zero: 2e9 is "2e+9", 4.6e-05 is
// "4.6e-5".
func exponent(x float64) string {
	return dropExpZero(strconv.FormatFloat(x, 'e', -1, 64))
}

// dropExpZero drops the leading zero of a two-digit exponent: "e+09" →
// "e+9", "e-07" → "e-7", as encoding/json writes an exponent.
func dropExpZero(s string) string {
	if i := strings.LastIndexAny(s, "eE"); i >= 0 && i+3 < len(s) && s[i+2] == '0' {
		s = s[:i+2] + s[i+3:]
	}
	return s
}

// tiny writes a nonzero v that rounds to zero with digits significant
// digits, as strconv's 'g' format does (a decimal from 0.0001 on, an
// exponent below), the exponent without its leading zero as encoding/json
// writes it: tiny(0.00049, 1) = "0.0005", tiny(4.9e-7, 3) = "4.9e-7".
func tiny(v float64, digits int) string {
	return dropExpZero(strconv.FormatFloat(v, 'g', digits, 64))
}

// Secs writes a number of seconds with at most one decimal, as messages
// give durations: Secs(89.46) = "89.5s", Secs(300) = "300s",
// Secs(+Inf) = "∞s".
func Secs(v float64) string { return Num(v, 1) + "s" }

// Pct writes a fraction as a percentage with at most one decimal:
// Pct(1.0/3) = "33.3%", Pct(0.5) = "50%".
func Pct(v float64) string { return Num(100*v, 1) + "%" }

// Sig writes v with digits significant digits, never rounding its whole
// part and never writing more than MaxDecimals decimals, without trailing
// zeros: Sig(1.0526, 4) = "1.053", Sig(89.46, 3) = "89.5",
// Sig(1234.56, 3) = "1235", Sig(0.012345, 3) = "0.0123", Sig(0, 3) = "0".
// A value below 1e-4 is written with digits significant digits in
// exponent form: Sig(0.0000012345, 3) = "1.23e-6", Sig(0.00000049, 3) =
// "4.9e-7", Sig(1e-9, 3) = "1e-9"; one from 1e9 up with its whole part in
// exponent form, as Num writes it: Sig(2e9, 3) = "2e+9". digits below 1
// count as 1. The rounding is Num's.
func Sig(v float64, digits int) string {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return Num(v, 0)
	}
	digits = max(digits, 1)
	if math.Abs(v) < expBelow {
		return tiny(v, digits) // 'g' keeps the decimal form if it rounds up to 1e-4
	}
	prec := digits - 1 - int(math.Floor(math.Log10(math.Abs(v))))
	return Num(v, min(max(prec, 0), MaxDecimals))
}

// Apart writes v as Num(v, prec) does, with more decimals (up to every
// digit v holds) when fewer would write a value that does not compare
// with ref as v does: written beside a bound it is measured against, a
// number never rounds onto or across it. With ref 1.1, Apart(1.0999, 3)
// = "1.0999" (Num writes "1.1"), Apart(1.1004, 3) = "1.1004",
// Apart(1.04, 3) = "1.04"; with ref 1, Apart(1.0000001, 4) = "1.0000001"
// (Num writes "1"). A v within a relative 1e-9 of ref, which the laws
// judge equal to it (rules/laws: ToleranceTrapped), is written as ref is:
// Apart(1.1+5e-10, 1.1, 3) = "1.1". Write ref itself with Exact, or
// enough digits that it is not rounded.
func Apart(v, ref float64, prec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.IsNaN(ref) || math.IsInf(ref, 0) {
		return Num(v, prec)
	}
	if math.Abs(v-ref) <= 1e-9*math.Max(1, math.Abs(ref)) {
		v = ref
	}
	want := cmp(v, ref)
	for d := max(prec, 0); d <= max(prec, 0)+20; d++ {
		s := Num(v, d)
		if x, err := strconv.ParseFloat(s, 64); err == nil && cmp(x, ref) == want {
			return s
		}
	}
	if v != 0 && outsideDecimal(v) {
		return exponent(v)
	}
	return Exact(v)
}

func cmp(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// SigUp writes a positive v rounded up to digits significant digits
// (never its whole part, at most MaxDecimals decimals), for an upper bound
// a text states: "hunts unless each pod serves fewer than 0.68/s" stays
// true for every rate at or above what it writes, where Sig's rounding to
// nearest could write a rate below the bound. SigUp(0.67504, 2) = "0.68",
// SigUp(14.814, 3) = "14.9", SigUp(3.375, 2) = "3.4", SigUp(1234.5, 3) =
// "1235". Zero, negative and non-finite values are written as Sig writes
// them.
func SigUp(v float64, digits int) string {
	if !(v > 0) || math.IsInf(v, 1) {
		return Sig(v, digits)
	}
	prec := min(max(max(digits, 1)-1-int(math.Floor(math.Log10(v))), 0), MaxDecimals)
	p := math.Pow(10, float64(prec))
	up := math.Ceil(v*p*(1-1e-12)) / p // 1e-12: a value already on the grid stays
	return Num(up, prec)
}

// Compact writes an axis label: whole numbers as they are up to 9,999,
// then thousands and millions with four significant digits and a k or M
// ("12.35k", "2M"), others with four significant digits ("0.1235",
// "12.5"). Like strconv's 'g' format, a value below 0.0001 is written
// with an exponent ("1.235e-05").
func Compact(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', 4, 64) + "M"
	case a >= 1e4:
		return strconv.FormatFloat(v/1e3, 'g', 4, 64) + "k"
	case a == math.Trunc(a):
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// Exact writes the shortest decimal that reads back as v, without an
// exponent: Exact(0.1) = "0.1", Exact(1e21) = "1000000000000000000000",
// Exact(-0.0) = "-0". For cells of CSV and JSON a program reads back.
func Exact(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// Round rounds v to decimals decimals, halves away from zero:
// Round(0.25, 1) = 0.3 where Num(0.25, 1) writes "0.2", Round(-0.25, 1) =
// -0.3. The result is the float nearest the rounded decimal, so Exact
// writes it with at most decimals decimals.
func Round(v float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	return math.Round(v*p) / p
}

// RoundSig rounds v to digits significant digits: the float nearest the
// decimal strconv rounds v to (correct on the binary value, an exact tie
// to even), RoundSig(89.4949, 3) = 89.5, RoundSig(1234, 3) = 1230,
// RoundSig(0.000123456, 3) = 0.000123, RoundSig(9.638905943483319e10, 6)
// = 9.63891e10 (scaling by a power of ten gave 9.638909999999998e10, and
// NaN for a subnormal v). Zero and non-finite values are returned as they
// are; digits below 1 count as 1.
func RoundSig(v float64, digits int) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	x, err := strconv.ParseFloat(strconv.FormatFloat(v, 'e', max(digits, 1)-1, 64), 64)
	if err != nil {
		return v // out of range: a v within a rounding of the largest float
	}
	return x
}

// trimZeros drops the trailing zeros of a decimal with a point, then the
// point: "89.50" → "89.5", "90.0" → "90"; "100" stays.
func trimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
