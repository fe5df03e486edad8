package output

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes a file through a temporary file beside it, renamed over
// it once write succeeded: a reader never sees a partial file, and a
// failed run never replaces a good one. An existing file keeps its mode; a
// new one gets 0644, as files users create do. Every file scalelint
// writes goes through here: --output of every command, --write-baseline
// and --fix.
func WriteFile(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".scalelint-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	bw := bufio.NewWriterSize(tmp, 64<<10)
	if err := write(bw); err != nil {
		tmp.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	mode := os.FileMode(0o644) // CreateTemp made it 0600
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
