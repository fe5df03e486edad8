package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestParallelWalkAsSerial: the walk without limits reads directories on
// several goroutines (walker.parallel); it finds what the walk with a
// limit, filepath.WalkDir's, finds (the same files, errors and
// pseudo-filesystems skipped, in the same order), on a tree with
// directories never entered, excluded paths, files not read by name and
// symbolic links, and again when run twice.
func TestParallelWalkAsSerial(t *testing.T) {
	dir := t.TempDir()
	write := func(p string) {
		t.Helper()
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("a: 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 12; i++ {
		for j := 0; j < 9; j++ {
			d := fmt.Sprintf("team-%02d/svc-%02d", i, j)
			write(d + "/hpa.yaml")
			write(d + "/deployment.yml")
			write(d + "/values.json")
			write(d + "/Kustomization")
			write(d + "/README.md")
			write(d + "/deep/er/x.yaml")
			write(d + "/vendor/v.yaml")
			write(d + "/node_modules/n.yaml")
			write(d + "/skip-me/s.yaml")
			write(d + "/skip-me.yaml")
		}
		if err := os.Symlink(filepath.Join(dir, fmt.Sprintf("team-%02d/svc-00/hpa.yaml", i)), filepath.Join(dir, fmt.Sprintf("team-%02d/link.yaml", i))); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(dir, fmt.Sprintf("team-%02d/svc-01", i)), filepath.Join(dir, fmt.Sprintf("team-%02d/dirlink", i))); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(dir, "gone.yaml"), filepath.Join(dir, fmt.Sprintf("team-%02d/dangling.yaml", i))); err != nil {
			t.Fatal(err)
		}
	}
	// Directories that cannot be read, for a user other than root: the
	// errors, too, come in walk order.
	for _, d := range []string{"team-02/svc-03/deep", "team-07/svc-08", "team-11/svc-00/deep/er"} {
		p := filepath.Join(dir, d)
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(p, 0o755) })
	}
	exclude := func(p string) bool { return strings.Contains(filepath.Base(p), "skip-me") }
	for _, roots := range [][]string{{dir}, {filepath.Join(dir, "team-03"), dir, filepath.Join(dir, "team-03/svc-04/hpa.yaml")}} {
		serial := WalkWith(t.Context(), roots, WalkOptions{Exclude: exclude, MaxFiles: 1 << 30})
		for run := 0; run < 2; run++ {
			par := WalkWith(t.Context(), roots, WalkOptions{Exclude: exclude})
			if !reflect.DeepEqual(par, serial) {
				t.Fatalf("roots %q: the parallel walk found\n%+v\nthe serial walk\n%+v", roots, par, serial)
			}
		}
		// 12 teams × 9 services × 5 files read by name (hpa.yaml,
		// deployment.yml, values.json, Kustomization, deep/er/x.yaml)
		// + 12 links to a file; the second list's roots overlap.
		want := 12*9*5 + 12
		if os.Geteuid() != 0 {
			// Not read: deep/er/x.yaml under the first and third
			// directories, the 5 files under the second.
			want -= 1 + 5 + 1
			if len(serial.Errs) < 3 {
				t.Errorf("roots %q: errors %v, want one for each directory that cannot be read", roots, serial.Errs)
			}
		}
		if len(serial.Paths) != want {
			t.Errorf("roots %q: %d files found, want %d", roots, len(serial.Paths), want)
		}
	}
}
