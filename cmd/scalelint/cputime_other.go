//go:build !unix

package main

import "time"

// processCPU is not measured here: the phase table's cpu column is empty.
func processCPU() time.Duration { return 0 }
