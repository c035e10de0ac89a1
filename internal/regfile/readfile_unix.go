//go:build unix

package regfile

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// ReadFile reads the regular file at path, following symbolic links, as
// Open does — the type checked before the open and again on the open file
// — but with the system calls themselves: an os.File costs a failed
// poller registration (epoll_ctl) and a finalizer per file, and a run
// reads some thirty small files (BenchmarkReadFile). Its errors are the
// ones Open and a read of an os.File return.
func ReadFile(path string) ([]byte, error) {
	var st unix.Stat_t
	if err := stat(path, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if err := checkStat(&st); err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	fd, err := open(path)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	if err := fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: &fs.PathError{Op: "stat", Path: path, Err: err}}
	}
	if err := checkStat(&st); err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	b := make([]byte, 0, int(min(st.Size, 1<<30))+512)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // the file grew: room for more
		}
		n, err := read(fd, b[len(b):cap(b)])
		if err != nil {
			return b, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n <= 0 {
			return b, nil
		}
		b = b[:len(b)+n]
	}
}

// stat, open, fstat and read are the system calls, retried while a signal
// interrupts them, as os retries them.

func stat(path string, st *unix.Stat_t) error {
	for {
		if err := unix.Stat(path, st); err != unix.EINTR {
			return err
		}
	}
}

func open(path string) (int, error) {
	for {
		fd, err := unix.Open(path, unix.O_RDONLY|openFlags|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

func fstat(fd int, st *unix.Stat_t) error {
	for {
		if err := unix.Fstat(fd, st); err != unix.EINTR {
			return err
		}
	}
}

func read(fd int, b []byte) (int, error) {
	for {
		n, err := unix.Read(fd, b)
		if err != unix.EINTR {
			return n, err
		}
	}
}

// checkStat is Check for what stat(2) says.
func checkStat(st *unix.Stat_t) error {
	if uint32(st.Mode)&unix.S_IFMT == unix.S_IFREG {
		return nil
	}
	return &NotRegularError{Mode: modeOf(uint32(st.Mode))}
}

// modeOf is the type bits of a stat(2) mode as an fs.FileMode, as os.Stat
// gives them (Kind reads only these).
func modeOf(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFBLK:
		return fs.ModeDevice
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFSOCK:
		return fs.ModeSocket
	}
	return fs.ModeIrregular
}
