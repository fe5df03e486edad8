package workspace

import (
	"io"
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
	// URLs are the repository's remote URLs, read from its Git
	// configuration: an Argo CD Application whose repoURL is none of
	// them deploys another repository.
	URLs []string
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
			return RepositoryRoot{Dir: d, Git: true, URLs: gitRemotes(d)}
		}
	}
	return RepositoryRoot{Dir: common}
}

// gitRemotes reads the remote URLs of the repository at dir from its
// Git configuration: .git/config, or, for a worktree or a submodule whose
// .git is a file ("gitdir: PATH"), the config of that directory or of
// its common directory. None when it cannot be read.
func gitRemotes(dir string) []string {
	gitDir := filepath.Join(dir, ".git")
	if st, err := os.Stat(gitDir); err == nil && !st.IsDir() {
		data, err := readSmall(gitDir)
		if err != nil {
			return nil
		}
		ref, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
		if !ok {
			return nil
		}
		gitDir = strings.TrimSpace(ref)
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(dir, gitDir)
		}
		if common, err := readSmall(filepath.Join(gitDir, "commondir")); err == nil {
			c := strings.TrimSpace(string(common))
			if !filepath.IsAbs(c) {
				c = filepath.Join(gitDir, c)
			}
			gitDir = c
		}
	}
	data, err := readSmall(filepath.Join(gitDir, "config"))
	if err != nil {
		return nil
	}
	var out []string
	remote := false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			remote = strings.HasPrefix(line, "[remote ")
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok && remote && strings.TrimSpace(k) == "url" {
			out = append(out, strings.TrimSpace(v))
		}
	}
	return out
}

// readSmall reads a small file of Git's (at most 64 KiB).
func readSmall(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, os.ErrInvalid
	}
	return io.ReadAll(io.LimitReader(f, 64<<10))
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
