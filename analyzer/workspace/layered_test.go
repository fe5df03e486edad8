package workspace

import "testing"

// TestLayeredDeleteLeavesNoTrace: a key set and deleted after the base
// was shared leaves nothing in the layer over it, so workspaces derived
// edit after edit (each edit adds the objects of the file's new version
// and deletes those of the old) do not keep every old version alive.
func TestLayeredDeleteLeavesNoTrace(t *testing.T) {
	m := newLayered[string, int](1)
	m.set("base", 1)
	cur := m.derive()
	for i := 0; i < 100; i++ {
		next := cur.derive()
		next.delete("base") // a key of the base: must stay hidden
		k := string(rune('a' + i%26))
		next.set(k, i)
		prev := string(rune('a' + (i+25)%26))
		next.delete(prev)
		cur = next
	}
	if _, ok := cur.get("base"); ok {
		t.Fatal("a deleted key of the base is still found")
	}
	// Live keys: the last one set; hidden: "base".
	if n := len(cur.over); n > 2 {
		t.Errorf("after 100 derivations, the layer holds %d entries, want at most 2 (the key set last and the base's deleted key)", n)
	}
}
