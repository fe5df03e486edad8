// Package parallel runs a loop over n items on every core, in contiguous
// parts, so that a caller writing item i's result at index i of its own
// slice gets the same result whatever the scheduling (GOMAXPROCS=1
// included). The workspace's build, the laws' evaluations and check's
// summary of missing inputs share it.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Parts calls fn with the bounds [lo, hi) of contiguous parts that cover
// 0 to n, each part once, on up to GOMAXPROCS goroutines, and returns when
// all are done. A part holds at least grain items (below it, handing the
// work to another goroutine costs more than doing it); when there are not
// two parts' worth, fn runs once, on the caller's goroutine. There are
// about four parts per goroutine: items differ in cost, and a goroutine
// done early takes the next part.
//
// A panic in fn stops the parts not yet started and is raised again on
// the caller's goroutine, where its recovery (a rule's, for instance)
// sees it.
func Parts(n, grain int, fn func(lo, hi int)) {
	grain = max(grain, 1)
	workers := min(runtime.GOMAXPROCS(0), n/grain)
	if workers <= 1 {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	parts := min(4*workers, n/grain)
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var panicked any
	for range workers {
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					mu.Lock()
					if panicked == nil {
						panicked = r
					}
					mu.Unlock()
					next.Store(int64(parts)) // the others stop too
				}
			}()
			for p := int(next.Add(1)) - 1; p < parts; p = int(next.Add(1)) - 1 {
				fn(n*p/parts, n*(p+1)/parts)
			}
		})
	}
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
}
