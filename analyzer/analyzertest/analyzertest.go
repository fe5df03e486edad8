// Package analyzertest runs rules over txtar fixtures, in the manner of
// golang.org/x/tools/go/analysis/analysistest.
//
// A fixture is a txtar archive: its comment says what is tested, then
// files. A file named .scalelint.yaml configures the run; one in a
// directory (dir/.scalelint.yaml) configures the files below it instead,
// as the command line finds the nearest configuration file above each
// input (analyzer.Config.Scoped). Expectations are
// trailing YAML comments on the line where a diagnostic starts:
//
//	maxReplicas: 10 # want "ceiling 10 is at or below" ceiling=10 ceilingFloor=30
//	# want +1 "lagThreshold"
//	  lagThreshold: "10"
//	target: 95 # want col=11 "g = 1.0" "another diagnostic on this line"
//
// Each quoted string is a regular expression a diagnostic's message must
// match; col=N pins its start column (code points); severity=S pins its
// severity (error, warning or info, as the run resolved it); NAME=VALUE
// pins a fact, compared at the precision VALUE is written with. Every diagnostic of the
// rules under test must be expected, and every expectation met. A
// malformed expectation (col=x, +0, a fact that is not a number) fails the
// fixture at its file and line rather than matching more than it says.
//
// A file F.golden holds F after the diagnostics' first suggested fixes are
// applied. With -update, golden files are rewritten in the archive.
//
// A fixture that holds a Helm chart (a Chart.yaml) or a kustomization is
// linted as the command line lints a directory: its files are written to
// a temporary directory, which becomes the working directory, and the
// charts are rendered and the kustomizations built (analyzer/render/lint);
// expectations in templates, values files and patches are where the
// findings are mapped back to.
package analyzertest

import (
	"context"
	"flag"
	"fmt"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/render/lint"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

var update = flag.Bool("update", false, "rewrite golden files in txtar fixtures")

// Result is what a fixture run produced, for further checks.
type Result struct {
	Workspace   *workspace.Workspace
	Diagnostics []analyzer.Diagnostic
}

type expectation struct {
	file    string
	line    int
	col     int               // 0: any
	sev     analyzer.Severity // 0: any
	rx      *regexp.Regexp
	facts   map[string]string
	matched bool
}

// Run runs the analyzers under test (all is the full rule set, for the
// configuration's sake; may be nil) over the fixture at path and checks
// its expectations.
func Run(t *testing.T, path string, all []*analyzer.Analyzer, under ...*analyzer.Analyzer) Result {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		all = under
	}
	fset := token.NewFileSet()
	cfg := analyzer.DefaultConfig()
	for _, f := range ar.Files {
		if f.Name == ".scalelint.yaml" {
			c, err := analyzer.ParseConfig(f.Name, f.Data, all)
			if err != nil {
				t.Fatalf("%s: config: %v", path, err)
			}
			cfg = c
		}
	}
	if renders(ar) {
		return runRendered(t, path, ar, fset, cfg, all, under)
	}
	var scoped []*analyzer.Config
	var files []*manifest.File
	golden := map[string]string{}
	var exps []*expectation
	for _, f := range ar.Files {
		switch {
		case f.Name == ".scalelint.yaml":
			continue
		case analyzer.IsConfigName(f.Name):
			c, err := analyzer.ParseConfig(f.Name, f.Data, all)
			if err != nil {
				t.Fatalf("%s: config %s: %v", path, f.Name, err)
			}
			scoped = append(scoped, c)
			continue
		case strings.HasSuffix(f.Name, ".golden"):
			golden[strings.TrimSuffix(f.Name, ".golden")] = string(f.Data)
			continue
		}
		mf := manifest.Parse(fset, f.Name, f.Data, manifest.Options{Eager: manifest.IsReadKind, Recycle: true})
		files = append(files, mf)
		fe, err := parseExpectations(path, mf)
		if err != nil {
			t.Fatal(err)
		}
		exps = append(exps, fe...)
		// As the CLI does: views built, then the trees, text and line
		// tables dropped, so every fixture also checks that rules read
		// them again wherever they need them.
		workspace.Prepare(mf, true)
		data := f.Data
		mf.DropText(func() ([]byte, error) { return data, nil }, true)
	}
	if len(scoped) > 0 {
		cfg = cfg.Scoped(scoped)
	}
	// As the command line does: files that are not Kubernetes manifests
	// are set aside.
	kept := files[:0]
	for _, f := range files {
		if f.NotManifest() == "" {
			kept = append(kept, f)
		}
	}
	files = kept
	ws := workspace.New(fset, files, workspace.Options{DefaultNamespace: cfg.Namespace, Release: true,
		NamespaceOf: func(f *manifest.File) string { return cfg.For(f.Path).Namespace }})
	diags := analyzer.Run(context.Background(), ws, withSuppressionRules(all), cfg)
	return check(t, path, ar, ws, diags, exps, golden, under)
}

// check matches a run's findings of the rules under test against the
// expectations, and the fixed files against the golden ones.
func check(t *testing.T, path string, ar *txtar.Archive, ws *workspace.Workspace, diags []analyzer.Diagnostic, exps []*expectation, golden map[string]string, under []*analyzer.Analyzer) Result {
	t.Helper()
	tested := map[string]bool{}
	for _, a := range under {
		tested[a.Name] = true
	}
	var reported []analyzer.Diagnostic
	for _, d := range diags {
		if !tested[d.Rule] || d.Suppression != nil {
			continue
		}
		reported = append(reported, d)
		f := ws.FileOf(d.Pos)
		line, col := f.Position(d.Pos)
		if !match(exps, f.Path, line, col, d) {
			t.Errorf("%s: %s:%d:%d: unexpected diagnostic [%s]: %s %s", path, f.Path, line, col, d.Rule, d.Message, factString(d.Facts))
		}
	}
	for _, e := range exps {
		if !e.matched {
			t.Errorf("%s: %s:%d: no diagnostic matched %q %v", path, e.file, e.line, e.rx, e.facts)
		}
	}
	checkGolden(t, path, ar, ws, reported, golden)
	return Result{Workspace: ws, Diagnostics: reported}
}

// withSuppressionRules adds the driver's own rules so a fixture's
// suppressions are checked.
func withSuppressionRules(all []*analyzer.Analyzer) []*analyzer.Analyzer {
	has := map[string]bool{}
	for _, a := range all {
		has[a.Name] = true
	}
	out := append([]*analyzer.Analyzer(nil), all...)
	for _, a := range []*analyzer.Analyzer{analyzer.InvalidSuppression, analyzer.UnusedSuppression} {
		if !has[a.Name] {
			out = append(out, a)
		}
	}
	return out
}

var wantRe = regexp.MustCompile(`#\s*want\b(.*)$`)

// parseExpectations reads the "# want" comments of a fixture's file. A
// malformed one is an error naming the archive, the file and the line: a
// typo must not widen an expectation (col=x meaning any column, +x this
// line).
func parseExpectations(archive string, f *manifest.File) ([]*expectation, error) {
	var out []*expectation
	for line := 1; line <= f.Lines().LineCount(); line++ {
		m := wantRe.FindSubmatch(f.LineText(line))
		if m == nil {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s: %s:%d: %s", archive, f.Path, line, fmt.Sprintf(format, args...))
		}
		rest := strings.TrimSpace(string(m[1]))
		target := line
		col := 0
		var sev analyzer.Severity
		facts := map[string]string{}
		var rxs []string
		for rest != "" {
			switch {
			case rest[0] == '"' || rest[0] == '`':
				s, err := strconv.QuotedPrefix(rest)
				if err != nil {
					return nil, bad("bad want string: %v", err)
				}
				u, _ := strconv.Unquote(s)
				rxs = append(rxs, u)
				rest = strings.TrimSpace(rest[len(s):])
			default:
				tok, r, _ := strings.Cut(rest, " ")
				rest = strings.TrimSpace(r)
				switch {
				case strings.HasPrefix(tok, "+"):
					n, err := strconv.Atoi(tok[1:])
					if err != nil || n < 1 {
						return nil, bad("bad want line offset %q: want +N, N ≥ 1", tok)
					}
					target = line + n
				case strings.HasPrefix(tok, "col="):
					n, err := strconv.Atoi(tok[4:])
					if err != nil || n < 1 {
						return nil, bad("bad want column %q: want col=N, N ≥ 1", tok)
					}
					col = n
				case strings.HasPrefix(tok, "severity="):
					v, ok := analyzer.ParseSeverity(tok[len("severity="):])
					if !ok || strings.ToLower(tok[len("severity="):]) != v.String() {
						return nil, bad("bad want severity %q: want severity=error, warning or info", tok)
					}
					sev = v
				case strings.Contains(tok, "="):
					k, v, _ := strings.Cut(tok, "=")
					if _, err := strconv.ParseFloat(v, 64); err != nil || k == "" {
						return nil, bad("bad want fact %q: want NAME=NUMBER", tok)
					}
					facts[k] = v
				default:
					return nil, bad("bad want token %q", tok)
				}
			}
		}
		if len(rxs) == 0 {
			return nil, bad("want without a quoted message")
		}
		for _, s := range rxs {
			rx, err := regexp.Compile(s)
			if err != nil {
				return nil, bad("%v", err)
			}
			out = append(out, &expectation{file: f.Path, line: target, col: col, sev: sev, rx: rx, facts: facts})
		}
	}
	return out, nil
}

func match(exps []*expectation, file string, line, col int, d analyzer.Diagnostic) bool {
	for _, e := range exps {
		if e.matched || e.file != file || e.line != line || (e.col != 0 && e.col != col) || (e.sev != 0 && e.sev != d.Severity) || !e.rx.MatchString(d.Message) {
			continue
		}
		if !factsMatch(e.facts, d.Facts) {
			continue
		}
		e.matched = true
		return true
	}
	return false
}

// factsMatch compares facts at the precision the expectation is written
// with: "89.6" accepts 89.55 to 89.65.
func factsMatch(want map[string]string, got map[string]float64) bool {
	for k, v := range want {
		g, ok := got[k]
		if !ok {
			return false
		}
		w, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return false
		}
		decimals := 0
		if i := strings.IndexByte(v, '.'); i >= 0 {
			decimals = len(v) - i - 1
		}
		if math.Abs(g-w) > 0.5*math.Pow(10, -float64(decimals))+1e-9 {
			return false
		}
	}
	return true
}

func factString(f map[string]float64) string {
	if len(f) == 0 {
		return ""
	}
	var keys []string
	for k := range f {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%g", k, f[k]))
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// ApplyFixes applies the first suggested fix of each diagnostic to the
// files they are in and returns the new contents by path, with the
// planner and applier `scalelint check --fix` uses (analyzer.PlanFixes):
// a fix that overlaps one taken before it is skipped whole.
func ApplyFixes(ws *workspace.Workspace, diags []analyzer.Diagnostic) map[string]string {
	edits, _ := analyzer.PlanFixes(ws, diags, analyzer.FirstFix, nil)
	out := map[string]string{}
	for f, es := range edits {
		out[f.Path] = string(analyzer.ApplyEdits(f.Text(), es))
	}
	return out
}

func checkGolden(t *testing.T, path string, ar *txtar.Archive, ws *workspace.Workspace, diags []analyzer.Diagnostic, golden map[string]string) {
	if len(golden) == 0 {
		return
	}
	fixed := ApplyFixes(ws, diags)
	changed := false
	for name, want := range golden {
		got, ok := fixed[name]
		if !ok {
			for _, f := range ws.Files().All() {
				if f.Path == name {
					got = string(f.Text())
				}
			}
		}
		if got == want {
			continue
		}
		if *update {
			for i := range ar.Files {
				if ar.Files[i].Name == name+".golden" {
					ar.Files[i].Data = []byte(got)
					changed = true
				}
			}
			continue
		}
		t.Errorf("%s: %s after fixes:\n%s\nwant:\n%s", path, name, got, want)
	}
	if changed {
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// renders reports whether a fixture holds a chart or a kustomization.
func renders(ar *txtar.Archive) bool {
	for _, f := range ar.Files {
		if base := filepath.Base(f.Name); base == "Chart.yaml" || workspace.IsKustomizationName(base) {
			return true
		}
	}
	return false
}

// runRendered runs a fixture that holds charts or kustomizations as the
// command line runs a directory (cmd/scalelint/internal/load): written to
// a temporary working directory, rendered and built, the files no render
// reads whole parsed one by one, and the renders' findings mapped back.
func runRendered(t *testing.T, path string, ar *txtar.Archive, fset *token.FileSet, cfg *analyzer.Config, all, under []*analyzer.Analyzer) Result {
	t.Helper()
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // the archive -update rewrites, from the new working directory
	}
	dir := t.TempDir()
	t.Chdir(dir)
	golden := map[string]string{}
	var names []string
	for _, f := range ar.Files {
		switch {
		case f.Name == ".scalelint.yaml":
		case strings.HasSuffix(f.Name, ".golden"):
			golden[strings.TrimSuffix(f.Name, ".golden")] = string(f.Data)
			continue
		default:
			names = append(names, f.Name)
		}
		p := filepath.FromSlash(f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	analyzers := withSuppressionRules(all)
	res := lint.Render(context.Background(), lint.Discover(names), lint.Options{Analyzers: analyzers, Config: cfg})
	var files []*manifest.File
	var exps []*expectation
	read := map[string]bool{}
	for _, f := range ar.Files {
		if f.Name == ".scalelint.yaml" || strings.HasSuffix(f.Name, ".golden") {
			continue
		}
		opts := manifest.Options{Eager: manifest.IsReadKind}
		switch res.Rendering(f.Name) {
		case workspace.RenderedChart:
			// Read only through the renders; its expectations are where
			// their findings are mapped.
			fe, err := parseExpectations(path, manifest.Parse(token.NewFileSet(), f.Name, f.Data, manifest.Options{SplitOnly: true}))
			if err != nil {
				t.Fatal(err)
			}
			exps = append(exps, fe...)
			continue
		case workspace.RenderedYAML:
			opts.Eager = func(string, string) bool { return false }
		}
		mf := manifest.Parse(fset, f.Name, f.Data, opts)
		files = append(files, mf)
		read[f.Name] = true
		fe, err := parseExpectations(path, mf)
		if err != nil {
			t.Fatal(err)
		}
		exps = append(exps, fe...)
	}
	files = append(files, res.SourceFiles(fset, func(p string) bool { return read[filepath.ToSlash(p)] })...)
	ws := workspace.New(fset, files, workspace.Options{DefaultNamespace: cfg.Namespace, Rendered: res.Rendering,
		NamespaceOf: func(f *manifest.File) string { return cfg.For(f.Path).Namespace }})
	res.DeployTogether(context.Background(), res.GitOpsGroups(ws))
	var helmfiles []string
	for _, n := range names {
		if lint.ListsReleases(n) {
			helmfiles = append(helmfiles, n)
		}
	}
	res.RenderReleases(context.Background(), ws, helmfiles)
	// As the command line does (load.Read): the files only a GitOps
	// release's findings name join the index.
	if more := res.SourceFiles(fset, func(p string) bool {
		return slices.ContainsFunc(files, func(f *manifest.File) bool { return filepath.Clean(f.Path) == p })
	}); len(more) > 0 {
		files = append(files, more...)
		ws = workspace.New(fset, files, workspace.Options{DefaultNamespace: cfg.Namespace, Rendered: res.Rendering,
			NamespaceOf: func(f *manifest.File) string { return cfg.For(f.Path).Namespace }})
	}
	diags := analyzer.Run(context.Background(), ws, analyzers, cfg)
	diags = append(diags, res.Diagnostics(ws, lint.FilePositions(ws))...)
	return check(t, path, ar, ws, analyzer.SortDiagnostics(ws, diags), exps, golden, under)
}
