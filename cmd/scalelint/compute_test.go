package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

// independentPhi integrates the idealized loop of rules/laws/README.md §2 in its
// original, undimensioned form, written apart from rules/laws on purpose:
// the backlog L with dL/dt = λ − c·N, and N(t) = min over the last dead time
// of max over the last window of L/T ("The Delay a Window Demands", Yuriy Polyulya,
// "Two Branches, Two Delays"), stepped with a fixed Euler step of τ/2000,
// after a demand step from λ to 2λ at rest. It returns the smallest
// standing delay D = T/c (in dead times) at which the swing of N decays
// from its first overshoot cycle to its last, by bisection. It shares no
// code with the integrator behind the table.
func independentPhi(w float64) float64 {
	const steps = 800 // per dead time
	h := 1.0 / steps
	win := int(math.Round(w * steps))
	hunts := func(D float64) bool {
		c, lambda := 1.0, 1.0
		T := D * c
		L := T * lambda / c // at rest before the step: N = λ/c = 1
		lambda *= 2         // the step; the new rest is N = 2
		horizon := int((12*(w+1) + 30) * steps)
		// Sliding maximum of L/T over the window and sliding minimum of
		// that maximum over the dead time, as index queues. The history
		// before the step is the rest value 1.
		type item struct {
			i int
			v float64
		}
		var maxQ, minQ []item
		maxQ = append(maxQ, item{-1, 1})
		minQ = append(minQ, item{-1, 1})
		var peaks []float64
		prevSign := 0
		for i := 0; i < horizon; i++ {
			v := L / T
			for len(maxQ) > 0 && maxQ[len(maxQ)-1].v <= v {
				maxQ = maxQ[:len(maxQ)-1]
			}
			maxQ = append(maxQ, item{i, v})
			for maxQ[0].i < i-win && len(maxQ) > 1 {
				maxQ = maxQ[1:]
			}
			m := maxQ[0].v
			if i-win < 0 && m < 1 {
				m = 1
			}
			for len(minQ) > 0 && minQ[len(minQ)-1].v >= m {
				minQ = minQ[:len(minQ)-1]
			}
			minQ = append(minQ, item{i, m})
			for minQ[0].i < i-steps && len(minQ) > 1 {
				minQ = minQ[1:]
			}
			n := minQ[0].v
			if i-steps < 0 && n > 1 {
				n = 1
			}
			L += h * (lambda - c*n) // no floor: the idealized loop has none
			dev := n - 2
			sign := 0
			if dev > 1e-9 {
				sign = 1
			} else if dev < -1e-9 {
				sign = -1
			}
			if sign != 0 && sign != prevSign {
				peaks = append(peaks, 0)
				prevSign = sign
			}
			if len(peaks) > 0 && math.Abs(dev) > peaks[len(peaks)-1] {
				peaks[len(peaks)-1] = math.Abs(dev)
			}
		}
		if len(peaks) < 5 {
			return false // it settled
		}
		// The last complete excursion against the one a full cycle before.
		k := len(peaks) - 2
		return peaks[k] >= peaks[k-2]
	}
	lo, hi := 0.02, 3.0
	for i := 0; i < 28; i++ {
		mid := (lo + hi) / 2
		if hunts(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// TestComputeAgreesWithIndependentIntegration checks `scalelint compute
// --format json` against independentPhi: within 1.5% for w ≤ 10 and 2.5%
// beyond (issue 3's acceptance).
func TestComputeAgreesWithIndependentIntegration(t *testing.T) {
	cases := []struct{ deadTime, window float64 }{
		{90, 0},   // w = 0.1 (only the sampling delay)
		{90, 50},  // w = 0.6
		{90, 90},  // w = 1
		{90, 300}, // w = 3.1, the default case
		{60, 120}, // w = 1.86, the post's worked design
		{30, 300}, // w = 7.75
		{20, 600}, // w = 20.3
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		args := []string{"--dead-time", fmt.Sprint(c.deadTime), "--window", fmt.Sprint(c.window), "--format", "json"}
		if code := run(append([]string{"compute"}, args...), nil, &out, &errb); code != 0 {
			t.Fatalf("compute %v: exit %d: %s", args, code, errb.String())
		}
		var res map[string]float64
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
		w := (c.window + 10) / (c.deadTime + 10)
		if math.Abs(res["w"]-w) > 1e-3 {
			t.Fatalf("w %g, want %g", res["w"], w)
		}
		want := independentPhi(w)
		tol := 0.015
		if w > 10 {
			tol = 0.025
		}
		rel := math.Abs(res["phi"]-want) / want
		t.Logf("w = %6.3f: compute Φ = %.4f, independent integration %.4f (%.2f%%)", w, res["phi"], want, 100*rel)
		if rel > tol {
			t.Errorf("w = %g: compute Φ = %.4f, independent integration %.4f: %.2f%% apart, over %.1f%%", w, res["phi"], want, 100*rel, 100*tol)
		}
		if req := res["requiredStandingDelay"]; math.Abs(req-(c.deadTime+10)*res["phi"]) > 1e-3*req {
			t.Errorf("requiredStandingDelay %g is not τ_eff·Φ", req)
		}
	}
}
