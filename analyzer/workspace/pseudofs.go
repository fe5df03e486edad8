package workspace

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// pseudoFSTypes are the kinds of file system that hold no files a person
// wrote: the kernel's views (proc, sysfs, cgroup…) and device nodes. A
// walk of "/" (a language server opened on the root) would otherwise read
// /proc's thousands of entries, some of which block or never end.
var pseudoFSTypes = map[string]bool{
	"proc": true, "sysfs": true, "devtmpfs": true, "devpts": true, "cgroup": true, "cgroup2": true,
	"debugfs": true, "tracefs": true, "securityfs": true, "pstore": true, "bpf": true, "configfs": true,
	"fusectl": true, "mqueue": true, "hugetlbfs": true, "binfmt_misc": true, "autofs": true,
	"efivarfs": true, "rpc_pipefs": true, "nsfs": true, "selinuxfs": true, "devfs": true,
}

// pseudoMounts are the mount points of pseudo-filesystems, absolute.
type pseudoMounts []string

// holds reports whether dir (absolute, clean) is one of the mount points
// or inside one.
func (m pseudoMounts) holds(dir string) bool {
	for _, p := range m {
		if dir == p || strings.HasPrefix(dir, p+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// PseudoFS returns the mount points of pseudo-filesystems, read from
// /proc/self/mountinfo (none where there is no such file), or the usual
// /proc, /sys and /dev when it cannot be read on Linux.
func PseudoFS() pseudoMounts {
	data, err := os.ReadFile("/proc/self/mountinfo") // a regular-looking proc file, read to its end at once
	if err != nil {
		if _, serr := os.Stat("/proc"); serr == nil {
			return pseudoMounts{"/proc", "/sys", "/dev"}
		}
		return nil
	}
	return parseMountinfo(data)
}

// parseMountinfo reads the pseudo-filesystem mount points of a
// /proc/self/mountinfo text: field 5 is the mount point (octal escapes
// for blanks), the field after " - " the file system type.
func parseMountinfo(data []byte) pseudoMounts {
	var out pseudoMounts
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 7 {
			continue
		}
		for i := 6; i+1 < len(f); i++ {
			if f[i] == "-" {
				if pseudoFSTypes[f[i+1]] {
					out = append(out, unescapeMount(f[4]))
				}
				break
			}
		}
	}
	return out
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			v := 0
			ok := true
			for _, c := range s[i+1 : i+4] {
				if c < '0' || c > '7' {
					ok = false
					break
				}
				v = v*8 + int(c-'0')
			}
			if ok {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
