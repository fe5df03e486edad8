//go:build unix

package workspace

import (
	"os"
	"syscall"
)

// openNonBlocking opens path with O_NONBLOCK: opening a FIFO for reading
// then returns at once instead of waiting for a writer (a regular file
// reads as usual; O_NONBLOCK means nothing to it).
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
