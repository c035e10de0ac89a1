// Package regfile opens the files repo reads — tool configs, manifests, MCP
// files, workspace config, ownership records — for what they must be:
// regular files, or symbolic links to them. Anything else is refused
// before it is read, and an open never blocks: a FIFO opened for reading
// waits for a writer forever (holding the workspace lock), and reading a
// device such as /dev/zero never ends.
package regfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// NotRegularError is a path that is not a regular file. Its message leaves
// out the path: callers name the file as their users know it.
type NotRegularError struct {
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("is %s, not a regular file; repo reads and writes only regular files (or symbolic links to them)", Kind(e.Mode))
}

// Kind names a file type for a message.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file"
}

// Check returns a *NotRegularError unless fi describes a regular file.
func Check(fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return &NotRegularError{Mode: fi.Mode()}
}

// Opener is what Open and OpenWrite need of a file system. os is the
// default; internal/fileio's FS is one, so that a commit's opens go
// through its seam (and a test can fail them).
type Opener interface {
	Stat(path string) (fs.FileInfo, error)
	OpenFile(path string, flag int, perm fs.FileMode) (*os.File, error)
}

// osOpener is Opener by the os package.
type osOpener struct{}

func (osOpener) Stat(path string) (fs.FileInfo, error) { return os.Stat(path) }

func (osOpener) OpenFile(path string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}

// Open opens path for reading if it is a regular file, following symbolic
// links, and returns it with its FileInfo (from the open file, so it
// describes what is read). The type is checked before the open, so a device
// is never opened, and again after it, on the open file: path may have been
// replaced in between.
func Open(path string) (*os.File, fs.FileInfo, error) { return OpenIn(osOpener{}, path) }

// OpenIn is Open through o.
func OpenIn(o Opener, path string) (*os.File, fs.FileInfo, error) {
	fi, err := o.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := Check(fi); err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f, err := o.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err == nil {
		err = Check(fi)
	}
	if err != nil {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return f, fi, nil
}

// OpenWrite opens path for reading and writing in place if it is a
// regular file, without blocking on anything else (see Open).
func OpenWrite(path string) (*os.File, error) { return OpenWriteIn(osOpener{}, path) }

// OpenWriteIn is OpenWrite through o.
func OpenWriteIn(o Opener, path string) (*os.File, error) {
	f, err := o.OpenFile(path, os.O_RDWR|openFlags, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = Check(fi)
	}
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return f, nil
}

// readFileOS is ReadFile through Open and an os.File: ReadFile where there
// is no unix, and what the unix one is held to (TestReadFileAsOS).
func readFileOS(path string) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	buf.Grow(int(min(fi.Size(), 1<<30)) + 512)
	_, err = buf.ReadFrom(f)
	return buf.Bytes(), err
}

// IsNotRegular reports whether err is, or wraps, a *NotRegularError.
func IsNotRegular(err error) bool {
	var nr *NotRegularError
	return errors.As(err, &nr)
}
