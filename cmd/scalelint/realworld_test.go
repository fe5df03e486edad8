package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/scalelint/scalelint/cmd/scalelint/internal/output"
)

// The real-world corpus (testdata/realworld: public manifests, see its
// SOURCES.md and STATS.md) is linted as users would lint it: one
// repository folder at a time, and the whole tree against a golden file.

type jsonOut struct {
	Version     int                     `json:"version"`
	Diagnostics []output.JSONDiagnostic `json:"diagnostics"`
	Summary     output.JSONSummary      `json:"summary"`
}

func realworld(t *testing.T) string {
	return filepath.Join(repoRoot(t), "testdata", "realworld")
}

// checkJSON runs `scalelint check --format json args...` in dir.
func checkJSON(t *testing.T, dir string, args ...string) (jsonOut, int) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"check", "--format", "json"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var rep jsonOut
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("check %v: invalid JSON (exit %d): %v\n%s", args, code, err, out)
	}
	return rep, code
}

func TestRealworldRepositories(t *testing.T) {
	root := realworld(t)
	repos, err := os.ReadDir(filepath.Join(root, "real"))
	if err != nil {
		t.Fatal(err)
	}
	var all []output.JSONDiagnostic
	for _, r := range repos {
		rep, code := checkJSON(t, root, filepath.Join("real", r.Name()))
		if code != 0 && code != 1 {
			t.Errorf("%s: exit %d", r.Name(), code)
		}
		if rep.Version != 1 {
			t.Errorf("%s: version %d", r.Name(), rep.Version)
		}
		all = append(all, rep.Diagnostics...)
	}
	has := func(rule, file, msgRx string) bool {
		rx := regexp.MustCompile(msgRx)
		for _, d := range all {
			if d.Rule == rule && d.File == file && rx.MatchString(d.Message) {
				return true
			}
		}
		return false
	}
	// STATS.md: the two HPAs of podinfo's deploy/webapp on one Deployment.
	for _, f := range []string{"backend", "frontend"} {
		file := "real/stefanprodan__podinfo/deploy/webapp/" + f + "/hpa.yaml"
		if !has("conflicting-autoscalers", file, `both scale Deployment "backend"`) {
			t.Errorf("podinfo webapp conflict not reported at %s", file)
		}
	}
	// No conflict between a kustomize base and its overlays, nor between
	// eks-workshop's hpa and keda modules (alternatives: no common root).
	for _, d := range all {
		if d.Rule != "conflicting-autoscalers" {
			continue
		}
		if strings.Contains(d.File, "stefanprodan__podinfo/deploy/bases") || strings.Contains(d.File, "stefanprodan__podinfo/deploy/overlays") ||
			strings.Contains(d.File, "stefanprodan__podinfo/kustomize") || strings.Contains(d.File, "aws-samples__eks-workshop-v2") {
			t.Errorf("conflict reported between kustomize variants or alternatives: %s:%d %s", d.File, d.Line, d.Message)
		}
	}
	// STATS.md: every CPU target whose workload lacks a CPU request.
	for _, row := range statsMissingCPU(t, filepath.Join(root, "STATS.md")) {
		if !has("missing-cpu-request", row.workloadFile, `container "`+regexp.QuoteMeta(row.container)+`" has no CPU request`) {
			t.Errorf("STATS.md lists %s (container %s in %s) without a CPU request: not reported", row.autoscalerFile, row.container, row.workloadFile)
		}
	}
	// Every autoscaler written in an API version Kubernetes 1.35 (the
	// default kubernetes-version) or KEDA 2 no longer serves is reported
	// by removed-api, and only those: the count is taken from the
	// corpus' text, each document whose top-level apiVersion and kind
	// say so.
	want := removedAutoscalers(t, filepath.Join(root, "real"))
	if len(want) < 40 {
		t.Fatalf("the corpus scan found %d removed autoscaler versions: the scan is broken", len(want))
	}
	got := map[string]bool{}
	for _, d := range all {
		if d.Rule == "removed-api" && (strings.Contains(d.Message, " HorizontalPodAutoscaler is not served since") ||
			strings.Contains(d.Message, " ScaledObject is KEDA 1's API")) {
			got[fmt.Sprintf("%s:%d", d.File, d.Line)] = true
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("%s: autoscaler in a removed API version not reported", k)
		}
	}
	for k := range got {
		if !want[k] {
			t.Errorf("%s: removed-api reported on an autoscaler the corpus scan does not list", k)
		}
	}
	// Every finding is positioned.
	for _, d := range all {
		if d.Line < 1 || d.Column < 1 || d.EndLine < d.Line {
			t.Errorf("unpositioned finding %+v", d)
		}
	}
}

// removedAutoscalers scans the corpus' text for HorizontalPodAutoscalers
// in autoscaling/v2beta1 or v2beta2 and ScaledObjects in
// keda.k8s.io/v1alpha1 (one document each, its apiVersion and kind at the
// top level), by "real/FILE:LINE" of the apiVersion line.
func removedAutoscalers(t *testing.T, dir string) map[string]bool {
	out := map[string]bool{}
	apiRe := regexp.MustCompile(`^apiVersion:\s*["']?(autoscaling/v2beta[12]|keda\.k8s\.io/v1alpha1)["']?\s*$`)
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(filepath.Dir(dir), p)
		rel = filepath.ToSlash(rel)
		apiLine, api := 0, ""
		for i, line := range strings.Split(string(data), "\n") {
			line = strings.TrimRight(line, "\r")
			if strings.HasPrefix(line, "---") {
				apiLine, api = 0, ""
			}
			if m := apiRe.FindStringSubmatch(line); m != nil {
				apiLine, api = i+1, m[1]
			}
			if apiLine > 0 && (line == "kind: HorizontalPodAutoscaler" && strings.HasPrefix(api, "autoscaling/") ||
				line == "kind: ScaledObject" && strings.HasPrefix(api, "keda.k8s.io/")) {
				out[fmt.Sprintf("%s:%d", rel, apiLine)] = true
			}
		}
		return nil
	})
	return out
}

type statsRow struct{ autoscalerFile, workloadFile, container string }

// statsMissingCPU reads STATS.md's table rows "NO cpu request on: X".
func statsMissingCPU(t *testing.T, path string) []statsRow {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rowRe := regexp.MustCompile(`^\| (real/\S+) \| \S+ \| \S+ \((real/\S+)\) \| NO cpu request on: (\S+) \|`)
	var out []statsRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := rowRe.FindStringSubmatch(sc.Text()); m != nil {
			out = append(out, statsRow{m[1], m[2], m[3]})
		}
	}
	if len(out) == 0 {
		t.Fatal("STATS.md lists no missing CPU request: the table format changed")
	}
	return out
}

func TestRealworldInvalidYAML(t *testing.T) {
	root := realworld(t)
	files, _ := filepath.Glob(filepath.Join(root, "invalid-yaml", "*", "*"))
	var paths []string
	filepath.Walk(filepath.Join(root, "invalid-yaml"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, rel)
		}
		return nil
	})
	if len(paths) == 0 {
		t.Fatalf("no invalid-yaml files (%v)", files)
	}
	for _, p := range paths {
		rep, code := checkJSON(t, root, p)
		if code == 2 {
			t.Errorf("%s: exit 2", p)
		}
		// Each file gets a positioned finding about its YAML: a syntax
		// error, a field the YAML made the wrong type (a placeholder such
		// as {name} is a flow mapping), or, for the one file that is valid
		// YAML 1.2 and that PyYAML alone rejects (a tab before a comment),
		// the portability warning; or, for the one file whose ${VAR}
		// placeholders stand where YAML needs indented text (kedify's
		// so-springboot-pull.yaml, written for envsubst), template-file.
		found := false
		for _, d := range rep.Diagnostics {
			switch d.Rule {
			case "yaml-syntax", "invalid-field", "yaml-portability":
				found = found || d.Line >= 1
			case "template-file":
				found = found || (d.Line >= 1 && strings.Contains(d.Message, "${VAR} placeholders") && strings.HasSuffix(p, "so-springboot-pull.yaml"))
			}
		}
		if !found {
			t.Errorf("%s: no positioned YAML finding: %+v", p, rep.Diagnostics)
		}
	}
}

func TestRealworldHelmTemplates(t *testing.T) {
	root := realworld(t)
	var paths []string
	filepath.Walk(filepath.Join(root, "helm-templates"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, rel)
		}
		return nil
	})
	for _, p := range paths {
		rep, code := checkJSON(t, root, p)
		if code == 2 {
			t.Errorf("%s: exit 2", p)
		}
		n := 0
		for _, d := range rep.Diagnostics {
			if d.Rule == "template-file" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: %d template-file findings, want 1: %+v", p, n, rep.Diagnostics)
		}
	}
}

// TestRealworldGolden checks the whole real corpus against a golden JSON
// report, so a change of behaviour (a refactor, a performance fast path)
// shows as a diff. -update rewrites it.
func TestRealworldGolden(t *testing.T) {
	root := realworld(t)
	cmd := exec.Command(binary, "check", "--format", "json", "real")
	cmd.Dir = root
	out, _ := cmd.Output()
	got := normalizeOutput(string(out))
	golden := filepath.Join(root, "expected.json")
	want, err := os.ReadFile(golden)
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if got != normalizeOutput(string(want)) {
		gl, wl := strings.Split(got, "\n"), strings.Split(normalizeOutput(string(want)), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("real corpus report differs from %s at line %d:\n got: %s\nwant: %s\n(run go test ./cmd/scalelint -run Golden -update to accept)", golden, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("real corpus report differs from %s in length: %d vs %d lines", golden, len(gl), len(wl))
	}
}

// TestRealworldAuditMarkdown keeps testdata/realworld/audit.md, the
// pull-request comment `scalelint audit --format markdown` writes for the
// real corpus, in step with the code. -update rewrites it.
func TestRealworldAuditMarkdown(t *testing.T) {
	root := realworld(t)
	cmd := exec.Command(binary, "audit", "--format", "markdown", "real")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("audit: %v", err)
	}
	golden := filepath.Join(root, "audit.md")
	if *update {
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(want) {
		gl, wl := strings.Split(string(out), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("audit markdown differs from %s at line %d:\n got: %s\nwant: %s\n(run go test ./cmd/scalelint -run AuditMarkdown -update to accept)", golden, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("audit markdown differs from %s in length: %d vs %d lines", golden, len(gl), len(wl))
	}
}
