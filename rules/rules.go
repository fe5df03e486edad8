package rules

import (
	"sort"

	"github.com/scalelint/scalelint/analyzer"
)

// All returns every rule, structural rules first, then the laws in the
// order of rules/laws/README.md, then the rules about suppressions.
func All() []*analyzer.Analyzer {
	return []*analyzer.Analyzer{
		YAMLSyntax,
		YAMLPortability,
		InputLimit,
		TemplateFile,
		RenderError,
		RenderIncomplete,
		InvalidField,
		InvalidAnnotation,
		RemovedAPI,
		DeprecatedTriggerParameter,
		UnresolvedScaleTarget,
		ConflictingAutoscalers,
		MissingCPURequest,
		MissingMemoryRequest,
		ReplicasManagedByAutoscaler,
		ReplicaBounds,
		PDBBlocksEviction,
		ToleranceTrap,
		ScaleUpRounds,
		LatencyFloor,
		LatencyTarget,
		RetryTrap,
		CeilingTrap,
		EmptyCeilingBand,
		CeilingOverPeak,
		BoundExceedsTimeout,
		analyzer.InvalidSuppression,
		analyzer.UnusedSuppression,
	}
}

// ByName returns a rule by name.
func ByName(name string) (*analyzer.Analyzer, bool) {
	for _, a := range All() {
		if a.Name == name {
			return a, true
		}
	}
	return nil, false
}

// Names returns every rule name, sorted.
func Names() []string {
	var out []string
	for _, a := range All() {
		out = append(out, a.Name)
	}
	sort.Strings(out)
	return out
}
