package laws

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The worked examples of README.md, recomputed. Every number the page prints
// is derived here from the formula the page states (not from the function
// under test), formatted as the page prints it, and looked up in the page's
// text; then the package's function is checked to give the same number. Φ
// is the one input not written out: the test takes it from the table (Phi)
// after checking the table against a fresh integration of the delay equation
// of §7.1 (IntegratePhi) at the same window.

// readme is README.md with every run of white space turned into one space, so
// a phrase may break across lines.
func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(b)), " ")
}

// page checks phrases against the page.
type page struct {
	t    *testing.T
	text string
}

// has fails unless the page contains every phrase.
func (p page) has(section string, phrases ...string) {
	p.t.Helper()
	for _, s := range phrases {
		if !strings.Contains(p.text, s) {
			p.t.Errorf("README.md %s: the page does not say %q", section, s)
		}
	}
}

// freshPhi holds the integrations phi has done (the tests do not run in
// parallel).
var freshPhi = map[float64]float64{}

// f formats x with d decimals, as the page prints numbers.
func f(x float64, d int) string { return strconv.FormatFloat(x, 'f', d, 64) }

// phi is Φ(w) from the table, after checking it against a fresh integration
// of its definition (the generator's settings; the table is accurate to
// 0.03%, see §7.4). Each window is integrated once per test binary.
func phi(t *testing.T, w float64) float64 {
	t.Helper()
	fresh, ok := freshPhi[w]
	if !ok {
		fresh = IntegratePhi(w, TableIntegrateOptions(w))
		freshPhi[w] = fresh
	}
	p := Phi(w)
	if !near(p, fresh, 1e-3) {
		t.Fatalf("Φ(%g): table %.6f, fresh integration %.6f", w, p, fresh)
	}
	return p
}

func TestReadmeTolerance(t *testing.T) {
	p := page{t, readme(t)}
	const sec = "§1.4"
	// ℓ = r = 1 core: the controller's g at p percent is ⌊100·ℓ/r⌋/p.
	gAt := func(limitMilli, pct int) float64 { return math.Floor(float64(100*limitMilli)/1000) / float64(pct) }
	g95 := gAt(1000, 95)
	p.has(sec, "g = 100/95 = "+f(g95, 3)+" ≤ 1.1", "100/91 = "+f(gAt(1000, 91), 3), "(g = 100/90 = "+f(gAt(1000, 90), 3)+")")
	if got := ControllerGrowthFactor(1, 1, 95); got != g95 || !ToleranceTrapped(got, 0.1) {
		t.Errorf("ControllerGrowthFactor(1, 1, 95) = %g, trapped %v; want %g, trapped", got, ToleranceTrapped(got, 0.1), g95)
	}
	if !ToleranceTrapped(ControllerGrowthFactor(1, 1, 91), 0.1) || ToleranceTrapped(ControllerGrowthFactor(1, 1, 90), 0.1) {
		t.Error("with ℓ = r, 91% must be trapped and 90% not")
	}
	// The largest whole target that escapes: g > 1 + tol.
	largest := 0
	for pct := 100; pct >= 1; pct-- {
		if gAt(1000, pct) > 1.1 {
			largest = pct
			break
		}
	}
	p.has(sec, "The largest target that escapes is "+strconv.Itoa(largest)+"%")
	// The smallest limit, in millicores, that escapes at 95%.
	limit := 1000
	for gAt(limit, 95) <= 1.1 {
		limit++
	}
	below := limit - 10 // the page's "at 1.04 cores": one hundredth of a core less
	p.has(sec, "the smallest limit that escapes is "+f(float64(limit)/1000, 2)+" cores",
		"(g = "+strconv.Itoa(limit/10)+"/95 = "+f(gAt(limit, 95), 3)+"; at "+f(float64(below)/1000, 2)+
			" cores g = "+strconv.Itoa(below/10)+"/95 = "+f(gAt(below, 95), 3)+" is still trapped)")
	if ToleranceTrapped(ControllerGrowthFactor(float64(limit)/1000, 1, 95), 0.1) ||
		!ToleranceTrapped(ControllerGrowthFactor(float64(below)/1000, 1, 95), 0.1) {
		t.Errorf("at 95%%: a limit of %dm must escape and %dm be trapped", limit, below)
	}

	// Rounds: n = ⌈log_g(k/g)⌉, time n·(τ + m) with τ = 90 s, m = 30 s.
	const tau, m = 90.0, 30.0
	g := 1 / 0.8
	x := math.Log(30/g) / math.Log(g)
	n := int(math.Ceil(x))
	p.has(sec, "g = 1/0.8 = "+f(g, 2),
		"⌈log_1.25(30/1.25)⌉ = ⌈log_1.25 "+f(30/g, 0)+"⌉ = ⌈"+f(x, 2)+"⌉ = "+strconv.Itoa(n)+" rounds",
		strconv.Itoa(n)+" × "+f(tau+m, 0)+" s = "+f(float64(n)*(tau+m), 0)+" s to capacity")
	if got := Rounds(growthFactor(1, 1, 0.8), 30); got != n {
		t.Errorf("Rounds(1.25, 30) = %d, want %d", got, n)
	}
	if got := TimeToCapacity(n, tau, m); got != float64(n)*(tau+m) {
		t.Errorf("TimeToCapacity(%d, 90, 30) = %g", n, got)
	}
	for _, k := range []float64{10, 30} {
		x := math.Log(k/2) / math.Log(2)
		n := int(math.Ceil(x))
		p.has(sec, "⌈log₂ "+f(k/2, 0)+"⌉ = ⌈"+f(x, 2)+"⌉ = "+strconv.Itoa(n))
		p.has(sec, "("+f(float64(n)*(tau+m), 0)+" s)")
		if got := Rounds(growthFactor(1, 1, 0.5), k); got != n {
			t.Errorf("Rounds(2, %g) = %d, want %d", k, got, n)
		}
	}
	if got := Rounds(2, 1.5); got != 0 {
		t.Errorf("Rounds(2, 1.5) = %d, want 0 (1.5 ≤ g)", got)
	}
}

func TestReadmeLatencyFloor(t *testing.T) {
	p := page{t, readme(t)}
	const sec = "§2.4"
	// Kafka's default: T = 10 at c = 10 msg/s; τ = 90 s, W = 300 s, s = 10 s.
	d := 10.0 / 10
	te, we := 90.0+10, 300.0+10
	w := we / te
	ph := phi(t, w)
	req := te * ph
	p.has(sec, "D = 10/10 = "+f(d, 0)+" s",
		"τ_eff = 90 + 10 = "+f(te, 0)+" s, W_eff = 300 + 10 = "+f(we, 0)+" s, w = 310/100 = "+f(w, 1)+", Φ(3.1) = "+f(ph, 3),
		"τ_eff·Φ = 100 × "+f(ph, 3)+" = "+f(req, 1)+" s")
	if got, gotPhi, gotW := RequiredStandingDelay(90, 300, 10); got != req || gotPhi != ph || gotW != w {
		t.Errorf("RequiredStandingDelay(90, 300, 10) = %g, %g, %g; want %g, %g, %g", got, gotPhi, gotW, req, ph, w)
	}
	if Rests(StandingDelay(10, 10), req) {
		t.Error("D = 1 s must hunt")
	}
	// The smallest threshold with a 10% margin, and without.
	x := 1.1 * 10 * req
	p.has(sec, "⌈1.1 × 10 × "+f(req, 2)+"⌉ = ⌈"+f(x, 1)+"⌉ = "+f(math.Ceil(x), 0),
		"("+f(math.Ceil(10*req), 0)+" without the margin)")
	if got := SmallestRestingThreshold(10, req, 0.1); got != math.Ceil(x) {
		t.Errorf("SmallestRestingThreshold(10, %g, 0.1) = %g, want %g", req, got, math.Ceil(x))
	}
	if got := SmallestRestingThreshold(10, req, 0); got != math.Ceil(10*req) {
		t.Errorf("SmallestRestingThreshold(10, %g, 0) = %g, want %g", req, got, math.Ceil(10*req))
	}
	// No window: the sampling delay alone is a window of s = 10 s.
	p0 := phi(t, 10/te)
	p.has(sec, "100 × Φ(10/100) = 100 × "+f(p0, 3)+" = "+f(te*p0, 1)+" s")
	if _, ok, _ := LongestRestingWindow(d, 90, 10); ok || d >= te*p0 {
		t.Errorf("D = 1 s must rest at no window (W = 0 needs %g s)", te*p0)
	}
	// D = 60 s: the longest window W with 100·Φ((W + 10)/100) ≤ 60 is 100 s
	// (to the whole second the fix writes): Φ(1.1) is just below 0.6, and
	// one second more is too long.
	p11 := phi(t, 1.1)
	p.has(sec, "At T = 600 (D = 60 s) the longest window that rests is 100 s: 100 × Φ((100 + 10)/100) = 100 × Φ(1.1) = "+f(te*p11, 1)+" s")
	if !(te*p11 <= 60) || te*phi(t, 1.11) <= 60 {
		t.Errorf("100·Φ(1.1) = %g must rest at 60 s and 100·Φ(1.11) = %g not", te*p11, te*Phi(1.11))
	}
	if got, ok, _ := LongestRestingWindow(60, 90, 10); !ok || math.Floor(got) != 100 {
		t.Errorf("LongestRestingWindow(60, 90, 10) = %g, %v; want 100 s to the second", got, ok)
	}
	proof := math.E * te
	p.has(sec, "e·τ_eff = "+f(proof, 1)+" s")
	if got := WindowProofStandingDelay(90, 10); got != proof {
		t.Errorf("WindowProofStandingDelay(90, 10) = %g, want %g", got, proof)
	}
}

func TestReadmeLatencyTarget(t *testing.T) {
	p := page{t, readme(t)}
	const sec = "§2.5"
	// τ = 60 s, W = 120 s, s = 10 s.
	te, we := 70.0, 130.0
	w := we / te
	ph := phi(t, w)
	req := te * ph
	p.has(sec, "τ_eff = "+f(te, 0)+" s, w = 130/70 = "+f(w, 3)+", Φ(1.857) = "+f(ph, 3), "70 × Φ = "+f(req, 1)+" s")
	if got, _, _ := RequiredStandingDelay(60, 120, 10); got != req {
		t.Errorf("RequiredStandingDelay(60, 120, 10) = %g, want %g", got, req)
	}
	if !LatencyTargetHeld(60, req) || LatencyTargetHeld(30, req) {
		t.Errorf("a floor of %g s: 60 s must hold and 30 s not", req)
	}
	p1 := phi(t, 1) // a one-minute window: W_eff = 70 s, w = 1
	p.has(sec, "70 × Φ(1) = 70 × "+f(p1, 4)+" = "+f(te*p1, 1)+" s")
	if LatencyTargetHeld(30, te*p1) {
		t.Errorf("30 s must not hold under a one-minute window (needs %g s)", te*p1)
	}
	// The longest window that holds 30 s: W with 70·Φ((W + 10)/70) = 30.
	win, ok, _ := LongestRestingWindow(30, 60, 10)
	p.has(sec, "the window must be at most "+f(math.Floor(win), 0)+" s")
	if !ok || !near(te*Phi((win+10)/te), 30, 1e-9) {
		t.Errorf("LongestRestingWindow(30, 60, 10) = %g, %v: 70·Φ there is %g", win, ok, te*Phi((win+10)/te))
	}
}

func TestReadmeRetryTrap(t *testing.T) {
	p := page{t, readme(t)}
	const sec = "§3.4"
	a := 1.0 + 2
	trap := 1 / a
	largest := math.Ceil(100*trap) - 1 // the largest whole percent below 1/A
	p.has(sec, "A = 1 + 2 = "+f(a, 0)+" and 1/A = "+f(100*trap, 1)+"%", "the largest whole target below 1/A is "+f(largest, 0)+"%")
	if got := Amplification([]int{2}); got != a || TrapTarget(got) != trap {
		t.Errorf("Amplification([2]) = %g, 1/A = %g; want %g, %g", got, TrapTarget(got), a, trap)
	}
	if !RetryTrapped(0.5, a, false) || RetryTrapped(largest/100, a, false) || !RetryTrapped((largest+1)/100, a, false) {
		t.Errorf("A = 3: 50%% must be trapped, %g%% not, %g%% trapped", largest, largest+1)
	}
	a9 := 3.0 * 3
	p.has(sec, "A = 3 × 3 = "+f(a9, 0)+" and 1/A = "+f(100/a9, 1)+"%: 11% escapes, 12% is trapped")
	if got := Amplification([]int{2, 2}); got != a9 || RetryTrapped(0.11, a9, false) || !RetryTrapped(0.12, a9, false) {
		t.Errorf("A(2,2) = %g: 11%% must escape and 12%% be trapped", got)
	}
	// A rate signal: u* = threshold / pod rate.
	u := 8.0 / 10
	p.has(sec, "u* = 8/10 = "+f(100*u, 0)+"%", "below 10/3 = "+f(10.0/3, 2))
	if !RetryTrapped(u, a, false) || RetryTrapped(u, a, true) {
		t.Error("u* = 0.8 with A = 3 must be trapped, unless the bound protects it")
	}
	// The trigger: τ_out/τ.
	p.has(sec, "above 10/90 = "+f(100*10.0/90, 1)+"%")
	if got := TriggerOverload(10, 90); got != 10.0/90 {
		t.Errorf("TriggerOverload(10, 90) = %g", got)
	}
}

func TestReadmeCeilingBand(t *testing.T) {
	p := page{t, readme(t)}
	const sec = "§4.4"
	floor := 3 * 2000.0 / 10
	p.has(sec, "M* = 3 × 2000/10 = "+f(floor, 0)+" pods", "ceiling of 100 ≤ "+f(floor, 0),
		"the smallest ceiling above the need is "+f(math.Floor(floor)+1, 0))
	if got := CeilingFloor(3, 2000, 10); got != floor || !CeilingTrapped(kedaDefaultMaxReplicas, got) || CeilingTrapped(math.Floor(got)+1, got) {
		t.Errorf("CeilingFloor(3, 2000, 10) = %g: 100 must be trapped and %g not", got, math.Floor(floor)+1)
	}
	top := 0.8 * 18
	p.has(sec, "the top is 0.8 × 18 = "+f(top, 1)+", so the largest ceiling is "+f(math.Floor(top), 0))
	if got := CeilingTop(18); got != top || !OverPeak(20, got) || OverPeak(math.Floor(top), got) {
		t.Errorf("CeilingTop(18) = %g: 20 must be over the peak and 14 not", got)
	}
	m5, m2 := 3*50.0/10, 9*20.0/10
	p.has(sec, "M* = "+f(m5, 0)+" ≥ "+f(top, 1)+": the band is empty", "has M* = "+f(m2, 0)+" and closes it too")
	if !BandEmpty(CeilingFloor(3, 50, 10), top) || !BandEmpty(CeilingFloor(9, 20, 10), top) || BandEmpty(CeilingFloor(3, 20, 10), top) {
		t.Error("M* = 15 and 18 must empty the band below 14.4, and M* = 6 must not")
	}
}

func TestReadmeAdmissionBound(t *testing.T) {
	p := page{t, readme(t)}
	p.has("§5.4", "a 5 s bound holds (5 < 10)", "a bound of exactly 10 s does not", "a 20 s bound does not")
	if !BoundShorterThanTimeout(5, 10) || BoundShorterThanTimeout(10, 10) || BoundShorterThanTimeout(20, 10) {
		t.Error("b < τ_out strictly: 5 holds, 10 and 20 do not under 10")
	}
}

// §6.1's table: τ_eff·Φ(W_eff/τ_eff) at τ = 90 s against the series'
// simulated boundaries (quoted, not computed: they are the published
// simulation results the correction was calibrated on).
func TestReadmeDeployedTable(t *testing.T) {
	p := page{t, readme(t)}
	for _, c := range []struct{ window, simulated float64 }{{60, 47}, {120, 63}, {300, 85.5}, {600, 98}} {
		te, we := 100.0, c.window+10
		req := te * phi(t, we/te)
		p.has("§6.1", "| "+f(c.window, 0)+" s | "+f(req, 1)+" s | "+strconv.FormatFloat(c.simulated, 'f', -1, 64)+" s |")
		if got, _, _ := RequiredStandingDelay(90, c.window, 10); got != req {
			t.Errorf("RequiredStandingDelay(90, %g, 10) = %g, want %g", c.window, got, req)
		}
		// The section's claim: the prediction is never below the simulated
		// boundary here, and at most 14% above it.
		if e := req/c.simulated - 1; e < 0 || e > 0.14 {
			t.Errorf("W = %g: predicted %.1f s against %g s simulated (%+.1f%%)", c.window, req, c.simulated, 100*e)
		}
	}
	p0 := phi(t, 0.1)
	p.has("§6.1", "At τ = 90 s it needs 100 × Φ(0.1) = "+f(100*p0, 1)+" s")
}

// §7: the values table, the two closed forms written out as the page
// writes them, and their errors against the table.
func TestReadmePhiTable(t *testing.T) {
	p := page{t, readme(t)}
	hb := func(w float64) float64 { // §7.5, harmonic balance
		a := math.Pi / (1 + w)
		return ((1 + math.Cos(a)) + (math.Pi+a)*math.Sin(a)) / (2 * math.Pi * a)
	}
	lw := func(w float64) float64 { // §7.5, long-window form
		l := math.Log(w / 0.07)
		return math.E / (1 + 30.6/(l*l))
	}
	dash := "–"
	for _, c := range []struct {
		label  string
		w      float64
		series string // the series' published value (step τ/200), or a dash
		hb, lw bool   // whether the row shows each form
	}{
		{"0.1", 0.1, "0.119", false, false},
		{"1", 1, "0.573", true, false},
		{"2", 2, "0.773", true, false},
		{"3.1", 3.1, dash, true, true},
		{"10/3", 10.0 / 3, "0.916", true, true},
		{"10", 10, dash, true, true},
		{"100", 100, "1.719", false, true},
		{"400", 400, "1.938", false, true},
	} {
		ph := phi(t, c.w)
		row := "| " + c.label + " | " + f(ph, 4) + " | " + c.series + " | "
		if c.hb {
			row += f(hb(c.w), 4) + " | "
			if !near(PhiHarmonicBalance(c.w), hb(c.w), 1e-12) {
				t.Errorf("PhiHarmonicBalance(%g) = %g, the formula gives %g", c.w, PhiHarmonicBalance(c.w), hb(c.w))
			}
		} else {
			row += dash + " | "
		}
		if c.lw {
			row += f(lw(c.w), 4) + " |"
			if !near(PhiLongWindow(c.w), lw(c.w), 1e-12) {
				t.Errorf("PhiLongWindow(%g) = %g, the formula gives %g", c.w, PhiLongWindow(c.w), lw(c.w))
			}
		} else {
			row += dash + " |"
		}
		p.has("§7.4", row)
		// The published values sit at or above the converged curve, by at
		// most 2% (1.6% at w = 0.1, where a step of τ/200 is 20 steps per
		// window).
		if c.series != dash {
			s, _ := strconv.ParseFloat(c.series, 64)
			if e := s/ph - 1; e < -0.0005 || e > 0.02 {
				t.Errorf("w = %s: the series' %s against the table's %.4f (%+.2f%%)", c.label, c.series, ph, 100*e)
			}
		}
	}
	// §2.2's short list.
	p.has("§2.2", "Φ(1) = "+f(Phi(1), 3), "Φ(2) = "+f(Phi(2), 3), "Φ(10/3) = "+f(Phi(10.0/3), 3),
		"Φ(10) = "+f(Phi(10), 2), "Φ(100) = "+f(Phi(100), 2))
	// §7.5's errors of harmonic balance.
	pct := func(approx, w float64) float64 { return 100 * (approx/Phi(w) - 1) }
	p.has("§7.5", "by "+f(pct(hb(1), 1), 1)+"% at w = 1, "+f(pct(hb(2), 2), 1)+"% at 2, "+f(pct(hb(10.0/3), 10.0/3), 1)+
		"% at 10/3, "+f(pct(hb(5), 5), 1)+"% at 5 and "+f(pct(hb(10), 10), 0)+"% at 10")
	// The long-window form: within 0.6% on [10, 400], low by the stated
	// amounts at 5 and 10/3, and the two forms bracket Φ at 10/3 and 3.1.
	worst := 0.0
	for i := 0; i <= 400; i++ {
		w := 10 * math.Pow(40, float64(i)/400)
		worst = math.Max(worst, math.Abs(pct(lw(w), w)))
	}
	p.has("§7.5", "within 0.6% of the table from w = 10 to 400")
	if worst > 0.6 {
		t.Errorf("long-window form on [10, 400]: worst error %.2f%%, the page says within 0.6%%", worst)
	}
	p.has("§7.5", "("+f(-pct(lw(5), 5), 1)+"% at w = 5, "+f(-pct(lw(10.0/3), 10.0/3), 1)+"% at 10/3)")
	for _, w := range []float64{3.1, 10.0 / 3} {
		if !(lw(w) < Phi(w) && Phi(w) < hb(w)) {
			t.Errorf("at w = %g the two forms must bracket Φ: %g < %g < %g", w, lw(w), Phi(w), hb(w))
		}
	}
	// §7.1: the pure delay equation's thresholds, and Φ below both e and,
	// at w = 1, 2/π.
	p.has("§7.1", "2/π = "+f(2/math.Pi, 3)+" dead times")
	if !(Phi(1) < 2/math.Pi) {
		t.Errorf("Φ(1) = %g, want below 2/π", Phi(1))
	}
	// §7.3: the table's grid and its last knot.
	p.has("§7.3", "w = 10^(−3 + k/"+strconv.Itoa(phiKnotsPerDecade)+") for k = 0 … "+strconv.Itoa(len(phiKnots)-1),
		"it returns the last knot, "+f(phiKnots[len(phiKnots)-1], 3))
	if phiLog10First != -3 || len(phiKnots) != 7*phiKnotsPerDecade+1 {
		t.Errorf("the table spans 10^%d … with %d knots; the page says 1e-3 to 1e4 at 32 per decade", phiLog10First, len(phiKnots))
	}
}

// TestReadmeSections checks the numbering other files cite: §1 … §10 in
// order, and every subsection under its section.
func TestReadmeSections(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Tolerance trap and rounds", "Latency floor of a backlog loop", "Retry trap", "Ceiling band",
		"Admission bound and client timeout", "The deployed loop", "Φ and the delay equation",
		"Defaults from Kubernetes and KEDA", "References", "Inputs read from the manifests"}
	sec := regexp.MustCompile(`(?m)^## (\d+)\. (.+)$`)
	var got []string
	for i, m := range sec.FindAllStringSubmatch(string(b), -1) {
		if m[1] != strconv.Itoa(i+1) {
			t.Errorf("section %q is numbered %s, want %d", m[2], m[1], i+1)
		}
		got = append(got, m[2])
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("sections %q, want %q", got, want)
	}
	sub := regexp.MustCompile(`(?m)^(## (\d+)\.|### (\d+)\.(\d+) )`)
	cur, next := 0, 1
	for _, m := range sub.FindAllStringSubmatch(string(b), -1) {
		if m[2] != "" {
			cur, _ = strconv.Atoi(m[2])
			next = 1
			continue
		}
		if m[3] != strconv.Itoa(cur) || m[4] != strconv.Itoa(next) {
			t.Errorf("subsection %s.%s under §%d, want %d.%d", m[3], m[4], cur, cur, next)
		}
		next++
	}
}
