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

// A file is replaced in two steps, so that every file of a sync can be
// made ready before any is replaced (see Apply): stageFile writes the
// new content to a temporary file in the same folder, fsynced and read
// back; commitFile renames it over the file. The rename is conditional:
// it must replace exactly the bytes repo planned from (expect), so a tool
// that rewrote the file meanwhile is not clobbered (ErrChanged). On Linux
// the condition is checked atomically with renameat2(RENAME_EXCHANGE) —
// swap, look at what was swapped out, swap back if it was not what was
// planned; elsewhere it is a read just before the rename. syncDir then
// makes the rename durable. path must be the symlink-resolved target.

// stageFile writes data to a new temporary file next to path, with path's
// mode and owner if it exists, and returns the temporary file's name.
func stageFile(path string, data []byte, mode fs.FileMode) (name string, err error) {
	var uid, gid = -1, -1
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			uid, gid = int(st.Uid), int(st.Gid)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".repo-*")
	if err != nil {
		return "", err
	}
	if err := writeSynced(tmp, data, mode, uid, gid); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// discardStaged removes a staged file that will not be committed.
func discardStaged(name string) { os.Remove(name) }

// commitFile renames the staged file name over path, on the condition
// above (mode was applied when staging). On an error the staged file is
// gone.
func commitFile(name, path string, data, expect []byte, _ fs.FileMode, existed bool) (err error) {
	defer func() {
		if err != nil {
			os.Remove(name)
		}
	}()
	if !existed {
		switch err := renameNoReplace(name, path); {
		case err == nil:
			return nil
		case errors.Is(err, fs.ErrExist):
			return ErrChanged
		case !errors.Is(err, errUnsupported):
			return err
		}
		if _, err := os.Lstat(path); err == nil {
			return ErrChanged
		}
		return os.Rename(name, path)
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
			return nil
		}
		// Another program wrote the file after repo read it: put its
		// version back, unless it has written yet again over ours.
		if fileEquals(path, data) {
			_ = renameExchange(name, path)
		}
		return ErrChanged
	case !errors.Is(err, errUnsupported):
		return err
	}
	if !fileEquals(path, expect) {
		return ErrChanged
	}
	return os.Rename(name, path)
}

// writeAtomic is stageFile, commitFile and syncDir for one file.
func writeAtomic(path string, data []byte, mode fs.FileMode, expect []byte, existed bool) error {
	name, err := stageFile(path, data, mode)
	if err != nil {
		return err
	}
	if err := commitFile(name, path, data, expect, mode, existed); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
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
		if eq, ok := mappedEquals(f, want); ok {
			return eq
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

// compareWindow is how much of a file mappedEquals maps at a time.
const compareWindow = 16 << 20

// mappedEquals compares f with want in place, a window at a time: a
// whole 100 MB file mapped at once would count in the process's memory on
// top of the two 100 MB buffers a sync of it holds (the snapshot and the
// new version), past three times the file. ok is false when f cannot be
// mapped at all.
func mappedEquals(f *os.File, want []byte) (eq, ok bool) {
	for off := 0; off < len(want); off += compareWindow {
		n := min(compareWindow, len(want)-off)
		m, err := mapRange(f, off, n)
		if err != nil {
			return false, off > 0
		}
		err = withFaults(func() error { eq = bigmem.Equal(m, want[off:off+n]); return nil })
		unmapFile(m)
		if err != nil || !eq {
			return false, true
		}
	}
	return true, true
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

// syncDir makes the renames into dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer d.Close()
	_ = d.Sync()
	return nil
}
