package main

import (
	"fmt"
	"io"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// phaseMark, when not nil, is told when each phase of a check ends
// (--stats): load.Options.Mark and the check command call it.
var phaseMark func(phase string)

// runStats is the phase table of one check (--stats): the wall time and
// the CPU time of each phase, and at its end the heap in use, the live
// heap, the heap's fragmentation, and the resident set size with its
// anonymous part. CPU over wall is how many cores the
// phase kept busy: a phase near 1 on a machine of many runs serially.
type runStats struct {
	start, last       time.Time
	startCPU, lastCPU time.Duration
	rows              []phaseRow
}

type phaseRow struct {
	name            string
	wall, cpu       time.Duration
	heap, live, rss float64 // MiB
	// frag is the heap's free room inside spans that hold objects
	// (/memory/classes/heap/unused): memory the process keeps that no
	// object uses, which a collection after a phase of garbage leaves
	// between the objects that outlive it.
	frag float64
	// anon is the anonymous part of rss (RssAnon): the heap, stacks and
	// runtime. The rest is pages of the executable mapped from the page
	// cache, whose count depends on how the kernel cached the file (one
	// build measured 38 MiB and the next 47 MiB, same code).
	anon float64
	gcs  uint64 // collections completed by the phase's end
}

// startStats turns the timings of loading and parsing on and starts the
// table; phaseMark records each phase from then on.
func startStats() *runStats {
	manifest.EnableTimings()
	workspace.EnableTimings()
	s := &runStats{start: time.Now(), startCPU: processCPU()}
	s.last, s.lastCPU = s.start, s.startCPU
	phaseMark = s.mark
	return s
}

// mark records the end of a phase, when --stats is on.
func mark(phase string) {
	if phaseMark != nil {
		phaseMark(phase)
	}
}

func (s *runStats) mark(phase string) {
	now, cpu := time.Now(), processCPU()
	heap, live, frag, gcs := heapFigures()
	s.rows = append(s.rows, phaseRow{name: phase, wall: now.Sub(s.last), cpu: cpu - s.lastCPU, heap: heap, live: live, frag: frag, gcs: gcs,
		rss: procStatus("VmRSS"), anon: procStatus("RssAnon")})
	s.last, s.lastCPU = now, cpu
}

// print writes the table: the phases in order, each with its wall time;
// the steps of "load" and "index" below it with their time summed over the
// goroutines that ran them (they overlap: loading runs on every core).
func (s *runStats) print(w io.Writer) {
	m, ws := manifest.ReadTimings(), workspace.ReadTimings()
	steps := map[string][][2]any{
		"load":  {{"read", ws.Read}, {"sniff", m.Sniff}, {"parse", m.Parse}, {"decode", m.Decode}, {"views", ws.Views}},
		"index": {{"index", ws.Index}, {"resolve", ws.Resolve}},
	}
	ms := func(d time.Duration) string {
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64)
	}
	cores := func(cpu, wall time.Duration) string {
		if cpu <= 0 || wall <= 0 {
			return ""
		}
		return strconv.FormatFloat(float64(cpu)/float64(wall), 'f', 2, 64)
	}
	fmt.Fprintf(w, "%-10s %10s %10s %6s %10s %9s %9s %9s %5s %9s %9s\n", "phase", "wall_ms", "cpu_ms", "cores", "busy_ms", "heap_MiB", "live_MiB", "frag_MiB", "gcs", "rss_MiB", "anon_MiB")
	for _, r := range s.rows {
		fmt.Fprintf(w, "%-10s %10s %10s %6s %10s %9.1f %9.1f %9.1f %5d %9.1f %9.1f\n", r.name, ms(r.wall), ms(r.cpu), cores(r.cpu, r.wall), "", r.heap, r.live, r.frag, r.gcs, r.rss, r.anon)
		for _, st := range steps[r.name] {
			fmt.Fprintf(w, "  %-8s %10s %10s %6s %10s\n", st[0], "", "", "", ms(st[1].(time.Duration)))
		}
	}
	wall, cpu := time.Since(s.start), processCPU()-s.startCPU
	fmt.Fprintf(w, "%-10s %10s %10s %6s %10s %9s %9s %9s %5s %9.1f\n", "total", ms(wall), ms(cpu), cores(cpu, wall), "", "", "", "", "peak", procStatus("VmHWM"))
	fmt.Fprintln(w, "cpu: the process's user and system time in the phase (getrusage), and cores: cpu over wall, how many cores it kept busy (near 1: serial); busy: the wall time of the goroutines that ran the step, summed (loading runs 2 per core, so it overlaps and includes waiting); heap: in use, collected or not, at the phase's end; live: what the last collection (gcs: collections so far) found reachable; frag: free room in the heap's spans that hold objects; rss and peak: of the process; anon: its anonymous part (the rest is executable pages from the page cache)")
}

// heapFigures returns the bytes of heap objects, the live heap (what
// the last collection marked reachable) and the free room in spans that
// hold objects, in MiB, and the collections completed. The live heap is read, not measured: forcing a collection at
// each phase would change what the table measures (the heap, the time).
func heapFigures() (heap, live, frag float64, gcs uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}, {Name: "/memory/classes/heap/unused:bytes"}}
	metrics.Read(s)
	mib := func(v metrics.Value) float64 {
		if v.Kind() != metrics.KindUint64 {
			return 0
		}
		return float64(v.Uint64()) / (1 << 20)
	}
	if s[2].Value.Kind() == metrics.KindUint64 {
		gcs = s[2].Value.Uint64()
	}
	return mib(s[0].Value), mib(s[1].Value), mib(s[3].Value), gcs
}

// procStatus returns a kB field of /proc/self/status in MiB (0 where
// there is none).
func procStatus(field string) float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}
