package traffic

import (
	"testing"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// TestIsEveryReader: Is rejects by kind before it looks a reader up; every
// kind with a reader must get past that check, and a kind of a reader in
// another group must not be taken for it.
func TestIsEveryReader(t *testing.T) {
	for k := range readers {
		if !Is(&manifest.Object{Group: k.group, Kind: k.kind}) {
			t.Errorf("Is(%s/%s) = false, but the package reads it", k.group, k.kind)
		}
	}
	for _, o := range []*manifest.Object{
		{Group: "apps", Kind: "Deployment"},
		{Group: "example.com", Kind: "Service"},
		{Group: "", Kind: "Ingress"},
	} {
		if Is(o) {
			t.Errorf("Is(%s/%s) = true, but no reader reads it", o.Group, o.Kind)
		}
	}
}
