package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testdata/repos/mixed is a repository written for this test: manifests
// deployed by a Flux Kustomization (spec.path: ./deploy/apps, relative to
// the repository root) beside the files real repositories hold that are
// not manifests. mixedNotManifests are those files, as the repository's
// README describes them; every other YAML or JSON file is a manifest.
var mixedNotManifests = []string{
	".github/workflows/ci.yaml", // a GitHub workflow
	".pre-commit-config.yaml",
	".vscode/launch.json", // JSON with comments
	".vscode/settings.json",
	".vscode/tasks.json",
	"app/config.yaml", // application YAML
	"app/values.yaml", // chart values
	"docker-compose.yml",
	"package.json",
	"tsconfig.app.json",
	"tsconfig.json",
}

// mixedRepo copies testdata/repos/mixed into a temporary directory made a
// repository (it holds .git), so that GitOps paths are relative to it.
func mixedRepo(t *testing.T) string {
	t.Helper()
	src := filepath.Join(repoRoot(t), "testdata", "repos", "mixed")
	dst := filepath.Join(t.TempDir(), "mixed")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dst, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dst
}

// checkRepo runs check --format json --verbose on a repository from
// another working directory (the repository's parent), returning the
// report, the exit status and stderr.
func checkRepo(t *testing.T, repo string) (jsonOut, int, string) {
	t.Helper()
	cmd := exec.Command(binary, "check", "--format", "json", "--verbose", filepath.Base(repo))
	cmd.Dir = filepath.Dir(repo)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var rep jsonOut
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("invalid JSON (exit %d): %v\n%s\n%s", code, err, out, stderr.String())
	}
	return rep, code, stderr.String()
}

// TestMixedRepository: on a whole repository, check exits 0 with no error
// and no finding at all on the files that are not manifests; it sets them
// aside (counted in the summary, listed by --verbose), reports the
// Terraform template once as template-file (info), reads the repository's
// .scalelint.yaml although it runs from another directory, and lints the
// manifests the Flux Kustomization deploys.
func TestMixedRepository(t *testing.T) {
	repo := mixedRepo(t)
	rep, code, stderr := checkRepo(t, repo)
	if code != 0 {
		t.Errorf("exit %d, want 0; findings %+v", code, rep.Diagnostics)
	}
	not := map[string]bool{}
	for _, p := range mixedNotManifests {
		not["mixed/"+p] = true
	}
	templates := 0
	for _, d := range rep.Diagnostics {
		if not[d.File] {
			t.Errorf("finding on %s, which is not a manifest: %s [%s]", d.File, d.Message, d.Rule)
		}
		if d.Severity == "error" {
			t.Errorf("error %s:%d: %s [%s]", d.File, d.Line, d.Message, d.Rule)
		}
		if d.Rule == "template-file" {
			templates++
			if d.File != "mixed/infra/kustomization.tftpl.yaml" || !strings.Contains(d.Message, "Terraform") {
				t.Errorf("template-file %s: %s", d.File, d.Message)
			}
		}
	}
	if templates != 1 {
		t.Errorf("%d template-file findings, want 1 (the Terraform template)", templates)
	}
	if rep.Summary.Skipped != len(mixedNotManifests) {
		t.Errorf("summary counts %d files skipped, want %d", rep.Summary.Skipped, len(mixedNotManifests))
	}
	var listed []string
	for _, line := range strings.Split(stderr, "\n") {
		if rest, ok := strings.CutPrefix(line, "scalelint: skipped mixed/"); ok {
			listed = append(listed, rest[:strings.Index(rest, ":")])
		}
	}
	if !slices.Equal(listed, mixedNotManifests) {
		t.Errorf("--verbose lists %v, want %v", listed, mixedNotManifests)
	}
	if !slices.Equal(rep.Summary.Configs, []string{"mixed/.scalelint.yaml"}) {
		t.Errorf("configuration files %v, want the repository's", rep.Summary.Configs)
	}
	if rep.Summary.Autoscalers != 2 {
		t.Errorf("%d autoscalers, want the two apps'", rep.Summary.Autoscalers)
	}
	// Each root names the object declaring it where it is written (the
	// Kustomization is gotk-sync.yaml's second document, at line 11), and
	// what it deploys.
	for _, want := range []string{
		`deployment root: Flux Kustomization "flux-system/apps" (mixed/clusters/prod/apps.yaml:1) deploys mixed/deploy/apps and below`,
		`deployment root: Flux Kustomization "flux-system/flux-system" (mixed/clusters/prod/flux-system/gotk-sync.yaml:11) deploys mixed/clusters/prod and below`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("--verbose does not show %q:\n%s", want, stderr)
		}
	}
}

// TestMixedRepositoryFluxConflict: when backend's HPA names frontend, the
// Flux Kustomization deploys both apps together, so Deployment frontend has
// two HPAs: conflicting-autoscalers on each, exit 1. Without the Flux
// Kustomization the two kustomizations are not deployed together, and the
// backend HPA's target is reported as deployed apart (info).
func TestMixedRepositoryFluxConflict(t *testing.T) {
	repo := mixedRepo(t)
	hpa := filepath.Join(repo, "deploy", "apps", "backend", "hpa.yaml")
	data, err := os.ReadFile(hpa)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hpa, []byte(strings.Replace(string(data), "    name: backend", "    name: frontend", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, code, _ := checkRepo(t, repo)
	conflicts := map[string]bool{}
	for _, d := range rep.Diagnostics {
		if d.Rule == "conflicting-autoscalers" && strings.Contains(d.Message, `both scale Deployment "frontend"`) {
			conflicts[d.File] = true
		}
	}
	if code != 1 || !conflicts["mixed/deploy/apps/backend/hpa.yaml"] || !conflicts["mixed/deploy/apps/frontend/hpa.yaml"] {
		t.Errorf("exit %d, conflicts %v; want both HPAs reported", code, conflicts)
	}

	if err := os.Remove(filepath.Join(repo, "clusters", "prod", "apps.yaml")); err != nil {
		t.Fatal(err)
	}
	// Without the Flux root, each kustomization is built as its own
	// deployment: the backend's build does not hold the frontend's
	// Deployment, so its HPA's target is not among the objects that build
	// renders.
	rep, code, _ = checkRepo(t, repo)
	apart := false
	for _, d := range rep.Diagnostics {
		if d.Rule == "conflicting-autoscalers" {
			t.Errorf("conflict without a common root: %s", d.Message)
		}
		apart = apart || (d.Rule == "unresolved-scale-target" && d.File == "mixed/deploy/apps/backend/hpa.yaml" &&
			strings.Contains(d.Message, "is not among the objects rendered with this autoscaler") &&
			strings.Contains(d.Message, "[kustomization: mixed/deploy/apps/backend]"))
	}
	if code != 0 || !apart {
		t.Errorf("exit %d, cross-root resolution reported: %v", code, apart)
	}
}
