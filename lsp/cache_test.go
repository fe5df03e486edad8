package lsp

import (
	"os"
	"path/filepath"
	"testing"

	"go.lsp.dev/uri"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// TestParseCacheRetain: the parse cache against a plain model of it, the
// key of every parse the snapshot's files hold (cacheKey, with
// parsed.key giving the key of a parse at a path), through an index, an
// edit of one document of an open file, a second edit and the close. After
// each retain the cache holds exactly the parses the files hold among
// those it held, each under its own key, and byPath lists each path's.
func TestParseCacheRetain(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	doc := func(name, replicas string) string {
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name + "\nspec:\n  replicas: " + replicas + "\n"
	}
	textA := doc("a1", "1") + "---\n" + doc("a2", "2")
	textB := doc("b", "3")
	for p, text := range map[string]string{a: textA, b: textB} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := newParseCache(manifest.Limits{})
	disk := &diskIndex{files: map[string]*fileHandle{a: c.diskHandle(a, []byte(textA)), b: c.diskHandle(b, []byte(textB))}}
	if n := len(disk.files[a].chunks); n != 2 {
		t.Fatalf("%s: %d documents, want 2", a, n)
	}

	// retain retains files and compares the cache with the model: the
	// keys of the parses that files holds among those the cache held
	// before (made: its parses of the handles made since the last retain
	// included).
	retain := func(step string, files fileSet) {
		t.Helper()
		made := map[*parsed]bool{}
		for _, q := range c.m {
			made[q] = true
		}
		c.retain(files)
		want := map[cacheKey]*parsed{}
		files.each(func(p string, h *fileHandle) {
			for _, ch := range h.chunks {
				if made[ch.parsed] {
					want[ch.parsed.key(p)] = ch.parsed
				}
			}
		})
		if len(c.m) != len(want) {
			t.Errorf("%s: the cache holds %d parses, want %d", step, len(c.m), len(want))
		}
		for k, q := range want {
			if c.m[k] != q {
				t.Errorf("%s: %s at %d (released %v): cache %p, want %p", step, filepath.Base(k.path), k.at, k.released, c.m[k], q)
			}
		}
		n := 0
		for p, list := range c.byPath {
			for _, q := range list {
				n++
				if c.m[q.key(p)] != q {
					t.Errorf("%s: byPath lists a parse of %s the cache does not hold under its key", step, filepath.Base(p))
				}
			}
		}
		if n != len(c.m) {
			t.Errorf("%s: byPath lists %d parses, the cache holds %d", step, n, len(c.m))
		}
	}

	indexed := fileSet{disk: disk}
	retain("indexed", indexed)
	if len(c.m) != 3 {
		t.Errorf("indexed: %d parses cached, want 3 (two documents of a, one of b)", len(c.m))
	}

	u := uri.File(a)
	open := func(v int32, text string) fileSet {
		return fileSet{disk: disk, over: map[string]*fileHandle{a: c.newHandle(a, u, v, true, []byte(text))}}
	}
	edited := open(1, doc("a1", "1")+"---\n"+doc("a2", "5"))
	retain("first edit", edited)
	edited2 := open(2, doc("a1", "1")+"---\n"+doc("a2", "6"))
	retain("second edit", edited2)
	if len(c.byPath[a]) != 2 {
		t.Errorf("second edit: %d parses of a, want its 2 documents'", len(c.byPath[a]))
	}
	retain("closed", indexed)
	if len(c.byPath[a]) != 0 || len(c.byPath[b]) != 1 {
		t.Errorf("closed: %d parses of a (the disk's were dropped at the edit), %d of b; want 0 and 1", len(c.byPath[a]), len(c.byPath[b]))
	}
}
