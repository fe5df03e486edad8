package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestCheckStats: --stats prints the phase table on stderr, a row for
// every phase of the run and for the steps of loading and indexing, and
// leaves stdout as it is without it.
func TestCheckStats(t *testing.T) {
	dir := "../../testdata/examples"
	var plain, out, errOut bytes.Buffer
	run([]string{"check", "--format", "json", "--quiet", dir}, nil, &plain, &bytes.Buffer{})
	run([]string{"check", "--format", "json", "--quiet", "--stats", dir}, nil, &out, &errOut)
	if out.String() != plain.String() {
		t.Errorf("--stats changed stdout")
	}
	var rows []string
	for _, l := range strings.Split(errOut.String(), "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			rows = append(rows, f[0])
		}
	}
	want := []string{"phase", "walk", "render", "load", "read", "sniff", "parse", "decode", "views", "index", "index", "resolve", "rules", "report", "output", "total"}
	if len(rows) < len(want) || strings.Join(rows[:len(want)], " ") != strings.Join(want, " ") {
		t.Errorf("--stats rows %q, want %q first:\n%s", rows, want, errOut.String())
	}
	// The header names the CPU time and the cores it kept busy, the heap
	// in use, the live heap, its fragmentation and the RSS with its
	// anonymous part: the figures the benchmark (testdata/bench/run.sh) reports per phase.
	header := strings.Fields(strings.SplitN(errOut.String(), "\n", 2)[0])
	if got, want := strings.Join(header, " "), "phase wall_ms cpu_ms cores busy_ms heap_MiB live_MiB frag_MiB gcs rss_MiB anon_MiB"; got != want {
		t.Errorf("--stats header %q, want %q", got, want)
	}
}
