package simulate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// Defaults applied by Run to the zero value of the corresponding Config field.
const (
	DefaultSyncPeriod      = 15 * time.Second  // kube-controller-manager --horizontal-pod-autoscaler-sync-period
	DefaultMetricPeriod    = 15 * time.Second  // the HPA reads the KEDA metrics adapter every 15 s
	DefaultFirstSync       = 1 * time.Second   // phase that reproduces the series' walk-through (see Config.FirstSync)
	DefaultDownscaleWindow = 300 * time.Second // --horizontal-pod-autoscaler-downscale-stabilization
	DefaultTolerance       = 0.1               // --horizontal-pod-autoscaler-tolerance
	DefaultMinReplicas     = 1                 // HPA minReplicas default (KEDA: minReplicaCount 0 gives HPA min 1)
	DefaultMaxReplicas     = 100               // KEDA maxReplicaCount default
	DefaultHours           = 20.0              // the series' twenty-hour runs
	DefaultSampleEvery     = 5 * time.Second   // output interval of Result.Samples
)

// Limits that keep Run bounded in time and memory.
const (
	maxHours        = 1000
	maxReplicaLimit = 1_000_000
	maxEvents       = 10_000_000  // syncs or metric refreshes in one run
	maxWork         = 200_000_000 // syncs × remembered recommendations and events scanned per sync
	maxSamples      = 2_000_000
	summarySeconds  = 3600 // the hunting criterion looks at the last hour (rules/laws/README.md §6.1)
)

// PolicyType is the type of an HPA scaling policy.
type PolicyType string

// Policy types of autoscaling/v2 HPAScalingPolicy.
const (
	PodsPolicy    PolicyType = "Pods"
	PercentPolicy PolicyType = "Percent"
)

// SelectPolicy chooses among the policies of one direction.
type SelectPolicy string

// Values of autoscaling/v2 HPAScalingRules.selectPolicy. The empty value means Max.
const (
	MaxChange SelectPolicy = "Max"
	MinChange SelectPolicy = "Min"
	Disabled  SelectPolicy = "Disabled"
)

// Policy is one autoscaling/v2 HPAScalingPolicy: at most Value pods (Pods) or
// Value percent of the count at the start of the period (Percent) per
// PeriodSeconds.
type Policy struct {
	Type          PolicyType
	Value         int32
	PeriodSeconds int32
}

// Rules mirrors autoscaling/v2 HPAScalingRules for one direction. A nil pointer
// or an empty slice takes the Kubernetes default
// (pkg/apis/autoscaling/v2/defaults.go, linked in rules/laws/README.md §8.1).
type Rules struct {
	// StabilizationWindowSeconds, in [0, 3600]. nil: 0 for scale-up,
	// Config.DownscaleWindow (300 s) for scale-down.
	StabilizationWindowSeconds *int32
	// SelectPolicy: "" or Max, Min, Disabled.
	SelectPolicy SelectPolicy
	// Policies; empty: scale-up {Pods 4/15 s, Percent 100/15 s}, scale-down
	// {Percent 100/15 s}.
	Policies []Policy
	// Tolerance for this direction (k8s >= 1.33 behavior.*.tolerance,
	// gate HPAConfigurableTolerance on). nil: Config.Tolerance.
	Tolerance *float64
}

// Behavior mirrors autoscaling/v2 HorizontalPodAutoscalerBehavior, as KEDA
// copies it from advanced.horizontalPodAutoscalerConfig.behavior. A nil
// *Behavior in Config selects the controller's legacy normaliser; a non-nil
// one, even empty, the behaviour normaliser with defaults filled in.
type Behavior struct {
	ScaleUp   *Rules
	ScaleDown *Rules
}

// Int32 returns a pointer to v, for Rules.StabilizationWindowSeconds.
func Int32(v int32) *int32 { return &v }

// Float64 returns a pointer to v, for Rules.Tolerance.
func Float64(v float64) *float64 { return &v }

// Config describes one backlog-scaled consumer, its autoscaler and the
// demand step it is exposed to. Fields documented with a default take it
// when left at their zero value.
type Config struct {
	// DeadTime τ: from the sync that orders a pod to the pod's first
	// consumed message. Zero is allowed (pods consume at once).
	DeadTime time.Duration
	// SyncPeriod of the HPA controller. Default 15 s.
	SyncPeriod time.Duration
	// MetricPeriod: how often the backlog reading the HPA sees is
	// refreshed. Default 15 s; the blog series also tried 30 s.
	MetricPeriod time.Duration
	// FirstSync: time of the first sync after the demand step, in
	// (0, SyncPeriod]; later syncs follow every SyncPeriod. Default 1 s,
	// the phase that reproduces the blog series' walk-through of its kit
	// (its model integrated in 1-s steps and synced on the step's first
	// second).
	FirstSync time.Duration
	// MetricLag: the first sync reads a backlog refreshed MetricLag
	// before it; refreshes follow every MetricPeriod. In
	// [0, MetricPeriod). Default 0: refreshed at the sync instant.
	MetricLag time.Duration

	// PodRate c: messages per second one consuming pod removes.
	PodRate float64
	// Threshold T: the AverageValue target, messages per pod (KEDA's
	// lagThreshold, queueLength, ...). Standing delay D = T/c.
	Threshold float64

	// MinReplicas, default 1. MaxReplicas, default 100 (KEDA's default).
	MinReplicas, MaxReplicas int
	// Tolerance: the cluster-wide tolerance, both directions. Default 0.1.
	// Per-direction values (also exactly zero) go in Behavior.
	Tolerance float64
	// DownscaleWindow: the controller-wide downscale stabilisation window.
	// The legacy path always uses it; the behaviour path when
	// ScaleDown.StabilizationWindowSeconds is nil. Default 300 s.
	DownscaleWindow time.Duration
	// Behavior: nil selects the legacy normaliser (KEDA's case unless
	// advanced.horizontalPodAutoscalerConfig.behavior is set).
	Behavior *Behavior
	// ExclusiveWindow makes the legacy window drop the recommendation
	// exactly one window old. On exact sync times the source keeps it on
	// the legacy path (!Before(cutoff): 300 s spans 20 earlier syncs) and
	// drops it on the behaviour path (After(cutoff): 19 earlier syncs).
	// A real controller drifts a few milliseconds later every period and
	// so drops it on both paths. Default false: the source on exact times,
	// which is what the series' published boundaries match.
	ExclusiveWindow bool

	// DemandFrom λ0 and DemandTo λ1, in messages per second (the unit of
	// PodRate). Before t = 0 the loop rests at λ0; from t = 0 demand is λ1.
	DemandFrom, DemandTo float64
	// Hours of simulated time after the step, at least 1. Default 20.
	Hours float64
	// Noise: relative demand noise. From t = 0 demand is λ1·f, f redrawn
	// every minute uniformly from [1−Noise, 1+Noise] by a PCG generator
	// seeded with Seed. In [0, 1]; 0 is no noise.
	Noise float64
	Seed  int64

	// SampleEvery: interval of Result.Samples. Default 5 s.
	SampleEvery time.Duration
}

// StandingDelay returns D = T/c in seconds.
func (c Config) StandingDelay() float64 { return c.Threshold / c.PodRate }

// rules is one direction of a behaviour, defaults filled, times in ns.
type rules struct {
	window   int64
	sel      SelectPolicy
	policies []policy
	tol      float64
}

type policy struct {
	typ    PolicyType
	value  int
	period int64
}

// setup is a validated Config in the units the simulation uses.
type setup struct {
	cfg                     Config // defaults filled
	deadTime, syncPeriod    int64
	metricPeriod, firstSync int64
	metricLag               int64
	end                     int64
	sampleEvery             int64
	targetMilli             int64
	tolUp, tolDown          float64
	legacyWindow            int64
	behavior                bool
	up, down                rules
	maxWindow               int64
	n0                      int
	l0                      float64
	need                    float64
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// resolve validates cfg, fills defaults and converts to simulation units.
func resolve(cfg Config) (*setup, error) {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	if cfg.SyncPeriod == 0 {
		cfg.SyncPeriod = DefaultSyncPeriod
	}
	if cfg.MetricPeriod == 0 {
		cfg.MetricPeriod = DefaultMetricPeriod
	}
	if cfg.FirstSync == 0 {
		cfg.FirstSync = DefaultFirstSync
		if cfg.FirstSync > cfg.SyncPeriod {
			cfg.FirstSync = cfg.SyncPeriod
		}
	}
	if cfg.DownscaleWindow == 0 {
		cfg.DownscaleWindow = DefaultDownscaleWindow
	}
	if cfg.Tolerance == 0 {
		cfg.Tolerance = DefaultTolerance
	}
	if cfg.MinReplicas == 0 {
		cfg.MinReplicas = DefaultMinReplicas
	}
	if cfg.MaxReplicas == 0 {
		cfg.MaxReplicas = DefaultMaxReplicas
	}
	if cfg.Hours == 0 {
		cfg.Hours = DefaultHours
	}
	if cfg.SampleEvery == 0 {
		cfg.SampleEvery = DefaultSampleEvery
	}

	if cfg.DeadTime < 0 {
		bad("dead time %v is negative", cfg.DeadTime)
	}
	if cfg.SyncPeriod < 100*time.Millisecond {
		bad("sync period %v is below 100ms", cfg.SyncPeriod)
	}
	if cfg.MetricPeriod < 100*time.Millisecond {
		bad("metric period %v is below 100ms", cfg.MetricPeriod)
	}
	if cfg.FirstSync <= 0 || cfg.FirstSync > cfg.SyncPeriod {
		bad("first sync %v is outside (0, sync period %v]", cfg.FirstSync, cfg.SyncPeriod)
	}
	if cfg.MetricLag < 0 || cfg.MetricLag >= cfg.MetricPeriod {
		bad("metric lag %v is outside [0, metric period %v)", cfg.MetricLag, cfg.MetricPeriod)
	}
	if cfg.SampleEvery < 100*time.Millisecond {
		bad("sample interval %v is below 100ms", cfg.SampleEvery)
	}
	if !finite(cfg.PodRate) || cfg.PodRate <= 0 || cfg.PodRate > 1e9 {
		bad("pod rate %v must be a positive number up to 1e9", cfg.PodRate)
	}
	if !finite(cfg.Threshold) || cfg.Threshold <= 0 {
		bad("threshold %v must be a positive number", cfg.Threshold)
	} else if math.Round(cfg.Threshold*1000) < 1 {
		bad("threshold %v is below the metric's milli precision", cfg.Threshold)
	} else if cfg.Threshold > 1e12 {
		bad("threshold %v is too large", cfg.Threshold)
	}
	if cfg.MinReplicas < 0 {
		bad("min replicas %d is negative", cfg.MinReplicas)
	}
	if cfg.MaxReplicas < 0 || cfg.MaxReplicas > maxReplicaLimit {
		bad("max replicas %d is outside [1, %d]", cfg.MaxReplicas, maxReplicaLimit)
	}
	if cfg.MinReplicas > cfg.MaxReplicas {
		bad("min replicas %d is above max replicas %d", cfg.MinReplicas, cfg.MaxReplicas)
	}
	if !finite(cfg.Tolerance) || cfg.Tolerance < 0 {
		bad("tolerance %v must be a non-negative number", cfg.Tolerance)
	}
	if cfg.DownscaleWindow < 0 || cfg.DownscaleWindow > time.Hour {
		bad("downscale window %v is outside [0, 1h]", cfg.DownscaleWindow)
	}
	if !finite(cfg.DemandFrom) || cfg.DemandFrom < 0 || cfg.DemandFrom > 1e15 {
		bad("demand before the step %v must be a non-negative number up to 1e15", cfg.DemandFrom)
	}
	if !finite(cfg.DemandTo) || cfg.DemandTo <= 0 || cfg.DemandTo > 1e15 {
		bad("demand after the step %v must be a positive number up to 1e15", cfg.DemandTo)
	}
	if !finite(cfg.Hours) || cfg.Hours < 1 || cfg.Hours > maxHours {
		bad("hours %v is outside [1, %d]", cfg.Hours, maxHours)
	}
	if !finite(cfg.Noise) || cfg.Noise < 0 || cfg.Noise > 1 {
		bad("noise %v is outside [0, 1]", cfg.Noise)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("simulate: invalid config: %w", errors.Join(errs...))
	}

	s := &setup{
		cfg:          cfg,
		deadTime:     int64(cfg.DeadTime),
		syncPeriod:   int64(cfg.SyncPeriod),
		metricPeriod: int64(cfg.MetricPeriod),
		firstSync:    int64(cfg.FirstSync),
		metricLag:    int64(cfg.MetricLag),
		end:          int64(math.Round(cfg.Hours * 3600 * 1e9)),
		sampleEvery:  int64(cfg.SampleEvery),
		targetMilli:  int64(math.Round(cfg.Threshold * 1000)),
		tolUp:        cfg.Tolerance,
		tolDown:      cfg.Tolerance,
		legacyWindow: int64(cfg.DownscaleWindow),
		need:         cfg.DemandTo / cfg.PodRate,
	}
	if s.end/s.syncPeriod > maxEvents || s.end/s.metricPeriod > maxEvents {
		return nil, fmt.Errorf("simulate: invalid config: %v hours at a %v sync and %v metric period is too many events",
			cfg.Hours, cfg.SyncPeriod, cfg.MetricPeriod)
	}
	if s.end/s.sampleEvery > maxSamples {
		return nil, fmt.Errorf("simulate: invalid config: %v hours sampled every %v is more than %d samples",
			cfg.Hours, cfg.SampleEvery, maxSamples)
	}
	if cfg.DemandFrom/cfg.PodRate > maxReplicaLimit || s.need > maxReplicaLimit {
		return nil, fmt.Errorf("simulate: invalid config: demand needs more than %d pods", maxReplicaLimit)
	}
	s.maxWindow = s.legacyWindow
	if cfg.Behavior != nil {
		s.behavior = true
		var err error
		s.up, err = resolveRules(cfg.Behavior.ScaleUp, true, cfg)
		if err != nil {
			return nil, fmt.Errorf("simulate: invalid config: behavior.scaleUp: %w", err)
		}
		s.down, err = resolveRules(cfg.Behavior.ScaleDown, false, cfg)
		if err != nil {
			return nil, fmt.Errorf("simulate: invalid config: behavior.scaleDown: %w", err)
		}
		s.tolUp, s.tolDown = s.up.tol, s.down.tol
		s.maxWindow = max(s.up.window, s.down.window)
	}

	// Each sync scans the recommendations of its longest window and the
	// scale events of its policy periods: bound the product.
	perSync := 1 + s.maxWindow/s.syncPeriod
	for _, p := range append(slices.Clone(s.up.policies), s.down.policies...) {
		perSync += 2 * (p.period/s.syncPeriod + 1)
	}
	if syncs := s.end / s.syncPeriod; syncs*perSync > maxWork {
		return nil, fmt.Errorf("simulate: invalid config: %v hours at a %v sync period with windows up to %v is too much work; shorten the run or lengthen the sync period",
			cfg.Hours, cfg.SyncPeriod, time.Duration(s.maxWindow))
	}

	n0 := int(math.Ceil(cfg.DemandFrom / cfg.PodRate))
	n0 = min(max(n0, cfg.MinReplicas), cfg.MaxReplicas)
	s.n0 = n0
	s.l0 = cfg.Threshold * float64(n0)
	return s, nil
}

func resolveRules(r *Rules, up bool, cfg Config) (rules, error) {
	out := rules{sel: MaxChange, tol: cfg.Tolerance}
	if up {
		out.window = 0
	} else {
		out.window = int64(cfg.DownscaleWindow)
	}
	if r == nil {
		r = &Rules{}
	}
	if r.StabilizationWindowSeconds != nil {
		w := *r.StabilizationWindowSeconds
		if w < 0 || w > 3600 {
			return out, fmt.Errorf("stabilizationWindowSeconds %d is outside [0, 3600]", w)
		}
		out.window = int64(w) * int64(time.Second)
	}
	switch r.SelectPolicy {
	case "":
	case MaxChange, MinChange, Disabled:
		out.sel = r.SelectPolicy
	default:
		return out, fmt.Errorf("selectPolicy %q is not Max, Min or Disabled", r.SelectPolicy)
	}
	if r.Tolerance != nil {
		t := *r.Tolerance
		if !finite(t) || t < 0 {
			return out, fmt.Errorf("tolerance %v must be a non-negative number", t)
		}
		out.tol = t
	}
	ps := r.Policies
	if len(ps) == 0 {
		if up {
			ps = []Policy{{PodsPolicy, 4, 15}, {PercentPolicy, 100, 15}}
		} else {
			ps = []Policy{{PercentPolicy, 100, 15}}
		}
	}
	for i, p := range ps {
		if p.Type != PodsPolicy && p.Type != PercentPolicy {
			return out, fmt.Errorf("policies[%d]: type %q is not Pods or Percent", i, p.Type)
		}
		if p.Value <= 0 {
			return out, fmt.Errorf("policies[%d]: value %d must be positive", i, p.Value)
		}
		if p.PeriodSeconds <= 0 || p.PeriodSeconds > 1800 {
			return out, fmt.Errorf("policies[%d]: periodSeconds %d is outside (0, 1800]", i, p.PeriodSeconds)
		}
		out.policies = append(out.policies, policy{p.Type, int(p.Value), int64(p.PeriodSeconds) * int64(time.Second)})
	}
	return out, nil
}
