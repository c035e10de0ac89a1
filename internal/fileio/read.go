package fileio

import (
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/repo-manager/repo/internal/bigmem"
	"github.com/repo-manager/repo/internal/regfile"
)

// ErrUnsteady is a file that another program kept changing while repo
// read it: repo plans only from a state the file really had, so the run
// stops (and, as with ErrChanged, is tried again) rather than plan from a
// read that may be a tool's half-written save. See docs/coexistence.md.
var ErrUnsteady = errors.New("changed while repo was reading it")

// Version identifies one state of a file; see VersionOf.
type Version struct {
	dev, ino           uint64
	size, mtime, ctime int64
}

// changedAt is when the file last changed, by the file system's clock.
func (v Version) changedAt() time.Time {
	if v.ctime != 0 {
		return time.Unix(0, v.ctime)
	}
	return time.Unix(0, v.mtime)
}

// SameWrite: v and o are the same write of a file, by size, modification
// time and change time (the file may have been renamed in between).
func (v Version) SameWrite(o Version) bool {
	return v.size == o.size && v.mtime == o.mtime && v.ctime == o.ctime
}

// statVersion is the version of the file at path now.
func statVersion(path string) (Version, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Version{}, err
	}
	return VersionOf(fi), nil
}

// splitReadMin is the size from which a file is read in two halves.
const splitReadMin = 8 << 20

// readAttempts bounds reading a file again because it changed during the
// read itself.
const readAttempts = 3

// ReadTarget reads a target file, which must be a regular file (or a
// link to one): anything else is refused without blocking (regfile). It
// returns the bytes and the version they are of: a file that changes
// while it is read is read again, and after readAttempts gives
// ErrUnsteady.
//
// A large file is read as two halves on two cores: most of the cost of
// reading a 100 MB ~/.claude.json is faulting in the fresh memory, which
// the halves share. When the plan is read-only (see Options.ReadOnly) a
// large file is mapped instead, and the function that releases the mapping
// is added to unmap (for Plan.Close); a mapping shows later writes, so the
// caller checks the version again once it has read what it needed
// (CheckSteady).
func ReadTarget(path string, readOnly bool, unmap *[]func()) ([]byte, Version, bool, error) {
	for range readAttempts {
		data, v, mapped, steady, err := readOnce(path, readOnly, unmap)
		if err != nil || steady {
			return data, v, mapped, err
		}
	}
	return nil, Version{}, false, ErrUnsteady
}

// readOnce reads path once; steady is false when the file changed during
// the read.
func readOnce(path string, readOnly bool, unmap *[]func()) (data []byte, v Version, mapped, steady bool, err error) {
	f, fi, err := regfile.Open(path)
	if err != nil {
		return nil, Version{}, false, false, err
	}
	defer f.Close()
	v = VersionOf(fi)
	size := fi.Size()
	if size == int64(int(size)) {
		switch {
		case readOnly && size >= bigmem.MapThreshold:
			if m, err := bigmem.Map(f, int(size)); err == nil {
				*unmap = append(*unmap, func() { bigmem.Unmap(m) })
				return m, v, true, true, nil
			}
		case !readOnly && size >= splitReadMin && runtime.GOMAXPROCS(0) >= 2:
			if b, ok := bigmem.ReadHalves(f, int(size)); ok {
				data = b
			} else if _, err := f.Seek(0, io.SeekStart); err != nil {
				return nil, v, false, false, err
			}
		}
	}
	if data == nil {
		// As os.ReadFile: sized by Stat, and still right if the file grew.
		var buf bytes.Buffer
		buf.Grow(int(min(size, 1<<30)) + 512)
		if _, err := buf.ReadFrom(f); err != nil {
			return nil, v, false, false, err
		}
		data = buf.Bytes()
	}
	after, err := f.Stat()
	if err != nil {
		return nil, v, false, false, err
	}
	return data, v, false, VersionOf(after) == v && int64(len(data)) == v.size, nil
}

// CheckSteady reports ErrUnsteady if the file at path is no longer at
// version v: what was read of a mapping may mix two versions.
func CheckSteady(path string, v Version) error {
	now, err := statVersion(path)
	if err != nil || now != v {
		return ErrUnsteady
	}
	return nil
}

// Settling. A tool that saves in place (Gemini CLI; older Claude Code for
// ~/.claude.json) truncates its file, then writes it: read in between,
// the file is empty, or holds a prefix that does not parse. A tool that
// swaps a file the long way (Qwen Code renames the old one aside first)
// leaves a moment with no file at all. Neither is the file's state, and
// planning from it would replace the tool's data with repo's entries
// alone. So a read that is empty or unparsable, of a file that changed
// within the last SettleFor, is watched until the file has been quiet for
// SettleFor (then it is what it is: an empty or broken file) or changes
// (then it is read again); a file missing where the record says repo wrote
// entries is waited for as long. Past SettleMax the run stops with
// ErrUnsteady. docs/coexistence.md tells how the tools really save.
var (
	SettleFor  = 500 * time.Millisecond
	SettleMax  = 5 * time.Second
	settlePoll = 10 * time.Millisecond
)

// Settler watches one file for a plan.
type Settler struct {
	path  string
	start time.Time
}

// NewSettler starts settling the file at path now.
func NewSettler(path string) *Settler { return &Settler{path: path, start: time.Now()} }

// WaitQuiet waits until the file, now at version v, has been quiet for
// SettleFor by the file system's clock (a change time in the future counts
// from now), and reports whether it stayed at v. It gives ErrUnsteady once
// the plan has waited SettleMax in all.
func (s *Settler) WaitQuiet(v Version) (unchanged bool, err error) {
	now := time.Now()
	quiet := SettleFor - max(0, now.Sub(v.changedAt()))
	until := now.Add(min(quiet, SettleFor))
	for {
		// Looked at first: the file may have changed while what was read
		// of it was parsed.
		if cur, err := statVersion(s.path); err != nil || cur != v {
			return false, nil
		}
		if time.Since(s.start) > SettleMax {
			return false, ErrUnsteady
		}
		if !time.Now().Before(until) {
			return true, nil
		}
		time.Sleep(settlePoll)
	}
}

// WaitAppears waits up to SettleFor for a missing file to appear, and
// reports whether it did.
func (s *Settler) WaitAppears() bool {
	until := time.Now().Add(SettleFor)
	for time.Now().Before(until) {
		time.Sleep(settlePoll)
		if _, err := os.Lstat(s.path); err == nil {
			return true
		}
	}
	return false
}

// ChangedNear: v changed within SettleFor before t (or after it). A plan
// judges a read by the time it began: parsing a large file on a loaded
// machine can take longer than SettleFor, and a save the read caught half
// way is no less a save for that.
func ChangedNear(v Version, t time.Time) bool {
	return t.Sub(v.changedAt()) < SettleFor
}
