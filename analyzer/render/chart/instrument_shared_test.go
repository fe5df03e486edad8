package chart

import (
	"reflect"
	"testing"

	"github.com/scalelint/scalelint/analyzer/render"
)

// TestTemplatesInstrumentedOncePerChart: the value sets of a chart share
// its instrumented templates and one table of marks (Chart.instrument):
// rendering another value set marks nothing again, and each render still
// maps its positions as a chart loaded for it alone does (the same
// locations for every rendered byte that starts a line).
func TestTemplatesInstrumentedOncePerChart(t *testing.T) {
	c := load(t, "podinfo")
	sets := append(c.ValueSets(), c.AutoscalingVariants()...)
	if len(sets) < 2 {
		t.Fatalf("value sets %v: want several", sets)
	}
	first := renderSet(t, c, sets[0])
	marked := len(c.markTable())
	if marked == 0 {
		t.Fatal("no marks")
	}
	outs := []*render.Output{first}
	for _, vs := range sets[1:] {
		outs = append(outs, renderSet(t, c, vs))
		if got := len(c.markTable()); got != marked {
			t.Errorf("after %s: %d marks, want the %d of the first render (templates marked again)", vs.Name, got, marked)
		}
	}
	for i, vs := range sets {
		alone := renderSet(t, load(t, "podinfo"), vs)
		if len(alone.Files) != len(outs[i].Files) {
			t.Fatalf("%s: %d files, alone %d", vs.Name, len(outs[i].Files), len(alone.Files))
		}
		for j, f := range outs[i].Files {
			g := alone.Files[j]
			if f.Source != g.Source || string(f.Text) != string(g.Text) {
				t.Fatalf("%s: file %s differs from %s rendered alone", vs.Name, f.Source, g.Source)
			}
			for off := 0; off < len(f.Text); off++ {
				if off > 0 && f.Text[off-1] != '\n' {
					continue
				}
				if a, b := f.Locator.Locate(off, off+1), g.Locator.Locate(off, off+1); !reflect.DeepEqual(a, b) {
					t.Errorf("%s %s@%d: located %+v, alone %+v", vs.Name, f.Source, off, a, b)
				}
			}
		}
	}
}
