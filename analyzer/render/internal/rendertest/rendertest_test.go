package rendertest

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteTree(t *testing.T) {
	dir := WriteTree(t, "", map[string]string{"a/b/c.yaml": "x: 1\n", "d.yaml": "y"})
	for rel, want := range map[string]string{"a/b/c.yaml": "x: 1\n", "d.yaml": "y"} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", rel, got, err, want)
		}
	}
	if again := WriteTree(t, dir, map[string]string{"e.yaml": "z"}); again != dir {
		t.Errorf("WriteTree(dir) = %s, want %s", again, dir)
	}
}

// Both writers are caught, in order, and more than a pipe's buffer (64 KiB
// on Linux) does not block the function that writes it.
func TestStderrCatchesBoth(t *testing.T) {
	big := strings.Repeat("x", 200<<10)
	stderr, logw := os.Stderr, log.Writer()
	out, restored := Stderr(t, func() {
		fmt.Fprint(os.Stderr, "direct\n")
		log.New(log.Writer(), "", 0).Print("logged")
		fmt.Fprint(os.Stderr, big)
	})
	if want := "direct\nlogged\n" + big; out != want {
		t.Errorf("caught %d bytes starting %.20q; want %d starting %.20q", len(out), out, len(want), want)
	}
	if !restored {
		t.Error("restored = false for a function that changed neither")
	}
	if os.Stderr != stderr || log.Writer() != logw {
		t.Error("os.Stderr or the standard logger's output is not the one before the call")
	}
}

func TestStderrSeesAChangedWriter(t *testing.T) {
	stderr := os.Stderr
	_, restored := Stderr(t, func() { os.Stderr = stderr })
	if restored {
		t.Error("restored = true for a function that set os.Stderr to another file")
	}
	if os.Stderr != stderr {
		t.Error("os.Stderr is not the one before the call")
	}
}
