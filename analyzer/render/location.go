package render

import "github.com/scalelint/scalelint/analyzer/workspace"

// Location is the place in a source file a rendered byte range came from.
type Location struct {
	// Path is the source file: a template, a values file, a resource or
	// patch file of a kustomization.
	Path       string
	Start, End int // byte offsets in Path
	// Exact says the rendered bytes are these source bytes, unchanged:
	// an edit of the rendered range may be made here instead.
	Exact bool
	// Note says, when the location is not the field itself, what it is
	// ("the template's first line: the field is not written in it").
	Note string
	// Related are other places that explain it: the template line when
	// Path is the values file that set the value.
	Related []Location
	// Set names the value set that supplied a value ("" for the chart's
	// defaults or a kustomization).
	Set string
}

// Locator maps byte ranges of a rendered text to their source.
type Locator interface {
	Locate(start, end int) Location
}

// A Releaser is a Locator that keeps what it parsed to answer (the
// rendered text's YAML, parsed on first use): Release drops it, and a
// later Locate parses again. A one-shot run releases it once a unit's
// findings and objects are located, so that a repository's builds do not
// all hold a parse of their whole output.
type Releaser interface {
	Release()
}

// Output is what one chart value set or one kustomization build rendered:
// one File per source file that produced documents.
type Output struct {
	Root string // the chart or kustomization directory
	// Set names the value set ("" for a kustomization); Sources are the
	// values files it layers, in order.
	Set     string
	Sources []string
	Files   []*File
	// LeftOut are the templates that stopped the render, left out of it
	// so that the others render (workspace.LeftOut); Skipped are their
	// names in the engine, for a render of a value set built on this one
	// (chart.Options.Skip).
	LeftOut []workspace.LeftOut
	Skipped []string
}

// File is the rendered text of one source file (a chart template) or of a
// whole build (a kustomization), with the map back to its sources.
type File struct {
	Source  string // the template, or the root kustomization file
	Text    []byte
	Locator Locator
}
