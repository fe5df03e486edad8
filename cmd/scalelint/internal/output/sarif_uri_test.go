package output

import (
	"net/url"
	"testing"
)

// TestSarifURI: a relative path whose first segment holds a colon does
// not read as a URI with a scheme, and paths are cleaned: every URI
// resolves, against %SRCROOT%, to the file's own path.
func TestSarifURI(t *testing.T) {
	base, _ := url.Parse("file:///src/")
	for p, want := range map[string]string{
		"C:evil.yaml":         "/src/C:evil.yaml",
		"a b/c:d.yaml":        "/src/a b/c:d.yaml",
		"sub/../x.yaml":       "/src/x.yaml",
		"./y.yaml":            "/src/y.yaml",
		"/abs/sub/../z.yaml":  "/abs/z.yaml",
		"/abs/with space.yml": "/abs/with space.yml",
		"q?#%.yaml":           "/src/q?#%.yaml",
	} {
		loc := sarifURI(p)
		ref, err := url.Parse(loc.URI)
		if err != nil {
			t.Errorf("%q: %q does not parse: %v", p, loc.URI, err)
			continue
		}
		if loc.URIBaseID == "" && ref.Scheme != "file" || loc.URIBaseID != "" && ref.Scheme != "" {
			t.Errorf("%q: %q has scheme %q", p, loc.URI, ref.Scheme)
		}
		if got := base.ResolveReference(ref).Path; got != want {
			t.Errorf("%q: %q resolves to %q, want %q", p, loc.URI, got, want)
		}
	}
}
