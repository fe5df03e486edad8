package initgc

import (
	"os"
	"runtime/debug"
	"strconv"
	"testing"
)

// The test binary initialises this package as the command does: the
// collector is off until Restore, which brings back GOGC's percentage.
func TestOffUntilRestore(t *testing.T) {
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("collector percentage after initialisation = %d, want -1 (off)", got)
	}
	Restore()
	// The runtime's reading of GOGC (runtime/mgcpacer.go, readGOGC):
	// "off" is -1, a number is itself, anything else (unset too) is 100.
	want := 100
	if v := os.Getenv("GOGC"); v == "off" {
		want = -1
	} else if n, err := strconv.Atoi(v); err == nil {
		want = n
	}
	if saved != want {
		t.Errorf("saved percentage = %d, want GOGC's %d", saved, want)
	}
	if got := debug.SetGCPercent(want); got != want {
		t.Errorf("percentage after Restore = %d, want %d", got, want)
	}
}
