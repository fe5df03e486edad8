// Package chart renders a Helm chart in-process, as `helm template` does
// without a cluster, once per value set, and maps each rendered position
// back to the template line that wrote it and, when the value is a plain
// reference ({{ .Values.a.b }}, through quote, int, default or toYaml),
// to the line of the values file that set it.
//
// Data flow:
//
//	chart dir -> Load       files read below the chart (.helmignore
//	                        honoured; a symbolic link followed into its
//	                        repository, as Helm does, not out of it); vendored
//	                        subcharts from charts/; a dependency not
//	                        vendored taken from a chart of the tree being
//	                        checked when it can be (deps.go: its file://
//	                        directory, else the sibling of its name whose
//	                        version satisfies the constraint), loaded as if
//	                        vendored at charts/NAME; the others found and
//	                        reported
//	          -> ValueSets  the defaults, every ci/*-values.yaml, the
//	                        configured sets
//	          -> Render     per value set: Helm's loader and engine with the
//	                        templates instrumented (instrument.go), values
//	                        merged as helm does, capabilities from the
//	                        configured Kubernetes version, lookup empty, no
//	                        network, no hooks, plugins or post-renderers;
//	                        bounded in time and output
//	          -> render.Output: text per template, each with a locator
//	             (locate.go)
package chart
