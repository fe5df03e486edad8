//go:build unix

package workspace

import (
	"io"
	"os"
	"syscall"
)

// readLimitedInto is ReadLimitedInto with four system calls for a file
// that is as its stat says: open with O_NONBLOCK (opening a FIFO for reading then returns at once
// instead of waiting for a writer; to a regular file it means nothing), fstat
// (anything but a regular file refused before a read), one read of its
// size and a spare byte, close. Through os.File it took six or seven: the
// file registered with the network poller (which refuses regular files),
// its stat, a read of its size, a second read to find its end, close. A
// read that returns the size the stat gave is the file's end (a regular
// file reads short only there); a shorter one is read on to the end (a
// filesystem may read short), and one that fills the spare byte (the file
// grew, or its size is not its length, as in /proc), or a file over the
// limit, is read on through os.File, to the limit.
func readLimitedInto(path string, limit int64, buf []byte) ([]byte, error) {
	fd, err := retryEINTR(func() (int, error) {
		return syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if _, err := retryEINTR(func() (int, error) { return 0, syscall.Fstat(fd, &st) }); err != nil {
		syscall.Close(fd)
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return nil, &os.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	size := st.Size
	if size > limit {
		f := os.NewFile(uintptr(fd), path)
		defer f.Close()
		return io.ReadAll(io.LimitReader(f, limit+1))
	}
	if int64(cap(buf)) > size {
		buf = buf[:size+1]
	} else {
		buf = make([]byte, size+1)
	}
	n := 0
	for {
		m, err := retryEINTR(func() (int, error) { return syscall.Read(fd, buf[n:]) })
		if err != nil {
			syscall.Close(fd)
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		}
		n += m
		if m == 0 || int64(n) == size || n == len(buf) {
			break
		}
	}
	if n < len(buf) {
		syscall.Close(fd)
		return buf[:n], nil
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	rest, err := io.ReadAll(io.LimitReader(f, limit+1-int64(n)))
	return append(buf[:n], rest...), err
}

// retryEINTR calls f until it is not interrupted by a signal.
func retryEINTR(f func() (int, error)) (int, error) {
	for {
		n, err := f()
		if err != syscall.EINTR {
			return n, err
		}
	}
}
