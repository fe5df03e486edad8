package lsp

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"

	"github.com/scalelint/scalelint/analyzer/gccycle"
)

// The server lives as long as the editor and holds a workspace's index
// all that time. Under the runtime's default pacing (GOGC=100) the heap
// grows to twice what is live before each collection, and the process
// keeps those pages: at 10,000 services (180 MB live) that was 434 MiB
// resident after 1,000 edits, for garbage, not for anything the server
// holds (testdata/bench/lspbench measures it).
//
// So the server sets a soft memory limit (runtime/debug.SetMemoryLimit)
// that follows the live heap: after each collection, the live heap plus
// three quarters of it, and at least memoryHeadroom more. A small
// workspace keeps the default pacing (its heap reaches twice the live one
// before the limit); a large one collects sooner; a workspace that grows
// raises the limit with it, so that the collector never runs for a live
// heap the limit leaves no room for. A user who chose GOGC or GOMEMLIMIT
// keeps that choice (gccycle.UserTuned).
//
// The room is a trade of memory for edit latency, measured at 10,000
// services on a shared 2-core machine (lspbench, 1,000 edits; p90 / p99,
// RSS after the edits): room 35% 28 / 67 ms, 264 MiB; 50% 11-18 / 37-44 ms,
// 279 MiB; 75% 6-8 / 28-32 ms, 320-341 MiB; no limit 2.5 / 22 ms, 434 MiB.
// An edit then cost about 630 KB of garbage whatever the room, so less
// room meant more collections, each marking the whole index while edits
// run and assist it. Three quarters kept the edits' p90 under what it was
// before (8.5-12 ms, with 620-670 MiB resident). Since an edit's workspace
// shares its lists with the one before (analyzer/workspace/chunked), an
// edit costs about 85 KB at any workspace size (60 KB since RunWith keeps
// its maps and runs a small lint without goroutines): at 10,000 services
// one collection per 650 edits, where there were ten per 1,000; and the
// server makes that collection in a pause of typing when it can
// (idlegc.go).

// limitMemory starts the memory tuner, once, if the options ask for it:
// when the index's lint is published, so that reading the index is paced
// by the runtime's default (a limit close to a heap that grows by half
// at each collection made the index a third slower), with one collection
// at once that sets the limit and lets the runtime return what the index
// left.
func (s *Server) limitMemory() {
	if !s.opts.MemoryLimit || gccycle.UserTuned(os.Getenv) {
		return
	}
	s.memMu.Lock()
	defer s.memMu.Unlock()
	if s.memStop != nil || s.memDone {
		return
	}
	_, stop := startMemoryTuner()
	idle := newIdleCollector()
	idle.start()
	s.idle.Store(idle)
	s.memStop = func() {
		s.idle.Store(nil)
		idle.stop()
		stop()
	}
	go runtime.GC()
}

// stopMemoryLimit stops the memory tuner, restoring the process's limit.
func (s *Server) stopMemoryLimit() {
	s.memMu.Lock()
	defer s.memMu.Unlock()
	if s.memStop != nil {
		s.memStop()
	}
	s.memStop, s.memDone = nil, true
}

// memoryHeadroom is the least room the limit leaves above the live heap.
const memoryHeadroom = 64 << 20

// memoryLimitFor returns the soft memory limit for a live heap: three
// quarters of it, at least memoryHeadroom, above it.
func memoryLimitFor(live uint64) int64 {
	room := max(live/4*3, memoryHeadroom)
	if live > math.MaxInt64-room {
		return math.MaxInt64
	}
	return int64(live + room)
}

// memoryTuner sets the memory limit after each collection
// (analyzer/gccycle).
type memoryTuner struct {
	// tuned counts the limits set, for tests.
	tuned atomic.Int64
}

// startMemoryTuner starts setting the limit after every collection until
// stop is called; stop restores the limit the process had.
func startMemoryTuner() (t *memoryTuner, stop func()) {
	before := debug.SetMemoryLimit(-1)
	t = &memoryTuner{}
	unwatch := gccycle.After(func(live uint64) {
		debug.SetMemoryLimit(memoryLimitFor(live))
		t.tuned.Add(1)
	})
	return t, func() {
		unwatch()
		debug.SetMemoryLimit(before)
	}
}
