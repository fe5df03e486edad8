package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func runIn(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

const baselineHPA = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 12
  maxReplicas: 10
`

// TestBaselineRoundTrip: a baseline written today hides today's findings;
// an edit above a finding (lines move) does not resurface it; a new
// finding is reported; a fixed one is counted so the file can shrink.
func TestBaselineRoundTrip(t *testing.T) {
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
	path := filepath.Join(dir, "hpa.yaml")
	must(t, os.WriteFile(path, []byte(baselineHPA), 0o644))
	if _, errs, code := runIn(t, dir, "check", "--write-baseline", "base.json", "."); code != 0 || !strings.Contains(errs, "recorded 2 findings") {
		t.Fatalf("write-baseline: exit %d: %s", code, errs)
	}
	if out, _, code := runIn(t, dir, "check", "--baseline", "base.json", "."); code != 0 || !strings.Contains(out, "0 errors, 0 warnings, 0 infos") || !strings.Contains(out, "2 baselined") {
		t.Fatalf("baselined run: exit %d:\n%s", code, out)
	}
	// Lines move: the same findings stay baselined.
	must(t, os.WriteFile(path, []byte("# a comment\n# and another\n"+strings.Replace(baselineHPA, "metadata:", "metadata:\n  labels: {team: shop}", 1)), 0o644))
	if out, _, code := runIn(t, dir, "check", "--baseline", "base.json", "."); code != 0 || !strings.Contains(out, "2 baselined") || strings.Contains(out, "[replica-bounds]") {
		t.Fatalf("after an edit above the findings: exit %d:\n%s", code, out)
	}
	// A new finding is reported; the baseline's are still hidden.
	must(t, os.WriteFile(filepath.Join(dir, "more.yaml"), []byte(strings.Replace(baselineHPA, "name: web\n", "name: api\n", 1)), 0o644))
	out, _, code := runIn(t, dir, "check", "--baseline", "base.json", ".")
	if code != 1 || !strings.Contains(out, "more.yaml:7:16: error: minReplicas 12 is above maxReplicas 10") || strings.Contains(out, "hpa.yaml:") {
		t.Fatalf("new finding: exit %d:\n%s", code, out)
	}
	// Fix one finding: it is counted as fixed.
	must(t, os.Remove(filepath.Join(dir, "more.yaml")))
	must(t, os.WriteFile(path, []byte(strings.Replace(baselineHPA, "minReplicas: 12", "minReplicas: 2", 1)), 0o644))
	out, _, code = runIn(t, dir, "check", "--baseline", "base.json", ".")
	if code != 0 || !strings.Contains(out, "1 baselined, 1 baselined finding fixed") {
		t.Fatalf("fixed finding: exit %d:\n%s", code, out)
	}
}

const fixable = `apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: orders
spec:
  scaleTargetRef: {name: orders} # scalelint:ignore unresolved-scale-target the app repository holds it
  triggers:
  - type: kafka
    metadata:
      topic: orders
      lagThreshold: 50
`

// TestFixWritesOnlyNamedFiles: --fix applies safe fixes in place to the
// files named, leaves others and stdin alone, refuses a read-only file
// without touching it.
func TestFixWritesOnlyNamedFiles(t *testing.T) {
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
	must(t, os.MkdirAll(filepath.Join(dir, "named"), 0o755))
	must(t, os.MkdirAll(filepath.Join(dir, "other"), 0o755))
	named := filepath.Join(dir, "named", "so.yaml")
	other := filepath.Join(dir, "other", "so.yaml")
	must(t, os.WriteFile(named, []byte(fixable), 0o644))
	must(t, os.WriteFile(other, []byte(fixable), 0o644))
	_, errs, code := runIn(t, dir, "check", "--fix", "named")
	if code != 0 || !strings.Contains(errs, "fixed 1 finding in 1 file") {
		t.Fatalf("--fix: exit %d: %s", code, errs)
	}
	got, _ := os.ReadFile(named)
	if !strings.Contains(string(got), `lagThreshold: "50"`) || strings.Count(string(got), "\n") != strings.Count(fixable, "\n") {
		t.Errorf("named file after --fix:\n%s", got)
	}
	if o, _ := os.ReadFile(other); string(o) != fixable {
		t.Errorf("a file not named was changed")
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "named")); len(entries) != 1 {
		t.Errorf("--fix left files behind: %v", entries)
	}
	// A read-only file is refused and left whole.
	ro := filepath.Join(dir, "other", "so.yaml")
	must(t, os.Chmod(ro, 0o444))
	_, errs, code = runIn(t, dir, "check", "--fix", "other")
	if code != 2 || !strings.Contains(errs, "not fixed: the file is read-only") {
		t.Errorf("read-only: exit %d: %s", code, errs)
	}
	if o, _ := os.ReadFile(ro); string(o) != fixable {
		t.Errorf("read-only file changed")
	}
	// Stdin is never written: its findings stay reported.
	cmd := exec.Command(binary, "check", "--fix", "-")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(fixable)
	out, _ := cmd.Output()
	if !strings.Contains(string(out), "expected a string, found number 50") {
		t.Errorf("stdin finding not reported after --fix:\n%s", out)
	}
}
