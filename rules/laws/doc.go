// Package laws is the arithmetic behind every dynamics rule of scalelint:
// pure functions of the five laws that README.md in this directory states,
// with the model each rests on, its inputs and defaults, and worked examples
// (readme_test.go recomputes them). Each function's comment names the
// section of README.md it computes; the numbered list below follows the
// sections.
//
//  1. Tolerance trap and rounds (growth.go): ControllerGrowthFactor,
//     ToleranceTrapped, EscapeTarget, EscapeLimit, Rounds, TimeToCapacity.
//  2. Latency floor of a backlog loop (phi.go, latency.go): Phi, PhiInverse,
//     RequiredStandingDelay, StandingDelay, Rests, SmallestRestingThreshold,
//     LongestRestingWindow, WindowProofStandingDelay, LatencyTargetHeld;
//     the approximations PhiHarmonicBalance and PhiLongWindow as
//     cross-checks.
//  3. Retry trap (retry.go): Amplification, TrapTarget, RetryTrapped,
//     TriggerOverload.
//  4. Ceiling band (ceiling.go): CeilingFloor, CeilingTop, CeilingTrapped,
//     BandEmpty, OverPeak.
//  5. Admission bound (ceiling.go): BoundShorterThanTimeout.
//
// # How Φ gets from its definition to a rule
//
// Φ(w) has no closed form. It is defined by the idealized min–max loop of
// README.md §7.1 and computed, not approximated (§7.2, §7.3):
//
//	phi_integrate.go   IntegratePhi: integrate the delay equation from an
//	                   upward step, bisect on the gain, extrapolate over the
//	                   step (minutes for the whole curve; never at run time)
//	internal/phigen    the generator: IntegratePhi at log-spaced windows, in
//	                   parallel, checked to rise and stay below e
//	phi_table.go       its output, committed (go generate ./rules/laws)
//	phi.go             Phi: a monotone cubic through the table in log w
//	                   (tens of nanoseconds); PhiInverse: its inverse
//
// The generator imports this package for IntegratePhi, so phi_table.go must
// exist for it to build; it overwrites the file only after every knot is
// computed and checked. The tests integrate afresh at windows between the
// knots and compare with the table.
//
// Units: times in seconds, windows w in dead times, utilization targets and
// tolerances as fractions. Functions return NaN (or −1 for Rounds) where an
// input makes the law meaningless, and never panic. The package imports
// only the standard library and nothing of the project.
package laws
