// Package lint renders the Helm charts and kustomizations among a run's
// inputs, lints what each deploys with the one engine (analyzer.Run), and
// maps every finding back to the file a user edits: the template line, the
// values line that set the value, the patch that set a field, or the
// resource file. The command line and the language server drive it alike.
//
// Data flow:
//
//	walked paths -> Discover   charts (a directory holding Chart.yaml, found
//	                           by name: no file is read) and kustomization
//	                           files outside them
//	Plan         -> Render     each chart once per value set (render/chart;
//	                           its dependencies not vendored taken from the
//	                           charts walked, Plan.Sources),
//	                           each kustomization root (render/kustomize);
//	                           each render parsed (analyzer/manifest) into a
//	                           workspace of its own (a Unit: one deployment;
//	                           two value sets are never deployed together)
//	                           and linted; each finding located in its source
//	                           (render.Locator)
//	Result       -> Rendering  which walked files the renders lint: the
//	                           per-file reading leaves their objects alone
//	                           (workspace.Options.Rendered)
//	             -> SourceFiles text-only files for the places findings point
//	                           into that the caller did not read
//	             -> Diagnostics the findings at positions of the caller's
//	                           workspace: one finding per place and message,
//	                           naming every value set or build it came from
//	                           (Diagnostic.Rendered); fixes kept only where
//	                           the source is the rendered text byte for byte
//	                           (render.Location.Exact); the suppression
//	                           comments of those files applied
//	                           (analyzer.SuppressRendered); what could not
//	                           be rendered reported once, positioned
//	                           (render-error, render-incomplete,
//	                           input-limit)
//
// Which reading lints what, so that no object's findings are reported
// twice: a chart's files are read only through its renders. A
// kustomization's resources and patches are read through the builds of
// the roots that include them when those builds succeed (the per-file
// reading still reports the problems of their text: syntax, portability,
// limits); the files of a root that does not build are read one by one, as
// before, after one render-error at the place kustomize names.
package lint
