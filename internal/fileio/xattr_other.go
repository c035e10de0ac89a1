//go:build !linux

package fileio

import "os"

// xattr: extended attributes are carried over on Linux only (see
// xattr_linux.go). Elsewhere a file keeps its mode and owner; macOS's
// ACLs and attributes are not read.
type xattr struct{}

func xattrsOf(FS, string) ([]xattr, error) { return nil, nil }

func setXattrs(FS, *os.File, []xattr) error { return nil }

// OS's extended attribute calls: not made here.
func listxattr(string, []byte) (int, error)           { return 0, ErrUnsupported }
func getxattr(string, string, []byte) (int, error)    { return 0, ErrUnsupported }
func flistxattr(*os.File, []byte) (int, error)        { return 0, ErrUnsupported }
func fgetxattr(*os.File, string, []byte) (int, error) { return 0, ErrUnsupported }
func fsetxattr(*os.File, string, []byte) error        { return ErrUnsupported }
func fremovexattr(*os.File, string) error             { return ErrUnsupported }
