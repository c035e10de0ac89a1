//go:build linux

package fileio

import (
	"errors"
	"io/fs"

	"golang.org/x/sys/unix"
)

func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

func renameNoReplace(from, to string) error {
	return unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
}

// renameErr says what a renameat2's error means.
func renameErr(err error) error {
	switch {
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EINVAL), errors.Is(err, unix.EOPNOTSUPP):
		return ErrUnsupported // old kernel, or a filesystem without it
	case errors.Is(err, unix.EEXIST):
		return fs.ErrExist
	}
	return err
}
