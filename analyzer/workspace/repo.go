package workspace

import (
	"os"
	"path/filepath"
	"strings"
)

// ProjectDirs returns dir (made absolute) and the directories above it in
// which scalelint looks for what belongs to dir's project, nearest first:
// a configuration file, the repository root. The search stops at the
// first of
//
//   - the repository root: a directory holding .git (a directory, or the
//     file a worktree or submodule has), included;
//   - the home directory ($HOME), included;
//   - a child of the filesystem root (/tmp, /home, /work), never included
//     unless it is dir itself or holds .git: a file planted in a shared
//     directory above a project must not configure it;
//
// and never includes the filesystem root unless dir is the root.
func ProjectDirs(dir string) []string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	home := homeDir()
	out := []string{dir}
	for {
		if isRepositoryRoot(dir) || (home != "" && dir == home) {
			return out
		}
		parent := filepath.Dir(dir)
		if parent == dir || filepath.Dir(parent) == parent {
			return out // dir is the root, or a child of the root
		}
		if filepath.Dir(filepath.Dir(parent)) == filepath.Dir(parent) && !isRepositoryRoot(parent) {
			return out // parent is a child of the root, and no repository
		}
		dir = parent
		out = append(out, dir)
	}
}

// homeDir is $HOME, cleaned and absolute, or "".
func homeDir() string {
	h, err := os.UserHomeDir()
	if err != nil || h == "" {
		return ""
	}
	if h, err = filepath.Abs(h); err != nil {
		return ""
	}
	return h
}

// isRepositoryRoot reports whether dir holds .git.
func isRepositoryRoot(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// RepositoryRoot is the directory GitOps paths (a Flux Kustomization's
// spec.path, an Argo CD Application's spec.source.path) are relative to,
// and how it was found.
type RepositoryRoot struct {
	Dir string // absolute; "" when there are no paths on disk
	// Git is true when Dir holds .git; otherwise Dir is the deepest
	// directory common to the inputs.
	Git bool
}

// String says which directory it is and why, for a summary.
func (r RepositoryRoot) String() string {
	if r.Dir == "" {
		return ""
	}
	if r.Git {
		return r.Dir + " (holds .git)"
	}
	return r.Dir + " (the inputs' common directory: no .git found)"
}

// FindRepositoryRoot returns the repository root of the paths given on
// the command line (files or directories): the directory holding .git
// above them (ProjectDirs bounds the search), when they share one;
// otherwise the deepest directory common to them all.
func FindRepositoryRoot(paths []string) RepositoryRoot {
	var dirs []string
	for _, p := range paths {
		if p == "-" || p == "" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			abs = filepath.Dir(abs)
		}
		dirs = append(dirs, abs)
	}
	if len(dirs) == 0 {
		return RepositoryRoot{}
	}
	common := dirs[0]
	for _, d := range dirs[1:] {
		common = commonDir(common, d)
	}
	for _, d := range ProjectDirs(common) {
		if isRepositoryRoot(d) {
			return RepositoryRoot{Dir: d, Git: true}
		}
	}
	return RepositoryRoot{Dir: common}
}

// commonDir returns the deepest directory holding both absolute paths.
func commonDir(a, b string) string {
	for !within(b, a) {
		parent := filepath.Dir(a)
		if parent == a {
			return a
		}
		a = parent
	}
	return a
}

// within reports whether path p is dir or below it (both clean and
// absolute).
func within(p, dir string) bool {
	if p == dir {
		return true
	}
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return strings.HasPrefix(p, dir)
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}
