package analyzer

import (
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// Globs of exclude and overrides are matched in time linear in the
// pattern's segments times the path's (a table filled once per match),
// never by backtracking: "**/**/**/**/**/**/**/**/**/**/nomatch" against a
// path forty directories deep tried every way to share the directories
// among the "**"s, over a minute, in the CLI and on every keystroke of the
// editor. Each pattern is split once (compiled globs are kept by pattern
// text), and a configuration holds at most MaxGlobs of them.

// MaxGlobs is the most patterns exclude, and the overrides' paths in all,
// may hold; MaxGlobLen the longest pattern.
const (
	MaxGlobs   = 1000
	MaxGlobLen = 4096
)

// glob is a pattern split into its path segments.
type glob struct {
	segs []string // "**" is a segment of its own
}

var globs sync.Map // pattern -> *glob

func compileGlob(pattern string) *glob {
	if g, ok := globs.Load(pattern); ok {
		return g.(*glob)
	}
	p := strings.TrimPrefix(filepath.ToSlash(pattern), "./")
	p = strings.TrimSuffix(p, "/")
	g := &glob{}
	if p != "" {
		if !strings.Contains(p, "/") {
			p = "**/" + p // a pattern without a slash matches any path element
		}
		for _, s := range strings.Split(p, "/") {
			if s == "**" && len(g.segs) > 0 && g.segs[len(g.segs)-1] == "**" {
				continue // "**/**" matches what "**" matches
			}
			g.segs = append(g.segs, s)
		}
	}
	globs.Store(pattern, g)
	return g
}

// MatchGlob matches a slash-separated path against a glob: * and ? within
// a path segment, ** across segments. A pattern that matches a directory
// matches everything below it; a pattern without a slash matches any path
// element (like .gitignore).
func MatchGlob(pattern, name string) bool {
	return compileGlob(pattern).match(strings.TrimPrefix(name, "./"))
}

// match reports whether the pattern matches name or one of its leading
// directories. reach[j] says whether the segments seen so far can match
// the first j segments of name; each pattern segment advances it once, so
// the work is segments(pattern) × segments(name) segment matches.
func (g *glob) match(name string) bool {
	if len(g.segs) == 0 {
		return false
	}
	np := strings.Split(name, "/")
	n := len(np)
	reach := make([]bool, n+1)
	next := make([]bool, n+1)
	reach[0] = true
	for _, seg := range g.segs {
		clear(next)
		if seg == "**" {
			// Any number of segments, none included: every j at or past
			// the first reachable one.
			any := false
			for j := 0; j <= n; j++ {
				any = any || reach[j]
				next[j] = any
			}
		} else {
			for j := 0; j < n; j++ {
				if reach[j] {
					if ok, err := path.Match(seg, np[j]); err == nil && ok {
						next[j+1] = true
					}
				}
			}
		}
		reach, next = next, reach
	}
	// A match of any leading part of the path (a directory) counts.
	for j := 1; j <= n; j++ {
		if reach[j] {
			return true
		}
	}
	return false
}
