package laws

import (
	"math"
	"testing"
)

// kedaDefaultMaxReplicas is KEDA's maxReplicaCount when a ScaledObject
// sets none (GetHPAMaxReplicas in KEDA's apis/keda/v1alpha1; the rules
// read it from KEDA's module through manifest.KEDADefaultMaxReplicaCount).
const kedaDefaultMaxReplicas = 100

// The worked example of rules/laws/README.md §4.4: N_max = 18 (ceiling ≈ 14), demand needing five
// pods, A = 3 → M* = 15 > 14.4: the band is empty.
func TestCeilingBand(t *testing.T) {
	floor := CeilingFloor(3, 50, 10) // five pods of need at 10/s each
	top := CeilingTop(18)
	if floor != 15 || !near(top, 14.4, 1e-12) {
		t.Fatalf("M* = %g, top = %g; want 15, 14.4", floor, top)
	}
	if !BandEmpty(floor, top) {
		t.Error("M* = 15 ≥ 14.4: the band must be empty")
	}
	if !CeilingTrapped(14, floor) || !CeilingTrapped(15, floor) || CeilingTrapped(16, floor) {
		t.Error("ceilings 14 and 15 trap M* = 15 (M ≤ M*), 16 does not")
	}
	if !OverPeak(15, top) || OverPeak(14, top) {
		t.Error("against 0.8·18 = 14.4, a ceiling of 15 is over the peak and 14 is not")
	}
	// §4.4: an amplification of nine closes the band for a service needing
	// just two pods.
	if !BandEmpty(CeilingFloor(9, 20, 10), top) {
		t.Error("A = 9 and two pods of need: the band must be empty")
	}
	// With two pods of need and A = 3 the band is 6 < M ≤ 14.4.
	if f := CeilingFloor(3, 20, 10); BandEmpty(f, top) || CeilingTrapped(10, f) || OverPeak(10, top) {
		t.Error("A = 3, two pods of need: a ceiling of 10 lies in the band")
	}
	// KEDA's default ceiling (100) traps a 600-pod amplified need.
	if f := CeilingFloor(3, 2000, 10); f != 600 || !CeilingTrapped(kedaDefaultMaxReplicas, f) {
		t.Errorf("M* = %g: KEDA's default ceiling must be trapped", f)
	}
	if got := CeilingFloor(3, 50, 0); !math.IsNaN(got) {
		t.Errorf("CeilingFloor with c = 0 = %g, want NaN", got)
	}
}

// recoveryTimeScale returns 1/(M − M*), to which the recovery time of a
// failed service above its ceiling floor is proportional: the debt drains
// at c·(M − M*) (rules/laws/README.md §4.2). It is a proportionality, not a
// time: the debt a trigger leaves is not known from a manifest, so no rule
// reports it; the test below checks the law against the series' published
// runs. +Inf when M ≤ M* (never recovers).
func recoveryTimeScale(maxReplicas, floor float64) float64 {
	if CeilingTrapped(maxReplicas, floor) {
		return math.Inf(1)
	}
	return 1 / (maxReplicas - floor)
}

// §4.2: above the floor recovery time falls as 1/(M − M*). The series'
// published runs: with M* = 15, 40,293 s at M = 16, 7,921 at 20, 3,925 at 25 and
// 1,530 at 40 (time × margin between 38,250 and 40,293); at the cluster
// kit's size, M* = 6: 6,974 s at 7, 3,401 at 8 and 1,085 at 12.
func TestRecoveryTimeScale(t *testing.T) {
	for _, runs := range []struct {
		floor float64
		m     []float64
		secs  []float64
	}{
		{15, []float64{16, 20, 25, 40}, []float64{40293, 7921, 3925, 1530}},
		{6, []float64{7, 8, 12}, []float64{6974, 3401, 1085}},
	} {
		lo, hi := math.Inf(1), 0.0
		for i, m := range runs.m {
			k := runs.secs[i] / recoveryTimeScale(m, runs.floor) // time × margin
			lo, hi = math.Min(lo, k), math.Max(hi, k)
		}
		if hi/lo > 1.08 {
			t.Errorf("M* = %g: time × margin spans %g..%g, more than 8%%", runs.floor, lo, hi)
		}
	}
	if got := recoveryTimeScale(15, 15); !math.IsInf(got, 1) {
		t.Errorf("recoveryTimeScale(15, 15) = %g, want +Inf (never recovers)", got)
	}
}

// rules/laws/README.md §5.2: b < τ_out strictly.
func TestBoundShorterThanTimeout(t *testing.T) {
	if BoundShorterThanTimeout(20, 10) {
		t.Error("a 20 s bound under a 10 s timeout must fail")
	}
	if !BoundShorterThanTimeout(5, 10) {
		t.Error("a 5 s bound under a 10 s timeout must pass")
	}
	if BoundShorterThanTimeout(10, 10) {
		t.Error("b = τ_out must fail (strict)")
	}
}
