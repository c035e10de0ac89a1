//go:build linux

package fileio

import (
	"errors"
	"io/fs"

	"golang.org/x/sys/unix"
)

// RenameExchange atomically swaps two paths (renameat2 RENAME_EXCHANGE).
func RenameExchange(a, b string) error {
	return renameat2(a, b, unix.RENAME_EXCHANGE)
}

// RenameNoReplace renames unless the destination exists.
func RenameNoReplace(from, to string) error {
	return renameat2(from, to, unix.RENAME_NOREPLACE)
}

func renameat2(from, to string, flags uint) error {
	err := unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, flags)
	switch {
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EINVAL), errors.Is(err, unix.EOPNOTSUPP):
		return ErrUnsupported // old kernel, or a filesystem without it
	case errors.Is(err, unix.EEXIST):
		return fs.ErrExist
	}
	return err
}
