// Package gcpace paces the garbage collector while a run loads a
// repository, so that it collects at the heap size the end of loading
// needs anyway instead of at every doubling on the way there.
//
// Why: the collector starts a cycle when the heap reaches twice what the
// last cycle found live (GOGC=100). Loading makes the live heap grow from
// a few megabytes to its full size one file at a time, while parsing
// makes several times as much short-lived garbage, so a run of 10,000
// services collected 10 times while loading, most of them on a heap far
// smaller than the one the run reaches later. Each cycle marks the whole
// live heap, so those early cycles are work that does not lower the
// run's peak memory, which the later, larger heap sets.
//
// How: after each cycle, the pacer extrapolates the live heap at the end
// of loading from the files loaded so far (the live heap grows with the
// files; what was live before loading began does not), and sets the
// collector's percentage so that the next cycle starts at 1.6 times that
// prediction (goalFactor), never sooner than the default pacing would
// (at twice the live heap). Stop gives the default pacing back and
// returns the memory loading freed to the system, so indexing, the rules
// and the output run as they would without it. A run whose user set GOGC
// or GOMEMLIMIT is not paced.
//
// Data flow: load.Read -> Start(files to load) -> Loaded after each file
// (from the loading goroutines) -> after each collection (analyzer/gccycle)
// percentFor -> debug.SetGCPercent -> Stop when loading ends.
package gcpace

import (
	"math"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/scalelint/scalelint/analyzer/gccycle"
)

// minLoaded is how many files must be loaded before the pacer
// extrapolates: fewer say little about the rest.
const minLoaded = 64

// goalFactor is the next cycle's goal as a multiple of the live heap
// predicted for the end of loading. The default pacing's goal there is
// twice it; with 2, a run of 10,000 services collected 4 times instead
// of 10 while loading but peaked 37 MiB higher, its later phases
// growing into a heap already at its largest. 1.6 kept the peak (210
// MiB, 216 without pacing) and still cut CPU time by 9% (median of five
// interleaved runs each: testdata/bench/run.sh's corpus).
const goalFactor = 1.6

// maxPercent bounds the percentage set, so the next cycle starts at five
// times the live heap at most: a wrong extrapolation from an odd first
// batch of files (one huge file among small ones) costs at most that
// much room, and only until the next cycle corrects it. At 10,000
// services the cap keeps the pacing's gain (13 collections by the end of
// loading with it or with a cap of 1600%; 16 with one of 200%).
const maxPercent = 400

// A Pacer paces the collector while files load. Its methods are safe
// from several goroutines; a nil Pacer does nothing.
type Pacer struct {
	total  int
	loaded atomic.Int64
	base   uint64 // the live heap when loading began

	mu      sync.Mutex
	stopped bool
	prev    int    // the percentage before Start
	unwatch func() // stops the calls after each collection
}

// Start begins pacing a load of total files. It returns nil (no pacing)
// when the user set GOGC or GOMEMLIMIT, or when there are too few files
// for pacing to matter.
func Start(total int) *Pacer {
	if total < minLoaded || gccycle.UserTuned(os.Getenv) {
		return nil
	}
	p := &Pacer{total: total, base: gccycle.LiveHeap()}
	p.prev = debug.SetGCPercent(100)
	debug.SetGCPercent(p.prev)
	p.unwatch = gccycle.After(p.afterCycle)
	return p
}

// Loaded counts one file loaded.
func (p *Pacer) Loaded() {
	if p != nil {
		p.loaded.Add(1)
	}
}

// Stop ends the pacing and gives the collector its percentage back.
func (p *Pacer) Stop() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		p.stopped = true
		p.unwatch()
		debug.SetGCPercent(p.prev)
		// The heap loading used and freed goes back to the system
		// (after one collection, which also sets the default pacing's
		// goal from the live heap of now): the later phases' growth
		// would otherwise come on top of loading's freed spans.
		debug.FreeOSMemory()
	}
}

func (p *Pacer) afterCycle(live uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		debug.SetGCPercent(percentFor(live, p.base, int(p.loaded.Load()), p.total, p.prev))
	}
}

// percentFor is the collector percentage that starts the next cycle at
// goalFactor times the live heap predicted for the end of loading: live now, of
// which base was live before loading began, with loaded of total files
// loaded. It is never below def, the default percentage, and it is def
// until minLoaded files are loaded.
func percentFor(live, base uint64, loaded, total, def int) int {
	if loaded < minLoaded || live == 0 || total <= loaded {
		return def
	}
	grown := 0.0
	if live > base {
		grown = float64(live - base)
	}
	predicted := float64(base) + grown*float64(total)/float64(loaded)
	goal := goalFactor * predicted
	pct := (goal/float64(live) - 1) * 100
	if math.IsNaN(pct) || pct < float64(def) {
		return def
	}
	if pct > maxPercent {
		return maxPercent
	}
	return int(pct)
}
