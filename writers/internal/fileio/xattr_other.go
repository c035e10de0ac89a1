//go:build !linux

package fileio

import "os"

// xattr: extended attributes are carried over on Linux only (see
// xattr_linux.go). Elsewhere a file keeps its mode and owner; macOS's
// ACLs and attributes are not read.
type xattr struct{}

func xattrsOf(string) ([]xattr, error) { return nil, nil }

func setXattrs(*os.File, []xattr) error { return nil }
