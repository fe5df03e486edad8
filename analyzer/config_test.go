package analyzer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var testRules = []*Analyzer{
	{Name: "latency-floor", Severity: Error, Options: []Option{{Name: "margin", Default: 0.1}}},
	{Name: "scale-up-rounds", Severity: Info},
}

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig("dir/.scalelint.yaml", []byte(`
rules:
  scale-up-rounds: warning
  latency-floor: {severity: info, margin: 0.25}
defaults:
  dead-time: 1m30s
  scalelint.dev/pod-rate: "10"
exclude: ["charts/**"]
namespace: shop
overrides:
- paths: ["legacy/**"]
  rules: {latency-floor: off}
`), testRules)
	if err != nil {
		t.Fatal(err)
	}
	if c.Defaults["dead-time"].Value != 90 || c.Defaults["pod-rate"].Value != 10 || c.Namespace != "shop" {
		t.Errorf("config %+v", c)
	}
	sev, opts, on := c.RuleSetting(testRules[0], "dir/app/x.yaml")
	if !on || sev != Info || opts["margin"] != 0.25 {
		t.Errorf("latency-floor: %v %v %v", sev, opts, on)
	}
	if _, _, on := c.RuleSetting(testRules[0], "dir/legacy/x.yaml"); on {
		t.Errorf("override did not turn latency-floor off under legacy/")
	}
	if sev, _, _ := c.RuleSetting(testRules[1], "x.yaml"); sev != Warning {
		t.Errorf("scale-up-rounds severity %v", sev)
	}
	if !c.Excluded("dir/charts/a/b.yaml") || c.Excluded("dir/app/b.yaml") {
		t.Errorf("exclude globs")
	}
}

// TestParseLimits: every limit is read, sizes as byte counts or
// Kubernetes quantities (10Mi = 10 × 2^20 bytes); what is not set stays
// zero, which the parser reads as its default.
func TestParseLimits(t *testing.T) {
	c, err := ParseConfig("c.yaml", []byte("limits:\n  maxFileSize: 2Mi\n  maxDocuments: 50\n  maxDepth: 64\n  maxAliasNodes: 1000\n  maxNodes: 5000\n  timeout: 1500ms\n"), testRules)
	if err != nil {
		t.Fatal(err)
	}
	if l := c.Limits; l.MaxFileSize != 2<<20 || l.MaxDocuments != 50 || l.MaxDepth != 64 || l.MaxNodes != 1000 || l.MaxFileNodes != 5000 || l.Timeout != 1500*time.Millisecond {
		t.Errorf("limits %+v", l)
	}
	c, err = ParseConfig("c.yaml", []byte("limits: {maxFileSize: 4096}\n"), testRules)
	if err != nil || c.Limits.MaxFileSize != 4096 || c.Limits.MaxDepth != 0 {
		t.Errorf("limits %+v, %v", c.Limits, err)
	}
}

func TestConfigHelmAndRenderLimits(t *testing.T) {
	src := `limits:
  renderTimeout: 3s
  maxRenderOutput: 1Mi
  maxRenderInput: 2048
  maxRenderFiles: 50
helm:
  charts:
  - path: charts/web
    releaseName: web
    namespace: shop
    values: [env/prod.yaml, env/eu.yaml]
    set: {autoscaling.enabled: true, replicaCount: 3}
`
	c, err := ParseConfig(filepath.Join("repo", ".scalelint.yaml"), []byte(src), testRules)
	if err != nil {
		t.Fatal(err)
	}
	if r := c.RenderLimits; r.Timeout != 3*time.Second || r.MaxOutput != 1<<20 || r.MaxInput != 2048 || r.MaxFiles != 50 {
		t.Errorf("RenderLimits = %+v", r)
	}
	if len(c.Charts) != 1 {
		t.Fatalf("Charts = %+v", c.Charts)
	}
	ch := c.Charts[0]
	if ch.ReleaseName != "web" || ch.Namespace != "shop" || ch.Line != 8 ||
		strings.Join(ch.Set, " ") != "autoscaling.enabled=true replicaCount=3" {
		t.Errorf("chart = %+v", ch)
	}
	// Paths are relative to the configuration file's directory.
	if got := c.ChartDir(ch); got != filepath.Join("repo", "charts", "web") {
		t.Errorf("ChartDir = %s", got)
	}
	if got := c.ValuesFiles(ch); strings.Join(got, " ") != filepath.Join("repo", "env", "prod.yaml")+" "+filepath.Join("repo", "env", "eu.yaml") {
		t.Errorf("ValuesFiles = %v", got)
	}
}

func TestParseInfer(t *testing.T) {
	c, err := ParseConfig("c.yaml", []byte("infer:\n  controllers: [ingress-nginx, kong, ingress-nginx]\n"), testRules)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Infer.Controllers, ","); got != "ingress-nginx,kong" {
		t.Errorf("controllers %q", got)
	}
}

func TestConfigErrorsArePositioned(t *testing.T) {
	for src, want := range map[string]string{
		"rulez: {}\n":                                        `c.yaml:1:1: unknown key "rulez" (did you mean "rules"?)`,
		"rules:\n  latency-flor: error\n":                    `c.yaml:2:3: unknown rule "latency-flor" (did you mean "latency-floor"?)`,
		"rules:\n  latency-floor: loud\n":                    `c.yaml:2:18: rule latency-floor: severity must be off, info, warning or error, not "loud"`,
		"rules:\n  latency-floor: {margn: 1}\n":              `c.yaml:2:19: unknown key "margn" (did you mean "margin"?)`,
		"defaults:\n  dead-time: soon\n":                     `c.yaml:2:14: defaults.dead-time: "soon" is not a duration`,
		"defaults:\n  deadtime: 90s\n":                       `c.yaml:2:3: unknown key "deadtime" (did you mean "dead-time"?)`,
		"overrides:\n- rules: {latency-floor: off}\n":        `c.yaml:2:3: an override needs paths`,
		"limits:\n  maxFileSize: lots\n":                     `c.yaml:2:16: maxFileSize must be a size in bytes (10485760) or a quantity (10Mi) up to 2Gi, not "lots"`,
		"limits:\n  maxFileSize: 0\n":                        `c.yaml:2:16: maxFileSize must be`,
		"limits:\n  maxDepth: -1\n":                          `c.yaml:2:13: maxDepth must be a positive integer, not "-1"`,
		"limits:\n  timeout: forever\n":                      `c.yaml:2:12: timeout must be a duration such as 10s, not "forever"`,
		"limits:\n  maxDocument: 5\n":                        `c.yaml:2:3: unknown key "maxDocument" (did you mean "maxDocuments"?)`,
		"limits: 5\n":                                        `c.yaml:1:9: limits must be a mapping`,
		"limits:\n  renderTimeout: 0s\n":                     `c.yaml:2:18: renderTimeout must be a duration such as 10s, not "0s"`,
		"limits:\n  maxRenderOutput: big\n":                  `c.yaml:2:20: maxRenderOutput must be a size in bytes (67108864) or a quantity (64Mi) up to 2Gi, not "big"`,
		"helm:\n  chart: []\n":                               `c.yaml:2:3: unknown key "chart" (did you mean "charts"?)`,
		"helm:\n  charts: [{values: [a.yaml]}]\n":            `c.yaml:2:12: a chart of helm.charts needs a path`,
		"helm:\n  charts:\n  - path: c\n    set: {a: [1]}\n": `c.yaml:4:14: set.a must be a scalar`,
		"helm:\n  charts:\n  - path: c\n    valuse: []\n":    `c.yaml:4:5: unknown key "valuse" (did you mean "values"?)`,
		"infer:\n  controllers: [nginx]\n":                   `c.yaml:2:17: unknown controller "nginx"`,
		"infer:\n  controllers: [contuor]\n":                 `c.yaml:2:17: unknown controller "contuor" (did you mean "contour"?)`,
		"infer:\n  controller: [kong]\n":                     `c.yaml:2:3: unknown key "controller" (did you mean "controllers"?)`,
		"infer:\n  controllers: kong\n":                      `c.yaml:2:16: infer.controllers must be a list of controller names`,
	} {
		_, err := ParseConfig("c.yaml", []byte(src), testRules)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", src, err, want)
		}
	}
}

func TestMatchGlob(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		{"charts/**", "charts/a/b.yaml", true},
		{"charts", "charts/a/b.yaml", true},
		{"vendor/", "x/vendor/y.yaml", true},
		{"*.json", "a/b/c.json", true},
		{"a/*.yaml", "a/b/c.yaml", false},
		{"a/*.yaml", "b/c.yaml", false},
		{"**/test/**", "x/test/y.yaml", true},
		{"legacy/**", "legacyx/y.yaml", false},
	} {
		if got := MatchGlob(c.pattern, c.name); got != c.want {
			t.Errorf("MatchGlob(%q, %q) = %v", c.pattern, c.name, got)
		}
	}
}

// TestFindConfigNearest: the nearest configuration file above a path, a
// file or a directory, never above the repository root.
func TestFindConfigNearest(t *testing.T) {
	tmp := t.TempDir()
	write := func(p, text string) string {
		full := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return full
	}
	write(".scalelint.yaml", "rules: {tolerance-trap: off}\n") // planted above the repository
	write("repo/.git/HEAD", "ref: refs/heads/main\n")
	repoCfg := write("repo/.scalelint.yaml", "namespace: shop\n")
	teamCfg := write("repo/teams/b/.scalelint.yml", "namespace: b\n")
	file := write("repo/teams/b/app/hpa.yaml", "")
	write("repo/teams/a/hpa.yaml", "")
	cases := map[string]string{
		filepath.Join(tmp, "repo", "teams", "a"):             repoCfg,
		filepath.Join(tmp, "repo", "teams", "a", "hpa.yaml"): repoCfg,
		file:                       teamCfg,
		filepath.Join(tmp, "repo"): repoCfg,
		// Outside the repository the file above it is the nearest: the
		// search is bounded below /tmp, not by a repository.
		filepath.Join(tmp, "nowhere"): filepath.Join(tmp, ".scalelint.yaml"),
	}
	for p, want := range cases {
		if got := FindConfig(p); got != want {
			t.Errorf("FindConfig(%s) = %q, want %q", p, got, want)
		}
	}
	// Without .git the search still stops below the child of the root
	// that holds the temporary directory.
	if got := FindConfig(filepath.Dir(tmp)); got != "" && !strings.HasPrefix(got, filepath.Dir(tmp)) {
		t.Errorf("FindConfig above the temporary directory found %s", got)
	}
}

// TestConfigScoped: each file is governed by the nearest scoped
// configuration whose directory holds it, whole (no merging with the
// ones above), and by the base configuration elsewhere.
func TestConfigScoped(t *testing.T) {
	tmp := t.TempDir()
	parse := func(dir, text string) *Config {
		c, err := ParseConfig(filepath.Join(tmp, dir, ".scalelint.yaml"), []byte(text), nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	top := parse("repo", "namespace: top\nkubernetes-version: \"1.30\"\n")
	nested := parse("repo/team", "namespace: team\n")
	cfg := DefaultConfig().Scoped([]*Config{top, nested})
	for file, want := range map[string]string{
		filepath.Join(tmp, "repo", "a.yaml"):          "top",
		filepath.Join(tmp, "repo", "team", "b.yaml"):  "team",
		filepath.Join(tmp, "repo", "teamx", "c.yaml"): "top",
		filepath.Join(tmp, "elsewhere.yaml"):          "",
	} {
		if got := cfg.For(file).Namespace; got != want {
			t.Errorf("%s: namespace %q, want %q", file, got, want)
		}
	}
	if got := cfg.For(filepath.Join(tmp, "repo", "team", "b.yaml")).KubernetesVersion; got != DefaultKubernetesVersion {
		t.Errorf("the nested configuration took %s from the one above it", got)
	}
	if got := cfg.For(filepath.Join(tmp, "repo", "a.yaml")).KubernetesVersion; got.String() != "1.30" {
		t.Errorf("kubernetes-version %s", got)
	}
}

func TestParseKubernetesVersion(t *testing.T) {
	for s, want := range map[string]string{"1.30": "1.30", "v1.25": "1.25", "1.26.3": "1.26", " 1.9 ": "1.9"} {
		if v, ok := ParseKubernetesVersion(s); !ok || v.String() != want {
			t.Errorf("%q: %v %v, want %s", s, v, ok, want)
		}
	}
	for _, s := range []string{"", "1", "2.0", "1.x", "1.03", "1.30.1.2", "latest"} {
		if v, ok := ParseKubernetesVersion(s); ok {
			t.Errorf("%q read as %v", s, v)
		}
	}
}
