//go:build !windows

package writers

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"syscall"

	"github.com/repo-manager/repo/internal/bigmem"
)

// writeAtomic replaces path with data: a temporary file in the same folder
// is written, fsynced and read back, then renamed over path. The rename is
// conditional: it must replace exactly the bytes repo planned from
// (expect), so a tool that rewrote the file meanwhile is not clobbered
// (ErrChanged). On Linux the condition is checked atomically with
// renameat2(RENAME_EXCHANGE) — swap, look at what was swapped out, swap
// back if it was not what was planned; elsewhere it is a read just before
// the rename. path must already be the symlink-resolved target.
func writeAtomic(path string, data []byte, mode fs.FileMode, expect []byte, existed bool) (err error) {
	var uid, gid = -1, -1
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			uid, gid = int(st.Uid), int(st.Gid)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".repo-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer func() {
		if err != nil {
			os.Remove(name)
		}
	}()
	if err := writeSynced(tmp, data, mode, uid, gid); err != nil {
		return err
	}
	if !existed {
		switch err := renameNoReplace(name, path); {
		case err == nil:
			return syncDir(path)
		case errors.Is(err, fs.ErrExist):
			return ErrChanged
		case !errors.Is(err, errUnsupported):
			return err
		}
		if _, err := os.Lstat(path); err == nil {
			return ErrChanged
		}
		return renameAndSync(name, path)
	}
	// The tool usually writes while repo plans, not in the microseconds of
	// the swap: check first, so its update is not hidden even for the
	// instant between a swap and the swap back.
	if !fileEquals(path, expect) {
		return ErrChanged
	}
	switch err := renameExchange(name, path); {
	case err == nil:
		if fileEquals(name, expect) { // what was at path an instant ago
			os.Remove(name)
			return syncDir(path)
		}
		// Another program wrote the file after repo read it: put its
		// version back, unless it has written yet again over ours.
		if fileEquals(path, data) {
			_ = renameExchange(name, path)
		}
		os.Remove(name)
		return ErrChanged
	case !errors.Is(err, errUnsupported):
		return err
	}
	if !fileEquals(path, expect) {
		return ErrChanged
	}
	return renameAndSync(name, path)
}

// fileEquals reports whether the file at path holds exactly want. With the
// read-back, three such compares run per written file; a large file (a
// ~/.claude.json can be 100 MB) is mapped and compared in place, a small
// one read into a buffer of its size.
func fileEquals(path string, want []byte) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return contentEquals(f, want)
}

// contentEquals is fileEquals for a file already open: it reads f from
// its start, whatever f's offset.
func contentEquals(f *os.File, want []byte) bool {
	fi, err := f.Stat()
	if err != nil || fi.Size() != int64(len(want)) {
		return false
	}
	if len(want) >= mapThreshold {
		if m, err := mapFile(f, len(want)); err == nil {
			defer unmapFile(m)
			eq := false
			err := withFaults(func() error { eq = bigmem.Equal(m, want); return nil })
			return err == nil && eq
		}
	}
	// One byte more than expected, to see a file that grew since Stat.
	buf := make([]byte, min(len(want)+1, 1<<20))
	r := io.NewSectionReader(f, 0, math.MaxInt64)
	for {
		n, err := io.ReadFull(r, buf)
		if n > len(want) || !bytes.Equal(buf[:n], want[:n]) {
			return false
		}
		want = want[n:]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return len(want) == 0
		}
		if err != nil {
			return false
		}
	}
}

var errUnsupported = errors.New("not supported")

// writeSynced writes data to the new file f, fsyncs it and reads
// it back. For a large file the read-back runs while the fsync waits for
// the disk: both must succeed, and neither depends on the other.
func writeSynced(f *os.File, data []byte, mode fs.FileMode, uid, gid int) error {
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if uid >= 0 && (uid != os.Getuid() || gid != os.Getgid()) {
		_ = f.Chown(uid, gid) // keep the owner where we may; an ordinary user cannot
	}
	readBack := func() error {
		// Through f: the file a fresh open of its name would give.
		if !contentEquals(f, data) {
			return errors.New("reading the new file back gave different bytes; check the disk")
		}
		return nil
	}
	var back chan error
	if len(data) >= mapThreshold {
		back = make(chan error, 1)
		go func() { back <- readBack() }()
	}
	err := f.Sync()
	if back != nil {
		err = errors.Join(err, <-back)
	} else if err == nil {
		err = readBack()
	}
	if err != nil {
		return err
	}
	return f.Close()
}

func renameAndSync(from, to string) error {
	if err := os.Rename(from, to); err != nil {
		return err
	}
	return syncDir(to)
}

// syncDir makes the rename itself durable.
func syncDir(path string) error {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return nil
	}
	defer d.Close()
	_ = d.Sync()
	return nil
}
