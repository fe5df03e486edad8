package analyzer

import (
	"go/token"

	yaml "go.yaml.in/yaml/v3"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// Span is a range of positions: where a diagnostic, a related location or
// an edit starts and ends.
type Span struct{ Start, Stop token.Pos }

func (s Span) Pos() token.Pos { return s.Start }
func (s Span) End() token.Pos { return s.Stop }

// NodeRange returns the range of a node of an object.
func NodeRange(o *manifest.Object, n *yaml.Node) Span {
	if n == nil {
		n = o.KindNode()
	}
	return Span{o.Pos(n), o.End(n)}
}

// FieldSpan returns the range of a Field of an object: its value, or the
// object's kind when the field has no position.
func FieldSpan(o *manifest.Object, f manifest.Field) Span {
	if !f.IsValid() {
		f = o.KindAt
	}
	return Span{f.Pos, f.End}
}

// KeySpan returns the range of a Field from its key (its value when it has
// no key) to the end of its value.
func KeySpan(o *manifest.Object, f manifest.Field) Span {
	if !f.IsValid() {
		f = o.KindAt
	}
	return Span{f.Start(), f.End}
}

// Diagnostic is one finding. Positions are byte offsets (token.Pos);
// drivers convert them to the column unit of their output.
type Diagnostic struct {
	Pos, End token.Pos
	Rule     string
	Severity Severity
	Message  string
	Related  []Related
	// SuggestedFixes are edits that would resolve the finding.
	SuggestedFixes []SuggestedFix
	// Facts are the numbers the finding was computed from, the same in
	// JSON, SARIF properties and LSP hover. Times are in seconds.
	Facts map[string]float64
	// Sources say, by fact name, where the law inputs among Facts came
	// from: an annotation, the configuration, a built-in default, or an
	// inference with its bound and what it was read from (rules/laws/
	// README.md §10). JSON prints them beside facts, SARIF as properties.
	Sources map[string]FactSource
	// Object is the object the finding is about, when there is one.
	Object *manifest.Object
	// Field is the field path inside Object (for baseline fingerprints).
	Field string
	// Suppression is set when a directive or annotation suppressed the
	// finding; drivers hide it (SARIF lists it as suppressed).
	Suppression *Suppression
	// Rendered is set on a finding about what a Helm chart or a
	// kustomization renders, mapped back to the file a user edits.
	Rendered *Rendered
}

// Rendered says where a finding about rendered output comes from.
type Rendered struct {
	// Kind is "helm" or "kustomize"; Root the chart or the directory of
	// the kustomizations.
	Kind, Root string
	// Sets are the chart's value sets ("values.yaml",
	// "ci/prod-values.yaml") or the kustomization roots (their
	// directories) whose render produced the finding, in the order they
	// were rendered.
	Sets []string
	// Template is the template line that writes the value when the
	// finding is at the values line that sets it (invalid otherwise): a
	// suppression comment there covers the finding too.
	Template Span
}

// FactSource is where one input of a finding came from.
type FactSource struct {
	// Bound is "exact", "lower" (the true value is at least the fact) or
	// "upper" (at most).
	Bound string
	// Origin is "autoscaler annotation", "target annotation", "configured
	// default", "built-in default" or "inferred".
	Origin string
	// Source says what an inferred input was read from, in words.
	Source string
	// Pos is where it was read or annotated (NoPos for a default), and
	// Line its line when known (0: the driver asks the file).
	Pos  token.Pos
	Line int
}

// Related is another place that explains a diagnostic: the other
// autoscaler of a conflict, the target workload.
type Related struct {
	Pos, End token.Pos
	Message  string
}

// SuggestedFix is a set of edits that fixes a diagnostic.
type SuggestedFix struct {
	Message string // a verb phrase: "Set lagThreshold to 985"
	Edits   []TextEdit
	// Safe fixes change nothing but the finding's cause and may be applied
	// without review (scalelint check --fix).
	Safe bool
}

// TextEdit replaces the bytes between Pos and End with NewText.
type TextEdit struct {
	Pos, End token.Pos
	NewText  string
}

// Suppression records what suppressed a diagnostic.
type Suppression struct {
	Kind          string // "directive", "file-directive" or "annotation"
	Justification string
	Pos           token.Pos
}
