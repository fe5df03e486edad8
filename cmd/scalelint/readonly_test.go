package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestScriptsWriteOnlyWhereAsked runs every CLI script (testdata/cli) in a
// read-only copy of its inputs, with HOME, the XDG directories and TMPDIR
// pointed at an empty directory, plus a --fix and a --write-baseline run.
// Each must behave as its script says (exit, stdout, stderr), and afterwards
// the only paths that differ are those named by --output, --write-baseline,
// and the files given to --fix: scalelint writes nowhere else (issue 8).
//
// The tree is compared by content, mode and file list, not by permission
// errors, so the test holds when it runs as root (as CI may), where
// read-only bits stop nothing.
func TestScriptsWriteOnlyWhereAsked(t *testing.T) {
	for _, path := range cliScripts(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			checkWritesOnlyWhereAsked(t, ar, func(prepare func(string, []string)) scriptRun {
				return runScriptWith(t, path, prepare, false)
			})
		})
	}
	// The writing flags the scripts do not cover.
	for name, ar := range map[string]*txtar.Archive{
		"write-baseline": {Files: []txtar.File{
			{Name: "cmd", Data: []byte("check --write-baseline base/today.json .")},
			{Name: "hpa.yaml", Data: []byte(baselineHPA)},
			{Name: "base/keep", Data: nil},
		}},
		"fix": {Files: []txtar.File{
			{Name: "cmd", Data: []byte("check --fix named")},
			{Name: "named/so.yaml", Data: []byte(fixable)},
			{Name: "other/so.yaml", Data: []byte(fixable)},
		}},
	} {
		t.Run(name, func(t *testing.T) {
			res := checkWritesOnlyWhereAsked(t, ar, func(prepare func(string, []string)) scriptRun {
				return execScriptWith(t, ar, prepare)
			})
			if res.exit != 0 {
				t.Errorf("exit %d:\n%s", res.exit, res.stderr)
			}
		})
	}
}

// checkWritesOnlyWhereAsked runs an archive's command through run with a
// prepare step that snapshots the tree and makes it read-only, then
// compares the tree after the run with the snapshot.
func checkWritesOnlyWhereAsked(t *testing.T, ar *txtar.Archive, run func(prepare func(string, []string)) scriptRun) scriptRun {
	t.Helper()
	home := t.TempDir()
	for _, v := range []string{"HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "TMPDIR"} {
		t.Setenv(v, home)
	}
	var before map[string]string
	var allowed []string
	res := run(func(dir string, args []string) {
		allowed = namedWrites(args)
		freeze(t, dir, allowed)
		before = snapshot(t, dir)
	})
	if res.dir == "" {
		t.Fatal("the command did not run")
	}
	t.Cleanup(func() { thaw(t, res.dir) })
	after := snapshot(t, res.dir)
	for _, p := range sortedUnion(before, after) {
		if before[p] == after[p] || mayWrite(p, allowed) {
			continue
		}
		t.Errorf("%s changed (%q -> %q) but no flag named it; allowed: %v", p, before[p], after[p], allowed)
	}
	for _, p := range allowed {
		if strings.HasSuffix(p, "/") {
			continue // --fix on a directory: it may have had nothing to fix
		}
		if _, ok := after[p]; !ok && p != "-" {
			t.Errorf("%s was named to be written but is missing", p)
		}
	}
	if left := snapshot(t, home); len(left) != 0 {
		t.Errorf("written to HOME, XDG or TMPDIR: %v", left)
	}
	return res
}

// namedWrites returns the paths a command line asks scalelint to write:
// --output and --write-baseline values (an "--output format=path" form
// gives its path), and the arguments of a --fix run (directories end in
// "/" and allow the files under them).
func namedWrites(args []string) []string {
	var out []string
	fix := false
	var takesValue map[string]bool
	if len(args) > 0 {
		takesValue = valueFlags(args[0])
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			out = append(out, a) // kept only for --fix below
			continue
		}
		switch name {
		case "output", "write-baseline":
			if !hasVal && i+1 < len(args) {
				i++
				val = args[i]
			}
			if _, p, ok := strings.Cut(val, "="); ok {
				val = p
			}
			out = append(out, "write:"+filepath.ToSlash(filepath.Clean(val)))
		case "fix":
			fix = true
		default:
			if !hasVal && takesValue[name] {
				i++ // the flag's value is not a path to write
			}
		}
	}
	var allowed []string
	for _, a := range out {
		switch {
		case strings.HasPrefix(a, "write:"):
			allowed = append(allowed, strings.TrimPrefix(a, "write:"))
		case fix && a != "check":
			allowed = append(allowed, strings.TrimSuffix(filepath.ToSlash(filepath.Clean(a)), "/")+"/", filepath.ToSlash(filepath.Clean(a)))
		}
	}
	return allowed
}

// valueFlags returns the flags of a scalelint command that take a value,
// read from the command's own -h output (flag.PrintDefaults writes
// "  -name type" for those and "  -name" for booleans), so a flag added
// to a command is known here without a list to keep by hand.
func valueFlags(command string) map[string]bool {
	var help strings.Builder
	run([]string{command, "-h"}, strings.NewReader(""), io.Discard, &help)
	out := map[string]bool{}
	for _, line := range strings.Split(help.String(), "\n") {
		rest, ok := strings.CutPrefix(line, "  -")
		if !ok {
			continue
		}
		if name, _, hasType := strings.Cut(rest, " "); hasType {
			out[name] = true
		}
	}
	return out
}

// mayWrite reports whether a changed path was named: exactly, or under a
// directory given to --fix.
func mayWrite(p string, allowed []string) bool {
	for _, a := range allowed {
		if p == a || (strings.HasSuffix(a, "/") && strings.HasPrefix(p, a)) {
			return true
		}
	}
	return false
}

// snapshot maps every path under dir (slash-separated, relative) to its
// kind, mode and content hash.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		desc := info.Mode().String()
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += fmt.Sprintf(" %x", sha256.Sum256(data))
		}
		out[filepath.ToSlash(rel)] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// freeze makes every file and directory under dir read-only, except the
// directories that will hold a named output (they must take its temporary
// file and rename) and the files --fix may rewrite.
func freeze(t *testing.T, dir string, allowed []string) {
	t.Helper()
	writable := map[string]bool{}
	for _, a := range allowed {
		a = strings.TrimSuffix(a, "/")
		writable[a] = true
		for d := filepath.ToSlash(filepath.Dir(a)); ; d = filepath.ToSlash(filepath.Dir(d)) {
			writable[d] = true
			if d == "." || d == "/" {
				break
			}
		}
	}
	var dirs []string
	must(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		under := mayWrite(rel, allowed)
		switch {
		case d.IsDir() && !writable[rel] && !under:
			dirs = append(dirs, p) // after their files
		case !d.IsDir() && !writable[rel] && !under:
			must(t, os.Chmod(p, 0o444))
		}
		return nil
	}))
	for i := len(dirs) - 1; i >= 0; i-- {
		must(t, os.Chmod(dirs[i], 0o555))
	}
}

// thaw makes a frozen tree writable again so t.TempDir can remove it.
func thaw(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			must(t, os.Chmod(p, 0o755))
		}
		return nil
	})
}

func sortedUnion(a, b map[string]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]string{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}
