// Package rendertest holds what the tests of the render packages (chart,
// kustomize, lint) share: writing a tree of files to disk, and catching
// what a load, build or render writes to standard error or the standard
// logger (Helm and kustomize both write there; scalelint must not).
package rendertest

import (
	"io"
	"log"
	"os"
	"path/filepath"
	"testing"
)

// WriteTree writes files (slash-separated paths relative to dir, to their
// texts) under dir, a new temporary directory when dir is "", and returns
// dir.
func WriteTree(t testing.TB, dir string, files map[string]string) string {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Stderr runs f with os.Stderr and the standard logger's output sent to a
// pipe, and returns what f wrote to either and whether f left both as it
// found them (pointing at the pipe). Both are restored before Stderr
// returns, also when f fails the test with t.Fatal. The pipe is read while
// f runs, so output larger than the pipe's buffer cannot block f.
func Stderr(t testing.TB, f func()) (written string, restored bool) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	read := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(r)
		read <- b
	}()
	stderr, logw := os.Stderr, log.Writer()
	os.Stderr = w
	log.SetOutput(w)
	done := false
	defer func() {
		if !done { // f called t.Fatal (runtime.Goexit): restore, then let it go on
			os.Stderr = stderr
			log.SetOutput(logw)
			w.Close()
			<-read
		}
	}()
	f()
	restored = os.Stderr == w && log.Writer() == w
	os.Stderr = stderr
	log.SetOutput(logw)
	w.Close()
	done = true
	return string(<-read), restored
}
