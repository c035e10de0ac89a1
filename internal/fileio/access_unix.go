//go:build !windows

package fileio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// CheckWritable says why this process may not write the existing file at
// path (fi is its Stat), by the system's own check: owner, group and
// other bits, ACLs, a read-only file system, an immutable file. A rename
// would replace such a file all the same — the folder's permission is
// what a rename needs — taking it from its owner; so it is refused.
func CheckWritable(path string, fi fs.FileInfo) error {
	var err error
	if realIDsAct() {
		// access(2) checks the real IDs, as the kernel does on every
		// version, ACLs included.
		err = unix.Access(path, unix.W_OK)
	} else {
		// The IDs a write would have (faccessat2; on a kernel without
		// it, x/sys checks the mode bits itself).
		err = unix.Faccessat(unix.AT_FDCWD, path, unix.W_OK, unix.AT_EACCESS)
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EROFS):
		return errors.New("is on a read-only file system")
	case errors.Is(err, unix.EPERM):
		return errors.New("cannot be written: it is immutable or append-only (lsattr shows it; chattr -i, -a undo it)")
	case errors.Is(err, unix.EACCES):
		uid, gid := Owner(fi)
		return fmt.Errorf("you (uid %d) may not write it: it belongs to uid %d, gid %d, mode %04o; repo does not replace a file you cannot write. Have it made writable for you, or run repo as its owner", os.Geteuid(), uid, gid, fi.Mode().Perm())
	}
	return err
}

// realIDsAct reports whether this process's real user and group IDs are
// its effective ones. They do not change while repo runs (it never sets
// them), and asking costs four system calls: once per run, not once per
// file (a no-op check of the example workspace asked 12 times).
func realIDsAct() bool {
	idsOnce.Do(func() { idsSame = os.Getuid() == os.Geteuid() && os.Getgid() == os.Getegid() })
	return idsSame
}

var (
	idsOnce sync.Once
	idsSame bool
)
