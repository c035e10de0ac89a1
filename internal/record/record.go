// Package record is repo's ownership record: what it wrote into the
// tools' files, per file and key, each entry by name with a digest of the
// value written (never the value, which can hold a secret). It holds the
// record's types and the operations on them, the codec — reading (Read,
// Parse: every version repo wrote), writing (Bytes, in the lowest version
// that holds the record: MinVersion) — and the digests entries are
// fingerprinted by. Which record holds which file, and what a plan does
// with what a record says, is package internal/plan's.
package record

import (
	"maps"
	"path/filepath"
	"slices"
)

// LatestVersion is the newest format version of ownership records. A
// record is written with the lowest version that holds what it records
// (Record.MinVersion): version 2 added Owned.Defaults, version 3
// Entry.Created and version 4 Record.ID, so a workspace whose extensions
// use no settings, in files repo did not create, keeps a record that
// earlier releases of repo read.
const LatestVersion = 4

// Record is repo's memory of the entries it wrote: per target, each name
// with a digest of the value written — never the value, which can hold a
// secret. It is the source of truth for ownership; nothing in the tool
// files themselves is trusted to say what repo owns.
type Record struct {
	Version int `json:"version"`
	// Root is set only in per-user records, which live outside the workspace.
	Root string `json:"root,omitempty"`
	// ID, in a per-user record, is the identity of the clone it was
	// written for (internal/plan's identity.go): what recognises the
	// workspace after it moved to another path.
	ID      string   `json:"id,omitempty"`
	Targets []*Entry `json:"targets"`
}

// Entry is what repo owns in one target: a file and the key path of a
// server map in it.
type Entry struct {
	File string   `json:"file"` // root-relative (project) or absolute (per-user)
	Key  []string `json:"key"`
	// Created is what repo made to write the target's first entries: the
	// file, its folders, the objects of the key path. nil when it made
	// nothing, and in every record of version 1 or 2: those never said, so
	// nothing they list counts as created.
	Created *Created         `json:"created,omitempty"`
	Entries map[string]Owned `json:"entries"`
}

// Created is what repo made for a target, which it removes again when the
// target's last entry leaves and nothing else is in it: a file repo did
// not create is never deleted, a container it did not create never
// removed.
type Created struct {
	// File: repo created the file. It is deleted when nothing is left in
	// it but what a new file of its format holds ({} for JSON).
	File bool `json:"file,omitempty"`
	// Folders is how many of the folders above the file repo created with
	// it (the innermost ones); they are removed with the file when empty.
	Folders int `json:"folders,omitempty"`
	// Key is the outermost container of the key path that repo added: a
	// prefix of the target's key. It and the containers under it go when
	// they are empty (["mcpServers"] in a settings file repo added
	// "mcpServers" to; ["projects", "<root>"] in a ~/.claude.json that had
	// no entry for the workspace).
	Key []string `json:"key,omitempty"`
}

// Clone is a copy of c (nil for nil).
func (c *Created) Clone() *Created {
	if c == nil {
		return nil
	}
	return &Created{File: c.File, Folders: c.Folders, Key: slices.Clone(c.Key)}
}

// Empty reports that c says nothing was created (the form to store is nil).
func (c *Created) Empty() bool {
	return c == nil || !c.File && c.Folders == 0 && len(c.Key) == 0
}

// Owned is one managed entry.
type Owned struct {
	Extension string `json:"extension"`
	Digest    string `json:"digest"`
	// Previous is set only while a sync is being applied (Apply writes the
	// record with it first, and without it last): the digest of the entry
	// the sync replaces. A run that was killed in between leaves it, and
	// the next run then knows the entry as repo's whichever of the two
	// versions the file holds.
	Previous string `json:"previous,omitempty"`
	// Defaults remembers, per member the tool or user owns (a profile's
	// preserve), the digest of the value repo last offered for it — the
	// author's setting — where that differs from the profile's own default
	// (entry.set, else no member). A member whose value in the file still
	// has that digest was not changed by the user, so a new offer replaces
	// it; any other value is the user's, and stays. "" is an offer of no
	// member. Values are digests, like Digest: never the values.
	Defaults map[string]string `json:"defaults,omitempty"`
}

// ProjectPath is where the record of project-scope entries lives. It is
// meant to be committed: it holds relative paths and digests only.
func ProjectPath(root string) string {
	return filepath.Join(root, ".repository", "mcp-managed.json")
}

// MachinePath is where the record of the machine-specific project files
// lives when they are git-ignored (target.Env.Gitignore): in the
// workspace, next to the committed record, and ignored with the files it
// describes, so it belongs to the clone, moves with it, and goes when
// they go.
func MachinePath(root string) string {
	return filepath.Join(root, ".repository", "mcp-managed.machine.json")
}

// MinVersion is the lowest record format version that holds r.
func (r *Record) MinVersion() int {
	if r.ID != "" {
		return 4
	}
	if slices.ContainsFunc(r.Targets, func(t *Entry) bool { return t.Created != nil }) {
		return 3
	}
	for _, t := range r.Targets {
		for _, o := range t.Entries {
			if len(o.Defaults) > 0 {
				return 2
			}
		}
	}
	return 1
}

// Find returns the entries owned in one target (nil if none).
func (r *Record) Find(file string, key []string) *Entry {
	for _, t := range r.Targets {
		if t.File == file && slices.Equal(t.Key, key) {
			return t
		}
	}
	return nil
}

// Claims reports whether r records an entry name in a file and key.
func (r *Record) Claims(file string, key []string, name string) bool {
	e := r.Find(file, key)
	if e == nil {
		return false
	}
	_, ok := e.Entries[name]
	return ok
}

// Clone is a copy of r that Put on either leaves the other as it is.
func (r *Record) Clone() *Record {
	c := &Record{Version: r.Version, Root: r.Root, ID: r.ID, Targets: make([]*Entry, len(r.Targets))}
	for i, t := range r.Targets {
		c.Targets[i] = &Entry{File: t.File, Key: slices.Clone(t.Key), Created: t.Created.Clone(), Entries: maps.Clone(t.Entries)}
	}
	return c
}

// SetCreated replaces what the record says repo created for a target it
// lists (see Created); a Created that says nothing is stored as nil.
func (r *Record) SetCreated(file string, key []string, c *Created) {
	if t := r.Find(file, key); t != nil {
		if c.Empty() {
			c = nil
		}
		t.Created = c.Clone()
	}
}

// Take makes e, a target of another record, one of r's: its entries and
// what repo created for it (Created), which Put alone would leave behind.
// Every move of a target between records goes through it: the committed
// record and the clone's, a record kept under another path to the
// workspace.
func (r *Record) Take(e *Entry) {
	r.Put(e.File, e.Key, maps.Clone(e.Entries))
	r.SetCreated(e.File, e.Key, e.Created)
}

// Put replaces the entries of one target; an empty map drops the target.
func (r *Record) Put(file string, key []string, entries map[string]Owned) {
	for i, t := range r.Targets {
		if t.File == file && slices.Equal(t.Key, key) {
			if len(entries) == 0 {
				r.Targets = slices.Delete(r.Targets, i, i+1)
			} else {
				t.Entries = entries
			}
			return
		}
	}
	if len(entries) > 0 {
		r.Targets = append(r.Targets, &Entry{File: file, Key: slices.Clone(key), Entries: entries})
	}
}

// Rename names e, a target of r, by file; where r names that file and key
// already, e's entries join that target's (a name both hold keeps the one
// recorded under the file's own name), and so does what repo created for
// them. A record that named one file by two paths (two links to it) so
// names it once.
func (r *Record) Rename(e *Entry, file string) {
	into := r.Find(file, e.Key)
	if into == nil {
		e.File = file
		return
	}
	r.Targets = slices.DeleteFunc(r.Targets, func(t *Entry) bool { return t == e })
	for name, o := range e.Entries {
		if _, ok := into.Entries[name]; !ok {
			if into.Entries == nil {
				into.Entries = map[string]Owned{}
			}
			into.Entries[name] = o
		}
	}
	if e.Created != nil {
		c := into.Created.Clone()
		if c == nil {
			c = &Created{}
		}
		c.File = c.File || e.Created.File
		c.Folders = max(c.Folders, e.Created.Folders)
		if len(c.Key) == 0 {
			c.Key = slices.Clone(e.Created.Key)
		}
		into.Created = c
	}
}
