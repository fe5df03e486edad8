// Package simulate models the deployed control loop of a backlog-scaled queue
// consumer: KEDA publishes the backlog as an External AverageValue metric and
// the Kubernetes HPA scales the consumer on it. It is scalelint's version of
// the deployed model of Yuriy Polyulya's "The Delay a Window Demands"
// (rules/laws/README.md §6.1), written from the controller's source (the files
// §8 there links), and it cross-checks the Φ law of §2 by simulation. It
// imports only the standard library.
//
// # The model
//
// Fluid backlog. dL/dt = λ(t) − c·N_consuming(t), L ≥ 0, integrated exactly
// between events (every rate is constant between two events, so the
// backlog is piecewise linear and clipped at zero where it empties).
//
// Demand. Before t = 0 the loop rests at λ0: N0 = ceil(λ0/c) pods (clamped to
// [min, max]) all consuming, the backlog at T·N0, every remembered
// recommendation N0. From t = 0 demand is λ1, held for the run. Optional
// noise multiplies λ1 by a factor redrawn every minute, uniformly from
// [1 − Noise, 1 + Noise], by a PCG generator seeded with Config.Seed: one
// random seed gives the same run every time.
//
// Metric (rules/laws/README.md §2.1; Kubernetes replica_calculator.go and
// KEDA's controllers/keda/hpa.go, linked in §8). The HPA reads the backlog as
// KEDA reports it, int64(L·1000) milli-units, refreshed every MetricPeriod
// (15 s; the series also tried 30 s). Each sync runs
// GetExternalPerPodMetricReplicas: usageRatio = L / (T · statusReplicas),
// statusReplicas counting every existing pod, consuming or not; inside the
// tolerance band [1 − tolDown, 1 + tolUp] (inclusive, 0.1 each by default) the
// count is kept, outside it the raw recommendation is ceil(L/T), whatever the
// current count.
//
// Normalisation (Kubernetes horizontal.go and pkg/apis/autoscaling/v2's
// defaults, linked in rules/laws/README.md §8.1), every SyncPeriod (15 s):
//
//   - Behavior nil, the legacy path (KEDA without
//     advanced.horizontalPodAutoscalerConfig.behavior): the maximum of the raw
//     recommendations of the last DownscaleWindow (300 s), then a scale-up
//     limit of max(2·current, 4) per sync, then a clamp to [min, max].
//   - Behavior set, the behaviour path: the API's defaults (scale-up window
//     0, policies Pods 4/15 s and Percent 100/15 s, Max; scale-down window
//     300 s unless set, policy Percent 100/15 s, Max); the up window takes the
//     minimum and the down window the maximum of the stored recommendations,
//     the result clamped between them starting from the current count;
//     the Pods and Percent policies with their periods, the period start
//     recovered from the scale events stored after each rescale; selectPolicy
//     Max, Min or Disabled; per-direction tolerances.
//
// Window edges are compared as the source does on exact sync times: the
// legacy path keeps a recommendation exactly one window old
// (!Before(cutoff)), the behaviour path drops it (After(cutoff)), so a 60 s
// window spans four earlier syncs on the legacy path and three on the
// behaviour path. Config.ExclusiveWindow drops it on the legacy path too, as
// a real controller does, whose syncs drift a few milliseconds later every
// period. With the edge aligned, the two paths give the same verdict at
// every standing delay tested: the behaviour path's default scale-up
// policies (+4 or ×2 per 15 s, with period bookkeeping) do not change
// whether the loop hunts against the legacy ×2/+4 limit.
//
// Timing. Syncs fall at FirstSync + k·SyncPeriod after the step and read the
// last metric refresh at or before them; refreshes fall MetricLag before the
// first sync and every MetricPeriod from there. The default phase, a first sync
// 1 s after the step reading a fresh metric, reproduces the series'
// walk-through of its cluster kit (its model integrated in one-second steps, so
// its first sync saw one second of the step): five pods doubling at each of the
// two syncs of the first thirty seconds to twenty, 80 ordered by 60 s, the
// ceiling of 100 by 90 s, the backlog past 24,000 on the second climb and a
// cycle of exactly 510 s. No phase reproduces every figure of that walk: with a
// 90 s dead time measured in continuous time the backlog is 4,550 at 30 s
// (4,700 at 31 s) and 15,200 at 120 s, against the published 4,700 and 14,850,
// the series' stepping having shortened its dead time by a second. The verdicts
// of the series' predictions do not depend on the sync phase (first syncs from
// 1 s to 15 s were tried); band edges move by a few pods (30-520 or 44-507 at
// D = 40 s). A metric refreshed before the sync (MetricLag) matters more: it
// delays both branches.
//
// Pods. A pod ordered at a sync starts consuming one DeadTime later. A
// scale-down removes pods that are not consuming yet first, newest first, then
// consuming ones, as the ReplicaSet controller ranks them (unscheduled, pending
// and not-ready pods before ready ones; Kubernetes
// pkg/controller/controller_utils.go, ActivePodsWithRanks). Removed pods stop
// consuming at once.
//
// Verdict (the series' hunting criterion, rules/laws/README.md §6.1). Over the
// last hour of the run, read on a one-second grid, the pod count's minimum, 5th
// and 95th percentiles (interpolated between closest ranks, as numpy does),
// maximum and mean; Need = λ1/c; Swing = (Max − Min)/Need; the loop hunts when
// Swing > 0.3. FindBoundary bisects on the threshold for the smallest standing
// delay D = T/c at which the loop rests, as the series found its deployed
// boundaries. Near a boundary the verdict is not monotone in D over a few
// seconds (a band where hunting and resting runs alternate; several seconds
// wide at a 300 s window, over ten at 600 s), so a bisection's answer depends
// on its bracket within that band.
//
// Output. WriteCSV writes the samples; WriteSVG draws pods and backlog
// against time for the first and the last hour; SparklineRange renders a series
// in Unicode blocks for a terminal.
//
// # What it leaves out
//
// As the series' model does: Kafka's partition cap (the scaler asks for at most
// one pod per partition unless allowIdleConsumers is set: a real hunt is
// clipped at the partition count; here only MaxReplicas clips); activation from
// and scaling to zero (KEDA's own 0↔1 logic and cooldownPeriod; the loop stays
// at MinReplicas ≥ 1); consumer-group rebalance pauses when the consumer count
// changes; metric caching between the broker, the KEDA adapter and the
// controller (useCachedMetrics, adapter caches: the reading is exact at its
// refresh); SQS visibility timeouts and messages that fail and return to the
// queue. Also: a per-pod rate that falls with load, pod failures and restarts,
// graceful termination (a removed pod stops at once), the latency of the
// ReplicaSet controller and the scheduler beyond the dead time, the logarithmic
// scale-down ranking among pods of the same state, other metrics on the same
// HPA, and KEDA fallback.
//
// # Sources
//
// Kubernetes v1.36: https://github.com/kubernetes/kubernetes/blob/v1.36.0/pkg/controller/podautoscaler/replica_calculator.go
// (GetExternalPerPodMetricReplicas), horizontal.go (normalisation, both
// paths), pkg/apis/autoscaling/v2/defaults.go (behaviour defaults); KEDA's
// controllers/keda/hpa.go (how KEDA builds the HPA). The model, its
// specimen, kit and predictions follow Yuriy Polyulya, "The Delay a Window
// Demands" (11 October 2026; rules/laws/README.md §6.1, §9). seed_test.go
// reproduces each published figure the model can, quoting the sentence it
// checks.
package simulate
