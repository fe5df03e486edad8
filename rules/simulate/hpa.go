package simulate

import "math"

// This file ports the parts of the Kubernetes HPA controller the loop runs
// through (Kubernetes v1.34 and later,
// pkg/controller/podautoscaler/replica_calculator.go and horizontal.go; links
// in rules/laws/README.md §8.1).
// Times are nanoseconds of simulated time; the controller's time.Now() is
// the sync instant, so timestamps compare exactly.

// externalPerPod is GetExternalPerPodMetricReplicas: the metric is the total
// backlog in milli-units (KEDA's GenerateMetricInMili), the target is the
// AverageValue threshold in milli-units, statusReplicas counts every
// existing pod, ready or not.
func externalPerPod(usageMilli, targetMilli int64, statusReplicas int, tolUp, tolDown float64) int {
	ratio := float64(usageMilli) / (float64(targetMilli) * float64(statusReplicas))
	if (1-tolDown) <= ratio && ratio <= (1+tolUp) { // isWithin: inclusive at both ends
		return statusReplicas
	}
	r := math.Ceil(float64(usageMilli) / float64(targetMilli))
	if r > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(r)
}

type timestamped struct {
	t int64
	v int
}

// controller holds the per-HPA state of the normalisers: the stored
// unstabilised recommendations and, on the behaviour path, the scale events.
type controller struct {
	s          *setup
	recs       []timestamped // in time order
	upEvents   []timestamped
	downEvents []timestamped
}

// normalize returns the replica count the controller sets, given the
// current spec count and the raw (prenormalised) recommendation.
func (c *controller) normalize(now int64, current, raw int) int {
	if c.s.behavior {
		return c.normalizeWithBehaviors(now, current, raw)
	}
	return c.normalizeLegacy(now, current, raw)
}

// normalizeLegacy is normalizeDesiredReplicas: stabilizeRecommendation
// (max over the recommendations not older than the downscale window, the
// source's !timestamp.Before(cutoff), so the one exactly a window old
// counts unless Config.ExclusiveWindow) then convertDesiredReplicasWithRules
// (scale-up limit max(2·current, 4), clamp to [min, max]).
func (c *controller) normalizeLegacy(now int64, current, raw int) int {
	cutoff := now - c.s.legacyWindow
	stabilized := raw
	for _, r := range c.recs {
		if (r.t > cutoff || (r.t == cutoff && !c.s.cfg.ExclusiveWindow)) && r.v > stabilized {
			stabilized = r.v
		}
	}
	c.store(now, raw)

	upLimit := max(2*current, 4)
	maxAllowed := min(c.s.cfg.MaxReplicas, upLimit)
	switch {
	case stabilized < c.s.cfg.MinReplicas:
		return c.s.cfg.MinReplicas
	case stabilized > maxAllowed:
		return maxAllowed
	}
	return stabilized
}

// normalizeWithBehaviors is normalizeDesiredReplicasWithBehaviors:
// stabilizeRecommendationWithBehaviors (up: min over the up window, down:
// max over the down window, both timestamp.After(cutoff), the result clamped
// between them starting from current) then convertDesiredReplicasWithBehaviorRate.
func (c *controller) normalizeWithBehaviors(now int64, current, raw int) int {
	up, down := &c.s.up, &c.s.down
	upCut, downCut := now-up.window, now-down.window
	upRec, downRec := raw, raw
	for _, r := range c.recs {
		if r.t > upCut {
			upRec = min(upRec, r.v)
		}
		if r.t > downCut {
			downRec = max(downRec, r.v)
		}
	}
	rec := current
	if rec < upRec {
		rec = upRec
	}
	if rec > downRec {
		rec = downRec
	}
	c.store(now, raw)

	switch {
	case rec > current:
		limit := c.scaleUpLimit(now, current)
		if limit < current {
			limit = current
		}
		maxAllowed := min(c.s.cfg.MaxReplicas, limit)
		if rec > maxAllowed {
			return maxAllowed
		}
	case rec < current:
		limit := c.scaleDownLimit(now, current)
		if limit > current {
			limit = current
		}
		minAllowed := max(c.s.cfg.MinReplicas, limit)
		if rec < minAllowed {
			return minAllowed
		}
	}
	return rec
}

// changeInPeriod is getReplicasChangePerPeriod: the events strictly after
// now − period.
func changeInPeriod(now, period int64, events []timestamped) int {
	cutoff := now - period
	n := 0
	for _, e := range events {
		if e.t > cutoff {
			n += e.v
		}
	}
	return n
}

// scaleUpLimit is calculateScaleUpLimitWithScalingRules.
func (c *controller) scaleUpLimit(now int64, current int) int {
	r := &c.s.up
	if r.sel == Disabled {
		return current
	}
	result := math.MinInt32
	if r.sel == MinChange {
		result = math.MaxInt32
	}
	for _, p := range r.policies {
		start := current - changeInPeriod(now, p.period, c.upEvents) + changeInPeriod(now, p.period, c.downEvents)
		var proposed int
		if p.typ == PodsPolicy {
			proposed = start + p.value
		} else {
			proposed = int(math.Ceil(float64(start) * (1 + float64(p.value)/100)))
		}
		if r.sel == MinChange {
			result = min(result, proposed)
		} else {
			result = max(result, proposed)
		}
	}
	return result
}

// scaleDownLimit is calculateScaleDownLimitWithBehaviors.
func (c *controller) scaleDownLimit(now int64, current int) int {
	r := &c.s.down
	if r.sel == Disabled {
		return current
	}
	result := math.MaxInt32
	if r.sel == MinChange {
		result = math.MinInt32
	}
	for _, p := range r.policies {
		start := current - changeInPeriod(now, p.period, c.upEvents) + changeInPeriod(now, p.period, c.downEvents)
		var proposed int
		if p.typ == PodsPolicy {
			proposed = start - p.value
		} else {
			proposed = int(float64(start) * (1 - float64(p.value)/100)) // int32(): truncation
		}
		if r.sel == MinChange {
			result = max(result, proposed)
		} else {
			result = min(result, proposed)
		}
	}
	return result
}

// store records an unstabilised recommendation and forgets the ones older
// than every window (the source recycles such a slot; no window reads it).
func (c *controller) store(now int64, raw int) {
	c.recs = append(c.recs, timestamped{now, raw})
	keep := now - c.s.maxWindow
	i := 0
	for i < len(c.recs) && c.recs[i].t < keep {
		i++
	}
	if i > 0 {
		c.recs = append(c.recs[:0], c.recs[i:]...)
	}
}

// storeScaleEvent records a rescale on the behaviour path (storeScaleEvent;
// the legacy path stores nothing) and forgets events older than the longest
// policy period of their direction.
func (c *controller) storeScaleEvent(now int64, prev, next int) {
	if !c.s.behavior || prev == next {
		return
	}
	if next > prev {
		c.upEvents = appendEvent(c.upEvents, now, next-prev, longestPeriod(c.s.up.policies))
	} else {
		c.downEvents = appendEvent(c.downEvents, now, prev-next, longestPeriod(c.s.down.policies))
	}
}

func appendEvent(events []timestamped, now int64, change int, longest int64) []timestamped {
	i := 0
	for i < len(events) && events[i].t <= now-longest {
		i++
	}
	if i > 0 {
		events = append(events[:0], events[i:]...)
	}
	return append(events, timestamped{now, change})
}

func longestPeriod(ps []policy) int64 {
	var l int64
	for _, p := range ps {
		l = max(l, p.period)
	}
	return l
}
