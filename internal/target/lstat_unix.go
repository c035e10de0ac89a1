//go:build unix

package target

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// lstatLink is os.Lstat reduced to what the memo asks — is p a symbolic
// link, or why it cannot be looked at — without the FileInfo os.Lstat
// allocates: the memo looks at every folder of every path a run holds
// (40 KB of a no-op check's 750 KB). The error is os.Lstat's.
func lstatLink(p string) (bool, error) {
	var st unix.Stat_t
	err := unix.Lstat(p, &st)
	for err == unix.EINTR { // as os.Lstat retries
		err = unix.Lstat(p, &st)
	}
	if err != nil {
		return false, &fs.PathError{Op: "lstat", Path: p, Err: err}
	}
	return st.Mode&unix.S_IFMT == unix.S_IFLNK, nil
}
