package analyzer

import "embed"

// The documentation of the rules the driver reports (invalid-suppression,
// unused-suppression), in the form ParseDoc reads.
//
//go:embed docs/*.md
var docFiles embed.FS

// docErrors holds the documentation files that did not parse; a test
// reports them. A rule whose file is broken keeps the sections that parsed.
var docErrors []error

// builtinDoc is the documentation of a rule of this package, from
// docs/NAME.md.
func builtinDoc(name string) Doc {
	d, err := ReadDoc(docFiles, "docs/"+name+".md")
	if err != nil {
		docErrors = append(docErrors, err)
	}
	return d
}
