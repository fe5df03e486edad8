//go:build !unix

package workspace

import (
	"io"
	"os"
)

// openNonBlocking opens path for reading (no FIFOs to wait on here).
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }

// readLimitedInto is ReadLimitedInto through os.File.
func readLimitedInto(path string, limit int64, buf []byte) ([]byte, error) {
	f, st, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpen(f, st.Size(), limit, buf)
}

// readOpen reads an open regular file of the size its stat gave, at most
// limit+1 bytes, into buf's memory when it holds the file and a spare byte.
func readOpen(f *os.File, size, limit int64, buf []byte) ([]byte, error) {
	r := io.LimitReader(f, limit+1)
	if size <= limit {
		if int64(cap(buf)) > size {
			buf = buf[:size]
		} else {
			buf = make([]byte, size, size+1)
		}
		n, err := io.ReadFull(r, buf)
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			return buf[:n], nil // it shrank since the stat
		}
		if err != nil {
			return nil, err
		}
		// Whether it grew since the stat (or its size is not its
		// length, as in /proc): one more read, into the spare byte.
		if m, err := io.ReadFull(r, buf[size:size+1]); m == 0 {
			if err == io.EOF {
				return buf, nil
			}
			return buf, err
		}
		rest, err := io.ReadAll(r)
		return append(buf[:size+1], rest...), err
	}
	return io.ReadAll(r)
}

// openRegular opens path for reading without waiting for a writer (a
// FIFO) or a device, and returns it, with what it said of itself, only
// when it is a regular file.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, &os.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return f, st, nil
}
