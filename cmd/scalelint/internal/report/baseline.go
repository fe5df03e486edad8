package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// A baseline records today's findings so a large repository can adopt
// scalelint without fixing every old finding first: `check --baseline F`
// reports only findings that are not in it. Findings are matched by
// fingerprint (rule, file, object, field; never a line), so an edit above a
// finding does not resurface it.

// Baseline is a baseline file, version 1.
type Baseline struct {
	Version  int             `json:"version"`
	Findings []BaselineEntry `json:"findings"`
}

// BaselineEntry is one recorded finding.
type BaselineEntry struct {
	Fingerprint string     `json:"fingerprint"`
	Rule        string     `json:"rule"`
	File        string     `json:"file"`
	Object      *ObjectRef `json:"object,omitempty"`
	Field       string     `json:"field,omitempty"`
	Message     string     `json:"message"`
}

// ReadBaseline reads a baseline file.
func ReadBaseline(path string, limit int64) (*Baseline, error) {
	data, err := workspace.ReadWhole(path, limit)
	if err != nil {
		return nil, err
	}
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: not a scalelint baseline: %v", path, err)
	}
	if b.Version != 1 {
		return nil, fmt.Errorf("%s: baseline version %d, want 1", path, b.Version)
	}
	return &b, nil
}

// ApplyBaseline marks the shown findings the baseline holds as suppressed
// (kind "baseline") and counts the baseline's findings that are gone.
func (r *Report) ApplyBaseline(b *Baseline) {
	r.Baseline = b
	left := map[string]int{}
	for _, e := range b.Findings {
		left[e.Fingerprint]++
	}
	for i := range r.All {
		d := &r.All[i]
		if d.Suppression != nil {
			continue
		}
		fp := r.Fingerprint(*d)
		if left[fp] > 0 {
			left[fp]--
			d.Suppression = &analyzer.Suppression{Kind: "baseline", Justification: "in the baseline"}
			r.Baselined++
		}
	}
	for _, n := range left {
		r.Gone += n
	}
	r.Shown = r.Shown[:0]
	for _, d := range r.All {
		if d.Suppression == nil {
			r.Shown = append(r.Shown, d)
		}
	}
}

// WriteBaseline writes every shown finding as a baseline file.
func (r *Report) WriteBaseline(w io.Writer) error {
	b := Baseline{Version: 1, Findings: []BaselineEntry{}}
	r.Each(ShownFindings, func(f *Finding) error {
		d := f.Diagnostic
		b.Findings = append(b.Findings, BaselineEntry{Fingerprint: r.Fingerprint(d), Rule: d.Rule,
			File: f.Location.File, Object: f.Object, Field: d.Field, Message: d.Message})
		return nil
	})
	sort.SliceStable(b.Findings, func(i, j int) bool {
		x, y := b.Findings[i], b.Findings[j]
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Rule != y.Rule {
			return x.Rule < y.Rule
		}
		return x.Fingerprint < y.Fingerprint
	})
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
