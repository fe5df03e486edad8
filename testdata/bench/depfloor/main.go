// Command depfloor is the start-up floor of scalelint's fixed
// dependencies: a program that links KEDA's ScaledObject types (which
// scalelint decodes and validates with) and Helm's template engine and
// values package (which render charts) and does nothing else. Every
// package linked in runs its initialisation and faults in the pages of
// the executable that it touches, before main, whatever the command.
// run.sh measures it beside `scalelint version`: the difference is what
// scalelint's own code adds at start, less what it saves there. The
// program collects garbage as its packages initialise (twice, before
// main), while scalelint holds the collector off until main
// (cmd/scalelint/internal/initgc), so scalelint can start sooner than
// this floor.
//
// It is built from the repository root, with the module's versions:
//
//	go build -o depfloor ./testdata/bench/depfloor
package main

import (
	_ "github.com/kedacore/keda/v2/apis/keda/v1alpha1"
	_ "helm.sh/helm/v4/pkg/chart/common/util"
	_ "helm.sh/helm/v4/pkg/engine"
)

func main() {}
