package fastyaml

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// TestNodesAtMost: NodesAtMost(len(src)) is never below NodeBound(src),
// on the texts that count the most nodes a byte: every sequence of up to
// three of YAML's indicators, blanks and a letter, repeated, alone and
// inside a flow or block collection; random texts of those bytes; and the
// parser's test files. (A document no larger is then never scanned:
// Document.withinBudget.)
func TestNodesAtMost(t *testing.T) {
	check := func(src []byte) {
		t.Helper()
		if n, _ := NodeBound(src, 1<<40); int64(n) > NodesAtMost(len(src)) {
			t.Fatalf("NodeBound(%.60q) = %d over NodesAtMost(%d) = %d", src, n, len(src), NodesAtMost(len(src)))
		}
	}
	alpha := []byte("[]{}:,-? \n\ta#'\"&*!|>")
	var rec func(p []byte)
	rec = func(p []byte) {
		if len(p) > 0 {
			for _, pre := range []string{"", "[", "{", "- ", "a: ", "? "} {
				check(append([]byte(pre), p...))
				check(append([]byte(pre), bytes.Repeat(p, 200)...))
			}
		}
		if len(p) < 3 {
			for _, c := range alpha {
				rec(append(p[:len(p):len(p)], c))
			}
		}
	}
	rec(nil)
	r := rand.New(rand.NewSource(1))
	for range 100000 {
		b := make([]byte, 1+r.Intn(64))
		for j := range b {
			b[j] = alpha[r.Intn(len(alpha))]
		}
		check(b)
	}
	files, _ := filepath.Glob("testdata/fuzz/*/*")
	read := 0
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil {
			check(data)
			read++
		}
	}
	if read == 0 {
		t.Error("no test file read")
	}
}
