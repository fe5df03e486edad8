package rules

// Coverage says how much of the laws that apply to an autoscaler its
// evaluation decided: what the audit's verdicts and check's closing line
// count, so that a clean run never reads as every law holding when most
// were never computed.
type Coverage int

const (
	// NoLaw: no law applies (a ScaledJob; no metric the laws read).
	NoLaw Coverage = iota
	// NoneEvaluated: laws apply and none could be evaluated or bounded.
	NoneEvaluated
	// PartlyEvaluated: some law was evaluated or bounded, and some law
	// that applies was not decided: its inputs are missing, or it holds
	// only at an inferred bound (Missing says which and why).
	PartlyEvaluated
	// AllEvaluated: every law that applies was evaluated and decided.
	AllEvaluated
)

// Coverage returns the evaluation's coverage. A violation found at an
// inferred bound is decided (it holds for the true value too); a law that
// holds only at a bound is listed in Missing, so it is not.
func (e *Evaluation) Coverage() Coverage {
	evaluated := e.Growth != nil || len(e.Backlog) > 0 || e.Retry != nil || e.Ceiling != nil || e.Bound != nil
	switch {
	case evaluated && len(e.Missing) == 0:
		return AllEvaluated
	case evaluated:
		return PartlyEvaluated
	case len(e.Missing) > 0:
		return NoneEvaluated
	}
	return NoLaw
}
