//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used so far, user and
// system, on every thread (getrusage(RUSAGE_SELF)); 0 where it cannot be
// read.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
