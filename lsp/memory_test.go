package lsp

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestMemoryLimitFor: the live heap plus half of it, at least
// memoryHeadroom (64 MiB) more (memory.go's rule), without overflow.
func TestMemoryLimitFor(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, 64 * mib},
		{100 * mib, 164 * mib},   // half is 50 MiB: the least room
		{128 * mib, 192 * mib},   // half is the least room
		{180 * mib, 270 * mib},   // 10,000 services' live heap
		{1024 * mib, 1536 * mib}, // half again
		{math.MaxUint64, math.MaxInt64},
	} {
		if got := memoryLimitFor(c.live); got != c.want {
			t.Errorf("memoryLimitFor(%d MiB) = %d MiB, want %d MiB", c.live/mib, got/mib, c.want/mib)
		}
	}
}

// TestMemoryTunedRespectsEnvironment: a user's GOGC or GOMEMLIMIT is left
// alone.
func TestMemoryTunedRespectsEnvironment(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, true},
		{map[string]string{"GOGC": "200"}, false},
		{map[string]string{"GOGC": "off", "GOMEMLIMIT": "1GiB"}, false},
		{map[string]string{"GOMEMLIMIT": "512MiB"}, false},
	} {
		if got := memoryTuned(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("memoryTuned(%v) = %v, want %v", c.env, got, c.want)
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
