package fileio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/repo-manager/repo/internal/bigmem"
	"github.com/repo-manager/repo/internal/lazy"
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

// StagedOf is the file a staged name (TempPrefix) was staged for, and
// whether name is one.
func StagedOf(name string) (path string, ok bool) {
	m := stagedName.Get().FindStringSubmatch(filepath.Base(name))
	if m == nil {
		return "", false
	}
	return filepath.Join(filepath.Dir(name), m[1]), true
}

// CreateTemp creates a new file next to path for staging. perm is
// subject to the umask, as for any new file.
func CreateTemp(fsys FS, path string, perm fs.FileMode) (*os.File, error) {
	prefix := filepath.Join(filepath.Dir(path), TempPrefix(path))
	for range 100 {
		f, err := fsys.OpenFile(prefix+strconv.FormatUint(uint64(rand.Uint32()), 10), os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, &fs.PathError{Op: "createtemp", Path: prefix + "*", Err: fs.ErrExist}
}

// keptModeBits are the mode bits a rewrite keeps: the permissions and
// setuid, setgid and sticky (fs.FileMode.Perm drops the last three).
const keptModeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// Staged is a new version of a file, written next to it by StageFile,
// until it is committed (renamed into place) or removed.
type Staged struct {
	// Name is the staged file; "" when the file is to be written in place
	// (InPlace).
	Name string
	// InPlace, when not nil, says why the new version cannot be a new
	// file: the file has an owner, an ACL or extended attributes that a
	// new file cannot be given. Replacing it would change who may read
	// or write it, so it is written in place instead.
	InPlace error
	// hold is the staged file, open and locked (flock) while Name is a
	// staged name: RemoveStale leaves a locked one alone, and the lock
	// goes with the process, so what a killed run left is known as such
	// at once, without an age or a process id that another namespace may
	// not see. Nil where staged files are not locked.
	hold *os.File
	fs   FS // what it was staged in
}

// Release lets go of the staged file's lock: when its name no longer
// holds it (it was renamed into place) or it is gone.
func (s *Staged) Release() {
	if s != nil && s.hold != nil {
		s.hold.Close()
		s.hold = nil
	}
}

// Remove removes the staged file, then lets go of it.
func (s *Staged) Remove() {
	if s == nil {
		return
	}
	if s.Name != "" {
		s.fs.Remove(s.Name)
	}
	s.Release()
}

// StageFile writes data to a new temporary file next to path, locked
// (see Staged.hold), and returns it. If path exists, the temporary file
// gets its mode (setgid included), owner and group, and extended
// attributes (its POSIX ACL among them, where the system has them); where
// one of these cannot be given to a new file, nothing is staged and the
// Staged says why (InPlace). A new file gets newPerm less the umask, and
// the ACL its folder gives new files, as any program's new file does.
func StageFile(fsys FS, path string, data []byte, newPerm fs.FileMode) (*Staged, error) {
	var old *oldFile
	switch fi, err := fsys.Stat(path); {
	case err == nil:
		m := fi.Mode() & keptModeBits
		old = &oldFile{mode: m}
		old.uid, old.gid = Owner(fi)
		if old.xattrs, err = xattrsOf(fsys, path); err != nil {
			return &Staged{InPlace: fmt.Errorf("its extended attributes cannot be read (%w)", UnwrapPath(err)), fs: fsys}, nil
		}
		newPerm = 0o600 // until the chmod: never readable by more than the file was
	case !IsMissing(err):
		// Not a new file: one whose owner and mode cannot be known.
		return nil, err
	}
	tmp, err := CreateTemp(fsys, path, newPerm)
	if err != nil {
		return nil, err
	}
	s := &Staged{Name: tmp.Name(), fs: fsys}
	if lockStaged {
		// At once: the name is unlocked only from its creation to here
		// (RemoveStale minds that moment, see there).
		if ok, err := fsys.TryLock(tmp); ok && err == nil {
			s.hold = tmp
		}
	}
	err = writeSynced(fsys, tmp, data, old)
	if s.hold == nil || err != nil {
		tmp.Close()
		s.hold = nil
	}
	var carry *carryError
	switch {
	case errors.As(err, &carry):
		fsys.Remove(s.Name)
		return &Staged{InPlace: carry.err, fs: fsys}, nil
	case err != nil:
		fsys.Remove(s.Name)
		return nil, err
	}
	return s, nil
}

// lockStaged: staged files are locked while they are staged, except on
// Windows, where a lock keeps every other handle from the locked bytes
// (and files are written in place there, see WritesInPlace).
const lockStaged = runtime.GOOS != "windows"

// oldFile is what the new version of an existing file keeps of it.
type oldFile struct {
	mode     fs.FileMode
	uid, gid int // -1 where the system has none
	xattrs   []xattr
}

// carryError: the new file cannot be given what the old one has.
type carryError struct{ err error }

func (e *carryError) Error() string { return e.err.Error() }

// writeSynced writes data to the new file f, gives it what old has (if
// not nil: owner, group, extended attributes, mode, in that order: a
// chown clears setuid and setgid, and setting an ACL sets the group bits
// to its mask, which the chmod then sets to the old file's), fsyncs it
// and reads it back. For a large file the read-back runs while the fsync
// waits for the disk: both must succeed, and neither depends on the
// other. It does not close f.
func writeSynced(fsys FS, f *os.File, data []byte, old *oldFile) error {
	if _, err := fsys.WriteAt(f, data, 0); err != nil {
		return err
	}
	if old != nil {
		if err := carryOver(fsys, f, old); err != nil {
			return &carryError{err}
		}
		if err := fsys.Chmod(f, old.mode); err != nil {
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
	err := fsys.Sync(f)
	if back != nil {
		err = errors.Join(err, <-back)
	} else if err == nil {
		err = readBack()
	}
	return err
}

// carryOver gives the new file f the owner, group and extended
// attributes of old.
func carryOver(fsys FS, f *os.File, old *oldFile) error {
	if old.uid >= 0 {
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		// A new file is ours, with our group or its folder's: a chown
		// only where that is not the old file's.
		if uid, gid := Owner(fi); uid != old.uid || gid != old.gid {
			if err := fsys.Chown(f, old.uid, old.gid); err != nil {
				return fmt.Errorf("its owner and group (%d:%d) cannot be given to a new file (%w)", old.uid, old.gid, UnwrapPath(err))
			}
		}
	}
	if err := setXattrs(fsys, f, old.xattrs); err != nil {
		return fmt.Errorf("its extended attributes cannot be given to a new file (%w)", err)
	}
	return nil
}

// FileEquals reports whether the file at path is a regular file holding
// exactly want: a missing file, or one that is not a regular file, does
// not; a file that cannot be opened is an error. With the read-back,
// three such compares run per written file; a large file (a
// ~/.claude.json can be 100 MB) is mapped and compared in place, a small
// one read into a buffer of its size.
func FileEquals(fsys FS, path string, want []byte) (bool, error) {
	f, _, err := regfile.OpenIn(fsys, path)
	switch {
	case IsMissing(err) || regfile.IsNotRegular(err):
		return false, nil
	case err != nil:
		return false, err
	}
	defer f.Close()
	return ContentEquals(f, want), nil
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
	// One byte more than expected, to see a file that grew since Stat; in
	// pieces of a buffer the run reuses: a sync reads back each file it
	// wrote, and a new buffer for each was a twentieth of what it
	// allocated.
	bp := compareBufs.Get().(*[]byte)
	defer compareBufs.Put(bp)
	buf := (*bp)[:min(len(want)+1, len(*bp))]
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

// compareBufs are ContentEquals' buffers.
var compareBufs = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

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

// staleAfter is the age from which a staged file is removed whatever
// else is known of it: older than any run.
//
// StaleDeadAfter is the age from which a staged file that no process
// holds locked is removed even if its process id is in use: a run locks
// what it stages the moment it creates it.
var (
	staleAfter     = 24 * time.Hour
	StaleDeadAfter = time.Minute
)

// startSlack is how much later than a staged file's last change a
// process with its id must have started to be another process: Linux
// tells the boot time in whole seconds.
const startSlack = time.Second

// stagedName matches the name of a staged file: the name of the file it
// was staged for (submatch 1), and the process id of this version of repo
// (submatch 2; earlier versions wrote none). The suffix holds no dot, so
// the file's name is everything before the last ".repo-".
// Compiled on first use, not at start-up (bench/run.sh, startup cases).
var stagedName = lazy.Regexp{Expr: `^\.(.+)\.repo-(?:([0-9]+)-)?[0-9]+$`}

// StagedPattern is a .gitignore pattern that matches every staged file's
// name (TempPrefix), in any folder: what a killed run leaves, and what a
// run has staged before it commits, is never added by git add -A.
const StagedPattern = ".*.repo-[0-9]*"

// RemoveStale removes what ended runs left next to the given files:
// staged files that were never committed, and replaced files that were
// never cleared (both are named by TempPrefix). Only names staged for
// these very files are looked at, so nothing of the user's is touched.
//
// A staged file is its run's while that run is going: it holds it locked
// (Staged.hold, and the replaced file kept aside), and a lock goes with
// its process, however it ends. A file no process holds is removed when
// its process has ended: no process has its id, or the one that has it
// started after the file last changed (a process id reused). Its process
// may also be between creating the file and locking it, a matter of
// microseconds: a file that still has a process, and is younger than
// StaleDeadAfter, stays. Where a file cannot be locked (Windows, or a
// file system without locks) only its process tells: there a process id
// that this system cannot see (a dev container's, the host's) counts as
// ended only past StaleDeadAfter, except on Windows.
func RemoveStale(fsys FS, paths []string) {
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
		entries, err := fsys.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || len(e.Name()) < 2 || e.Name()[0] != '.' {
				continue
			}
			m := stagedName.Get().FindStringSubmatch(e.Name())
			if m == nil || !bases[m[1]] {
				continue
			}
			removeIfEnded(fsys, filepath.Join(dir, e.Name()), m[2], now)
		}
	}
}

// removeIfEnded removes the staged file at path if the run that made it
// has ended (see RemoveStale); pid is the process id in its name.
func removeIfEnded(fsys FS, path, pid string, now time.Time) {
	fi, err := fsys.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	// The change time: a replaced file kept aside has the modification
	// time of its last write, maybe long ago, but its rename aside
	// changed its change time.
	changed := VersionOf(fi).changedAt()
	age := now.Sub(changed)
	id, _ := strconv.Atoi(pid)
	ended := age > staleAfter
	// Its lock, where it can be tried: not on Windows, and not on a file
	// this user may not open (another user's run's, which the folder
	// lets this user remove).
	var f *os.File
	if lockStaged {
		f, _, _ = regfile.OpenIn(fsys, path)
	}
	if f != nil {
		defer f.Close()
	}
	switch free, err := tryLockFile(fsys, f); {
	case err == nil && !free:
		return // its run is going
	case err == nil:
		// Released with f: nothing else can take this name meanwhile.
		ended = ended || id == 0 || age > StaleDeadAfter || processGone(id, changed)
	case !lockStaged:
		ended = ended || (id != 0 && processGone(id, changed))
	default:
		ended = ended || (id != 0 && age > StaleDeadAfter && processGone(id, changed))
	}
	if ended {
		fsys.Remove(path)
	}
}

// tryLockFile is TryLock for a file that may not have been opened (nil).
func tryLockFile(fsys FS, f *os.File) (bool, error) {
	if f == nil {
		return false, ErrUnsupported
	}
	return fsys.TryLock(f)
}

// processGone reports whether the process that changed a file at changed,
// with this id, has ended: no process has the id, or the one that has it
// started after that change.
func processGone(pid int, changed time.Time) bool {
	if !ProcessAlive(pid) {
		return true
	}
	start, ok := processStart(pid)
	return ok && start.After(changed.Add(startSlack))
}

// HoldStaged locks f, a file at a staged name that is not a new version
// (a replaced file kept aside), as StageFile locks what it stages: until
// f is closed, RemoveStale leaves it alone. Best effort: where it cannot
// be locked, the name's process id and age tell.
func HoldStaged(fsys FS, f *os.File) {
	if lockStaged {
		_, _ = fsys.TryLock(f)
	}
}
