package workspace

import (
	"maps"
)

// layered is a map that a workspace made by With shares with its base
// instead of copying it (an edit changes a few of thousands of entries):
// base is then read-only to both, and each writes the entries it changes
// to its own over. A deleted entry is kept in over as a zero value with
// its presence cleared.
type layered[K comparable, V any] struct {
	base   map[K]V
	over   map[K]entry[V]
	shared bool // base is shared: writes go to over
}

type entry[V any] struct {
	v  V
	ok bool
}

func newLayered[K comparable, V any](size int) layered[K, V] {
	return layered[K, V]{base: make(map[K]V, size)}
}

// get returns the value of a key.
func (m *layered[K, V]) get(k K) (V, bool) {
	if e, ok := m.over[k]; ok {
		return e.v, e.ok
	}
	v, ok := m.base[k]
	return v, ok
}

// set sets the value of a key.
func (m *layered[K, V]) set(k K, v V) {
	if !m.shared {
		m.base[k] = v
		return
	}
	if m.over == nil {
		m.over = map[K]entry[V]{}
	}
	m.over[k] = entry[V]{v, true}
}

// delete removes a key. A key the base does not hold leaves no trace: a
// workspace derived edit after edit would otherwise keep every removed
// key (an object of each version of the edited file, and all it
// references) alive until the changes are merged.
func (m *layered[K, V]) delete(k K) {
	if !m.shared {
		delete(m.base, k)
		return
	}
	if _, ok := m.base[k]; !ok {
		delete(m.over, k)
		return
	}
	if m.over == nil {
		m.over = map[K]entry[V]{}
	}
	m.over[k] = entry[V]{}
}

// derive returns the map for a new workspace, sharing this one's base;
// from then on both write to their own over. Once the changes reach an
// eighth of the base, they are merged into a new base instead, so that
// lookups stay one or two map reads however many edits were made. The
// caller holds the lock that guards writes to m.
func (m *layered[K, V]) derive() layered[K, V] {
	m.shared = true
	if len(m.over) <= len(m.base)/8+64 {
		return layered[K, V]{base: m.base, over: maps.Clone(m.over), shared: true}
	}
	base := maps.Clone(m.base)
	for k, e := range m.over {
		if e.ok {
			base[k] = e.v
		} else {
			delete(base, k)
		}
	}
	return layered[K, V]{base: base}
}
