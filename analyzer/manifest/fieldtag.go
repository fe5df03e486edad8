package manifest

import "sync"

// A Field keeps its tag as an index into one table of the tags a process
// has seen (a uint16, not a string's 16 bytes): YAML's own tags, which are
// nearly all a repository writes, hold the first places, and a custom tag
// ("!Ref", "!vault") is added the first time it is met.
var tags = struct {
	sync.RWMutex
	names []string
	index map[string]uint16
}{names: []string{"", "!!str", "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq", "!!timestamp", "!!binary", "!!merge"}}

// tagOverflow is the index every custom tag gets once the table is full
// (65,535 distinct tags in one process, which only hostile input writes):
// such a tag reads back as otherTag. No rule tells custom tags apart: they
// compare them with YAML's own, which always have their place.
const tagOverflow = 1<<16 - 1

// otherTag is what Tag returns for a custom tag the table had no room for.
const otherTag = "!"

func init() {
	tags.index = make(map[string]uint16, len(tags.names))
	for i, n := range tags.names {
		tags.index[n] = uint16(i)
	}
}

// tagIndex returns the index of tag, adding it to the table when new.
func tagIndex(tag string) uint16 {
	switch tag { // the common tags without a lock
	case "":
		return 0
	case "!!str":
		return 1
	case "!!int":
		return 2
	case "!!float":
		return 3
	case "!!bool":
		return 4
	case "!!null":
		return 5
	}
	tags.RLock()
	i, ok := tags.index[tag]
	tags.RUnlock()
	if ok {
		return i
	}
	tags.Lock()
	defer tags.Unlock()
	if i, ok := tags.index[tag]; ok {
		return i
	}
	if len(tags.names) >= tagOverflow {
		return tagOverflow
	}
	i = uint16(len(tags.names))
	tags.names = append(tags.names, tag)
	tags.index[tag] = i
	return i
}

// tagName returns the tag of an index tagIndex returned.
func tagName(i uint16) string {
	if i == tagOverflow {
		return otherTag
	}
	tags.RLock()
	defer tags.RUnlock()
	return tags.names[i]
}
