package manifest

import (
	"sync/atomic"
	"time"
)

// Timings are the time spent in each step of parsing, summed over the
// goroutines that parse, since EnableTimings: what the command line's
// --stats prints. Off by default: then nothing is timed.
type Timings struct {
	Sniff  time.Duration // splitting files into documents and sniffing each one's kind
	Parse  time.Duration // building documents' node trees
	Decode time.Duration // reading objects from their trees (typed decode included)
}

var (
	timingOn                atomic.Bool
	tSniff, tParse, tDecode atomic.Int64
)

// EnableTimings starts timing the steps of parsing (ReadTimings).
func EnableTimings() { timingOn.Store(true) }

// ReadTimings returns the time spent so far in each step of parsing.
func ReadTimings() Timings {
	return Timings{Sniff: time.Duration(tSniff.Load()), Parse: time.Duration(tParse.Load()), Decode: time.Duration(tDecode.Load())}
}

// startTiming returns the time now when timings are on, else zero.
func startTiming() time.Time {
	if timingOn.Load() {
		return time.Now()
	}
	return time.Time{}
}

// addTiming adds the time since start (from startTiming) to a step.
func addTiming(step *atomic.Int64, start time.Time) {
	if !start.IsZero() {
		step.Add(int64(time.Since(start)))
	}
}
