package scaling

import (
	"sync"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// paths holds the field paths the views read, parsed once: the views of
// thousands of autoscalers and workloads read the same few dozen paths
// ("spec.minReplicas", "spec.metrics[0].resource"), and parsing each
// anew was 24 MB of garbage at 10,000 services. A path holds no more
// than its capacity, so an append to one copies it; and nothing writes to
// a path looked up with. Paths built from what a manifest says (a
// trigger's metadata keys) are parsed but not kept past maxPaths.
var paths = struct {
	sync.RWMutex
	m map[string]manifest.Path
}{m: map[string]manifest.Path{}}

const maxPaths = 4096

// pathOf returns manifest.ParsePath(s), parsed once.
func pathOf(s string) manifest.Path {
	paths.RLock()
	p, ok := paths.m[s]
	paths.RUnlock()
	if ok {
		return p
	}
	p = manifest.ParsePath(s)
	p = p[:len(p):len(p)]
	paths.Lock()
	if len(paths.m) < maxPaths {
		paths.m[s] = p
	}
	paths.Unlock()
	return p
}
