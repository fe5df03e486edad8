//go:build unix

package output

import (
	"io/fs"
	"os"
	"syscall"
)

// links returns the number of hard links of a file.
func links(st fs.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Nlink)
	}
	return 1
}

// keepOwner gives the temporary file that replaces a file the owner of
// that file: root, who writes a file of another user's, must not leave
// it root's. Anyone else cannot, and need not (the file is theirs).
func keepOwner(path string, st fs.FileInfo) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok || os.Geteuid() != 0 {
		return
	}
	_ = os.Lchown(path, int(s.Uid), int(s.Gid))
}
