package rules

import (
	"slices"
	"testing"
)

// TestOneEdit: the names one typo away, as Damerau-Levenshtein counts one
// edit: each kind of edit yields its name, and none is two edits away.
func TestOneEdit(t *testing.T) {
	got := oneEdit("web")
	for _, want := range []string{"eb", "wb", "we", "wbe", "ewb", "webs", "aweb", "wea", "wxb"} {
		if !slices.Contains(got, want) {
			t.Errorf("oneEdit(web) lacks %q", want)
		}
	}
	for _, not := range []string{"web", "bew", "wbee", "api"} {
		if slices.Contains(got, not) {
			t.Errorf("oneEdit(web) holds %q", not)
		}
	}
	if !slices.IsSorted(got) {
		t.Error("oneEdit's names are not in byte order")
	}
	// 3 deletions + 2 swaps (distinct from the others) + 4×38 insertions
	// + 3×37 changes, less the duplicates: bounded by their sum.
	if n := len(got); n > 3+2+4*len(nameRunes)+3*(len(nameRunes)-1) {
		t.Errorf("oneEdit(web) has %d names, more than the edits can make", n)
	}
}
