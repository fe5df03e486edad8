package simulate

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestInvalidConfigs(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		mod  func(*Config)
		want string
	}{
		{"negative dead time", func(c *Config) { c.DeadTime = -time.Second }, "dead time"},
		{"zero pod rate", func(c *Config) { c.PodRate = 0 }, "pod rate"},
		{"NaN pod rate", func(c *Config) { c.PodRate = nan }, "pod rate"},
		{"infinite pod rate", func(c *Config) { c.PodRate = math.Inf(1) }, "pod rate"},
		{"zero threshold", func(c *Config) { c.Threshold = 0 }, "threshold"},
		{"NaN threshold", func(c *Config) { c.Threshold = nan }, "threshold"},
		{"tiny threshold", func(c *Config) { c.Threshold = 1e-5 }, "milli"},
		{"min above max", func(c *Config) { c.MinReplicas, c.MaxReplicas = 10, 5 }, "min replicas 10 is above max replicas 5"},
		{"negative min", func(c *Config) { c.MinReplicas = -1 }, "min replicas"},
		{"huge max", func(c *Config) { c.MaxReplicas = 1 << 40 }, "max replicas"},
		{"NaN demand", func(c *Config) { c.DemandTo = nan }, "demand after"},
		{"zero demand", func(c *Config) { c.DemandTo = 0 }, "demand after"},
		{"negative demand before", func(c *Config) { c.DemandFrom = -1 }, "demand before"},
		{"NaN tolerance", func(c *Config) { c.Tolerance = nan }, "tolerance"},
		{"negative tolerance", func(c *Config) { c.Tolerance = -0.1 }, "tolerance"},
		{"NaN hours", func(c *Config) { c.Hours = nan }, "hours"},
		{"short run", func(c *Config) { c.Hours = 0.5 }, "hours"},
		{"long run", func(c *Config) { c.Hours = 1e6 }, "hours"},
		{"noise", func(c *Config) { c.Noise = 2 }, "noise"},
		{"NaN noise", func(c *Config) { c.Noise = nan }, "noise"},
		{"tiny sync period", func(c *Config) { c.SyncPeriod = time.Millisecond }, "sync period"},
		{"negative metric period", func(c *Config) { c.MetricPeriod = -time.Second }, "metric period"},
		{"first sync after the period", func(c *Config) { c.FirstSync = 20 * time.Second }, "first sync"},
		{"metric lag", func(c *Config) { c.MetricLag = 15 * time.Second }, "metric lag"},
		{"window", func(c *Config) { c.DownscaleWindow = 2 * time.Hour }, "downscale window"},
		{"too much work", func(c *Config) {
			c.Hours, c.SyncPeriod, c.MetricPeriod, c.FirstSync, c.SampleEvery = 1000, time.Second, time.Second, time.Second, time.Minute
			c.Behavior = &Behavior{ScaleDown: &Rules{StabilizationWindowSeconds: Int32(3600)}}
		}, "too much work"},
		{"too many samples", func(c *Config) { c.Hours, c.SampleEvery = 1000, 100*time.Millisecond }, "samples"},
		{"behaviour window", func(c *Config) { c.Behavior = DownWindow(4000) }, "stabilizationWindowSeconds"},
		{"behaviour policy type", func(c *Config) {
			c.Behavior = &Behavior{ScaleUp: &Rules{Policies: []Policy{{"Bogus", 1, 15}}}}
		}, "type"},
		{"behaviour policy value", func(c *Config) {
			c.Behavior = &Behavior{ScaleUp: &Rules{Policies: []Policy{{PodsPolicy, 0, 15}}}}
		}, "value"},
		{"behaviour policy period", func(c *Config) {
			c.Behavior = &Behavior{ScaleDown: &Rules{Policies: []Policy{{PodsPolicy, 1, 1801}}}}
		}, "periodSeconds"},
		{"behaviour select", func(c *Config) { c.Behavior = &Behavior{ScaleDown: &Rules{SelectPolicy: "Most"}} }, "selectPolicy"},
		{"behaviour tolerance", func(c *Config) { c.Behavior = &Behavior{ScaleUp: &Rules{Tolerance: Float64(nan)}} }, "tolerance"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Kit(60)
			tc.mod(&c)
			_, err := Run(c)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
			if strings.Contains(tc.want, "threshold") || tc.want == "milli" {
				return // FindBoundary sets the threshold itself
			}
			if _, err := FindBoundary(c, 10, 200); err == nil {
				t.Error("FindBoundary: no error")
			}
		})
	}
	// Several problems are reported together.
	_, err := Run(Config{DeadTime: -1, PodRate: -1, Threshold: -1, DemandTo: -1})
	if err == nil || !strings.Contains(err.Error(), "dead time") || !strings.Contains(err.Error(), "pod rate") {
		t.Errorf("joined error: %v", err)
	}
	if _, err := Run(Config{}); err == nil {
		t.Error("the zero Config has no pod rate and should be rejected")
	}
}

func TestFindBoundaryBrackets(t *testing.T) {
	c := Kit(0)
	for _, b := range [][2]float64{{0, 10}, {10, 10}, {20, 10}, {math.NaN(), 10}, {1, math.Inf(1)}} {
		if _, err := FindBoundary(c, b[0], b[1]); err == nil {
			t.Errorf("bracket %v: no error", b)
		}
	}
	if _, err := FindBoundary(c, 1, 20); err == nil || !strings.Contains(err.Error(), "still hunts") {
		t.Errorf("hunting at hi: %v", err)
	}
	if _, err := FindBoundary(c, 150, 200); err == nil || !strings.Contains(err.Error(), "already rests") {
		t.Errorf("resting at lo: %v", err)
	}
}

func TestDefaultsAndSamples(t *testing.T) {
	r := mustRun(t, Kit(150))
	c := r.Config
	if c.SyncPeriod != 15*time.Second || c.MetricPeriod != 15*time.Second || c.FirstSync != time.Second ||
		c.DownscaleWindow != 300*time.Second || c.Tolerance != 0.1 || c.MinReplicas != 1 ||
		c.MaxReplicas != 100 || c.Hours != 20 || c.SampleEvery != 5*time.Second {
		t.Errorf("defaults not filled: %+v", c)
	}
	if n := len(r.Samples); n != 20*3600/5+1 {
		t.Errorf("%d samples, want %d", n, 20*3600/5+1)
	}
	first, last := r.Samples[0], r.Samples[len(r.Samples)-1]
	if first.T != 0 || first.Pods != 5 || first.Consuming != 5 || first.Backlog != 7500 {
		t.Errorf("first sample %+v, want the rest state at 5 pods, backlog T·5", first)
	}
	if last.T != 72000 {
		t.Errorf("last sample at %v", last.T)
	}
	s := r.Summary
	if s.From != 68400 || s.To != 72000 || s.Need != 20 {
		t.Errorf("summary window/need: %+v", s)
	}
	if math.Abs(s.MeanBacklog-20*1500) > 0.1*20*1500 {
		t.Errorf("mean backlog at rest %.0f, want about T·need = 30,000", s.MeanBacklog)
	}
	for _, sm := range r.Samples {
		if sm.Consuming > sm.Pods || sm.Backlog < 0 || sm.Pods < 1 || sm.Pods > 100 {
			t.Fatalf("inconsistent sample %+v", sm)
		}
	}
}

// A zero dead time consumes at once. With no window and a standing delay of
// a few sync periods the loop rests; at one second it still hunts, because
// the 15 s sync alone lets a shortfall of one pod add fifteen pods' worth of
// threshold before the next reading.
func TestZeroDeadTime(t *testing.T) {
	c := Kit(1)
	c.DeadTime = 0
	c.Behavior = DownWindow(0)
	s := mustRun(t, c).Summary
	logSummary(t, "zero dead time, D = 1 s, no window", s)
	if !s.Hunts {
		t.Error("D = 1 s under a 15 s sync should hunt even without dead time")
	}
	c = Kit(60)
	c.DeadTime = 0
	c.Behavior = DownWindow(0)
	r := mustRun(t, c)
	logSummary(t, "zero dead time, D = 60 s, no window", r.Summary)
	if r.Summary.Hunts {
		t.Error("a loop without dead time or window at D = 60 s should rest")
	}
	for _, s := range r.Samples[1:] {
		if s.Consuming != s.Pods {
			t.Fatalf("at %v s: %d consuming of %d pods", s.T, s.Consuming, s.Pods)
		}
	}
}

// Demand that needs more than the ceiling: the loop sits at the ceiling.
func TestCeilingBinds(t *testing.T) {
	c := Kit(60)
	c.DemandTo = 2000 // 200 pods under a ceiling of 100
	s := mustRun(t, c).Summary
	if s.Min != 100 || s.Max != 100 {
		t.Errorf("want the ceiling all hour: %+v", s)
	}
}

func TestMetricPhase(t *testing.T) {
	// A lagging metric delays the first order: with the metric refreshed
	// 10 s before each sync, the first sync at 1 s reads the backlog of
	// 9 s before the step (rest) and holds.
	c := Kit(60)
	c.MetricLag = 10 * time.Second
	c.SampleEvery = time.Second
	r := mustRun(t, c)
	if p := r.Samples[5].Pods; p != 5 {
		t.Errorf("pods at 5 s = %d, want 5 (the first sync read a stale metric)", p)
	}
	if p := r.Samples[20].Pods; p == 5 {
		t.Error("the second sync should read the grown backlog and scale up")
	}
}

func TestPeriod(t *testing.T) {
	for _, tc := range []struct {
		v    []int
		want int
	}{
		{[]int{1, 1, 1, 1}, 0},
		{[]int{1, 2, 1, 2, 1, 2}, 2},
		{[]int{1, 2, 3, 1, 2, 3, 1}, 3},
		{[]int{1, 2, 3, 4, 5, 6}, 0},
		{nil, 0},
	} {
		if got := period(tc.v, 100); got != tc.want {
			t.Errorf("period(%v) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	pods := make([]int, 100)
	for i := range pods {
		pods[i] = i + 1
	}
	s := summarize(pods, 50)
	if s.Min != 1 || s.Max != 100 || math.Abs(s.P5-5.95) > 1e-9 || math.Abs(s.P95-95.05) > 1e-9 || s.Mean != 50.5 || s.Swing != 99.0/50 || !s.Hunts {
		t.Errorf("summary %+v", s)
	}
	s = summarize([]int{20, 20, 22, 20}, 20)
	if s.Hunts || s.Swing != 0.1 {
		t.Errorf("tolerance ripple counted as hunting: %+v", s)
	}
}

// Run must never panic, whatever the input.
func FuzzRun(f *testing.F) {
	f.Add(90.0, 10.0, 600.0, 1, 100, 50.0, 200.0, 0.0, int32(-1), 1.0)
	f.Add(0.0, 1e-3, 1e-3, 0, 0, 0.0, 1.0, 0.5, int32(0), 1.0)
	f.Add(-1.0, math.NaN(), math.Inf(1), -5, 3, -1.0, 1e300, 2.0, int32(4000), 3.0)
	f.Fuzz(func(t *testing.T, dead, rate, threshold float64, minR, maxR int, from, to, noise float64, window int32, hours float64) {
		c := Config{
			DeadTime:    time.Duration(dead * 1e9),
			PodRate:     rate,
			Threshold:   threshold,
			MinReplicas: minR,
			MaxReplicas: maxR,
			DemandFrom:  from,
			DemandTo:    to,
			Noise:       noise,
			Hours:       math.Min(hours, 3),
			SampleEvery: time.Minute,
		}
		if window >= 0 {
			c.Behavior = DownWindow(window)
		}
		r, err := Run(c)
		if err != nil {
			return
		}
		for _, s := range r.Samples {
			if s.Backlog < 0 || math.IsNaN(s.Backlog) || s.Consuming > s.Pods || s.Pods < r.Config.MinReplicas || s.Pods > r.Config.MaxReplicas {
				t.Fatalf("inconsistent sample %+v for %+v", s, c)
			}
		}
	})
}

func BenchmarkRun20h(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  Config
	}{
		{"kit-hunting-D60", Kit(60)},
		{"specimen-hunting-T10", Specimen(1)},
		{"specimen-resting-D150-noise", func() Config { c := Specimen(150); c.Noise = 0.1; return c }()},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(bc.cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkFindBoundary(b *testing.B) {
	c := Specimen(0)
	for b.Loop() {
		if _, err := FindBoundary(c, 10, 200); err != nil {
			b.Fatal(err)
		}
	}
}
