//go:build !windows

package trust

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByMe reports whether fi belongs to the user repo runs as, and
// otherwise to whom.
func ownedByMe(fi fs.FileInfo) (uid int, mine bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return -1, true // a file system that has no owners
	}
	return int(st.Uid), int(st.Uid) == os.Geteuid()
}

// othersMayWrite reports whether the group or everyone may write fi.
func othersMayWrite(fi fs.FileInfo) bool { return fi.Mode().Perm()&0o022 != 0 }
