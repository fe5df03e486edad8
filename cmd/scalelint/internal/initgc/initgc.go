// Package initgc holds the garbage collector off while the program's
// packages initialise, and gives it back when main starts (Restore).
//
// Why: before main runs, the libraries scalelint links (KEDA's API types
// and the controller-runtime and client-go schemes they register into,
// Helm's engine and its JSON Schema metaschemas, kustomize) allocate
// about 6 MB in their init functions, nearly all of it kept. The
// collector's first goal is 4 MB, so every start of the binary paid two
// collections that found almost nothing to free, each scanning the large
// binary's globals (GODEBUG=gctrace=1 showed them as gc 1 and gc 2,
// before main). Without them `scalelint version` took a median of 26.5
// ms instead of 27.5 (100 interleaved runs of each build on a quiet
// 2-core machine), for 1.1 MiB more peak RSS.
//
// How: Go initialises a package as soon as the packages it imports are
// initialised, taking the first in import-path order among those ready.
// This package imports only runtime/debug, so it runs among the first
// (GODEBUG=inittrace=1 lists it before any of the costly initialisations
// above; cmd/scalelint's TestNoCollectionAtStart fails if it ever runs
// too late to matter), and its variable's initialiser turns collection
// off, keeping the percentage the runtime read from GOGC. Restore puts that percentage
// back, so every command runs with the collector as the user set it.
// A GOMEMLIMIT still bounds the heap meanwhile: the runtime collects at
// the limit even with the percentage off.
package initgc

import "runtime/debug"

// saved is the collector percentage before this package turned it off:
// GOGC's (100 when unset, -1 for off).
var saved = debug.SetGCPercent(-1)

// Restore gives the collector back the percentage it had before the
// packages initialised. Call it first in main; calling it again is
// harmless.
func Restore() { debug.SetGCPercent(saved) }
