package output

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Every file scalelint writes goes through WriteFile: --output of every
// command, --write-baseline and --fix. What it does depends on what the
// path is:
//
//   - a regular file, or nothing yet: written through a temporary file
//     beside it, renamed over it once the write succeeded, so a reader
//     never sees a partial file and a failed run never replaces a good
//     one. An existing file keeps its mode (and, for root, its owner); a
//     new one gets 0644, as files users create do. A file with other hard
//     links is rewritten in place instead (after the temporary file was
//     written in full), so the links keep sharing it;
//   - a symbolic link: the file it points to is written as above (the
//     link stays a link, even when its target does not exist yet);
//   - a character device or a FIFO (/dev/null, /dev/stdout, a named pipe
//     a CI step reads): written directly, never replaced;
//   - a directory, a socket or a block device: an error naming the path.
//
// "-" means standard output (IsStdout): the callers write there.

// IsStdout reports whether an --output path means standard output: none,
// or "-".
func IsStdout(path string) bool { return path == "" || path == "-" }

// WriteFile writes path with write, as the comment above says.
func WriteFile(path string, write func(io.Writer) error) error {
	st, err := os.Stat(path) // follows links: what a write would reach
	switch {
	case err == nil && st.IsDir():
		return fmt.Errorf("%s: is a directory", path)
	case err == nil && st.Mode()&(fs.ModeCharDevice|fs.ModeNamedPipe) != 0:
		return writeDirect(path, write)
	case err == nil && !st.Mode().IsRegular():
		return fmt.Errorf("%s: not a regular file, a character device or a FIFO: not written", path)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	target, err := linkTarget(path)
	if err != nil {
		return err
	}
	if err := writeAtomic(target, st, write); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return nil
}

// writeDirect writes a device or a FIFO as it is.
func writeDirect(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := write(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// linkTarget returns the file a chain of symbolic links at path ends at
// (path itself when it is not a link), even when that file does not exist
// yet: writing there keeps the links.
func linkTarget(path string) (string, error) {
	for hops := 0; ; hops++ {
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return path, nil // not a link (or nothing there): the target
		}
		if hops == 40 {
			return "", fmt.Errorf("%s: too many levels of symbolic links", path)
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
}

// writeAtomic writes the regular file (or absent path) target through a
// temporary file; st is its stat when it exists.
func writeAtomic(target string, st fs.FileInfo, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(target), ".scalelint-*.tmp")
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
	if st != nil && links(st) > 1 {
		// Renaming would leave the other links with the old content:
		// copy the content, written in full, into the file itself.
		defer tmp.Close()
		return copyInto(target, tmp)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	mode := fs.FileMode(0o644) // CreateTemp made it 0600
	if st != nil {
		mode = st.Mode().Perm()
		keepOwner(tmp.Name(), st)
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), target)
}

// copyInto replaces the content of path with src's, in place.
func copyInto(path string, src *os.File) error {
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, src); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// Named is an output path and the flag that gave it.
type Named struct{ Flag, Path string }

// GuardInputs refuses to write an output over one of the files read:
// "--output in.yaml in.yaml" would replace the manifest with its report.
// outputs are the paths given (standard output is skipped), inputs the
// files read; a path names an input when both are the same file (links
// followed).
func GuardInputs(outputs []Named, inputs []string) error {
	var existing []Named
	var sts []fs.FileInfo
	for _, o := range outputs {
		if IsStdout(o.Path) {
			continue
		}
		if st, err := os.Stat(o.Path); err == nil && st.Mode().IsRegular() {
			existing = append(existing, o)
			sts = append(sts, st)
		}
	}
	if len(existing) == 0 {
		return nil
	}
	for _, in := range inputs {
		ist, err := os.Stat(in)
		if err != nil {
			continue
		}
		for i, st := range sts {
			if os.SameFile(st, ist) {
				return fmt.Errorf("%s %s: is one of the inputs (%s); not overwritten", existing[i].Flag, existing[i].Path, in)
			}
		}
	}
	return nil
}
