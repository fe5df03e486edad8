package kustomize

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// kustomize's in-memory filesystem creates only names of [a-zA-Z0-9-_.:]
// without ".." (kyaml filesys, isLegalFileNameForCreation), where a build
// on disk reads any name: a directory "prod+eu" or a file "my deploy.yaml"
// in the tree made every build of it fail to stage. namedFS stands between
// kustomize and the in-memory tree: the tree holds such a name escaped,
// and kustomize sees the name as on disk in every path it gives and gets
// (so a generator's key, an origin annotation and an error say the name).
//
// An escaped name is escapePrefix and the name's bytes in hex; a legal
// name that begins with escapePrefix is escaped too, so no two names meet.
const escapePrefix = "x-scalelint-name-"

var (
	legalName = regexp.MustCompile(`^[a-zA-Z0-9\-_.:]+$`)
	escaped   = regexp.MustCompile(regexp.QuoteMeta(escapePrefix) + `([0-9a-f]+)`)
)

// escapeName returns the name the in-memory tree holds for a path
// component; ".", ".." and "" are a path's own.
func escapeName(c string) string {
	switch {
	case c == "" || c == "." || c == "..":
		return c
	case legalName.MatchString(c) && !strings.Contains(c, "..") && !strings.HasPrefix(c, escapePrefix):
		return c
	}
	return escapePrefix + hex.EncodeToString([]byte(c))
}

// escapePath escapes each component of a path, its separators kept.
func escapePath(p string) string {
	return mapComponents(p, escapeName)
}

// mapComponents applies f to each component of a path between separators
// ('/' and the system's).
func mapComponents(p string, f func(string) string) string {
	var b strings.Builder
	start := 0
	for i := 0; i <= len(p); i++ {
		if i == len(p) || p[i] == '/' || p[i] == filepath.Separator {
			b.WriteString(f(p[start:i]))
			if i < len(p) {
				b.WriteByte(p[i])
			}
			start = i + 1
		}
	}
	return b.String()
}

// unescape writes the escaped names in a text (a path, a name, an error)
// as they are on disk.
func unescape(s string) string {
	if !strings.Contains(s, escapePrefix) {
		return s
	}
	return escaped.ReplaceAllStringFunc(s, func(m string) string {
		b, err := hex.DecodeString(m[len(escapePrefix):])
		if err != nil {
			return m
		}
		return string(b)
	})
}

// hasGlobMeta reports whether a path component is a glob pattern.
func hasGlobMeta(c string) bool { return strings.ContainsAny(c, `*?[\`) }

// namedFS is a filesys.FileSystem whose names are escaped in inner.
type namedFS struct{ inner filesys.FileSystem }

// unescapedErr is an error whose text names the paths as on disk, as
// buildProblem reads them.
type unescapedErr struct{ err error }

func (e unescapedErr) Error() string { return unescape(e.err.Error()) }
func (e unescapedErr) Unwrap() error { return e.err }

// wrapErr returns err, or, when its text holds an escaped name, err with
// the name as on disk.
func wrapErr(err error) error {
	if err == nil || !strings.Contains(err.Error(), escapePrefix) {
		return err
	}
	return unescapedErr{err}
}

// namedInfo is a file's information with its name as on disk.
type namedInfo struct{ os.FileInfo }

func (i namedInfo) Name() string { return unescape(i.FileInfo.Name()) }

func (f namedFS) Create(p string) (filesys.File, error) {
	file, err := f.inner.Create(escapePath(p))
	return file, wrapErr(err)
}
func (f namedFS) Mkdir(p string) error     { return wrapErr(f.inner.Mkdir(escapePath(p))) }
func (f namedFS) MkdirAll(p string) error  { return wrapErr(f.inner.MkdirAll(escapePath(p))) }
func (f namedFS) RemoveAll(p string) error { return wrapErr(f.inner.RemoveAll(escapePath(p))) }
func (f namedFS) Open(p string) (filesys.File, error) {
	file, err := f.inner.Open(escapePath(p))
	return file, wrapErr(err)
}
func (f namedFS) IsDir(p string) bool  { return f.inner.IsDir(escapePath(p)) }
func (f namedFS) Exists(p string) bool { return f.inner.Exists(escapePath(p)) }

func (f namedFS) ReadDir(p string) ([]string, error) {
	names, err := f.inner.ReadDir(escapePath(p))
	for i, n := range names {
		names[i] = unescape(n)
	}
	return names, wrapErr(err)
}

func (f namedFS) CleanedAbs(p string) (filesys.ConfirmedDir, string, error) {
	d, name, err := f.inner.CleanedAbs(escapePath(p))
	return filesys.ConfirmedDir(unescape(string(d))), unescape(name), wrapErr(err)
}

// Glob escapes the components that hold no pattern; a pattern is matched
// against the escaped names (kustomize globs only its own patterns, which
// match the legal names it looks for).
func (f namedFS) Glob(pattern string) ([]string, error) {
	matches, err := f.inner.Glob(mapComponents(pattern, func(c string) string {
		if hasGlobMeta(c) {
			return c
		}
		return escapeName(c)
	}))
	for i, m := range matches {
		matches[i] = unescape(m)
	}
	return matches, wrapErr(err)
}

func (f namedFS) ReadFile(p string) ([]byte, error) {
	data, err := f.inner.ReadFile(escapePath(p))
	return data, wrapErr(err)
}

func (f namedFS) WriteFile(p string, data []byte) error {
	return wrapErr(f.inner.WriteFile(escapePath(p), data))
}

func (f namedFS) Walk(p string, walkFn filepath.WalkFunc) error {
	return wrapErr(f.inner.Walk(escapePath(p), func(q string, info os.FileInfo, err error) error {
		if info != nil {
			info = namedInfo{info}
		}
		return walkFn(unescape(q), info, err)
	}))
}
