package main

import (
	"os"
	"runtime"
	"runtime/pprof"
)

// heapSnapshot writes the heap profile at the moment it is called (the
// check command calls it when the workspace and findings are all live, the
// run's peak); a no-op without --memprofile.
var heapSnapshot = func() {}

// startProfiles starts a CPU profile and arranges a heap profile; the
// returned function stops the CPU profile.
func startProfiles(cpu, mem string) (func(), error) {
	var cpuFile *os.File
	if cpu != "" {
		f, err := os.Create(cpu)
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, err
		}
		cpuFile = f
	}
	if mem != "" {
		heapSnapshot = func() {
			if f, err := os.Create(mem); err == nil {
				runtime.GC()
				pprof.WriteHeapProfile(f)
				f.Close()
			}
		}
	}
	return func() {
		if cpuFile != nil {
			pprof.StopCPUProfile()
			cpuFile.Close()
		}
	}, nil
}
