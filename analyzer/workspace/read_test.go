package workspace

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestReadLimited: a regular file is read whole up to the limit, one byte
// past it when larger (the parser reports the size); a file whose size
// says nothing of its length (a /proc file: size 0) is read all the same;
// a directory is refused as not regular.
func TestReadLimited(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	text := bytes.Repeat([]byte("kind: Deployment\n"), 100) // 1,700 bytes
	for _, c := range []struct {
		name  string
		data  []byte
		limit int64
		want  []byte
	}{
		{"exact.yaml", text, 1 << 20, text},
		{"at-limit.yaml", text, int64(len(text)), text},
		{"over.yaml", text, 10, text[:11]},
		{"empty.yaml", nil, 10, []byte{}},
	} {
		got, err := ReadLimited(write(c.name, c.data), c.limit)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("%s: %d bytes, %v; want %d bytes", c.name, len(got), err, len(c.want))
		}
	}
	if runtime.GOOS == "linux" {
		// Its size is 0, its text is not empty.
		got, err := ReadLimited("/proc/self/status", 1<<20)
		if err != nil || !bytes.HasPrefix(got, []byte("Name:")) {
			t.Errorf("/proc/self/status: %q, %v", got, err)
		}
	}
	if _, err := ReadLimited(dir, 1<<20); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a directory read: %v, want ErrNotRegular", err)
	}
}

// TestReadLimitedInto: a file is read into the memory given when its
// capacity holds the file and the spare byte ReadLimited reads to see
// that the file did not grow, else into a buffer of its own; the bytes
// are the file's either way, whatever the memory held before.
func TestReadLimitedInto(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.yaml")
	text := bytes.Repeat([]byte("kind: Deployment\n"), 10) // 170 bytes
	if err := os.WriteFile(p, text, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		capacity int
		into     bool
	}{{len(text) + 1, true}, {4096, true}, {len(text), false}, {0, false}} {
		buf := bytes.Repeat([]byte{'x'}, c.capacity)[:0]
		got, err := ReadLimitedInto(p, 1<<20, buf)
		if err != nil || !bytes.Equal(got, text) {
			t.Fatalf("capacity %d: %q, %v", c.capacity, got, err)
		}
		if into := c.capacity > 0 && &got[0] == &buf[:1][0]; into != c.into {
			t.Errorf("capacity %d: read into the memory given %v, want %v", c.capacity, into, c.into)
		}
	}
}
