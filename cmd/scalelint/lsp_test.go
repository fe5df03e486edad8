package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/scalelint/scalelint/lsp"
)

// TestDebounceFlag: --debounce 0s asks for no delay, which lsp.Options
// spells as a negative Debounce (its zero is the 50 ms default, see
// lsp.Options.Debounce); other values pass through, and the flag's
// default is lsp.DefaultDebounce.
func TestDebounceFlag(t *testing.T) {
	if got := debounceOption(0); got >= 0 {
		t.Errorf("--debounce 0s gives lsp.Options.Debounce %v: the server would wait the default; want a negative value (no delay)", got)
	}
	if got := debounceOption(time.Millisecond); got != time.Millisecond {
		t.Errorf("--debounce 1ms gives %v, want 1ms", got)
	}
	var stderr bytes.Buffer
	runLSP([]string{"-h"}, strings.NewReader(""), &bytes.Buffer{}, &stderr)
	if want := "(default " + lsp.DefaultDebounce.String() + ")"; !strings.Contains(stderr.String(), want) {
		t.Errorf("lsp -h does not show the default debounce %s:\n%s", want, stderr.String())
	}
	stderr.Reset()
	if code := runLSP([]string{"--debounce", "-1s"}, strings.NewReader(""), &bytes.Buffer{}, &stderr); code != exitError || !strings.Contains(stderr.String(), "--debounce must be zero or more") {
		t.Errorf("--debounce -1s: exit %d, stderr %q; want a usage error", code, stderr.String())
	}
}
