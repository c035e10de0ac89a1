package fileio

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// UnwrapPath is the system's error without the paths it names, which
// repo's messages name by the user's own names (FilePlan.Display) and
// never by a staged copy's.
func UnwrapPath(err error) error {
	var perr *fs.PathError
	if errors.As(err, &perr) {
		return perr.Err
	}
	var lerr *os.LinkError
	if errors.As(err, &lerr) {
		return lerr.Err
	}
	return err
}

// IsMissing: the path does not exist, or a folder on it is a file.
func IsMissing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
