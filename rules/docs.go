package rules

import (
	"embed"

	"github.com/scalelint/scalelint/analyzer"
)

// Every rule's documentation is a Markdown file, docs/NAME.md, in the form
// analyzer.ParseDoc reads (title; What it does, Why is this bad, Example,
// Use instead, Fix, References), embedded here and parsed into the rule's
// Doc when the package loads. The laws the dynamics rules rest on are
// stated in laws/README.md, which the files cite by section.
//
//go:embed docs/*.md
var docFiles embed.FS

// docErrors holds the documentation files that did not parse; TestDocFiles
// reports them. A rule whose file is broken keeps the sections that parsed.
var docErrors []error

// doc is the documentation of the rule name, from docs/NAME.md.
func doc(name string) analyzer.Doc {
	d, err := analyzer.ReadDoc(docFiles, "docs/"+name+".md")
	if err != nil {
		docErrors = append(docErrors, err)
	}
	return d
}
