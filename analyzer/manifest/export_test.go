package manifest

import "testing"

// CompareFastDecodes is compareDecodes for the tests of package
// manifest_test (which import packages that import manifest): every
// object of a YAML text decoded both ways into every typed decode's type.
// It returns the objects decoded into their own kind's type, and how many
// of those the fast path decoded.
func CompareFastDecodes(t *testing.T, name string, data []byte) (own, fast int) {
	t.Helper()
	nodes, kinds := objectNodes(name, data)
	for i, n := range nodes {
		for _, tg := range decodeTargets {
			ok := compareDecodes(t, name, n, tg)
			for _, k := range tg.kinds {
				if kinds[i] == k {
					own++
					if ok {
						fast++
					}
				}
			}
		}
	}
	return own, fast
}
