package analyzer

import (
	"bytes"
	"sort"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// Fixes are applied by one planner and one applier, for every driver that
// applies them: `scalelint check --fix` and `--diff` (the safe fixes, to the
// files named on the command line) and the rule tests' golden files
// (analyzertest: every first fix). What a test's golden file shows is what
// --fix writes.

// FileEdit is one planned edit of a file, in byte offsets of its text.
type FileEdit struct {
	Start, End int
	NewText    string
}

// FirstFix picks a diagnostic's first suggested fix.
func FirstFix(d Diagnostic) (SuggestedFix, bool) {
	if len(d.SuggestedFixes) == 0 {
		return SuggestedFix{}, false
	}
	return d.SuggestedFixes[0], true
}

// FirstSafeFix picks a diagnostic's first fix marked safe.
func FirstSafeFix(d Diagnostic) (SuggestedFix, bool) {
	for _, f := range d.SuggestedFixes {
		if f.Safe {
			return f, true
		}
	}
	return SuggestedFix{}, false
}

// PlanFixes takes, for each diagnostic in order, the fix pick chooses and
// collects its edits by file. A fix is taken whole or not at all: it is
// skipped when an edit falls in a file allow refuses (nil allows every
// file) or outside the workspace, or overlaps an edit already taken (two
// insertions at one place overlap). It returns each file's edits sorted by
// offset, and the indexes of the diagnostics whose fix was taken.
func PlanFixes(ws *workspace.Workspace, diags []Diagnostic, pick func(Diagnostic) (SuggestedFix, bool),
	allow func(*manifest.File) bool) (map[*manifest.File][]FileEdit, map[int]bool) {
	edits := map[*manifest.File][]FileEdit{}
	taken := map[int]bool{}
	for i, d := range diags {
		fix, ok := pick(d)
		if !ok || len(fix.Edits) == 0 {
			continue
		}
		planned := make([]FileEdit, 0, len(fix.Edits))
		files := make([]*manifest.File, 0, len(fix.Edits))
		for _, e := range fix.Edits {
			f := ws.FileOf(e.Pos)
			if f == nil || (allow != nil && !allow(f)) || ws.FileOf(e.End) != f || e.End < e.Pos {
				ok = false
				break
			}
			pe := FileEdit{f.Tok.Offset(e.Pos), f.Tok.Offset(e.End), e.NewText}
			if overlaps(edits[f], pe) {
				ok = false
				break
			}
			for k, q := range planned {
				if files[k] == f && overlaps([]FileEdit{q}, pe) {
					ok = false
				}
			}
			planned = append(planned, pe)
			files = append(files, f)
		}
		if !ok {
			continue
		}
		for k, pe := range planned {
			edits[files[k]] = append(edits[files[k]], pe)
		}
		taken[i] = true
	}
	for f := range edits {
		sort.SliceStable(edits[f], func(i, j int) bool { return edits[f][i].Start < edits[f][j].Start })
	}
	return edits, taken
}

// overlaps reports whether e overlaps one of es; two insertions at one
// offset do too (their order would be arbitrary).
func overlaps(es []FileEdit, e FileEdit) bool {
	for _, x := range es {
		if e.Start < x.End && x.Start < e.End || (e.Start == x.Start && e.End == x.End) {
			return true
		}
	}
	return false
}

// ApplyEdits returns src with edits applied; the edits are sorted and do
// not overlap, as PlanFixes makes them.
func ApplyEdits(src []byte, edits []FileEdit) []byte {
	var b bytes.Buffer
	b.Grow(len(src))
	last := 0
	for _, e := range edits {
		b.Write(src[last:e.Start])
		b.WriteString(e.NewText)
		last = e.End
	}
	b.Write(src[last:])
	return b.Bytes()
}
