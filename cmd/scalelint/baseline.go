package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/scalelint/scalelint/analyzer"
)

// A baseline records today's findings so a large repository can adopt
// scalelint without fixing every old finding first: `check --baseline F`
// reports only findings that are not in it. Findings are matched by
// fingerprint (rule, file, object, field; never a line), so an edit above a
// finding does not resurface it.

type baselineFile struct {
	Version  int             `json:"version"`
	Findings []baselineEntry `json:"findings"`
}

type baselineEntry struct {
	Fingerprint string     `json:"fingerprint"`
	Rule        string     `json:"rule"`
	File        string     `json:"file"`
	Object      *objectRef `json:"object,omitempty"`
	Field       string     `json:"field,omitempty"`
	Message     string     `json:"message"`
}

func readBaseline(path string) (*baselineFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var b baselineFile
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: not a scalelint baseline: %v", path, err)
	}
	if b.Version != 1 {
		return nil, fmt.Errorf("%s: baseline version %d, want 1", path, b.Version)
	}
	return &b, nil
}

// applyBaseline marks the shown findings the baseline holds as suppressed
// (kind "baseline") and counts the baseline's findings that are gone.
func (r *report) applyBaseline(b *baselineFile) {
	r.baseline = b
	left := map[string]int{}
	for _, e := range b.Findings {
		left[e.Fingerprint]++
	}
	for i := range r.all {
		d := &r.all[i]
		if d.Suppression != nil {
			continue
		}
		fp := analyzer.Fingerprint(r.ws, *d)
		if left[fp] > 0 {
			left[fp]--
			d.Suppression = &analyzer.Suppression{Kind: "baseline", Justification: "in the baseline"}
			r.baselined++
		}
	}
	for _, n := range left {
		r.fixed += n
	}
	r.shown = r.shown[:0]
	for _, d := range r.all {
		if d.Suppression == nil {
			r.shown = append(r.shown, d)
		}
	}
}

// writeBaseline writes every shown finding to path, atomically.
func (r *report) writeBaseline(path string) error {
	b := baselineFile{Version: 1, Findings: []baselineEntry{}}
	for _, d := range r.shown {
		l := r.locate(d.Pos, d.End)
		b.Findings = append(b.Findings, baselineEntry{Fingerprint: analyzer.Fingerprint(r.ws, d), Rule: d.Rule,
			File: l.File, Object: r.objectOf(d), Field: d.Field, Message: d.Message})
	}
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
	return writeFileAtomic(path, append(data, '\n'))
}

// writeFileAtomic writes data to a temporary file beside path and renames
// it over path, so a reader never sees a partial file.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(dirOf(path), ".scalelint-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// Keep an existing file's mode; a new file gets 0644 (CreateTemp
	// makes 0600).
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	os.Chmod(tmp.Name(), mode)
	return os.Rename(tmp.Name(), path)
}
