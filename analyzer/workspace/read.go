package workspace

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Every file scalelint reads (manifests, the configuration, a baseline,
// a file --fix is about to write, the language server's index and watched
// files) is read through ReadLimited or ReadWhole: opened without
// blocking, read only when it is a regular file, and at most one byte
// over a size limit. A FIFO, a device or a socket at a manifest's path
// (one named on the command line, one a directory walk listed that was
// replaced since, or one an editor reports as changed) would otherwise
// block the read forever, or /dev/zero fill memory.

// ErrNotRegular is returned for a path that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError is returned by ReadWhole for a file over its limit.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("over the size limit of %d bytes", e.Limit)
}

// ReadLimited reads a regular file, but at most limit+1 bytes: a file
// over the limit is reported by the parser without being read in full. A
// regular file is read into a buffer of its size, in one allocation.
func ReadLimited(path string, limit int64) ([]byte, error) {
	return ReadLimitedInto(path, limit, nil)
}

// ReadLimitedInto is ReadLimited into buf's memory when its capacity holds
// the file and a spare byte (manifest.TextBuffer), else into a buffer of
// its own.
func ReadLimitedInto(path string, limit int64, buf []byte) ([]byte, error) {
	return readLimitedInto(path, limit, buf)
}

// ReadWhole reads a regular file of at most limit bytes (a configuration,
// a baseline): a larger one is a *TooLargeError, read no further than
// limit+1 bytes.
func ReadWhole(path string, limit int64) ([]byte, error) {
	data, err := ReadLimited(path, limit)
	if err == nil && int64(len(data)) > limit {
		return nil, &os.PathError{Op: "read", Path: path, Err: &TooLargeError{limit}}
	}
	return data, err
}

// ReadStdin reads at most limit+1 bytes of r (stdin, which may be
// /dev/zero or a pipe that never ends): the parser refuses more.
func ReadStdin(r io.Reader, limit int64) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, limit+1))
}
