// Package analyzer is scalelint's framework, in the manner of
// golang.org/x/tools/go/analysis: a rule is a static Analyzer with a Doc
// (parsed from the rule's Markdown file, see ParseDoc), a URL and a
// Run(*Pass) function, and drivers do everything else.
//
// Data flow of a run:
//
//	bytes  -> manifest.Parse        one positioned node tree per document; typed decode
//	       -> workspace.New         index by group/kind/name; kustomize scopes; targets resolved
//	       -> analyzer.Run          every rule over the workspace, concurrently; then
//	                                severities from the rule default, .scalelint.yaml and
//	                                per-path overrides; suppressions (directives and
//	                                annotations) marked, and reported when unused or unexplained
//	       -> []Diagnostic          byte-offset positions (token.Pos), facts, fixes
//	       -> cmd/scalelint: report (positions resolved file by file) -> output: text | json |
//	                                sarif | github (columns in code points); audit; --fix
//	                                (PlanFixes, ApplyEdits: the fix applier the tests use too)
//	       -> lsp: publishDiagnostics, hover, codeAction (columns in UTF-16 units)
//
// Rules never read files, print, read configuration files or know which
// driver runs them. Each diagnostic carries the numbers it was computed
// from (Facts), so every output shows the same evidence.
//
// Subpackages: manifest (bytes to positioned, typed objects), scaling (an
// autoscaler and its target in one shape, annotations, the provenance of
// law inputs), traffic (what Services, meshes, gateways and Canaries say
// of retries and timeouts), workspace (the immutable set of files and the
// object index), infer (the law inputs the manifests bound, linked
// exactly to each autoscaler's workload; rules/laws/README.md §10),
// suggest (the "did you mean" of unknown names, for every layer) and
// analyzertest (txtar fixtures with "# want" expectations).
package analyzer
