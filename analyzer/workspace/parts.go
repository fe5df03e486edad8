package workspace

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// minPart is the fewest items a part of inParts holds: below it, handing
// the work to another goroutine costs more than doing it.
const minPart = 64

// inParts calls fn with the bounds of parts of n items, on every core,
// and returns when all are done. The parts are contiguous and each is
// handed to one call, so a caller that writes item i's result to index i
// of its own slice, and merges them in index order afterwards, gets the
// same result however the parts were scheduled (GOMAXPROCS=1 included).
func inParts(n int, fn func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), n/minPart)
	if workers <= 1 {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	// Four parts per worker: items differ in cost (a file of one object,
	// a file of fifty), and a worker done early takes the next part.
	parts := min(4*workers, n/minPart)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				p := int(next.Add(1)) - 1
				if p >= parts {
					return
				}
				fn(n*p/parts, n*(p+1)/parts)
			}
		})
	}
	wg.Wait()
}
