package plan

import (
	"fmt"
	"time"

	"github.com/repo-manager/repo/internal/fileio"
)

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
	ver     fileio.Version
	existed bool
	mapped  bool // data is a live mapping: fileio.CheckSteady after using it
}

// openDocument reads and parses a target, settling first if the read may
// be a tool's half-written save (see fileio.SettleFor). held is how many entries
// the record says repo wrote into the file.
func openDocument(display, path string, format Format, held int, readOnly bool, unmap *[]func()) (Document, snapshot, error) {
	s := fileio.NewSettler(path)
	waitedForFile := false
	for {
		readAt := time.Now()
		data, v, mapped, err := fileio.ReadTarget(path, readOnly, unmap)
		switch {
		case fileio.IsMissing(err):
			if held > 0 && !waitedForFile {
				waitedForFile = true
				if s.WaitAppears() {
					continue
				}
			}
			return format.New(), snapshot{}, nil
		case err != nil:
			return nil, snapshot{}, &FileError{File: display, Err: fmt.Errorf("cannot read: %w", fileio.UnwrapPath(err))}
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
		if fileio.ChangedNear(v, readAt) {
			unchanged, err := s.WaitQuiet(v)
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
