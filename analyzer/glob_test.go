package analyzer

import (
	"fmt"
	"math/rand/v2"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// backtrackGlob is the matcher MatchGlob replaced, by recursion over the
// ways to share segments among "**"s: the oracle of TestGlobDifferential
// (exponential in the number of "**", so only small cases are compared).
func backtrackGlob(pattern, name string) bool {
	pattern = strings.TrimPrefix(filepath.ToSlash(pattern), "./")
	pattern = strings.TrimSuffix(pattern, "/")
	name = strings.TrimPrefix(name, "./")
	if pattern == "" {
		return false
	}
	if !strings.Contains(pattern, "/") {
		pattern = "**/" + pattern
	}
	pp := strings.Split(pattern, "/")
	np := strings.Split(name, "/")
	var seg func(pp, np []string) bool
	seg = func(pp, np []string) bool {
		if len(pp) == 0 {
			return len(np) == 0
		}
		if pp[0] == "**" {
			for i := 0; i <= len(np); i++ {
				if seg(pp[1:], np[i:]) {
					return true
				}
			}
			return false
		}
		if len(np) == 0 {
			return false
		}
		ok, err := path.Match(pp[0], np[0])
		return err == nil && ok && seg(pp[1:], np[1:])
	}
	for n := len(np); n >= 1; n-- {
		if seg(pp, np[:n]) {
			return true
		}
	}
	return false
}

// TestGlobDifferential: the linear matcher agrees with the backtracking
// one on 50,000 random small patterns and paths (the same every run).
func TestGlobDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	segs := []string{"a", "b", "ab", "*", "**", "?", "a*", "*b", "[ab]", "x.yaml", "*.yaml", ""}
	names := []string{"a", "b", "ab", "ba", "x.yaml", "y.yaml", ""}
	for i := 0; i < 50000; i++ {
		var p, n []string
		for k := 1 + r.IntN(4); k > 0; k-- {
			p = append(p, segs[r.IntN(len(segs))])
		}
		for k := 1 + r.IntN(5); k > 0; k-- {
			n = append(n, names[r.IntN(len(names))])
		}
		pat, name := strings.Join(p, "/"), strings.Join(n, "/")
		if r.IntN(5) == 0 {
			pat += "/"
		}
		if got, want := MatchGlob(pat, name), backtrackGlob(pat, name); got != want {
			t.Fatalf("MatchGlob(%q, %q) = %v, the backtracking matcher %v", pat, name, got, want)
		}
	}
}

// TestGlobManyStars: a pattern of ten "**" that matches nothing, against a
// path forty directories deep, ends (it ran for over a minute); a hang
// detector, not a speed check.
func TestGlobManyStars(t *testing.T) {
	pattern := strings.Repeat("**/", 10) + "nomatch"
	name := strings.Repeat("d/", 40) + "x.yaml"
	done := make(chan bool, 1)
	go func() { done <- MatchGlob(pattern, name) }()
	select {
	case got := <-done:
		if got {
			t.Error("matched")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("MatchGlob did not return within 10s")
	}
}

// TestGlobLimits: a configuration of more patterns than MaxGlobs, or a
// pattern longer than MaxGlobLen, is an error naming where.
func TestGlobLimits(t *testing.T) {
	many := "exclude: [" + strings.TrimSuffix(strings.Repeat(`"a/**",`, MaxGlobs+1), ",") + "]\n"
	if _, err := ParseConfig("c.yaml", []byte(many), testRules); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("exclude holds %d patterns, over the limit of %d", MaxGlobs+1, MaxGlobs)) {
		t.Errorf("%d patterns: %v", MaxGlobs+1, err)
	}
	long := "overrides:\n- paths: [x, " + strings.Repeat("a", MaxGlobLen+1) + "]\n  rules: {latency-floor: off}\n"
	if _, err := ParseConfig("c.yaml", []byte(long), testRules); err == nil || !strings.Contains(err.Error(), "c.yaml:2:14: an override's paths: a pattern of 4097 characters, over the limit of 4096") {
		t.Errorf("a long pattern: %v", err)
	}
	split := "overrides:\n" + strings.Repeat("- paths: ["+strings.TrimSuffix(strings.Repeat("x,", 100), ",")+"]\n  rules: {latency-floor: off}\n", 11)
	if _, err := ParseConfig("c.yaml", []byte(split), testRules); err == nil || !strings.Contains(err.Error(), "overrides hold 1100 path patterns in all, over the limit of 1000") {
		t.Errorf("1,100 patterns in 11 overrides: %v", err)
	}
	if _, err := ParseConfig("c.yaml", []byte("exclude: [\"a/**\", b]\n"), testRules); err != nil {
		t.Errorf("two patterns: %v", err)
	}
}
