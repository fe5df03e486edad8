// Package numfmt writes numbers and counts as the command's outputs show
// them. The rules' messages and the language server have their own
// formatters; these are the command's until one package serves all.
package numfmt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Round6 keeps six significant digits, so the numbers of every JSON
// output (check's facts, compute, audit, simulate) are stable across
// platforms.
func Round6(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	mag := math.Pow(10, 5-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*mag) / mag
}

// Num formats a number with at most four decimals, without trailing
// zeros.
func Num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 4, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// Plural writes a count and its noun: "1 file", "2 files".
func Plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
