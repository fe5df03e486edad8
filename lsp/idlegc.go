package lsp

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// A collection that runs while the user types slows the edits it
// overlaps: it marks the whole index (at 10,000 services 150 MB) for a few
// hundred milliseconds, and the edits of that time assist it and wait
// for the cores it takes. Typing comes in bursts, though. So once the
// server has had no message for idleCollectAfter, and the heap has
// grown by at least half the room the collector leaves it (the heap
// goal above the live heap), the server collects then, in the pause, and
// the next burst starts with the whole room.
//
// It costs no work while messages come (each resets a timer) and collects
// at most once per pause, and only after that much allocation: never more
// often than the collector itself would, only earlier. It runs with the
// memory tuner (memory.go), that is, unless the user chose GOGC or
// GOMEMLIMIT.

// idleCollectAfter is how long the server waits without a message before
// it considers collecting: longer than the pauses of typing, short
// enough to come before the next burst.
const idleCollectAfter = 750 * time.Millisecond

// heapReading is what the idle collector reads of the heap.
type heapReading struct {
	live  uint64 // marked live by the last collection
	heap  uint64 // the heap's objects now, garbage included
	goal  uint64 // the heap size the next collection aims for
	valid bool
}

// grownEnough reports whether the heap has used half or more of the
// room the collector leaves it above the live heap.
func (r heapReading) grownEnough() bool {
	if !r.valid || r.goal <= r.live || r.heap <= r.live {
		return false
	}
	return r.heap-r.live >= (r.goal-r.live)/2
}

// idleCollector collects the heap once per pause in the messages when it
// has grown enough (see above). Its clock, heap reading and collection
// are fields so that tests can drive it.
type idleCollector struct {
	after   time.Duration
	now     func() time.Time
	read    func() heapReading
	collect func()

	mu        sync.Mutex
	last      time.Time // the last message
	collected bool      // already collected in this pause
	stopped   bool
	timer     *time.Timer
	// collections counts the collections it started, for tests.
	collections int
}

func newIdleCollector() *idleCollector {
	return &idleCollector{after: idleCollectAfter, now: time.Now, read: readHeap, collect: runtime.GC}
}

// start arms the timer: the pause counts from now.
func (c *idleCollector) start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last = c.now()
	c.timer = time.AfterFunc(c.after, c.fire)
}

// touch records a message: the pause starts again.
func (c *idleCollector) touch() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped || c.timer == nil {
		return
	}
	c.last, c.collected = c.now(), false
	c.timer.Reset(c.after)
}

// stop stops the timer for good.
func (c *idleCollector) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopped = true
	if c.timer != nil {
		c.timer.Stop()
	}
}

// fire runs when the timer does: it collects if no message came for
// c.after, none has been collected since the last one, and the heap has
// grown enough.
func (c *idleCollector) fire() {
	c.mu.Lock()
	if c.stopped || c.collected || c.now().Sub(c.last) < c.after {
		c.mu.Unlock()
		return
	}
	if !c.read().grownEnough() {
		c.mu.Unlock()
		return
	}
	c.collected = true
	c.collections++
	c.mu.Unlock()
	c.collect()
}

var heapSamples = sync.Pool{New: func() any {
	return &[]metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/goal:bytes"}}
}}

// readHeap reads the live heap, the heap and the heap goal.
func readHeap() heapReading {
	p := heapSamples.Get().(*[]metrics.Sample)
	defer heapSamples.Put(p)
	s := *p
	metrics.Read(s)
	for _, x := range s {
		if x.Value.Kind() != metrics.KindUint64 {
			return heapReading{}
		}
	}
	return heapReading{live: s[0].Value.Uint64(), heap: s[1].Value.Uint64(), goal: s[2].Value.Uint64(), valid: true}
}
