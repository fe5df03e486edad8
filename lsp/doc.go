// Package lsp is scalelint's language server: the same engine as the CLI
// (analyzer.Run over every rule), driven by an editor's edits, with the
// laws' numbers shown where they apply. It is gopls in miniature: one file
// per LSP feature, thin handlers, immutable snapshots, one UTF-16 mapper,
// diagnostics published per file with its version.
//
// Data flow:
//
//	initialize        folders, client capabilities, settings (initializationOptions:
//	                  the keys of .scalelint.yaml, plus logLevel and debounceMs)
//	                  -> the .scalelint.yaml above each folder found and parsed
//	                     (analyzer.FindConfig, ParseConfig), and those the index
//	                     meets inside the folders, each governing the files
//	                     below it (analyzer.Config.Scoped), the settings merged
//	                     over each; the files used logged
//	                  -> the index built in the background (index.go): workspace.WalkWith
//	                     of the folders with the configured excludes, pseudo-filesystems
//	                     skipped, at most maxIndexedFiles files and maxIndexedBytes bytes;
//	                     every file read (regular files only) and parsed in parallel within
//	                     the configured limits; configuration files and files that are
//	                     not manifests not linted; initialize answered at once, lints and
//	                     requests wait for the index, but for the open documents' local
//	                     findings (analyzer.Analyzer.Local), published once the walk is
//	                     done (early.go)
//	didOpen/Change    overlays: the editor's text over the disk's (incremental
//	didSave/Close     changes applied through the Mapper, in wire order)
//	didChangeWatched  disk files re-read (outside the lock) or forgotten; .scalelint.yaml reloaded
//	didChangeConfig   settings re-read (or pulled with workspace/configuration)
//	        |
//	        v
//	parse cache       file text -> its YAML documents (the core's own split) ->
//	  (cache.go)      one manifest.File per document, cached by path and content
//	                  hash: an edit re-parses only the document it touches; a
//	                  file read from disk keeps its objects' views, not its node
//	                  trees (workspace.Prepare) nor its text (read again from disk,
//	                  checked, when something needs it: manifest.File.DropText,
//	                  fileHandle.text), nor a line table (its compact Mapper is
//	                  built from the text read again when a finding is placed,
//	                  fileHandle.Mapper); an open document keeps its trees and
//	                  text
//	        |
//	        v
//	Snapshot          immutable: every file handle (path, URI, version, text,
//	  (snapshot.go)   Mapper, parsed documents: the disk index, shared by
//	                  snapshots, with the open documents over it, fileset.go)
//	                  and the configuration; on first use its workspace index
//	                  (targets resolved across files as in the CLI) and its
//	                  findings by file, computed once
//	        |
//	        v
//	incremental       a snapshot derives both from its base, the latest earlier
//	  (incremental.go) snapshot whose findings were complete, or the previous
//	                  one while it lints the whole workspace (the index's lint,
//	                  a configuration change's: waited for, never restarted
//	                  by an edit): the index by
//	                  replacing the changed paths' files (workspace.With), the
//	                  findings by running analyzer.Run over a view of the files
//	                  the change can reach (workspace.Focus: the changed files,
//	                  the files of the autoscalers whose target they hold or
//	                  held, or whose inferred inputs read a changed traffic
//	                  object (infer.Readers), of those targets, and of every
//	                  other autoscaler of them: found through the workspace's
//	                  reverse indexes, AutoscalersOf, AutoscalersIn and
//	                  Reresolved, so an edit costs the same in a workspace of
//	                  any size) and keeping every other file's findings, and
//	                  their protocol form; without a base, or after a change whose
//	                  reach is not tracked (configuration, kustomization,
//	                  LimitRange), workspace.New and analyzer.Run over all
//	        |
//	        v
//	renders           the snapshot's Helm charts and kustomizations (render.go):
//	  (render.go)     each chart, and the kustomizations together, a render group
//	                  keyed by the texts it can read; a group an edit did not
//	                  change is the previous snapshot's, findings and all; the
//	                  files a group reads are left out of the index (their
//	                  findings are the group's, at template, values and patch
//	                  lines)
//	        |
//	        v
//	lint              debounced (50 ms by default, none in tests); a newer snapshot
//	  (diagnostics.go) cancels the pending or running lint of an older one, whose
//	                  results are then dropped (but for a whole-workspace lint
//	                  the newer one derives from: it runs on, unpublished);
//	                  token.Pos -> file + byte offset ->
//	                  Mapper -> UTF-16 range; severity, rule code, codeDescription
//	                  (rules/README.md#RULE), relatedInformation, tags
//	        |
//	        v
//	publish           per file whose diagnostics changed (a conflict between two
//	                  files clears in both; a file whose findings were kept from
//	                  the base is skipped unhashed), open documents with their version;
//	                  clients that pull (textDocument/diagnostic) get reports for
//	                  open documents instead, and a refresh when another file's
//	                  edit changed them
//
// Requests read the snapshot that was current when they arrived (every
// change before them on the wire is in it): hover.go (rule documentation on
// a finding, the evaluated laws as a table on the fields they read),
// code_action.go (the rules' fixes, "Ignore RULE here", "Add the annotations
// this autoscaler needs"), completion.go (scalelint.dev annotation keys and
// values), definition.go (scaleTargetRef -> workload, workload ->
// autoscalers), inlay_hint.go (the floor next to a threshold).
//
// Concurrency (server.go): notifications run in order on the connection's
// read loop, so no change overtakes another; requests take their snapshot,
// then run concurrently; $/cancelRequest cancels a request's context. A
// panic in a handler is recovered, logged, and answered with an
// InternalError; a method the server does not implement gets
// MethodNotFound, and an unknown notification is ignored. The server writes
// only the protocol to stdout and logs to stderr at the level asked for.
//
// Memory (memory.go): once the index's lint is published, the command's
// server sets a soft memory limit that follows the live heap (three
// quarters of it above it, at least 64 MiB), unless GOGC or GOMEMLIMIT is
// set: the server holds a workspace's index for the editor's whole
// session, and the default pacing let it double in garbage. With it, the
// server collects in the pauses of typing (idlegc.go): after 750 ms
// without a message, when the heap has used half its room, so that
// collections run less often during a burst of edits.
//
// Positions: the core works in byte offsets (token.Pos); Mapper (mapper.go)
// is the one place that converts them to and from LSP positions, whose
// columns count UTF-16 code units.
package lsp
