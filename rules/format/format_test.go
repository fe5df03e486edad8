package format

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// The expected strings follow from each function's contract by decimal
// arithmetic on the value written in the case (a tie is noted where the
// binary value decides); none was copied from an output.

func TestNum(t *testing.T) {
	for _, c := range []struct {
		v    float64
		prec int
		want string
	}{
		{89.46, 1, "89.5"},
		{89.44, 1, "89.4"},
		{90, 1, "90"},
		{100, 1, "100"}, // zeros of the whole part stay
		{0.1234, 3, "0.123"},
		{0.1, 3, "0.1"},  // trailing zeros dropped
		{1.5, 0, "2"},    // a tie: to even
		{2.5, 0, "2"},    // a tie: to even
		{0.25, 1, "0.2"}, // 0.25 is exact: a tie, to even
		{0.35, 1, "0.3"}, // 0.35 is 0.34999…: down
		{985, 0, "985"},
		{-1.25, 3, "-1.25"},
		// A nonzero value that rounds to zero keeps one significant digit
		// (was "-0", "0": a pod rate of 1e-9 read as none).
		{-0.04, 1, "-0.04"},
		{0.04, 0, "0.04"},
		{0.00049, 3, "0.0005"}, // one digit: 4.9e-4 rounds up
		{1e-9, 3, "1e-9"},      // below 1e-4 an exponent, without e-09's zero
		{-2.5e-12, 1, "-2e-12"},
		{5e-324, 3, "5e-324"}, // the smallest float: 4.94e-324 to one digit
		{0.0005, 3, "0.001"},  // rounds to 0.001 at 3 decimals: not tiny
		{0, 3, "0"},
		{math.Copysign(0, -1), 1, "-0"}, // a zero keeps strconv's sign
		// From 1e9 up and below 1e-4 (once rounded) an exponent, with every
		// digit kept (was "1000000000000000000000", "2000000000").
		{1e21, 0, "1e+21"},
		{2e9, 3, "2e+9"},
		{-2e9, 0, "-2e+9"},
		{2200000001, 0, "2.200000001e+9"},
		{2200000001.5, 0, "2.200000002e+9"}, // 2200000001.5 is exact: a tie, to even
		{999999999.6, 0, "1e+9"},            // rounds up into exponent form
		{999999999.4, 0, "999999999"},
		{123456789.123, 3, "123456789.123"},
		{1e300, 0, "1e+300"}, // was 301 digits
		{0.00004567, 6, "4.6e-5"},
		{0.0001, 6, "0.0001"},
		{0.00009996, 4, "0.0001"}, // rounds up to 1e-4: a decimal
		{math.Inf(1), 1, "∞"},
		{math.Inf(-1), 1, "-Inf"},
		{math.NaN(), 1, "NaN"},
	} {
		if got := Num(c.v, c.prec); got != c.want {
			t.Errorf("Num(%v, %d) = %q, want %q", c.v, c.prec, got, c.want)
		}
	}
}

func TestSecsPct(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Secs(89.46), "89.5s"},
		{Secs(300), "300s"},
		{Secs(0.04), "0.04s"}, // nonzero: never "0s"
		{Secs(1e-9), "1e-9s"},
		{Pct(1e-9), "1e-7%"},
		{Secs(math.Inf(1)), "∞s"},
		{Pct(1.0 / 3), "33.3%"},
		{Pct(0.5), "50%"},
		{Pct(0.0476), "4.8%"},
		{Pct(1.25), "125%"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestSig(t *testing.T) {
	for _, c := range []struct {
		v      float64
		digits int
		want   string
	}{
		{1.0526, 4, "1.053"},
		{1.25, 4, "1.25"},
		{89.46, 3, "89.5"},
		{1234.56, 3, "1235"}, // the whole part is never rounded
		{1234.5, 3, "1234"},  // a tie: to even
		{0.012345, 3, "0.0123"},
		{0.5, 3, "0.5"},
		{7, 3, "7"},
		{-42.42, 3, "-42.4"},
		{0.0000012345, 3, "1.23e-6"}, // below 1e-4 an exponent, digits kept (was "0.000001")
		{0.00012345, 3, "0.000123"},
		{0.000099996, 3, "0.0001"}, // rounds up to 1e-4: a decimal
		{0.00000049, 3, "4.9e-7"},  // (was "0" before the exponent for values that round to zero)
		{1e-9, 3, "1e-9"},          // a pod rate of 1e-9 (was "0")
		{-1.23456e-300, 3, "-1.23e-300"},
		{2e9, 3, "2e+9"},                   // the whole part in exponent form, not rounded
		{1234567890.5, 3, "1.23456789e+9"}, // 1234567890.5 is exact: a tie, to even
		{1.2345678e15, 4, "1.2345678e+15"}, // the whole part is kept
		{0.0000005, 3, "5e-7"},             // stored as 4.99999999999999977e-7: below half of 10^-6, so tiny
		{9.996, 3, "10"},                   // rounds up into the next decade
		{5, 0, "5"},                        // digits below 1 count as 1
		{0, 3, "0"},
		{math.Inf(1), 3, "∞"},
		{math.Inf(-1), 3, "-Inf"},
		{math.NaN(), 3, "NaN"},
	} {
		if got := Sig(c.v, c.digits); got != c.want {
			t.Errorf("Sig(%v, %d) = %q, want %q", c.v, c.digits, got, c.want)
		}
	}
}

// TestSigUp: rounded up at the digit Sig would round to, so the written
// value is never below v; a value already on that digit is written as is.
func TestSigUp(t *testing.T) {
	for _, c := range []struct {
		v      float64
		digits int
		want   string
	}{
		{0.67504, 2, "0.68"}, // c* of rules/laws/README.md §10.1
		{14.814, 3, "14.9"},
		{3.375, 2, "3.4"},
		{1234.5, 3, "1235"}, // the whole part: up to the next unit
		{0.5, 3, "0.5"},
		{7, 3, "7"},
		{9.96, 2, "10"},
		{0.0000012345, 3, "2e-6"}, // MaxDecimals, then exponent form (was "0.000002")
		{1234567890.5, 3, "1.234567891e+9"},
		{0, 3, "0"},
		{-1.25, 2, "-1.2"}, // not positive: as Sig
		{math.Inf(1), 3, "∞"},
	} {
		if got := SigUp(c.v, c.digits); got != c.want {
			t.Errorf("SigUp(%v, %d) = %q, want %q", c.v, c.digits, got, c.want)
		}
		if f, err := strconv.ParseFloat(SigUp(c.v, c.digits), 64); err == nil && c.v > 0 && f < c.v {
			t.Errorf("SigUp(%v, %d) = %v is below v", c.v, c.digits, f)
		}
	}
}

func TestCompact(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0"},
		{200, "200"},
		{9999, "9999"},
		{12345, "12.35k"}, // 12345/1e3 is stored as 12.3450000000000006: up
		{20000, "20k"},
		{2e6, "2M"},
		{1234567, "1.235M"},
		{12.5, "12.5"},
		{0.123456, "0.1235"},
		{-3.25, "-3.25"},
		{0.0000123456, "1.235e-05"},
	} {
		if got := Compact(c.v); got != c.want {
			t.Errorf("Compact(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestExact(t *testing.T) {
	tenth := 0.1 // a variable: a constant 0.1 + 0.2 is exact
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0.1, "0.1"},
		{tenth + 0.2, "0.30000000000000004"},
		{1e21, "1000000000000000000000"},
		{90, "90"},
		{math.Copysign(0, -1), "-0"},
	} {
		if got := Exact(c.v); got != c.want {
			t.Errorf("Exact(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestRound(t *testing.T) {
	for _, c := range []struct {
		v        float64
		decimals int
		want     float64
	}{
		{0.25, 1, 0.3}, // halves away from zero, unlike Num
		{-0.25, 1, -0.3},
		{1.2344, 3, 1.234},
		{1.2345678, 3, 1.235},
		{89.46, 0, 89},
		{12.5, 0, 13},
	} {
		if got := Round(c.v, c.decimals); got != c.want {
			t.Errorf("Round(%v, %d) = %v, want %v", c.v, c.decimals, got, c.want)
		}
	}
	// The result is the float nearest the decimal: Exact writes no more
	// decimals than were kept.
	tenth := 0.1
	for _, v := range []float64{tenth + 0.2, 1.0 / 3, 2.0 / 3, 123.456789} {
		for d := 0; d <= 6; d++ {
			s := Exact(Round(v, d))
			if i := strings.IndexByte(s, '.'); i >= 0 && len(s)-i-1 > d {
				t.Errorf("Exact(Round(%v, %d)) = %q: more than %d decimals", v, d, s, d)
			}
		}
	}
}

func TestRoundSig(t *testing.T) {
	for _, c := range []struct {
		v      float64
		digits int
		want   float64
	}{
		{89.4949, 3, 89.5},
		{1234, 3, 1230},
		{0.000123456, 3, 0.000123},
		{-98.76543, 6, -98.7654},
		{123456789, 6, 123457000},
		{0, 6, 0},
		// The float nearest the rounded decimal (the literal on the right):
		// scaling by math.Pow(10, k) gave 9.638909999999998e10,
		// 9.405089999999999e-20 and 1.2300000000000007e300, and NaN for a
		// subnormal (10^326 overflows).
		{9.638905943483319e10, 6, 9.63891e10},
		{9.405090880450124e-20, 6, 9.40509e-20},
		{1.2345e300, 3, 1.23e300},
		{5e-324, 3, 5e-324}, // 4.94e-324 reads back as the smallest float
		{1e-310, 6, 1e-310},
		{math.MaxFloat64, 3, math.MaxFloat64}, // 1.80e308 is past the largest float: v
		{0.35, 1, 0.3},                        // 0.35 is 0.34999…: down, as Num writes it
		{0.125, 2, 0.12},                      // an exact tie: to even
		{7, 0, 7},                             // digits below 1 count as 1
	} {
		if got := RoundSig(c.v, c.digits); got != c.want {
			t.Errorf("RoundSig(%v, %d) = %v, want %v", c.v, c.digits, got, c.want)
		}
	}
	for _, v := range []float64{math.Inf(1), math.Inf(-1)} {
		if got := RoundSig(v, 3); got != v {
			t.Errorf("RoundSig(%v, 3) = %v", v, got)
		}
	}
	if got := RoundSig(math.NaN(), 3); !math.IsNaN(got) {
		t.Errorf("RoundSig(NaN, 3) = %v", got)
	}
}

// TestPlain: Num's decimals without an exponent, for a value written into
// a manifest field.
func TestPlain(t *testing.T) {
	for _, c := range []struct {
		v    float64
		prec int
		want string
	}{
		{2e9, 0, "2000000000"},
		{1e21, 0, "1000000000000000000000"},
		{89.46, 1, "89.5"},
		{90, 2, "90"},
		{0.0004, 3, "0"},
		{math.Inf(1), 0, "∞"},
	} {
		if got := Plain(c.v, c.prec); got != c.want {
			t.Errorf("Plain(%v, %d) = %q, want %q", c.v, c.prec, got, c.want)
		}
	}
}

// TestApart: the written value compares with ref as v does, with Num's
// decimals when they suffice (the expected strings are v's decimal digits
// up to the first that separates it from ref).
func TestApart(t *testing.T) {
	for _, c := range []struct {
		v, ref float64
		prec   int
		want   string
	}{
		{1.0999, 1.1, 3, "1.0999"}, // Num: "1.1", onto the bound
		{1.1004, 1.1, 3, "1.1004"}, // Num: "1.1"
		{1.04, 1.1, 3, "1.04"},     // far enough: Num's decimals
		{1.0526315789, 1.1, 4, "1.0526"},
		{1.04, 1, 0, "1.04"},           // Num: "1", onto a tolerance of 0
		{1.0000001, 1, 4, "1.0000001"}, // never "1" for a g above 1
		{0.9996, 1, 3, "0.9996"},       // nor for one below
		{1.1 + 5e-10, 1.1, 3, "1.1"},   // equal to the laws (1e-9)
		{1.1 - 5e-10, 1.1, 3, "1.1"},
		{1.1, 1.1, 3, "1.1"},
		{1.100000002, 1.1, 3, "1.100000002"},
		{5e-8, 1.1, 4, "5e-8"},
		{2.2e9, 1.1, 3, "2.2e+9"},
		{math.Inf(1), 1.1, 3, "∞"},
	} {
		got := Apart(c.v, c.ref, c.prec)
		if got != c.want {
			t.Errorf("Apart(%v, %v, %d) = %q, want %q", c.v, c.ref, c.prec, got, c.want)
		}
	}
	// Whatever v, the written value never lands on or across ref unless v
	// is within the laws' 1e-9 of it.
	for _, ref := range []float64{1, 1.1, 1.05, 1.123456789, 2.2e9} {
		for i := -2000; i <= 2000; i++ {
			v := ref + float64(i)*1e-7*ref
			if math.Abs(v-ref) <= 1e-9*math.Max(1, ref) {
				continue
			}
			s := Apart(v, ref, 3)
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || cmp(x, ref) != cmp(v, ref) {
				t.Fatalf("Apart(%v, %v, 3) = %q: not on v's side of ref", v, ref, s)
			}
		}
	}
}
