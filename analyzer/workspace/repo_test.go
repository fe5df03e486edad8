package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestProjectDirs: the search for what belongs to a project (its
// configuration, its repository root) stops at the repository root (.git,
// a directory or a worktree's file), at $HOME, and never enters a child
// of the filesystem root or the root itself that the search did not start
// in: a file planted in /tmp or / does not configure /tmp/project.
func TestProjectDirs(t *testing.T) {
	tmp := t.TempDir()
	mk := func(p string) string {
		d := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	// A repository: the search stops at its root, included.
	repo := mk("repo")
	if err := os.WriteFile(filepath.Join(repo, ".git"), []byte("gitdir: elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deep := mk("repo/a/b")
	if got, want := ProjectDirs(deep), []string{deep, filepath.Dir(deep), repo}; !slices.Equal(got, want) {
		t.Errorf("in a repository: %v, want %v", got, want)
	}
	// The home directory bounds it too.
	home := mk("home/user")
	t.Setenv("HOME", home)
	proj := mk("home/user/src/proj")
	got := ProjectDirs(proj)
	if got[len(got)-1] != home {
		t.Errorf("below $HOME: %v, want it to end at %s", got, home)
	}
	// Without a repository or $HOME above, it ends below the root's
	// child that holds it (/tmp for t.TempDir()).
	loose := mk("loose/x")
	got = ProjectDirs(loose)
	for _, d := range got {
		if parent := filepath.Dir(d); filepath.Dir(parent) == parent && d != loose {
			t.Errorf("the search entered %s, a child of the filesystem root: %v", d, got)
		}
		if filepath.Dir(d) == d {
			t.Errorf("the search reached the filesystem root: %v", got)
		}
	}
	if !slices.Contains(got, tmp) {
		t.Errorf("%v: the search stopped short of %s", got, tmp)
	}
	// Starting in a child of the root (or the root) searches it alone.
	root := filepath.VolumeName(tmp) + string(filepath.Separator)
	if got := ProjectDirs(root); !slices.Equal(got, []string{root}) {
		t.Errorf("from the root: %v", got)
	}
}

// TestFindRepositoryRoot: the directory holding .git above the paths
// given, else the deepest directory common to them.
func TestFindRepositoryRoot(t *testing.T) {
	tmp := t.TempDir()
	for _, d := range []string{"repo/.git", "repo/apps/web", "repo/clusters/prod", "loose/a", "loose/b"} {
		if err := os.MkdirAll(filepath.Join(tmp, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	j := func(p string) string { return filepath.Join(tmp, filepath.FromSlash(p)) }
	if r := FindRepositoryRoot([]string{j("repo/apps/web"), j("repo/clusters/prod")}); r.Dir != j("repo") || !r.Git {
		t.Errorf("in a repository: %+v", r)
	}
	if r := FindRepositoryRoot([]string{j("loose/a"), j("loose/b")}); r.Dir != j("loose") || r.Git {
		t.Errorf("without .git: %+v, want the common directory", r)
	}
	if r := FindRepositoryRoot([]string{"-"}); r.Dir != "" {
		t.Errorf("stdin alone: %+v", r)
	}
}

// TestWalkSymlinkedRoot: a directory named on the command line is walked
// even when its name is a symbolic link (a repository checked out
// elsewhere and linked in); links met below it are still not followed.
func TestWalkSymlinkedRoot(t *testing.T) {
	tmp := t.TempDir()
	real := filepath.Join(tmp, "real")
	if err := os.MkdirAll(filepath.Join(real, "deploy"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "deploy", "hpa.yaml"), []byte("kind: HorizontalPodAutoscaler\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink(real, filepath.Join(real, "loop")); err != nil {
		t.Fatal(err)
	}
	got, errs := Walk([]string{link}, nil)
	if want := []string{filepath.Join(link, "deploy", "hpa.yaml")}; !slices.Equal(got, want) || len(errs) > 0 {
		t.Errorf("Walk(link) = %v, %v; want %v", got, errs, want)
	}
}

// TestGitRemotes: the remote URLs come from .git/config, or through a
// worktree's .git file from its common directory's config.
func TestGitRemotes(t *testing.T) {
	tmp := t.TempDir()
	main := filepath.Join(tmp, "main")
	if err := os.MkdirAll(filepath.Join(main, ".git", "worktrees", "wt"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "[core]\n\tbare = false\n[remote \"origin\"]\n\turl = git@github.com:example/shop.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n"
	if err := os.WriteFile(filepath.Join(main, ".git", "config"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := gitRemotes(main); !slices.Equal(got, []string{"git@github.com:example/shop.git"}) {
		t.Errorf("remotes %v", got)
	}
	wt := filepath.Join(tmp, "wt")
	must(t, os.MkdirAll(wt, 0o755))
	must(t, os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+filepath.Join(main, ".git", "worktrees", "wt")+"\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(main, ".git", "worktrees", "wt", "commondir"), []byte("../..\n"), 0o644))
	if r := FindRepositoryRoot([]string{wt}); !r.Git || !slices.Equal(r.URLs, []string{"git@github.com:example/shop.git"}) {
		t.Errorf("worktree: %+v", r)
	}
}

// must fails the test when setting up its files fails: a write or a
// permission change that did not happen would test something else.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
