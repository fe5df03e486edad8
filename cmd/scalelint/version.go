package main

import (
	"runtime/debug"
	"strings"
)

// commit and date are set by a release build with -ldflags, beside version
// (commands.go):
//
//	-X main.version=1.2.3 -X main.commit=<full SHA> -X main.date=<RFC 3339>
//
// .goreleaser.yaml sets all three; TestVersionLdflags builds with its ldflags,
// so a renamed variable (which -X would silently ignore) fails a test.
var (
	commit = ""
	date   = ""
)

// versionLine is what `scalelint version` prints, on one line (the VS Code
// extension reads it): the version, then the commit and its date when known,
// from -ldflags, else from the VCS stamp `go build` records in a checkout.
func versionLine() string {
	c, d := commit, date
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && c == "":
				c = s.Value
			case s.Key == "vcs.time" && d == "":
				d = s.Value
			}
		}
	}
	var meta []string
	if c != "" {
		meta = append(meta, "commit "+c)
	}
	if d != "" {
		meta = append(meta, "date "+d)
	}
	line := "scalelint " + versionString()
	if len(meta) > 0 {
		line += " (" + strings.Join(meta, ", ") + ")"
	}
	return line
}
