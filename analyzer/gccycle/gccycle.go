// Package gccycle calls a function after each garbage collection with the
// live heap that collection marked: the one mechanism by which scalelint
// tunes the collector, in the language server (a soft memory limit that
// follows the live heap, lsp/memory.go) and in a one-shot run (the pacing
// of loading, cmd/scalelint/internal/gcpace).
//
// How: an object nothing keeps carries a cleanup (runtime.AddCleanup);
// the collection that finds it unreachable runs the cleanup, which calls
// the function and makes a new object for the next collection.
package gccycle

import (
	"runtime"
	"runtime/metrics"
	"sync"
)

// UserTuned reports whether the environment sets GOGC or GOMEMLIMIT: a
// user who chose either keeps that choice, and nothing tunes over it.
func UserTuned(getenv func(string) string) bool {
	return getenv("GOGC") != "" || getenv("GOMEMLIMIT") != ""
}

// LiveHeap returns the heap the last collection marked live (0 before
// the first).
func LiveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// After calls fn after each collection with the live heap it marked, on
// the runtime's cleanup goroutine, until stop is called. stop waits for a
// call in progress, and no call begins after it returns.
func After(fn func(live uint64)) (stop func()) {
	w := &watch{fn: fn}
	w.arm()
	return func() {
		w.mu.Lock()
		w.stopped = true
		w.mu.Unlock()
	}
}

type watch struct {
	mu      sync.Mutex // serializes calls and stop
	stopped bool
	fn      func(live uint64)
}

// sentinel is the object whose cleanup runs once per collection. It holds
// a pointer, so that the tiny allocator never puts it in a block with
// other objects, whose liveness would delay its cleanup.
type sentinel struct{ _ *int }

func (w *watch) arm() {
	runtime.AddCleanup(&sentinel{}, func(w *watch) { w.cycle() }, w)
}

func (w *watch) cycle() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	w.fn(LiveHeap())
	w.arm()
}
