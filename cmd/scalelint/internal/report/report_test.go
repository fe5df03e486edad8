package report

import (
	"context"
	"fmt"
	"go/token"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
	"github.com/scalelint/scalelint/rules"
)

// counted parses files as the CLI loads them (views built, trees released,
// texts dropped) and counts each file's reads of its text again.
func counted(t *testing.T, files map[string]string) (*workspace.Workspace, map[string]*int) {
	t.Helper()
	return countedText(t, files, nonASCII)
}

// nonASCII ends the texts of the tests of holding and dropping texts: a
// column counts code points, so resolving any position in such a file
// reads its text (in an ASCII file, whose line lengths are kept, it
// does not: manifest.File.Position).
const nonASCII = "# é\n"

// countedText is counted with suffix appended to every text.
func countedText(t *testing.T, files map[string]string, suffix string) (*workspace.Workspace, map[string]*int) {
	t.Helper()
	fset := token.NewFileSet()
	reads := map[string]*int{}
	var parsed []*manifest.File
	for name, text := range files {
		data := []byte(text + suffix)
		n := new(int)
		reads[name] = n
		f := manifest.Parse(fset, name, data, manifest.Options{Eager: manifest.IsReadKind})
		workspace.Prepare(f, true)
		// As a run's loading drops it (workspace.LoadReleased), the
		// line table kept packed.
		f.DropTextInto(func(buf []byte) ([]byte, error) { *n++; return append(buf[:0], data...), nil }, true)
		parsed = append(parsed, f)
	}
	return workspace.New(fset, parsed, workspace.Options{Release: true}), reads
}

const (
	deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: orders
  annotations: {scalelint.dev/dead-time: "90s", scalelint.dev/pod-rate: "10"}
spec:
  template:
    spec:
      containers: [{name: app}]
`
	scaledObject = `apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: orders
spec:
  scaleTargetRef: {name: orders}
  triggers:
  - type: kafka
    metadata: {topic: a, lagThreshold: "10"}
  - type: kafka
    metadata: {topic: b, lagThreshold: "20"}
`
)

// TestEachReadsEachFileOnce: findings in one file whose notes point into
// another (the annotations on the target) are resolved with both files'
// texts held, each read again once, and both dropped again at the end.
func TestEachReadsEachFileOnce(t *testing.T) {
	ws, reads := counted(t, map[string]string{"a-so.yaml": scaledObject, "b-deploy.yaml": deployment})
	shared := analyzer.NewShared()
	cfg := analyzer.DefaultConfig()
	r := New(ws, analyzer.RunWith(context.Background(), ws, rules.All(), cfg, shared), cfg, shared)
	for _, n := range reads {
		*n = 0
	}
	floors, notes := 0, 0
	err := r.Each(WithSourceLines, func(f *Finding) error {
		if f.Diagnostic.Rule == "latency-floor" {
			floors++
			for _, n := range f.Notes {
				if n.Location.File == "b-deploy.yaml" && n.Location.Line == 5 {
					notes++
				}
			}
			if string(f.SourceLine) != fmt.Sprintf("    metadata: {topic: %s, lagThreshold: \"%d\"}", map[int]string{9: "a", 11: "b"}[f.Location.Line], map[int]int{9: 10, 11: 20}[f.Location.Line]) {
				t.Errorf("source line %q of the finding at line %d", f.SourceLine, f.Location.Line)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if floors != 2 || notes != 4 { // each: the dead time and the pod rate, annotated on the target
		t.Fatalf("%d latency-floor findings with %d notes in the target's file, want 2 and 4", floors, notes)
	}
	for name, n := range reads {
		if *n != 1 {
			t.Errorf("%s read again %d times, want once", name, *n)
		}
	}
	// Dropped again: a new pass reads each again, once.
	r.Each(WithSourceLines, func(*Finding) error { return nil })
	for name, n := range reads {
		if *n != 2 {
			t.Errorf("%s: %d reads after a second pass, want 2 (dropped after the first)", name, *n)
		}
	}
}

// TestOnlySourceLinesReadASCIIText: positions in ASCII files whose texts
// were dropped are resolved from their line lengths, so a format that
// prints no source lines reads no file again, and one that does reads
// the files its findings start in and no other (the notes' file, the
// target's, is not read).
func TestOnlySourceLinesReadASCIIText(t *testing.T) {
	ws, reads := countedText(t, map[string]string{"a-so.yaml": scaledObject, "b-deploy.yaml": deployment}, "")
	shared := analyzer.NewShared()
	cfg := analyzer.DefaultConfig()
	r := New(ws, analyzer.RunWith(context.Background(), ws, rules.All(), cfg, shared), cfg, shared)
	for _, n := range reads {
		*n = 0
	}
	// The dead time's note points at its value, "90s" with its quotes,
	// on line 5: columns from the line's text.
	line5 := strings.Split(deployment, "\n")[4]
	col := strings.Index(line5, `"90s"`) + 1
	notes := 0
	err := r.Each(ShownFindings, func(f *Finding) error {
		for _, n := range f.Notes {
			if n.Location.File == "b-deploy.yaml" && n.Location.Line == 5 && n.Location.Col == col && n.Location.EndCol == col+len(`"90s"`) {
				notes++
			}
		}
		if f.SourceLine != nil {
			t.Errorf("%s:%d: a source line without WithSourceLines", f.Location.File, f.Location.Line)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if notes == 0 {
		t.Fatalf("no note located at 5:%d-%d of the target's file", col, col+len(`"90s"`))
	}
	if *reads["a-so.yaml"] != 0 || *reads["b-deploy.yaml"] != 0 {
		t.Errorf("read again %d and %d times without source lines, want 0 and 0", *reads["a-so.yaml"], *reads["b-deploy.yaml"])
	}
	r.Each(WithSourceLines, func(*Finding) error { return nil })
	if *reads["a-so.yaml"] != 1 || *reads["b-deploy.yaml"] != 0 {
		t.Errorf("read again %d and %d times with source lines, want 1 and 0", *reads["a-so.yaml"], *reads["b-deploy.yaml"])
	}
}

// TestLocatorHoldsUntilRelease: a Locator keeps the texts it read until
// Release, never dropping one behind its caller's back.
func TestLocatorHoldsUntilRelease(t *testing.T) {
	ws, reads := counted(t, map[string]string{"a-so.yaml": scaledObject, "b-deploy.yaml": deployment})
	var a, b *manifest.File
	for _, f := range ws.Files().All() {
		if f.Path == "a-so.yaml" {
			a = f
		} else {
			b = f
		}
	}
	l := NewLocator(ws)
	at := func(f *manifest.File, off int) token.Pos { return f.Tok.Pos(off) }
	if loc := l.Locate(at(a, 0), at(a, 10)); loc.File != "a-so.yaml" || loc.Line != 1 || loc.Col != 1 || loc.EndCol != 11 {
		t.Errorf("located %+v", loc)
	}
	l.Locate(at(b, 0), token.NoPos)
	if loc := l.Locate(at(a, len("apiVersion: keda.sh/v1alpha1\n")), token.NoPos); loc.Line != 2 || loc.Col != 1 || loc.EndLine != 2 {
		t.Errorf("located %+v", loc)
	}
	if *reads["a-so.yaml"] != 1 || *reads["b-deploy.yaml"] != 1 {
		t.Errorf("reads %d and %d before Release, want 1 and 1", *reads["a-so.yaml"], *reads["b-deploy.yaml"])
	}
	l.Release()
	l.Locate(at(a, 3), token.NoPos)
	if *reads["a-so.yaml"] != 2 {
		t.Errorf("a-so.yaml read %d times after Release, want 2 (its text dropped by Release)", *reads["a-so.yaml"])
	}
	if loc := l.Locate(token.NoPos, token.NoPos); loc.File != "" || loc.Line != 1 {
		t.Errorf("no position located at %+v", loc)
	}
}

// TestEachReadsAhead: Each reads the texts of the files its findings are
// in ahead of giving them to fn (resolved a chunk at a time on each core),
// each once, never more than the chunks it runs ahead hold (ahead chunks a
// goroutine, of minChunk files here: one finding a file), and they are
// dropped again as it moves on (a second pass reads each again, once).
// The files outnumber those several times.
func TestEachReadsAhead(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	aheadFiles := (ahead*2 + 1) * minChunk
	fset := token.NewFileSet()
	const n = 4*(ahead*2+1)*minChunk + 3
	var reads [n]atomic.Int32
	var total atomic.Int32
	texts := map[string]string{}
	var parsed []*manifest.File
	for i := range n {
		// An autoscaler whose target no file holds: a finding in each
		// file, none pointing into another.
		data := []byte(strings.ReplaceAll(scaledObject, "orders", fmt.Sprintf("orders-%03d", i)) + nonASCII)
		f := manifest.Parse(fset, fmt.Sprintf("so-%03d.yaml", i), data, manifest.Options{Eager: manifest.IsReadKind})
		workspace.Prepare(f, true)
		texts[f.Path] = string(data)
		f.DropText(func() ([]byte, error) { reads[i].Add(1); total.Add(1); return data, nil }, true)
		parsed = append(parsed, f)
	}
	ws := workspace.New(fset, parsed, workspace.Options{Release: true})
	shared := analyzer.NewShared()
	cfg := analyzer.DefaultConfig()
	r := New(ws, analyzer.RunWith(context.Background(), ws, rules.All(), cfg, shared), cfg, shared)
	for i := range reads {
		reads[i].Store(0)
	}
	total.Store(0)
	seen := map[string]bool{}
	pass := func(check bool) {
		err := r.Each(WithSourceLines, func(f *Finding) error {
			seen[f.Location.File] = true
			if check {
				// Read so far: the files resolved, this one and at most
				// aheadFiles more: the rest of this chunk, and the chunks
				// ahead of it.
				if got := int(total.Load()); got > len(seen)+aheadFiles {
					t.Errorf("at %s: %d files read, %d reached: more than %d ahead", f.Location.File, got, len(seen), aheadFiles)
				}
				// The source line is the text's at the finding's line.
				if want := strings.Split(texts[f.Location.File], "\n"); f.Location.Line < 1 || f.Location.Line > len(want) ||
					string(f.SourceLine) != want[f.Location.Line-1] || f.Location.Col < 1 {
					t.Errorf("%s:%d:%d: source line %q", f.Location.File, f.Location.Line, f.Location.Col, f.SourceLine)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	pass(true)
	if len(seen) != n {
		t.Fatalf("findings in %d files, want %d", len(seen), n)
	}
	for i := range reads {
		if got := reads[i].Load(); got != 1 {
			t.Errorf("so-%03d.yaml read %d times, want once", i, got)
		}
	}
	pass(false)
	for i := range reads {
		if got := reads[i].Load(); got != 2 {
			t.Errorf("so-%03d.yaml: %d reads after a second pass, want 2 (dropped after the first)", i, got)
		}
	}
}
