package workspace

import (
	"bytes"
	"errors"
	"io"
	"path"
	"regexp"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// End-to-end test assertions: the objects a kuttl or chainsaw test
// compares a cluster with after a step, not objects anyone applies. They
// are partial by design (an HPA with only the fields the test checks, a
// replica count written as a chainsaw binding "($replicas)"), so their
// objects are not indexed and their problems are not reported; the
// file's own text (its syntax) is still linted. Operators' repositories
// hold hundreds (open-telemetry-operator's tests/: 245 assert files).
//
//   - kuttl (kuttl.dev/docs/testing/steps.html): a step's NN-assert.yaml
//     and NN-errors.yaml.
//   - chainsaw (kyverno/chainsaw): the files a Test (chainsaw-test.yaml,
//     apiVersion chainsaw.kyverno.io/*) names under an assert or error
//     operation (file:, relative to the test's directory, may be a glob).

var kuttlAssert = regexp.MustCompile(`^\d+-(assert|errors)\.ya?ml$`)

const (
	kuttlReason    = "a kuttl test step's assert or errors file: objects the test compares a cluster with, not applied"
	chainsawReason = "a chainsaw test's assert or error file: objects the test compares a cluster with, not applied"
)

// IsTestDefinition reports whether a path names a file that says which
// files are test assertions (a chainsaw test), or is one by its name (a
// kuttl step's): an edit of one may change what is indexed.
func IsTestDefinition(p string) bool {
	base := path.Base(p)
	return isChainsawTestName(base) || kuttlAssert.MatchString(base)
}

func isChainsawTestName(base string) bool {
	return base == "chainsaw-test.yaml" || base == "chainsaw-test.yml"
}

// testAssertions returns the slash paths of the test assertion files
// among files, with why each is one. It runs on every New, over every
// file of a check: a name is tested with a string search first (a
// repository without tests pays that alone), and the files are grouped by
// directory only when a chainsaw test names some.
func testAssertions(files []*manifest.File) map[string]string {
	var out map[string]string
	mark := func(p, why string) {
		if out == nil {
			out = map[string]string{}
		}
		out[p] = why
	}
	var tests []*manifest.File
	for _, f := range files {
		p := f.SlashPath()
		base := p[strings.LastIndexByte(p, '/')+1:]
		switch {
		case isChainsawTestName(base):
			tests = append(tests, f)
		case (strings.Contains(base, "-assert.") || strings.Contains(base, "-errors.")) && kuttlAssert.MatchString(base):
			mark(p, kuttlReason)
		}
	}
	if len(tests) == 0 {
		return out
	}
	byDir := map[string][]string{}
	for _, f := range files {
		p := f.SlashPath()
		byDir[path.Dir(p)] = append(byDir[path.Dir(p)], p)
	}
	for _, f := range tests {
		p := f.SlashPath()
		for _, ref := range chainsawAssertFiles(f.Text()) {
			pattern := path.Join(path.Dir(p), ref)
			for _, q := range byDir[path.Dir(pattern)] {
				if ok, _ := path.Match(pattern, q); ok {
					mark(q, chainsawReason)
				}
			}
		}
	}
	return out
}

// chainsawAssertFiles returns the files a chainsaw Test's steps assert or
// expect errors with (spec.steps[].{try,catch,finally,cleanup}[].{assert,
// error}.file), as written.
func chainsawAssertFiles(text []byte) []string {
	var out []string
	dec := yaml.NewDecoder(bytes.NewReader(text))
	for {
		var doc struct {
			APIVersion string `yaml:"apiVersion"`
			Kind       string `yaml:"kind"`
			Spec       struct {
				Steps []map[string]any `yaml:"steps"`
			} `yaml:"spec"`
		}
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			return out // not a test this reads: nothing more is marked
		}
		if doc.Kind != "Test" || !strings.HasPrefix(doc.APIVersion, "chainsaw.kyverno.io/") {
			continue
		}
		for _, step := range doc.Spec.Steps {
			for _, phase := range []string{"try", "catch", "finally", "cleanup"} {
				ops, _ := step[phase].([]any)
				for _, op := range ops {
					m, _ := op.(map[string]any)
					for _, kind := range []string{"assert", "error"} {
						if a, ok := m[kind].(map[string]any); ok {
							if f, ok := a["file"].(string); ok && f != "" {
								out = append(out, f)
							}
						}
					}
				}
			}
		}
	}
}

// TestAssertion returns why a file is an end-to-end test's assertion
// (kuttl, chainsaw), whose objects are not indexed; "" when it is none.
func (ws *Workspace) TestAssertion(f *manifest.File) string {
	return ws.assertions[f.SlashPath()]
}
