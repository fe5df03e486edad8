// Package suggest finds the name a user most likely meant: the "did you
// mean" of unknown fields, rules, options, annotations and commands. It
// imports nothing of the project, so every layer (manifest, analyzer
// configuration, rules, the language server, the CLI) words a typo the
// same way.
package suggest

import (
	"math"
	"unicode"
	"unicode/utf8"
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
	ns := utf8.RuneCountInString(s)
	for _, c := range candidates {
		// A candidate whose length in code points differs by more than
		// the limit is more edits away, so it is never the one returned.
		// (Closest runs for each unknown key and annotation of thousands
		// of files, and at each edit in the language server.)
		if nc := utf8.RuneCountInString(c); ns-nc > limit || nc-ns > limit {
			continue
		}
		if d := editDistance(s, c); d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	if bestD <= limit && bestD < len(s) {
		return best
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b in code points,
// ignoring case (each code point lowered as strings.ToLower lowers it).
//
// Names are short: their code points and the two rows of the table are
// kept on the stack up to 64 code points (a language server reads every
// annotation of the edited file against the known ones at each edit).
func editDistance(a, b string) int {
	var bufA, bufB [64]rune
	var bufPrev, bufCur [65]int
	ra, rb := appendRunes(bufA[:0], a), appendRunes(bufB[:0], b)
	prev, cur := bufPrev[:0], bufCur[:0]
	if len(rb) >= len(bufPrev) {
		prev, cur = make([]int, 0, len(rb)+1), make([]int, 0, len(rb)+1)
	}
	prev, cur = prev[:len(rb)+1], cur[:len(rb)+1]
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

// appendRunes appends the code points of s to buf, lowered: what
// strings.ToLower does (unicode.ToLower of each code point), without
// making a string.
func appendRunes(buf []rune, s string) []rune {
	for _, r := range s {
		buf = append(buf, unicode.ToLower(r))
	}
	return buf
}
