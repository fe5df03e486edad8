package simulate

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// Sample is the state of the loop at one instant, after every event at that
// instant (arrivals, metric refresh, sync) has been applied.
type Sample struct {
	T         float64 // seconds since the demand step
	Pods      int     // replicas the controller has set: every existing pod
	Consuming int     // pods past their dead time
	Backlog   float64 // messages waiting
	Desired   int     // raw recommendation of the last sync, before normalisation
}

// Summary describes the pod count over the last hour of the run, read on a
// one-second grid (3,600 points ending at the end of the run).
type Summary struct {
	From, To    float64 // the hour, seconds since the step
	Min, Max    int
	P5, P95     float64 // percentiles, interpolated between closest ranks
	Mean        float64 // mean pods
	MeanBacklog float64
	Need        float64 // λ1/c
	Swing       float64 // (Max − Min)/Need
	Hunts       bool    // Swing > 0.3 (rules/laws/README.md §6.1)
	// Period: the smallest lag in seconds (up to 1,800) at which the pod
	// count of the hour repeats exactly; 0 if it is constant or does not
	// repeat.
	Period float64
}

// HuntThreshold is the swing, as a fraction of the need, above which a loop
// hunts (rules/laws/README.md §6.1).
const HuntThreshold = 0.3

// Result of one run.
type Result struct {
	Config  Config // with defaults filled
	Samples []Sample
	Summary Summary
}

// Run simulates cfg. It validates cfg and returns an error for an invalid
// one; it does not panic and its running time is bounded by the limits the
// validation enforces.
func Run(cfg Config) (Result, error) {
	s, err := resolve(cfg)
	if err != nil {
		return Result{}, err
	}
	return run(s, true), nil
}

type cohort struct {
	n  int
	at int64 // consumes from this instant
}

type engine struct {
	s         *setup
	t         int64
	backlog   float64
	lambda    float64
	consuming int
	pending   []cohort // ordered by at; arrivals from the front, removals from the back
	head      int
	total     int
	metric    float64 // last refreshed backlog reading
	lastRaw   int
	ctrl      controller
}

func (e *engine) advance(to int64) {
	if to <= e.t {
		return
	}
	dt := float64(to-e.t) / 1e9
	e.backlog += (e.lambda - e.s.cfg.PodRate*float64(e.consuming)) * dt
	if e.backlog < 0 {
		e.backlog = 0
	}
	e.t = to
}

func (e *engine) nextArrival() int64 {
	if e.head < len(e.pending) {
		return e.pending[e.head].at
	}
	return math.MaxInt64
}

func (e *engine) arrive() {
	for e.head < len(e.pending) && e.pending[e.head].at <= e.t {
		e.consuming += e.pending[e.head].n
		e.head++
	}
	if e.head > 0 && 2*e.head >= len(e.pending) { // drop the consumed prefix
		n := copy(e.pending, e.pending[e.head:])
		e.pending, e.head = e.pending[:n], 0
	}
}

// remove deletes k pods the way the ReplicaSet controller ranks them:
// pods not yet consuming first, newest first, then consuming ones.
func (e *engine) remove(k int) {
	for k > 0 && len(e.pending) > e.head {
		last := &e.pending[len(e.pending)-1]
		take := min(k, last.n)
		last.n -= take
		k -= take
		if last.n == 0 {
			e.pending = e.pending[:len(e.pending)-1]
		}
	}
	e.consuming -= k
}

func (e *engine) sync() {
	s := e.s
	current := e.total
	usageMilli := int64(math.MaxInt64) // the source caps the sum at MaxInt64
	if m := e.metric * 1000; m < math.MaxInt64 {
		usageMilli = int64(m) // KEDA's GenerateMetricInMili: int64(value*1000)
	}
	raw := externalPerPod(usageMilli, s.targetMilli, current, s.tolUp, s.tolDown)
	e.lastRaw = raw
	desired := e.ctrl.normalize(e.t, current, raw)
	if desired == current {
		return
	}
	if desired > current {
		e.pending = append(e.pending, cohort{desired - current, e.t + s.deadTime})
	} else {
		e.remove(current - desired)
	}
	e.ctrl.storeScaleEvent(e.t, current, desired)
	e.total = desired
	e.arrive() // a zero dead time consumes at once
}

func run(s *setup, keepSamples bool) Result {
	cfg := s.cfg
	e := &engine{
		s:         s,
		backlog:   s.l0,
		consuming: s.n0,
		total:     s.n0,
		metric:    s.l0,
		lastRaw:   s.n0,
		ctrl:      controller{s: s},
	}
	// The loop has rested at n0 with the backlog at T·n0: every sync of
	// the remembered past recommended n0.
	for t := s.firstSync - s.syncPeriod; t >= -s.maxWindow-s.syncPeriod; t -= s.syncPeriod {
		e.ctrl.recs = append(e.ctrl.recs, timestamped{t, s.n0})
	}
	slices.Reverse(e.ctrl.recs)

	var rng *rand.Rand
	if cfg.Noise > 0 {
		rng = rand.New(rand.NewPCG(uint64(cfg.Seed), 0x5ca1e11e))
	}
	const minute = int64(time.Minute)
	const second = int64(time.Second)

	nextSync := s.firstSync
	// The first refresh after the step in the sequence firstSync − lag + k·period.
	nextMetric := (s.firstSync - s.metricLag) % s.metricPeriod
	if nextMetric <= 0 {
		nextMetric += s.metricPeriod
	}
	var nextNoise int64 // 0: the first draw happens at the step
	e.lambda = cfg.DemandTo
	if rng == nil {
		nextNoise = math.MaxInt64
	}
	var nextSample int64
	if !keepSamples {
		nextSample = math.MaxInt64
	}
	var samples []Sample
	if keepSamples {
		samples = make([]Sample, 0, s.end/s.sampleEvery+1)
	}
	gridStart := s.end - summarySeconds*second
	grid := make([]int, 0, summarySeconds)
	var backlogSum float64
	nextGrid := gridStart + second

	for {
		t := min(nextSync, nextMetric, e.nextArrival(), nextNoise, nextSample, nextGrid)
		if t > s.end {
			break
		}
		e.advance(t)
		e.arrive()
		if t == nextNoise {
			f := 1 + cfg.Noise*(2*rng.Float64()-1)
			e.lambda = cfg.DemandTo * max(f, 0)
			nextNoise += minute
		}
		if t == nextMetric {
			e.metric = e.backlog
			nextMetric += s.metricPeriod
		}
		if t == nextSync {
			e.sync()
			nextSync += s.syncPeriod
		}
		if t == nextSample {
			samples = append(samples, Sample{
				T:         float64(t) / 1e9,
				Pods:      e.total,
				Consuming: e.consuming,
				Backlog:   e.backlog,
				Desired:   e.lastRaw,
			})
			nextSample += s.sampleEvery
		}
		if t == nextGrid {
			grid = append(grid, e.total)
			backlogSum += e.backlog
			nextGrid += second
			if nextGrid > s.end {
				nextGrid = math.MaxInt64
			}
		}
	}
	sum := summarize(grid, s.need)
	sum.From, sum.To = float64(gridStart)/1e9, float64(s.end)/1e9
	if len(grid) > 0 {
		sum.MeanBacklog = backlogSum / float64(len(grid))
	}
	return Result{Config: cfg, Samples: samples, Summary: sum}
}

func summarize(pods []int, need float64) Summary {
	sum := Summary{Need: need}
	if len(pods) == 0 {
		return sum
	}
	sorted := slices.Clone(pods)
	slices.Sort(sorted)
	n := len(sorted)
	// Linear interpolation between closest ranks (numpy's default).
	pct := func(p float64) float64 {
		x := p * float64(n-1)
		i := int(x)
		if i >= n-1 {
			return float64(sorted[n-1])
		}
		return float64(sorted[i]) + (x-float64(i))*float64(sorted[i+1]-sorted[i])
	}
	sum.Min, sum.Max = sorted[0], sorted[n-1]
	sum.P5, sum.P95 = pct(0.05), pct(0.95)
	total := 0
	for _, v := range pods {
		total += v
	}
	sum.Mean = float64(total) / float64(n)
	sum.Swing = float64(sum.Max-sum.Min) / need
	sum.Hunts = sum.Swing > HuntThreshold
	sum.Period = float64(period(pods, 1800))
	return sum
}

// period returns the smallest lag p ≤ maxLag (and below half the series)
// at which v[i] == v[i+p] for every i, or 0 when v is constant or has no
// such lag.
func period(v []int, maxLag int) int {
	if len(v) == 0 || slices.Min(v) == slices.Max(v) {
		return 0
	}
	for p := 1; p <= maxLag && 2*p <= len(v); p++ {
		ok := true
		for i := 0; i+p < len(v); i++ {
			if v[i] != v[i+p] {
				ok = false
				break
			}
		}
		if ok {
			return p
		}
	}
	return 0
}
