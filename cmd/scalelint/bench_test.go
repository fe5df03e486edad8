package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// The check benchmark and its baseline, measured in the same run on the
// same generated repository:
//
//	go test ./cmd/scalelint -run '^$' -bench 'Check|Baseline' -benchtime 5x
//	SCALELINT_BENCH_SERVICES=10000 go test ./cmd/scalelint -run '^$' -bench 'Check|Baseline' -benchtime 3x
//
// BenchmarkBaselineYAMLv3 is the yaml.v3 parse baseline of the README's
// Performance table (read every file, decode every document into a
// yaml.v3 node tree, GOMAXPROCS workers); BenchmarkCheck runs `scalelint check --format json`
// in process. Divide their ns/op for the ratio. testdata/bench/run.sh
// measures the binaries instead, with peak memory.

var benchCorpus struct {
	once sync.Once
	dir  string
	err  error
}

// corpus generates the repository once per test binary run: 1,000
// services, or $SCALELINT_BENCH_SERVICES.
func corpus(b *testing.B) string {
	benchCorpus.once.Do(func() {
		n := 1000
		if s := os.Getenv("SCALELINT_BENCH_SERVICES"); s != "" {
			if v, err := strconv.Atoi(s); err == nil && v > 0 {
				n = v
			}
		}
		dir, err := os.MkdirTemp("", "scalelint-bench")
		if err != nil {
			benchCorpus.err = err
			return
		}
		benchCorpus.dir = filepath.Join(dir, "corpus")
		gen := filepath.Join(repoRootDir(), "testdata", "bench", "gen_corpus.py")
		if out, err := exec.Command("python3", gen, benchCorpus.dir, strconv.Itoa(n)).CombinedOutput(); err != nil {
			benchCorpus.err = fmt.Errorf("gen_corpus.py: %v\n%s", err, out)
		}
	})
	if benchCorpus.err != nil {
		b.Fatal(benchCorpus.err)
	}
	return benchCorpus.dir
}

func repoRootDir() string {
	wd, _ := os.Getwd()
	return filepath.Join(wd, "..", "..")
}

func BenchmarkCheck(b *testing.B) {
	dir := corpus(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var errb bytes.Buffer
		if code := run([]string{"check", "--format", "json", "--quiet", dir}, nil, io.Discard, &errb); code > 1 {
			b.Fatalf("exit %d: %s", code, errb.String())
		}
	}
}

func BenchmarkBaselineYAMLv3(b *testing.B) {
	dir := corpus(b)
	var paths []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			paths = append(paths, p)
		}
		return nil
	})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		work := make(chan string)
		var wg sync.WaitGroup
		var docs atomic.Int64
		for w := 0; w < runtime.GOMAXPROCS(0); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n := 0
				for p := range work {
					data, err := os.ReadFile(p)
					if err != nil {
						b.Error(err)
						continue
					}
					dec := yaml.NewDecoder(bytes.NewReader(data))
					for {
						var node yaml.Node
						if dec.Decode(&node) != nil {
							break
						}
						n++
					}
				}
				docs.Add(int64(n))
			}()
		}
		// Walk again each time, as the baseline program does.
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
				work <- p
			}
			return nil
		})
		close(work)
		wg.Wait()
		if i == 0 {
			b.ReportMetric(float64(docs.Load()), "docs")
		}
	}
	b.ReportMetric(float64(len(paths)), "files")
}
