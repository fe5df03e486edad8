// Package laws is the arithmetic behind every dynamics rule of scalelint:
// pure functions of the five laws in the repository's LAWS.md, which is the
// contract for every formula, default and test vector here (where LAWS.md
// and a seed disagree, the seed's formula wins). The seeds are the blog
// posts "The Delay a Window Demands" and "The Barrier the Scaler Cannot
// Hold"; each function's comment names the law and the proposition it
// computes.
//
//  1. Tolerance trap and rounds (growth.go): GrowthFactor,
//     ControllerGrowthFactor, ToleranceTrapped, Rounds, TimeToCapacity.
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
// Proposition 4 and computed, not approximated:
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
