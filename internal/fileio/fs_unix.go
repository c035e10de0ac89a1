//go:build !windows

package fileio

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// WritesInPlace: files are replaced by rename (see internal/commit/commit.go).
const WritesInPlace = false

// Owner is the file's owner and group.
func Owner(fi fs.FileInfo) (uid, gid int) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid), int(st.Gid)
	}
	return -1, -1
}

// RenameImpossible: the rename failed because of where the file is, not
// what it is: a mount point (a single-file bind mount) or another file
// system than the folder's.
func RenameImpossible(err error) bool {
	return errors.Is(err, syscall.EBUSY) || errors.Is(err, syscall.EXDEV)
}

// ProcessAlive reports whether a process with this id is running (in this
// PID namespace).
func ProcessAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// SyncDir asks the file system to make the renames into dir durable. It
// is best effort for its callers: a folder that cannot be fsynced leaves
// them to the file system's own timing (see commit.syncDirs).
func SyncDir(fsys FS, dir string) error {
	d, err := fsys.OpenFile(dir, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	defer d.Close()
	return fsys.Sync(d)
}

// LinkCount is the number of hard links to the file.
func LinkCount(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// Umask is the process's file mode creation mask, which the kernel takes
// from every new file's mode (Diff shows the mode a new file will get).
// Linux says it in /proc/self/status; elsewhere it is the mask read when
// the program started, the only moment setting it to read it is safe.
func Umask() fs.FileMode {
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Umask:"); ok {
				if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
					return fs.FileMode(m)
				}
			}
		}
	}
	return startUmask
}

var startUmask = func() fs.FileMode {
	m := syscall.Umask(0o022)
	syscall.Umask(m)
	return fs.FileMode(m)
}()
