package plan

import (
	"fmt"
	"path/filepath"

	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/target"
)

// Entry is one entry of a target's server map, as its file holds it.
type Entry struct {
	Name  string
	Value []byte // the entry as strict JSON, whatever the file's format
	Line  int    // of the entry in the file; 0 when unknown
	// Owner is the extension the ownership record says repo wrote the entry
	// for; empty for the user's own entries.
	Owner string
}

// ReadEntries reads the server map of a target — every entry, and which
// of them the ownership record (the one Build consults for the target)
// says repo wrote — for repo mcp import. A file that does not exist has
// no entries. It reads as Build does: only a regular file, through its
// symlinks, settled if a tool is saving it in place.
func ReadEntries(env target.Env, t *target.Target) ([]Entry, error) {
	path := t.Path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	} else if !fileio.IsMissing(err) {
		return nil, &FileError{File: t.Display, Err: err}
	}
	format, err := FormatFor(t)
	if err != nil {
		return nil, &FileError{File: t.Display, Err: err}
	}
	doc, snap, err := openDocument(t.Display, path, format, 0, false, nil)
	if err != nil {
		return nil, err
	}
	if !snap.existed {
		return nil, nil
	}
	members, _, err := doc.Entries(t.Key)
	if err != nil {
		l, c := position(err)
		return nil, &FileError{File: t.Display, Line: l, Col: c,
			Err: fmt.Errorf("%v (repo expects the server map %s here)", stripPosition(err), keyString(t.Key))}
	}
	owned, err := recordedEntries(env, t)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(members))
	for i, m := range members {
		out[i] = Entry{Name: m.Key, Value: m.Value, Line: lineOf(doc, t, m), Owner: owned[m.Key].Extension}
	}
	return out, nil
}

// recordedEntries is what the ownership record says repo owns in t: as
// Build reads it, with the records an earlier repo kept under another path
// to the workspace taken over where the workspace has none yet, and a
// project file's entries found in the other workspace record (the
// committed one or the clone's own) when its own has none.
func recordedEntries(env target.Env, t *target.Target) (map[string]record.Owned, error) {
	kind := recordKind(env, []*target.Target{t})
	rs := &recordState{kind: kind, env: env}
	if kind == recordUser {
		var err error
		if env, _, err = recognise(env); err != nil { // a workspace moved here (identity.go)
			return nil, err
		}
		rs.env = env
		if rs.path, err = UserRecordPath(env); err != nil {
			return nil, err
		}
		rec, raw, err := record.Read(rs.path, env.Display(rs.path))
		if err != nil {
			return nil, err
		}
		if raw == nil {
			_, aliases, err := planAliases(env, []*target.Target{t})
			if err != nil {
				return nil, err
			}
			aliases.adoptInto(rec)
		}
		canonicalFiles(env, kind, rec, realsOf([]*target.Target{t}))
		if e := rec.Find(rs.fileKey(t), t.Key); e != nil {
			return e.Entries, nil
		}
		return nil, nil
	}
	wr, err := readWorkspaceRecords(env, nil) // git's word applied, as Build reads them
	if err != nil {
		return nil, err
	}
	own, other := wr.project, wr.machine
	if kind == recordMachine {
		own, other = other, own
	}
	for _, rec := range []*record.Record{own, other} {
		canonicalFiles(env, kind, rec, realsOf([]*target.Target{t}))
		if e := rec.Find(rs.fileKey(t), t.Key); e != nil {
			return e.Entries, nil
		}
	}
	return nil, nil
}
