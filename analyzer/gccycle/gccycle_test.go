package gccycle

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestAfterEachCollection: fn runs after collections, with a live heap
// the runtime reports, and never once stop has returned.
func TestAfterEachCollection(t *testing.T) {
	var calls atomic.Int64
	var live atomic.Uint64
	stop := After(func(l uint64) { calls.Add(1); live.Store(l) })
	deadline := time.Now().Add(10 * time.Second)
	for calls.Load() < 3 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if calls.Load() < 3 {
		t.Fatalf("%d calls after collections, want at least 3", calls.Load())
	}
	if live.Load() == 0 {
		t.Errorf("live heap given %d", live.Load())
	}
	stop()
	n := calls.Load()
	for range 5 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if calls.Load() != n {
		t.Errorf("%d calls after stop", calls.Load()-n)
	}
}

func TestUserTuned(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"GOGC": "200"}, true},
		{map[string]string{"GOMEMLIMIT": "1GiB"}, true},
		{map[string]string{"GOGC": "off", "GOMEMLIMIT": "1GiB"}, true},
	} {
		if got := UserTuned(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("UserTuned(%v) = %v, want %v", c.env, got, c.want)
		}
	}
}
