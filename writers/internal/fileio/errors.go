package fileio

import (
	"errors"
	"io/fs"
	"syscall"
)

func UnwrapPath(err error) error {
	var perr *fs.PathError
	if errors.As(err, &perr) {
		return perr.Err
	}
	return err
}

// IsMissing: the path does not exist, or a folder on it is a file.
func IsMissing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
