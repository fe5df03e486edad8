package main

import (
	"math"
	"runtime"
	"sync"

	"github.com/scalelint/scalelint/rules/simulate"
)

// maxAuditSimulations bounds the simulations one HTML report runs (rows are
// sorted worst first, so the worst consumers get theirs). A 20-hour run
// takes about a millisecond; the SVG is what costs (about 70 kB each).
const maxAuditSimulations = 200

// simConfig is the deployed loop of one backlog metric exactly as
// `scalelint simulate` sets it up without flags (simSetup): the manifest's
// threshold, replicas, behavior and window, the annotated dead time and pod
// rate, and the seed's demand step of 4x up to the annotated demand. ok is
// false when an input is missing (the demand, most often).
func simConfig(r *auditRow, l *latencyLaw) (simulate.Config, bool) {
	if l.eval == nil || r.eval == nil {
		return simulate.Config{}, false
	}
	if _, ok := r.eval.Inputs["demand"]; !ok {
		return simulate.Config{}, false
	}
	nan := math.NaN()
	run, err := simSetup(r.eval.Autoscaler, l.eval.Metric, r.eval, simOptions{
		deadTime: nan, podRate: nan, threshold: nan, window: nan, from: nan, to: nan, hours: nan, noise: nan})
	if err != nil {
		return simulate.Config{}, false
	}
	return run.cfg, true
}

// simulateRows runs the simulations of the rows' backlog consumers, in
// parallel, worst rows first.
func simulateRows(rows []*auditRow) {
	type job struct {
		l   *latencyLaw
		cfg simulate.Config
	}
	var jobs []job
	for _, r := range rows {
		for _, l := range r.Latency {
			if len(jobs) >= maxAuditSimulations {
				break
			}
			if cfg, ok := simConfig(r, l); ok {
				jobs = append(jobs, job{l, cfg})
			}
		}
	}
	ch := make(chan job)
	var wg sync.WaitGroup
	for i := 0; i < runtime.GOMAXPROCS(0); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				if res, err := simulate.Run(j.cfg); err == nil {
					j.l.sim = &res
				}
			}
		}()
	}
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
}
