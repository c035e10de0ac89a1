//go:build linux

package fileio

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// A file's extended attributes: user.* (what programs and users tag it
// with), security.* (an SELinux or Smack label), trusted.* (root's), and
// system.posix_acl_access, its POSIX ACL — under which the group bits of
// its mode are the ACL's mask. A new file has none of the first and
// third, the label its folder and the policy give, and the ACL of its
// folder's default ACL; a file replaced by it would lose what the user
// set. So the new version gets the old one's (StageFile), or the file is
// written in place.

// xattr is one extended attribute.
type xattr struct {
	name  string
	value []byte
}

// aclAccess is the attribute that holds a file's POSIX ACL.
const aclAccess = "system.posix_acl_access"

// xattrsOf reads the extended attributes of the file at path that this
// process may see (a process that is not privileged sees no trusted.*
// ones). A file system without them has none.
func xattrsOf(fsys FS, path string) ([]xattr, error) {
	names, err := listXattrs(func(buf []byte) (int, error) { return fsys.Listxattr(path, buf) })
	if err != nil || len(names) == 0 {
		return nil, err
	}
	out := make([]xattr, 0, len(names))
	for _, name := range names {
		v, err := getXattr(func(buf []byte) (int, error) { return fsys.Getxattr(path, name, buf) })
		switch {
		case errors.Is(err, unix.ENODATA):
			continue // removed meanwhile
		case err != nil:
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, xattr{name: name, value: v})
	}
	return out, nil
}

// setXattrs gives the new file f the attributes want: those it lacks or
// holds with another value are set, and an ACL it got from its folder's
// default ACL that the old file did not have is removed. A label the
// policy gave it is left as it is where the old file had none.
func setXattrs(fsys FS, f *os.File, want []xattr) error {
	have, err := listXattrs(func(buf []byte) (int, error) { return fsys.Flistxattr(f, buf) })
	if err != nil {
		return err
	}
	for _, w := range want {
		if slices.Contains(have, w.name) {
			cur, err := getXattr(func(buf []byte) (int, error) { return fsys.Fgetxattr(f, w.name, buf) })
			if err == nil && bytes.Equal(cur, w.value) {
				continue
			}
		}
		if err := fsys.Fsetxattr(f, w.name, w.value); err != nil {
			return fmt.Errorf("%s: %w", w.name, err)
		}
	}
	if slices.Contains(have, aclAccess) && !slices.ContainsFunc(want, func(w xattr) bool { return w.name == aclAccess }) {
		if err := fsys.Fremovexattr(f, aclAccess); err != nil {
			return fmt.Errorf("%s: %w", aclAccess, err)
		}
	}
	return nil
}

// listXattrs calls list (a listxattr) until its buffer is large enough,
// and splits the names. A file system without extended attributes has
// none.
func listXattrs(list func([]byte) (int, error)) ([]string, error) {
	buf, err := getXattr(list)
	if errors.Is(err, unix.ENOTSUP) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, n := range strings.Split(string(buf), "\x00") {
		if n != "" {
			names = append(names, n)
		}
	}
	return names, nil
}

// getXattr calls get (a getxattr or listxattr) with a buffer of the size
// it asks for, again if the value grew meanwhile (ERANGE).
func getXattr(get func([]byte) (int, error)) ([]byte, error) {
	for range 8 {
		n, err := get(nil)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return []byte{}, nil
		}
		buf := make([]byte, n)
		n, err = get(buf)
		if errors.Is(err, unix.ERANGE) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return buf[:n], nil
	}
	return nil, unix.ERANGE
}

// The system's calls, for OS.
func listxattr(path string, dest []byte) (int, error) { return unix.Listxattr(path, dest) }
func getxattr(path, name string, dest []byte) (int, error) {
	return unix.Getxattr(path, name, dest)
}
func flistxattr(f *os.File, dest []byte) (int, error) { return unix.Flistxattr(int(f.Fd()), dest) }
func fgetxattr(f *os.File, name string, dest []byte) (int, error) {
	return unix.Fgetxattr(int(f.Fd()), name, dest)
}
func fsetxattr(f *os.File, name string, value []byte) error {
	return unix.Fsetxattr(int(f.Fd()), name, value, 0)
}
func fremovexattr(f *os.File, name string) error { return unix.Fremovexattr(int(f.Fd()), name) }
