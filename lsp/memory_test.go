package lsp

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/scalelint/scalelint/analyzer/gccycle"
)

// TestMemoryLimitFor: the live heap plus three quarters of it, at least
// memoryHeadroom (64 MiB) more (memory.go's rule), without overflow.
func TestMemoryLimitFor(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, 64 * mib},
		{80 * mib, 144 * mib},    // three quarters are 60 MiB: the least room
		{100 * mib, 175 * mib},   // three quarters are more
		{180 * mib, 315 * mib},   // 10,000 services' live heap
		{1024 * mib, 1792 * mib}, // three quarters again
		{math.MaxUint64, math.MaxInt64},
	} {
		if got := memoryLimitFor(c.live); got != c.want {
			t.Errorf("memoryLimitFor(%d MiB) = %d MiB, want %d MiB", c.live/mib, got/mib, c.want/mib)
		}
	}
}

// TestMemoryTunerFollowsLiveHeap: after a collection the limit is the one
// the live heap calls for; once stopped, the process's limit is restored
// and collections no longer change it.
func TestMemoryTunerFollowsLiveHeap(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	tuner, stop := startMemoryTuner()
	deadline := time.Now().Add(waitTimeout)
	for tuner.tuned.Load() == 0 {
		if time.Now().After(deadline) {
			stop()
			t.Fatal("no limit set after collections")
		}
		runtime.GC() // runs the sentinel's finalizer, on the finalizer goroutine
		time.Sleep(time.Millisecond)
	}
	got := debug.SetMemoryLimit(-1)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	// The limit follows the live heap of the collection before: at least
	// memoryHeadroom above zero, and far below the heap this test holds
	// plus a gigabyte.
	if got < memoryHeadroom || got > memoryLimitFor(ms.HeapAlloc+1<<30) {
		t.Errorf("limit %d with a live heap of about %d", got, ms.HeapAlloc)
	}
	stop()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit after stop = %d, want the process's %d", got, before)
	}
	n := tuner.tuned.Load()
	runtime.GC()
	runtime.GC()
	if tuner.tuned.Load() != n || debug.SetMemoryLimit(-1) != before {
		t.Error("the stopped tuner set the limit again")
	}
}

// TestMemoryLimitAfterIndex: a server asked to limit its memory sets the
// limit once its index's lint is published (not while the index is read),
// when the environment leaves it to it, and restores the process's limit
// when it stops.
func TestMemoryLimitAfterIndex(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	c := newClient(t, Options{MemoryLimit: true})
	c.initialize(workspaceDir(t, "workspace"), "")
	deadline := time.Now().Add(waitTimeout)
	for !strings.Contains(c.log.String(), "published the indexed workspace's diagnostics") {
		if time.Now().After(deadline) {
			t.Fatalf("no publication of the index's lint; log:\n%s", c.log)
		}
		time.Sleep(time.Millisecond) // the log wakes no waiter
	}
	tuned := !gccycle.UserTuned(os.Getenv)
	started := func() bool {
		c.srv.memMu.Lock()
		defer c.srv.memMu.Unlock()
		return c.srv.memStop != nil
	}
	for tuned && debug.SetMemoryLimit(-1) == before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond) // the collection limitMemory starts, then its finalizer
	}
	if got := debug.SetMemoryLimit(-1); started() != tuned || (got != before) != tuned {
		t.Fatalf("with GOGC=%q GOMEMLIMIT=%q: tuner started %v, limit %d (was %d)", os.Getenv("GOGC"), os.Getenv("GOMEMLIMIT"), started(), got, before)
	}
	c.cancel() // Serve returns
	<-c.done
	if got := debug.SetMemoryLimit(-1); got != before || started() {
		t.Errorf("after Serve: limit %d, want the process's %d; tuner running %v", got, before, started())
	}
}
