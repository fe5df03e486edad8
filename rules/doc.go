// Package rules holds scalelint's rules: one file per rule (the file name
// is the rule name with '-' turned into '_'), each a static
// analyzer.Analyzer whose Doc, parsed from docs/NAME.md (docs.go), is the
// single source of its documentation. All returns them in the order
// `scalelint rules` lists them; reference.go renders the rules reference,
// rules/README.md, from them.
//
// Structural rules report what is wrong with the input itself (syntax,
// fields, annotations, templates) and with how autoscalers and workloads
// refer to each other. Dynamics rules evaluate the five laws stated in
// laws/README.md through Evaluate, which gathers each autoscaler's inputs (manifest
// fields, scalelint.dev annotations, configured defaults) and computes
// every law it can; the rules report what the numbers say, with the
// numbers as facts. rules/laws holds the pure math and imports nothing of
// the project.
package rules
