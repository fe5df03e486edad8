// Package render turns Helm charts and kustomizations into the manifests
// they deploy, in-process, and maps every rendered position back to the
// file a user edits: a template line, a values line, a resource file or
// the patch that set a field.
//
// Data flow:
//
//	walked paths -> Discover        charts (a stat of Chart.yaml, no parse)
//	                                and kustomization roots
//	chart dir    -> chart.Load      files read confined to its repository
//	             -> chart.ValueSets defaults, ci/*-values.yaml, the
//	                                autoscaling variant, configured sets
//	             -> chart.Render    Helm's engine, client-only, bounded
//	kustomization -> kustomize.Build krusty in memory, bounded
//	             -> []*Output       rendered text per source file, each
//	                                with a Locator
//	rendered offset -> Locator.Locate -> Location (file, offsets, exact?)
//
// The rendered text is parsed by analyzer/manifest like any file; a
// driver lints each Output in a workspace of its own (objects of two value
// sets are never deployed together) and moves each finding to the
// Location of its position.
//
// This package imports neither Helm nor kustomize: the drivers that only
// read plain files pay nothing for them but the package initialisation of
// the subpackages chart and kustomize.
package render
