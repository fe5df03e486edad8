// Package suggest finds the name a user most likely meant: the "did you
// mean" of unknown fields, rules, options, annotations and commands. It
// imports nothing of the project, so every layer (manifest, analyzer
// configuration, rules, the language server, the CLI) words a typo the
// same way.
package suggest

import (
	"math"
	"strings"
)

// Closest returns the candidate nearest to s by edit distance (Levenshtein,
// on code points, ignoring case), if it is near enough to be a likely
// typo: at most 2 edits, 3 for an s longer than 8 bytes, and fewer edits
// than s has bytes. Ties go to the candidate first in byte order. It
// returns "" when no candidate is that near.
func Closest(s string, candidates []string) string {
	limit := 2
	if len(s) > 8 {
		limit = 3
	}
	best, bestD := "", math.MaxInt
	ascii := isASCII(s)
	ls := ""
	for _, c := range candidates {
		var d int
		if ascii && isASCII(c) {
			// Bytes are code points, lowered as strings.ToLower lowers
			// them; and a candidate whose length differs by more than
			// the limit is more edits away, so it is never the one
			// returned. (Closest runs for each unknown key and
			// annotation of thousands of files: this path allocates
			// nothing.)
			if len(s)-len(c) > limit || len(c)-len(s) > limit {
				continue
			}
			d = asciiDistance(s, c)
		} else {
			if ls == "" {
				ls = strings.ToLower(s)
			}
			d = editDistance(ls, strings.ToLower(c))
		}
		if d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	if bestD <= limit && bestD < len(s) {
		return best
	}
	return ""
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// asciiDistance is editDistance of two ASCII strings lowered, without
// allocating for the short names Closest compares.
func asciiDistance(a, b string) int {
	var rows [2][64]int
	var prev, cur []int
	if len(b)+1 <= len(rows[0]) {
		prev, cur = rows[0][:len(b)+1], rows[1][:len(b)+1]
	} else {
		prev, cur = make([]int, len(b)+1), make([]int, len(b)+1)
	}
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		ca := lowerASCII(a[i-1])
		for j := 1; j <= len(b); j++ {
			cost := 1
			if ca == lowerASCII(b[j-1]) {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// editDistance is the Levenshtein distance between a and b in code points.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
