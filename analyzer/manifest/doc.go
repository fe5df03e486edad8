// Package manifest turns the bytes of one file into positioned, typed
// Kubernetes objects.
//
// Data flow:
//
//	bytes ─ split ─▶ documents (byte ranges, where yaml.v3's document stream starts them:
//	                 "---" lines, an empty document included; differential-tested)
//	      ─ sniff ─▶ apiVersion/kind read cheaply from each document's top-level lines
//	      ─ count ─▶ an upper bound on each document's nodes (fastyaml.NodeBound), against
//	                 the file's budget (Limits.MaxFileNodes) before a node is built;
//	                 no document is parsed after Options.Deadline
//	      ─ parse ─▶ one go.yaml.in/yaml/v3 node tree per document that a rule reads
//	                 (autoscalers, workloads, lists, and anything the sniffer cannot read),
//	                 built by the fast parser of internal/fastyaml when the document is in
//	                 its subset of YAML, else by yaml.v3, which also reports the errors;
//	                 other documents are parsed lazily, only if a scale target names their kind;
//	                 until then their syntax is checked by the fast parser into recycled
//	                 memory, so a broken ConfigMap is reported, not skipped in silence
//	      ─ decode ▶ typed structs (autoscaling/v2 HPA, KEDA ScaledObject/ScaledJob,
//	                 apps/v1 workloads, Argo Rollout, LeaderWorkerSet) with the semantics of
//	                 sigs.k8s.io/yaml's YAML -> JSON -> struct path: straight from the tree by
//	                 reflection (decodefast.go) when the object is certain to decode the
//	                 same, without a problem; through JSON otherwise (decode.go), where a
//	                 decode error is mapped back to its node
//
// Positions are byte offsets held as go/token positions: one token.File per
// parsed file. yaml.v3 reports (line, column) with columns counted in code
// points; they are converted to byte offsets exactly once, here
// (File.Pos), and every consumer converts offsets to the column unit it
// needs (code points for the CLI, UTF-16 for LSP). yaml.Node has no end
// position; File.End computes it for scalars (plain, quoted, block) and
// collections.
//
// Only keda.go imports github.com/kedacore/keda/v2.
package manifest
