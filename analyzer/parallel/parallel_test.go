package parallel

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// TestPartsCoverEachItemOnce: whatever n, grain and GOMAXPROCS, the parts
// are contiguous, do not overlap, and cover 0 to n.
func TestPartsCoverEachItemOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 3, 8} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 2, 63, 64, 127, 128, 1000, 4099} {
			for _, grain := range []int{0, 1, 64} {
				seen := make([]int, n)
				var mu sync.Mutex
				calls := 0
				Parts(n, grain, func(lo, hi int) {
					mu.Lock()
					defer mu.Unlock()
					calls++
					if lo >= hi || lo < 0 || hi > n {
						t.Errorf("procs %d n %d grain %d: part [%d, %d)", procs, n, grain, lo, hi)
						return
					}
					for i := lo; i < hi; i++ {
						seen[i]++
					}
				})
				for i, c := range seen {
					if c != 1 {
						t.Fatalf("procs %d n %d grain %d: item %d done %d times", procs, n, grain, i, c)
					}
				}
				if n == 0 && calls != 0 {
					t.Errorf("n 0: %d calls, want none", calls)
				}
			}
		}
	}
}

// TestPartsRaisePanicOnCaller: a panic in a part reaches the caller, on
// one goroutine as on several.
func TestPartsRaisePanicOnCaller(t *testing.T) {
	for _, n := range []int{10, 10000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			defer func() {
				if r := recover(); r != "boom" {
					t.Errorf("recovered %v, want boom", r)
				}
			}()
			Parts(n, 64, func(lo, hi int) {
				if lo <= n/2 && n/2 < hi {
					panic("boom")
				}
			})
			t.Error("Parts returned after a panic")
		})
	}
}
