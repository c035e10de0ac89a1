package writers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/repo-manager/repo/internal/bigmem"
	"github.com/repo-manager/repo/internal/par"
	"github.com/repo-manager/repo/internal/regfile"
)

// ErrUnsteady is a file that another program kept changing while repo
// read it: repo plans only from a state the file really had, so the run
// stops (and, as with ErrChanged, is tried again) rather than plan from a
// read that may be a tool's half-written save. See docs/coexistence.md.
var ErrUnsteady = errors.New("changed while repo was reading it")

// version identifies one state of a file; see versionOf.
type version struct {
	dev, ino           uint64
	size, mtime, ctime int64
}

// changedAt is when the file last changed, by the file system's clock.
func (v version) changedAt() time.Time {
	if v.ctime != 0 {
		return time.Unix(0, v.ctime)
	}
	return time.Unix(0, v.mtime)
}

// statVersion is the version of the file at path now.
func statVersion(path string) (version, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return version{}, err
	}
	return versionOf(fi), nil
}

// splitReadMin is the size from which a file is read in two halves.
const splitReadMin = 8 << 20

// readAttempts bounds reading a file again because it changed during the
// read itself.
const readAttempts = 3

// readTarget reads a target file, which must be a regular file (or a
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
// (checkSteady).
func readTarget(path string, readOnly bool, unmap *[]func()) ([]byte, version, bool, error) {
	for range readAttempts {
		data, v, mapped, steady, err := readOnce(path, readOnly, unmap)
		if err != nil || steady {
			return data, v, mapped, err
		}
	}
	return nil, version{}, false, ErrUnsteady
}

// readOnce reads path once; steady is false when the file changed during
// the read.
func readOnce(path string, readOnly bool, unmap *[]func()) (data []byte, v version, mapped, steady bool, err error) {
	f, fi, err := regfile.Open(path)
	if err != nil {
		return nil, version{}, false, false, err
	}
	defer f.Close()
	v = versionOf(fi)
	size := fi.Size()
	if size == int64(int(size)) {
		switch {
		case readOnly && size >= mapThreshold:
			if m, err := mapFile(f, int(size)); err == nil {
				*unmap = append(*unmap, func() { unmapFile(m) })
				return m, v, true, true, nil
			}
		case !readOnly && size >= splitReadMin && runtime.GOMAXPROCS(0) >= 2:
			if b, ok := readHalves(f, int(size)); ok {
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
	return data, v, false, versionOf(after) == v && int64(len(data)) == v.size, nil
}

// readHalves reads exactly size bytes in two concurrent halves, and
// reports false if the file is not size bytes long any more.
func readHalves(f *os.File, size int) ([]byte, bool) {
	b := bigmem.Alloc(size)
	half := size / 2
	var errFirst, errSecond error
	par.Both(func() { _, errFirst = f.ReadAt(b[:half], 0) }, func() { _, errSecond = f.ReadAt(b[half:], int64(half)) })
	var more [1]byte
	if n, _ := f.ReadAt(more[:], int64(size)); n > 0 || errFirst != nil || errSecond != nil {
		return nil, false
	}
	return b, true
}

// checkSteady reports ErrUnsteady if the file at path is no longer at
// version v: what was read of a mapping may mix two versions.
func checkSteady(path string, v version) error {
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
// within the last settleFor, is watched until the file has been quiet for
// settleFor (then it is what it is: an empty or broken file) or changes
// (then it is read again); a file missing where the record says repo wrote
// entries is waited for as long. Past settleMax the run stops with
// ErrUnsteady. docs/coexistence.md tells how the tools really save.
var (
	settleFor  = 500 * time.Millisecond
	settleMax  = 5 * time.Second
	settlePoll = 10 * time.Millisecond
)

// settler watches one file for a plan.
type settler struct {
	path  string
	start time.Time
}

// quietSince waits until the file at path, now at version v, has been
// quiet for settleFor by the file system's clock (a change time in the
// future counts from now), and reports whether it stayed at v. It gives
// ErrUnsteady once the plan has waited settleMax in all.
func (s *settler) waitQuiet(v version) (unchanged bool, err error) {
	now := time.Now()
	quiet := settleFor - max(0, now.Sub(v.changedAt()))
	until := now.Add(min(quiet, settleFor))
	for {
		if time.Since(s.start) > settleMax {
			return false, ErrUnsteady
		}
		if !time.Now().Before(until) {
			return true, nil
		}
		time.Sleep(settlePoll)
		if cur, err := statVersion(s.path); err != nil || cur != v {
			return false, nil
		}
	}
}

// waitAppears waits up to settleFor for a missing file to appear, and
// reports whether it did.
func (s *settler) waitAppears() bool {
	until := time.Now().Add(settleFor)
	for time.Now().Before(until) {
		time.Sleep(settlePoll)
		if _, err := os.Lstat(s.path); err == nil {
			return true
		}
	}
	return false
}

// recentlyChanged: v changed within settleFor of now (or in the future).
func recentlyChanged(v version) bool {
	return time.Since(v.changedAt()) < settleFor
}

// heldError refuses an empty file in which the record says repo wrote
// entries: an empty file is what a tool's in-place save looks like
// halfway, and planning from it would drop whatever the tool was writing.
func heldError(display string, held int) error {
	entries := "entries"
	if held == 1 {
		entries = "entry"
	}
	return &FileError{File: display, Err: fmt.Errorf("is empty, but repo wrote %d %s into it; another program may be saving it in place, so repo changes nothing: try again. If you emptied it on purpose, delete it (or write {} into it) and run repo sync again", held, entries)}
}

// snapshot is what a plan read of a target file.
type snapshot struct {
	data    []byte
	ver     version
	existed bool
	mapped  bool // data is a live mapping: checkSteady after using it
}

// openDocument reads and parses a target, settling first if the read may
// be a tool's half-written save (see settleFor). held is how many entries
// the record says repo wrote into the file.
func openDocument(display, path string, format Format, held int, readOnly bool, unmap *[]func()) (Document, snapshot, error) {
	s := settler{path: path, start: time.Now()}
	waitedForFile := false
	for {
		data, v, mapped, err := readTarget(path, readOnly, unmap)
		switch {
		case isMissing(err):
			if held > 0 && !waitedForFile {
				waitedForFile = true
				if s.waitAppears() {
					continue
				}
			}
			return format.New(), snapshot{}, nil
		case err != nil:
			return nil, snapshot{}, &FileError{File: display, Err: fmt.Errorf("cannot read: %w", unwrapPath(err))}
		}
		snap := snapshot{data: data, ver: v, existed: true, mapped: mapped}
		blank := isBlank(data)
		var doc Document
		var perr error
		if blank {
			doc = format.New()
		} else if doc, perr = format.Parse(data); perr == nil {
			return doc, snap, nil
		}
		if recentlyChanged(v) {
			unchanged, err := s.waitQuiet(v)
			if err != nil {
				return nil, snap, &FileError{File: display, Err: err}
			}
			if !unchanged {
				continue
			}
		}
		switch {
		case perr != nil:
			l, c := position(perr)
			return nil, snap, &FileError{File: display, Line: l, Col: c, Err: fmt.Errorf("%v; fix the file (repo changes nothing until every file parses)", stripPosition(perr))}
		case held > 0:
			return nil, snap, heldError(display, held)
		}
		return doc, snap, nil
	}
}
