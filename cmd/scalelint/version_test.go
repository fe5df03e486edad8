package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestVersionLine: `scalelint version` prints the version, commit and date
// that a release build sets, on one line that starts with "scalelint "
// (the VS Code extension and the GitHub Action read it).
func TestVersionLine(t *testing.T) {
	defer func(v, c, d string) { version, commit, date = v, c, d }(version, commit, date)
	version, commit, date = "1.2.3", "0123456789abcdef0123456789abcdef01234567", "2026-10-25T12:00:00Z"
	var out bytes.Buffer
	if code := run([]string{"version"}, nil, &out, &out); code != exitOK {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	want := "scalelint 1.2.3 (commit 0123456789abcdef0123456789abcdef01234567, date 2026-10-25T12:00:00Z)\n"
	if out.String() != want {
		t.Errorf("version printed %q, want %q", out.String(), want)
	}
	out.Reset()
	run([]string{"--version"}, nil, &out, &out)
	if out.String() != want {
		t.Errorf("--version printed %q, want %q", out.String(), want)
	}
}

// TestVersionLdflags builds the binary with the ldflags of .goreleaser.yaml,
// its templates filled in, and runs `version`: -X ignores a variable that
// does not exist, so a renamed or moved variable would otherwise ship
// release binaries that say "devel".
func TestVersionLdflags(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Builds []struct {
			Main    string   `yaml:"main"`
			Ldflags []string `yaml:"ldflags"`
		} `yaml:"builds"`
	}
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if len(cfg.Builds) != 1 || cfg.Builds[0].Main != "./cmd/scalelint" || len(cfg.Builds[0].Ldflags) != 1 {
		t.Fatalf(".goreleaser.yaml: want one build of ./cmd/scalelint with one ldflags line, got %+v", cfg.Builds)
	}
	ldflags := strings.NewReplacer(
		"{{.Version}}", "9.8.7",
		"{{.FullCommit}}", "fedcba9876543210fedcba9876543210fedcba98",
		"{{.CommitDate}}", "2026-10-11T08:00:00Z",
	).Replace(cfg.Builds[0].Ldflags[0])
	if strings.Contains(ldflags, "{{") {
		t.Fatalf("a template this test does not fill: %s", ldflags)
	}
	bin := filepath.Join(t.TempDir(), "scalelint")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	// Without the release's -trimpath and CGO_ENABLED=0, which change no
	// symbol: the packages TestMain compiled are reused and only the link
	// runs again.
	args := []string{"build", "-ldflags=" + ldflags, "-o", bin, "."}
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "scalelint 9.8.7 (commit fedcba9876543210fedcba9876543210fedcba98, date 2026-10-11T08:00:00Z)\n"
	if string(out) != want {
		t.Errorf("built with %s, version printed %q, want %q", ldflags, out, want)
	}
}

// TestNoCollectionAtStart runs `scalelint version` with the collector's
// trace on and finds no collection: the packages' initialisations
// allocate past the collector's first 4 MB goal (two collections before
// main without internal/initgc), so a collection here means initgc no
// longer runs before the costly initialisations, or no longer holds the
// collector off.
func TestNoCollectionAtStart(t *testing.T) {
	cmd := exec.Command(binary, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=gctrace=1", "GOGC=", "GOMEMLIMIT=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("scalelint version: %v\n%s", err, stderr.String())
	}
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(l, "gc ") {
			t.Errorf("a collection ran during `scalelint version`: %s", l)
		}
	}
}
