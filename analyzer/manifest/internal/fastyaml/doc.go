// Package fastyaml is a fast parser for the common subset of YAML found
// in Kubernetes manifests. Parse builds the same *yaml.Node tree as yaml.Unmarshal(doc,
// &node) from go.yaml.in/yaml/v3 (Kind, Style, Tag, Value, Line, Column,
// Content) and declines (ok=false) on anything it does not handle, so the
// caller falls back to yaml.v3, which also reports the errors.
//
// Supported (everything else is declined):
//
//   - a leading UTF-8 BOM, LF or CRLF line ends, blank lines and comments;
//   - an optional "---" first line (blanks or a comment after it), and a
//     last "---" or "..." line followed only by blank and comment lines;
//   - a top-level block mapping or block sequence;
//   - block mappings whose keys are one-line plain or quoted scalars
//     followed by ": " (or ":" at the end of the line);
//   - block sequences, including "- key: value" compact mappings, nested
//     "- - x" sequences and sequences at the indentation of their parent
//     key ("indentless" sequences, as Kubernetes manifests write them);
//   - empty values and entries (null scalars);
//   - plain and single- and double-quoted scalars (with all of yaml.v3's
//     escapes), including values folded over more indented lines as
//     kubectl writes long strings;
//   - literal (|) and folded (>) block scalars with an optional chomping
//     indicator, as the value of a key or a sequence entry;
//   - one-line flow collections ([a, b], {a: 1, "b": [x]}, [], {}) as
//     values, without empty or implicit entries.
//
// Declined: anchors, aliases, tags, directives, a "---" or "..." with
// content after it, complex keys (?), multi-line keys, multi-line flow
// collections, block scalars with an indentation indicator or without
// content, top-level scalars, tabs outside comments, quoted scalars and
// block scalar text, keys longer than 1,000 bytes, control characters,
// invalid UTF-8, U+0085/U+2028/U+2029 (line breaks to yaml.v3), U+FEFF
// other than a leading BOM, and nesting deeper than maxDepth.
//
// Plain scalars are tagged by resolvePlainTag, a port of yaml.v3's
// resolve; the scanning of quoted, multi-line plain and block scalars
// follows yaml.v3's scannerc.go function by function.
//
// Comments are not attached to nodes: HeadComment, LineComment and
// FootComment are always empty (scalelint reads comments from the source
// text, not from nodes).
//
// NodeBound counts, without building anything, an upper bound on the nodes
// any YAML parser builds for a document (exact on JSON, about a fifth above
// on block YAML): manifest refuses a document over its budget before a
// node exists.
//
// Memory: nodes and Content slices are carved out of a few slabs, and
// scalar values without escapes are substrings of one copy of the
// document, so a retained node keeps its document's text and slab alive.
package fastyaml
