//go:build !linux

package fileio

import (
	"errors"
	"io/fs"
)

func exchange(a, b string) error            { return ErrUnsupported }
func renameNoReplace(from, to string) error { return ErrUnsupported }

// renameErr: a destination that exists is fs.ErrExist, as on Linux.
func renameErr(err error) error {
	if errors.Is(err, fs.ErrExist) {
		return fs.ErrExist
	}
	return err
}
