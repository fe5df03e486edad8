package simulate

import (
	"testing"
	"time"
)

const sec = int64(time.Second)

// KEDA's specification: "If our metric is the queue size, the threshold is 5
// messages, and the current message count in the queue is 20, HPA will scale
// the deployment to 20 / 5 = 4 replicas, regardless of the current replica
// count." "The Delay a Window Demands", "One Sync, Walked Through": with 200
// replicas at T = 10, "any backlog from 1,800 to 2,200 messages holds the count
// at two hundred, and 2,300 messages asks for 230"; 4,000 messages with 300
// replicas asks for 400; 1,000 asks for 100.
func TestExternalPerPod(t *testing.T) {
	for _, tc := range []struct {
		usage, target float64
		status, want  int
	}{
		{20, 5, 1, 4},
		{20, 5, 7, 4},
		{1800, 10, 200, 200}, // ratio 0.9: inside, inclusive
		{1799, 10, 200, 180},
		{2200, 10, 200, 200}, // ratio 1.1: inside, inclusive
		{2201, 10, 200, 221},
		{2300, 10, 200, 230},
		{4000, 10, 300, 400},
		{1000, 10, 200, 100},
		{0, 10, 5, 0},
		{50, 10, 5, 5},
		{55, 10, 5, 5},
		{56, 10, 5, 6},
	} {
		got := externalPerPod(int64(tc.usage*1000), int64(tc.target*1000), tc.status, 0.1, 0.1)
		if got != tc.want {
			t.Errorf("usage %v, target %v, %d replicas: got %d, want %d", tc.usage, tc.target, tc.status, got, tc.want)
		}
	}
	// Per-direction tolerance (behavior.scaleUp.tolerance).
	if got := externalPerPod(2300*1000, 10*1000, 200, 0.2, 0.1); got != 200 {
		t.Errorf("scale-up tolerance 0.2 should hold 2,300 at 200 replicas, got %d", got)
	}
	if got := externalPerPod(2001*1000, 10*1000, 200, 0, 0); got != 201 {
		t.Errorf("zero tolerance should follow the backlog, got %d", got)
	}
}

func newController(t *testing.T, cfg Config) *controller {
	t.Helper()
	if cfg.PodRate == 0 {
		cfg.PodRate, cfg.Threshold, cfg.DemandTo = 10, 10, 100
	}
	s, err := resolve(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &controller{s: s}
}

// step runs one sync the way the engine does and returns the new count.
func (c *controller) step(now int64, current, raw int) int {
	n := c.normalize(now, current, raw)
	c.storeScaleEvent(now, current, n)
	return n
}

func TestLegacyNormalizer(t *testing.T) {
	c := newController(t, Config{MaxReplicas: 1000})
	// Scale-up limit max(2·current, 4).
	if got := c.step(0, 1, 100); got != 4 {
		t.Errorf("from 1: got %d, want 4", got)
	}
	if got := c.step(15*sec, 4, 100); got != 8 {
		t.Errorf("from 4: got %d, want 8", got)
	}
	// The window holds the highest raw recommendation for 300 s,
	// including one exactly 300 s old.
	c = newController(t, Config{MaxReplicas: 1000})
	c.step(0, 50, 50)
	for i := int64(1); i < 20; i++ {
		if got := c.step(i*15*sec, 50, 10); got != 50 {
			t.Fatalf("at %d s: got %d, want the window to hold 50", i*15, got)
		}
	}
	if got := c.step(300*sec, 50, 10); got != 50 {
		t.Errorf("at 300 s: got %d, want 50 (the source keeps a recommendation exactly one window old)", got)
	}
	if got := c.step(315*sec, 50, 10); got != 10 {
		t.Errorf("at 315 s: got %d, want 10", got)
	}
	// ExclusiveWindow drops it.
	c = newController(t, Config{MaxReplicas: 1000, ExclusiveWindow: true})
	c.step(0, 50, 50)
	if got := c.step(300*sec, 50, 10); got != 10 {
		t.Errorf("exclusive window at 300 s: got %d, want 10", got)
	}
	// The stabilised recommendation may exceed current and keeps
	// scaling up (legacy path has no clamp at current).
	c = newController(t, Config{MaxReplicas: 1000})
	c.step(0, 5, 230)
	if got := c.step(15*sec, 10, 12); got != 20 {
		t.Errorf("legacy path after a limited scale-up: got %d, want 20", got)
	}
	// Clamp to [min, max].
	c = newController(t, Config{MinReplicas: 3, MaxReplicas: 7, DownscaleWindow: time.Second})
	if got := c.step(0, 5, 1); got != 3 {
		t.Errorf("below min: got %d, want 3", got)
	}
	if got := c.step(15*sec, 5, 100); got != 7 {
		t.Errorf("above max: got %d, want 7", got)
	}
}

func TestBehaviourNormalizerDefaults(t *testing.T) {
	c := newController(t, Config{MaxReplicas: 1000, Behavior: &Behavior{}})
	// Up: max(current + 4, 2·current) per 15 s.
	for _, tc := range []struct{ current, want int }{{1, 5}, {2, 6}, {3, 7}, {4, 8}, {10, 20}} {
		c := newController(t, Config{MaxReplicas: 1000, Behavior: &Behavior{}})
		if got := c.step(0, tc.current, 500); got != tc.want {
			t.Errorf("from %d: got %d, want %d", tc.current, got, tc.want)
		}
	}
	// No clamp beyond current: after a limited scale-up the stabilised
	// recommendation is capped at current when the raw one falls.
	c.step(0, 5, 230)
	if got := c.step(15*sec, 10, 9); got != 10 {
		t.Errorf("behaviour path after a limited scale-up: got %d, want 10", got)
	}
	// Down window: 300 s by default, strictly after the cutoff.
	c = newController(t, Config{MaxReplicas: 1000, Behavior: &Behavior{}})
	c.step(0, 50, 50)
	if got := c.step(285*sec, 50, 10); got != 50 {
		t.Errorf("at 285 s: got %d, want 50", got)
	}
	if got := c.step(300*sec, 50, 10); got != 10 {
		t.Errorf("at 300 s: got %d, want 10 (After(cutoff) drops it)", got)
	}
	// Percent 100 per 15 s allows a scale-down to min at once.
	c = newController(t, Config{MaxReplicas: 1000, Behavior: DownWindow(0)})
	if got := c.step(0, 500, 0); got != 1 {
		t.Errorf("scale-down: got %d, want 1", got)
	}
}

func TestBehaviourPolicies(t *testing.T) {
	// Pods 4 per 60 s: the period bookkeeping counts the pods added in
	// the last 60 s.
	b := &Behavior{ScaleUp: &Rules{Policies: []Policy{{PodsPolicy, 4, 60}}}}
	c := newController(t, Config{MaxReplicas: 1000, Behavior: b})
	n := 10
	for i, want := range []int{14, 14, 14, 14, 18} {
		n = c.step(int64(i)*15*sec, n, 100)
		if n != want {
			t.Errorf("sync %d: got %d, want %d", i, n, want)
		}
	}
	// Percent 50 and Pods 3 with Min: the smaller change.
	b = &Behavior{ScaleUp: &Rules{SelectPolicy: MinChange, Policies: []Policy{{PercentPolicy, 50, 15}, {PodsPolicy, 3, 15}}}}
	c = newController(t, Config{MaxReplicas: 1000, Behavior: b})
	if got := c.step(0, 10, 100); got != 13 {
		t.Errorf("Min of +50%% and +3 from 10: got %d, want 13", got)
	}
	// Percent rounds up going up (ceil(3·1.1) = 4).
	b = &Behavior{ScaleUp: &Rules{Policies: []Policy{{PercentPolicy, 10, 15}}}}
	c = newController(t, Config{MaxReplicas: 1000, Behavior: b})
	if got := c.step(0, 3, 100); got != 4 {
		t.Errorf("+10%% from 3: got %d, want 4", got)
	}
	// Disabled holds.
	b = &Behavior{ScaleUp: &Rules{SelectPolicy: Disabled}, ScaleDown: &Rules{SelectPolicy: Disabled}}
	c = newController(t, Config{MaxReplicas: 1000, Behavior: b})
	if got := c.step(0, 10, 100); got != 10 {
		t.Errorf("disabled up: got %d", got)
	}
	if got := c.step(400*sec, 10, 1); got != 10 {
		t.Errorf("disabled down: got %d", got)
	}
	// Down Percent truncates (int32(9·0.5) = 4), Max selects the lowest
	// bound, and a window keeps the stabilised value.
	b = &Behavior{ScaleDown: &Rules{StabilizationWindowSeconds: Int32(0), Policies: []Policy{{PercentPolicy, 50, 15}, {PodsPolicy, 1, 15}}}}
	c = newController(t, Config{MaxReplicas: 1000, Behavior: b})
	if got := c.step(0, 9, 1); got != 4 {
		t.Errorf("down 50%% from 9: got %d, want 4", got)
	}
	b.ScaleDown.SelectPolicy = MinChange
	c = newController(t, Config{MaxReplicas: 1000, Behavior: b})
	if got := c.step(0, 9, 1); got != 8 {
		t.Errorf("down Min(50%%, 1 pod) from 9: got %d, want 8", got)
	}
	// Up window: the minimum of the recent recommendations.
	b = &Behavior{ScaleUp: &Rules{StabilizationWindowSeconds: Int32(60)}}
	c = newController(t, Config{MaxReplicas: 1000, Behavior: b})
	c.recs = []timestamped{{-30 * sec, 12}}
	if got := c.step(0, 10, 40); got != 12 {
		t.Errorf("up window: got %d, want 12", got)
	}
}

// The engine's pod bookkeeping: pods ordered at a sync consume one dead time
// later; a scale-down removes pods still starting first, newest first.
func TestRemoveOrder(t *testing.T) {
	e := &engine{consuming: 10, total: 10}
	e.pending = []cohort{{5, 100}, {7, 115}}
	e.total = 22
	e.remove(8)
	if e.consuming != 10 || len(e.pending) != 1 || e.pending[0].n != 4 {
		t.Errorf("after removing 8: consuming %d, pending %+v", e.consuming, e.pending)
	}
	e.remove(6)
	if e.consuming != 8 || len(e.pending) != 0 {
		t.Errorf("after removing 6 more: consuming %d, pending %+v", e.consuming, e.pending)
	}
}
