package manifest

import (
	"bytes"
	"sync"
)

// Documents of the kinds scalelint decodes are parsed as a file is read
// (IsReadKind); so are the kinds registered here, which other packages
// read from the node tree while it is at hand (traffic configuration), and
// documents of a registered kind whose text mentions a registered string
// (a Service annotated for a mesh). Everything else is parsed only when a
// scale target or a rule asks for its kind. Register in an init function:
// the registries are read without a lock once parsing starts.

var (
	eagerMu       sync.Mutex
	eagerKinds    = map[typeKey]bool{}
	eagerMentions = map[string][][]byte{}
)

// RegisterEagerKind makes documents of a group and kind parsed as their
// file is read.
func RegisterEagerKind(group, kind string) {
	eagerMu.Lock()
	defer eagerMu.Unlock()
	eagerKinds[typeKey{group, kind}] = true
}

// RegisterEagerMention makes documents of a kind (any group) parsed as
// their file is read when their text holds one of the strings.
func RegisterEagerMention(kind string, mentions ...string) {
	eagerMu.Lock()
	defer eagerMu.Unlock()
	for _, m := range mentions {
		eagerMentions[kind] = append(eagerMentions[kind], []byte(m))
	}
}

// eagerKind reports whether a group and kind was registered.
func eagerKind(group, kind string) bool { return eagerKinds[typeKey{group, kind}] }

// eagerMention reports whether a document of a kind must be parsed for
// what its text mentions.
func eagerMention(kind string, doc []byte) bool {
	for _, m := range eagerMentions[kind] {
		if bytes.Contains(doc, m) {
			return true
		}
	}
	return false
}

// isEagerGroupKind is IsReadKind's test of the registered kinds.
func isEagerGroupKind(apiVersion, kind string) bool {
	if len(eagerKinds) == 0 {
		return false
	}
	g, _ := SplitAPIVersion(apiVersion)
	return eagerKind(g, kind)
}
