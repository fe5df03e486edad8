package gcpace

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

const mib = 1 << 20

// TestPercentFor checks the pacing against the package's own account of
// it, computed by hand: with base B live before loading, live L after
// loaded of total files, the prediction is P = B + (L-B)*total/loaded,
// the goal goalFactor*P, and the percentage (goal/L - 1)*100, never
// below the default nor above maxPercent.
func TestPercentFor(t *testing.T) {
	for _, c := range []struct {
		name               string
		live, base         uint64
		loaded, total, def int
		want               int
	}{
		// P = 10 + (20-10)*1000/100 = 110 MiB; goal 176 MiB; 176/20-1 = 7.8: capped.
		{"early in the load", 20 * mib, 10 * mib, 100, 1000, 100, maxPercent},
		// P = 10 + (40-10)*1000/400 = 85 MiB; goal 136 MiB; 136/40-1 = 2.4.
		{"a quarter in", 40 * mib, 10 * mib, 400, 1000, 100, 240},
		// P = 10 + 60*1000/500 = 130; goal 208; 208/70-1 = 1.971.
		{"half way", 70 * mib, 10 * mib, 500, 1000, 100, 197},
		// P = 10 + 100*1000/900 = 121.1; goal 193.8; 193.8/110-1 = 0.76: the default.
		{"near the end", 110 * mib, 10 * mib, 900, 1000, 100, 100},
		// P = 1 + 2*100000/64 = 3126; goal 5001.6; 5001.6/3-1 = 1666: capped.
		{"wild extrapolation", 3 * mib, 1 * mib, 64, 100000, 100, maxPercent},
		{"too few files loaded", 20 * mib, 10 * mib, minLoaded - 1, 1000, 100, 100},
		{"all loaded", 20 * mib, 10 * mib, 1000, 1000, 100, 100},
		{"no reading yet", 0, 0, 100, 1000, 100, 100},
		// The live heap below the base (collected since): P = base.
		// goal 1.6*10 = 16; 16/8-1 = 1.0: the default.
		{"live below base", 8 * mib, 10 * mib, 100, 1000, 100, 100},
		{"another default", 20 * mib, 10 * mib, minLoaded - 1, 1000, 250, 250},
	} {
		if got := percentFor(c.live, c.base, c.loaded, c.total, c.def); got != c.want {
			t.Errorf("%s: percentFor(%d MiB, %d MiB, %d, %d, %d) = %d, want %d", c.name,
				c.live/mib, c.base/mib, c.loaded, c.total, c.def, got, c.want)
		}
	}
}

func gogc() int64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// TestStartStop checks that a pacer sets the percentage after each
// collection while files load, and gives the one from before back.
func TestStartStop(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	debug.SetGCPercent(150)
	const total = 1_000_000
	p := Start(total)
	if p == nil {
		t.Fatal("Start returned no pacer")
	}
	// A growing live heap, with a tenth of a percent of the files loaded:
	// the prediction is far above twice the live heap, so the percentage
	// rises above the default (capped or not).
	var keep [][]byte
	for range minLoaded * 2 {
		p.Loaded()
		keep = append(keep, make([]byte, 64<<10))
	}
	raised := false
	for i := 0; i < 20 && !raised; i++ {
		runtime.GC()
		runtime.Gosched()
		raised = gogc() > 150
	}
	runtime.KeepAlive(keep)
	if !raised {
		t.Fatalf("GOGC is %d after loading %d of %d files, want above 150", gogc(), minLoaded*2, total)
	}
	p.Stop()
	if got := gogc(); got != 150 {
		t.Errorf("GOGC is %d after Stop, want 150 (the percentage before Start)", got)
	}
	// A cycle after Stop changes nothing.
	runtime.GC()
	runtime.GC()
	if got := gogc(); got != 150 {
		t.Errorf("GOGC is %d after Stop and two collections, want 150", got)
	}
}

// TestUserSettingsWin checks that no pacer starts when the user set
// GOGC or GOMEMLIMIT, or for a load too small to matter; a nil pacer's
// methods do nothing.
func TestUserSettingsWin(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(env, "200")
			if p := Start(1000); p != nil {
				p.Stop()
				t.Fatalf("Start paced a run with %s set", env)
			}
		})
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	if p := Start(minLoaded - 1); p != nil {
		p.Stop()
		t.Fatalf("Start paced a load of %d files", minLoaded-1)
	}
	var p *Pacer
	p.Loaded()
	p.Stop()
}
