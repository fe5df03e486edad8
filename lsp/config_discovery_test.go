package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigurationPerFile: the server finds configuration files as the
// command line does, the nearest .scalelint.yaml above each file: one
// inside the workspace folder governs the files below it alone (here it
// turns tolerance-trap off for team-b), the folder's own governs the
// rest; a .scalelint.yaml planted above the repository root (the folder
// holds .git) is never read; the server logs the files it uses. Files that
// are not manifests (JSON with comments in .vscode/, a GitHub workflow)
// and the configuration files themselves get no findings.
func TestConfigurationPerFile(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "repo")
	write := func(name, text string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Planted above the repository: it would silence every error.
	if err := os.WriteFile(filepath.Join(parent, ".scalelint.yaml"), []byte("rules: {tolerance-trap: off, yaml-syntax: off}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(".git/HEAD", "ref: refs/heads/main\n")
	write(".scalelint.yaml", "namespace: shop\n")
	write("team-b/.scalelint.yaml", "rules: {tolerance-trap: off}\n")
	trapped := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n" +
		"  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 10\n  metrics:\n" +
		"  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: 95}}\n---\n" +
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers:\n" +
		"      - name: web\n        image: web:1\n        resources: {requests: {cpu: 100m}, limits: {cpu: 100m}}\n"
	write("team-a/app.yaml", trapped)
	write("team-b/app.yaml", trapped)
	write(".vscode/settings.json", "{\n  // comments are allowed here\n  \"editor.tabSize\": 2,\n}\n")
	write(".github/workflows/ci.yaml", "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n    - run: echo ${{ github.sha }}\n")

	c := newClient(t, Options{})
	c.initialize(dir, "")
	a := c.open("team-a/app.yaml", "")
	c.waitFor(a, "tolerance-trap under the folder's configuration", func(p publication) bool { return p.has("tolerance-trap") })
	b := c.open("team-b/app.yaml", "")
	// The file's findings are published together, in one lint.
	if p := c.waitVersion(b, 1); p.has("tolerance-trap") {
		t.Errorf("team-b/.scalelint.yaml turns tolerance-trap off, yet it is reported: %v", p.rules())
	}
	for _, name := range []string{".vscode/settings.json", ".github/workflows/ci.yaml", ".scalelint.yaml", "team-b/.scalelint.yaml"} {
		u := c.open(name, "")
		c.waitFor(u, "no findings on "+name, func(p publication) bool { return len(p.Diagnostics) == 0 })
	}
	log := c.log.String()
	if !strings.Contains(log, "configuration") || !strings.Contains(log, filepath.Join(dir, ".scalelint.yaml")) ||
		!strings.Contains(log, filepath.Join(dir, "team-b", ".scalelint.yaml")) {
		t.Errorf("the log does not say which configuration files are used:\n%s", log)
	}
	if strings.Contains(log, filepath.Join(parent, ".scalelint.yaml")+" ") || strings.Contains(log, filepath.Join(parent, ".scalelint.yaml")+"]") {
		t.Errorf("the configuration above the repository root was read:\n%s", log)
	}
}
