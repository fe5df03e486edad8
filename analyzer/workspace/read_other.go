//go:build !unix

package workspace

import "os"

// openNonBlocking opens path for reading (no FIFOs to wait on here).
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
