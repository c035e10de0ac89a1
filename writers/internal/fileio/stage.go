package fileio

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"github.com/repo-manager/repo/internal/bigmem"
	"github.com/repo-manager/repo/internal/regfile"
)

// A file is replaced in two steps, so that every file of a sync can be
// made ready before any is replaced (see commit.Apply): StageFile writes the new
// content to a temporary file in the same folder, fsynced and read back;
// commitFile (commit.go) then puts it in place.

// TempPrefix is how a staged file of path is named: hidden, next to the
// file, with the staging process's id, so that a later run can tell a
// file left by a killed run from one another run is about to commit.
func TempPrefix(path string) string {
	return "." + filepath.Base(path) + ".repo-" + strconv.Itoa(os.Getpid()) + "-"
}

// CreateTemp creates a new file next to path for staging. perm is
// subject to the umask, as for any new file.
func CreateTemp(path string, perm fs.FileMode) (*os.File, error) {
	prefix := filepath.Join(filepath.Dir(path), TempPrefix(path))
	for range 100 {
		f, err := os.OpenFile(prefix+strconv.FormatUint(uint64(rand.Uint32()), 10), os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, &fs.PathError{Op: "createtemp", Path: prefix + "*", Err: fs.ErrExist}
}

// keptModeBits are the mode bits a rewrite keeps: the permissions and
// setuid, setgid and sticky (fs.FileMode.Perm drops the last three).
const keptModeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// StageFile writes data to a new temporary file next to path and returns
// its name. If path exists, the temporary file gets its mode (setgid
// included) and, where repo may, its owner; a new file gets newPerm less
// the umask, as any program's new file does.
func StageFile(path string, data []byte, newPerm fs.FileMode) (name string, err error) {
	var keep *fs.FileMode
	uid, gid := -1, -1
	if fi, err := os.Stat(path); err == nil {
		m := fi.Mode() & keptModeBits
		keep = &m
		uid, gid = Owner(fi)
		newPerm = 0o600 // until the chmod below: never readable by more than the file was
	}
	tmp, err := CreateTemp(path, newPerm)
	if err != nil {
		return "", err
	}
	if err := writeSynced(tmp, data, keep, uid, gid); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// writeSynced writes data to the new file f, gives it the mode keep (if
// not nil) and owner uid:gid (where they differ from ours and the OS lets
// us), fsyncs it and reads it back. The owner comes first: a chown clears
// setuid and setgid. For a large file the read-back runs while the fsync
// waits for the disk: both must succeed, and neither depends on the other.
func writeSynced(f *os.File, data []byte, keep *fs.FileMode, uid, gid int) error {
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if uid >= 0 && (uid != os.Getuid() || gid != os.Getgid()) {
		_ = f.Chown(uid, gid) // keep the owner where we may; an ordinary user cannot
	}
	if keep != nil {
		if err := f.Chmod(*keep); err != nil {
			return err
		}
	}
	readBack := func() error {
		// Through f: the file a fresh open of its name would give.
		if !ContentEquals(f, data) {
			return errors.New("reading the new file back gave different bytes; check the disk")
		}
		return nil
	}
	var back chan error
	if len(data) >= bigmem.MapThreshold {
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

// FileEquals reports whether the file at path is a regular file holding
// exactly want. With the read-back, three such compares run per written
// file; a large file (a ~/.claude.json can be 100 MB) is mapped and
// compared in place, a small one read into a buffer of its size.
func FileEquals(path string, want []byte) bool {
	f, _, err := regfile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return ContentEquals(f, want)
}

// ContentEquals is FileEquals for a file already open: it reads f from
// its start, whatever f's offset.
func ContentEquals(f *os.File, want []byte) bool {
	fi, err := f.Stat()
	if err != nil || fi.Size() != int64(len(want)) {
		return false
	}
	if len(want) >= bigmem.MapThreshold {
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
		m, err := bigmem.MapRange(f, off, n)
		if err != nil {
			return false, off > 0
		}
		err = WithFaults(func() error { eq = bigmem.Equal(m, want[off:off+n]); return nil })
		bigmem.Unmap(m)
		if err != nil || !eq {
			return false, true
		}
	}
	return true, true
}

var ErrUnsupported = errors.New("not supported")

// staleAfter is how old a staged file must be before a later run removes
// it: older than any run, whether or not its process is still there
// (process ids are reused, and a dev container does not see the host's).
// StaleDeadAfter is the age from which one whose process is gone goes.
var (
	staleAfter     = 24 * time.Hour
	StaleDeadAfter = time.Minute
)

// stagedName matches the name of a staged file: the name of the file it
// was staged for (submatch 1), and the process id of this version of repo
// (submatch 2; earlier versions wrote none). The suffix holds no dot, so
// the file's name is everything before the last ".repo-".
var stagedName = regexp.MustCompile(`^\.(.+)\.repo-(?:([0-9]+)-)?[0-9]+$`)

// RemoveStale removes what killed runs left next to the given files:
// staged files that were never committed, and replaced files that were
// never cleared (both are named by tempPrefix). Only names staged for
// these very files are looked at, so nothing of the user's is touched.
func RemoveStale(paths []string) {
	byDir := map[string]map[string]bool{}
	for _, p := range paths {
		dir := filepath.Dir(p)
		if byDir[dir] == nil {
			byDir[dir] = map[string]bool{}
		}
		byDir[dir][filepath.Base(p)] = true
	}
	now := time.Now()
	for dir, bases := range byDir {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || len(e.Name()) < 2 || e.Name()[0] != '.' {
				continue
			}
			m := stagedName.FindStringSubmatch(e.Name())
			if m == nil || !bases[m[1]] {
				continue
			}
			fi, err := e.Info()
			if err != nil {
				continue
			}
			// The change time: a replaced file kept aside has the
			// modification time of its last write, maybe long ago,
			// but its rename aside changed its change time.
			age := now.Sub(VersionOf(fi).changedAt())
			pid, _ := strconv.Atoi(m[2])
			if age > staleAfter || (age > StaleDeadAfter && (pid == 0 || !ProcessAlive(pid))) {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
}
