package workspace

import (
	"sync/atomic"
	"time"
)

// Timings are the time spent in the steps of loading and indexing,
// summed over the goroutines that load, since EnableTimings: what the
// command line's --stats prints (with manifest.ReadTimings for the steps
// of parsing). Off by default: then nothing is timed.
type Timings struct {
	Read    time.Duration // reading files (LoadReleased)
	Views   time.Duration // building objects' scaling and traffic views (Prepare; decodes made on first use included)
	Index   time.Duration // New: deployment roots, the index of objects, the kinds parsed on demand
	Resolve time.Duration // New: every autoscaler's scale target resolved
}

var (
	timingOn                      atomic.Bool
	tRead, tViews, tIndex, tResol atomic.Int64
)

// EnableTimings starts timing the steps of loading and indexing.
func EnableTimings() { timingOn.Store(true) }

// ReadTimings returns the time spent so far in each step.
func ReadTimings() Timings {
	return Timings{Read: time.Duration(tRead.Load()), Views: time.Duration(tViews.Load()),
		Index: time.Duration(tIndex.Load()), Resolve: time.Duration(tResol.Load())}
}

func startTiming() time.Time {
	if timingOn.Load() {
		return time.Now()
	}
	return time.Time{}
}

func addTiming(step *atomic.Int64, start time.Time) {
	if !start.IsZero() {
		step.Add(int64(time.Since(start)))
	}
}
