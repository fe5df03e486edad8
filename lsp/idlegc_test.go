package lsp

import (
	"testing"
	"time"
)

// TestHeapReadingGrownEnough: the idle collector collects once the heap
// has used half the room between the live heap and the heap goal.
func TestHeapReadingGrownEnough(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		r    heapReading
		want bool
	}{
		{heapReading{live: 150 * mb, heap: 150 * mb, goal: 230 * mb, valid: true}, false}, // just collected
		{heapReading{live: 150 * mb, heap: 189 * mb, goal: 230 * mb, valid: true}, false}, // 39 of 80 MB used
		{heapReading{live: 150 * mb, heap: 190 * mb, goal: 230 * mb, valid: true}, true},  // 40 of 80 MB: half
		{heapReading{live: 150 * mb, heap: 229 * mb, goal: 230 * mb, valid: true}, true},
		{heapReading{live: 150 * mb, heap: 140 * mb, goal: 230 * mb, valid: true}, false}, // freed since (swept)
		{heapReading{live: 150 * mb, heap: 200 * mb, goal: 150 * mb, valid: true}, false}, // no room: the collector is on it
		{heapReading{live: 150 * mb, heap: 229 * mb, goal: 230 * mb}, false},              // no reading
	} {
		if got := c.r.grownEnough(); got != c.want {
			t.Errorf("%+v: grownEnough = %v, want %v", c.r, got, c.want)
		}
	}
}

// TestIdleCollectorPolicy drives the idle collector with a fake clock
// and heap: it collects only after idleCollectAfter without a message,
// only when the heap grew enough, and once per pause.
func TestIdleCollectorPolicy(t *testing.T) {
	now := time.Unix(1000, 0)
	grown := heapReading{live: 100, heap: 160, goal: 200, valid: true}
	fresh := heapReading{live: 100, heap: 110, goal: 200, valid: true}
	reading := grown
	collected := 0
	c := &idleCollector{after: time.Second, now: func() time.Time { return now },
		read: func() heapReading { return reading }, collect: func() { collected++ }}
	c.start()
	defer c.stop()
	c.timer.Stop() // the test fires it by hand

	step := func(d time.Duration, want int, what string) {
		t.Helper()
		now = now.Add(d)
		c.fire()
		if collected != want {
			t.Fatalf("%s: %d collections, want %d", what, collected, want)
		}
	}
	step(999*time.Millisecond, 0, "before the pause is long enough")
	step(time.Millisecond, 1, "a pause of a second, the heap grown")
	step(5*time.Second, 1, "the same pause, fired again")
	c.touch()
	c.timer.Stop()
	step(500*time.Millisecond, 1, "half a second after a message")
	reading = fresh
	step(time.Second, 1, "a pause, the heap not grown enough")
	reading = grown
	c.touch()
	c.timer.Stop()
	step(2*time.Second, 2, "the next pause, the heap grown")
	c.touch()
	c.timer.Stop()
	c.stop()
	step(2*time.Second, 2, "a pause after stop")
}
