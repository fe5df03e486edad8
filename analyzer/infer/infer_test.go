package infer

import (
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/scaling"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// Each testdata/*.txtar holds manifests and, in its comment, lines
//
//	want NAME >= VALUE [SOURCE-REGEXP]     an inferred lower bound
//	want NAME <= VALUE [SOURCE-REGEXP]     an inferred upper bound
//	want NAME none                         nothing inferred
//	note LAW REGEXP                        a note on what was not counted
//	controllers a,b                        the opted-in controllers
//
// about the autoscaler named "app". Every expected value is derived in the
// fixture's comment from the semantics of the project whose object it is.
var wantRe = regexp.MustCompile(`^want (\S+) (>=|<=|none)\s*(\S*)\s*(.*)$`)
var noteRe = regexp.MustCompile(`^note (\S+) (.+)$`)

func TestFixtures(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*.txtar")
	if len(paths) == 0 {
		t.Fatal("no fixtures")
	}
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			ar := txtar.Parse(data)
			var opts Options
			for _, line := range strings.Split(string(ar.Comment), "\n") {
				if c, ok := strings.CutPrefix(line, "controllers "); ok {
					opts.Controllers = strings.Split(c, ",")
				}
			}
			// Once with trees kept (the language server), once released
			// as a batch run releases them: the views must survive.
			for _, release := range []bool{false, true} {
				res := run(t, ar, opts, release)
				check(t, string(ar.Comment), res, release)
			}
		})
	}
}

func run(t *testing.T, ar *txtar.Archive, opts Options, release bool) Result {
	t.Helper()
	fset := token.NewFileSet()
	var files []*manifest.File
	for _, f := range ar.Files {
		mf := manifest.Parse(fset, f.Name, f.Data, manifest.Options{Eager: manifest.IsReadKind})
		if release {
			workspace.Prepare(mf, true)
		}
		files = append(files, mf)
	}
	ws := workspace.New(fset, files, workspace.Options{Release: release})
	for _, a := range ws.Autoscalers().All() {
		if a.Object.Name == "app" {
			return For(ws, a, opts)
		}
	}
	t.Fatal(`no autoscaler named "app"`)
	return Result{}
}

func check(t *testing.T, comment string, res Result, release bool) {
	t.Helper()
	seen := map[string]bool{}
	for _, line := range strings.Split(comment, "\n") {
		if m := wantRe.FindStringSubmatch(line); m != nil {
			name, op := m[1], m[2]
			seen[name] = true
			in, ok := res.Inputs[name]
			if op == "none" {
				if ok {
					t.Errorf("release=%v: %s inferred: %+v", release, name, in)
				}
				continue
			}
			want, _ := strconv.ParseFloat(m[3], 64)
			bound := map[string]scaling.Bound{">=": scaling.AtLeast, "<=": scaling.AtMost}[op]
			switch {
			case !ok:
				t.Errorf("release=%v: %s not inferred", release, name)
			case in.Value != want || in.Bound != bound || in.Origin != scaling.FromInference:
				t.Errorf("release=%v: %s = %g (%s, %s); want %s %g", release, name, in.Value, in.Bound, in.Origin, op, want)
			case m[4] != "" && !regexp.MustCompile(m[4]).MatchString(in.Source):
				t.Errorf("release=%v: %s source %q does not match %s", release, name, in.Source, m[4])
			case (in.Object == nil || !in.At.IsValid()) && !(name == "dead-time" && in.From == "no probe"):
				// Every bound names where it was read; τ ≥ 0 without a
				// probe was read from nothing.
				t.Errorf("release=%v: %s has no position", release, name)
			}
		}
		if m := noteRe.FindStringSubmatch(line); m != nil {
			rx := regexp.MustCompile(m[2])
			found := false
			for _, n := range res.Notes {
				found = found || (n.Law == m[1] && rx.MatchString(n.Text))
			}
			if !found {
				t.Errorf("release=%v: no %s note matches %s; notes: %+v", release, m[1], m[2], res.Notes)
			}
		}
	}
	for _, name := range []string{"retry-amplification", "client-timeout", "sampling-delay"} {
		if in, ok := res.Inputs[name]; ok && !seen[name] {
			t.Errorf("release=%v: unexpected %s: %g (%s)", release, name, in.Value, in.Source)
		}
	}
}
