//go:build unix

package gittrack

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUs reports whether this user owns the file fi describes, as git
// requires of a repository's folders before it reads them (safe.directory
// aside, which git itself decides).
func ownedByUs(_ string, fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
