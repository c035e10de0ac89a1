package plan

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/regfile"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/writers/internal/canon"
	"github.com/repo-manager/repo/writers/target"
)

// recordVersion is the newest format version of ownership records. A
// record is written with the lowest version that holds what it records
// (Record.MinVersion): version 2 added Owned.Defaults, version 3
// RecordEntry.Created and version 4 Record.ID, so a workspace whose
// extensions use no settings, in files repo did not create, keeps a
// record that earlier releases of repo read.
const recordVersion = 4

// Record is repo's memory of the entries it wrote: per target, each name
// with a digest of the value written — never the value, which can hold a
// secret. It is the source of truth for ownership; nothing in the tool
// files themselves is trusted to say what repo owns.
type Record struct {
	Version int `json:"version"`
	// Root is set only in per-user records, which live outside the workspace.
	Root string `json:"root,omitempty"`
	// ID, in a per-user record, is the identity of the clone it was
	// written for (identity.go): what recognises the workspace after it
	// moved to another path.
	ID      string         `json:"id,omitempty"`
	Targets []*RecordEntry `json:"targets"`
}

// RecordEntry is what repo owns in one target.
type RecordEntry struct {
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

// clone is a copy of c (nil for nil).
func (c *Created) clone() *Created {
	if c == nil {
		return nil
	}
	return &Created{File: c.File, Folders: c.Folders, Key: slices.Clone(c.Key)}
}

// none reports that c says nothing was created (the form to store is nil).
func (c *Created) none() bool {
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

// MinVersion is the lowest record format version that holds r.
func (r *Record) MinVersion() int {
	if r.ID != "" {
		return 4
	}
	if slices.ContainsFunc(r.Targets, func(t *RecordEntry) bool { return t.Created != nil }) {
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

// owns reports whether an entry found in a file is the one recorded (or
// the one an interrupted sync was replacing), written at any root (see
// matchesDigestAt).
func (o Owned) owns(env target.Env, raw []byte) bool {
	return matchesDigestAt(env, raw, o.Digest) || (o.Previous != "" && matchesDigestAt(env, raw, o.Previous))
}

// ProjectRecordPath is where the record of project-scope entries lives. It
// is meant to be committed: it holds relative paths and digests only.
func ProjectRecordPath(root string) string {
	return filepath.Join(root, ".repository", "mcp-managed.json")
}

// MachineRecordPath is where the record of the machine-specific project
// files lives when they are git-ignored (Env.Gitignore): in the workspace,
// next to the committed record, and ignored with the files it describes,
// so it belongs to the clone, moves with it, and goes when they go.
func MachineRecordPath(root string) string {
	return filepath.Join(root, ".repository", "mcp-managed.machine.json")
}

// UserRecordPath is where the record of one workspace's local- and
// user-scope entries lives: outside the workspace, since those files are
// the user's, one record per workspace so that two workspaces writing to
// the same ~/.claude.json never claim each other's entries.
func UserRecordPath(env target.Env) (string, error) {
	sum := sha256.Sum256([]byte(env.Root))
	name := hex.EncodeToString(sum[:8]) + ".json"
	base, err := StateDir(env)
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "workspaces", name), nil
}

// StateVars are the directory variables StateDir reads on goos, in order.
func StateVars(goos string) []string {
	if goos == "windows" {
		return []string{"XDG_STATE_HOME", "LOCALAPPDATA"}
	}
	return []string{"XDG_STATE_HOME"}
}

// StateDir is repo's per-user state folder, which holds the records of
// per-user entries and the workspace locks: $XDG_STATE_HOME/repo (on
// Windows else %LOCALAPPDATA%\repo), else ~/.local/state/repo. A relative
// value of either variable is ignored, as the XDG Base Directory spec says
// (see toolprofiles.Env.DirVar): it would put the state inside the
// workspace, in another place from each subfolder.
func StateDir(env target.Env) (string, error) {
	for _, name := range StateVars(env.GOOS) {
		if base, _ := env.DirVar(name); base != "" {
			return filepath.Join(base, "repo"), nil
		}
	}
	if env.Home == "" {
		return "", errors.New("the home directory is not known (set HOME to an absolute path): repo keeps its record of per-user entries there")
	}
	return filepath.Join(env.Home, ".local", "state", "repo"), nil
}

// ReadRecord loads a record; a missing file is an empty record.
func ReadRecord(path, display string) (*Record, []byte, error) {
	data, err := regfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		// A link to nothing is not a missing record: the record repo would
		// write could not replace it as planned, and each attempt would
		// look like another program's write.
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			dest, _ := os.Readlink(path)
			return nil, nil, fmt.Errorf("%s: the ownership record is a symbolic link to %s, which does not exist; restore the file it points to (from version control) or remove the link, and run repo again", display, termtext.Safe(dest))
		}
		return &Record{Version: recordVersion}, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: cannot read the ownership record: %w", display, err)
	}
	r, err := recordFromBytes(data, display)
	if err != nil {
		return nil, nil, err
	}
	return r, data, nil
}

// recordFromBytes parses the bytes of a record.
func recordFromBytes(data []byte, display string) (*Record, error) {
	r, ok := parseRecord(data)
	if !ok {
		r = new(Record)
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(r); err != nil {
			return nil, fmt.Errorf("%s: the ownership record is damaged (%v); restore it from version control, or delete it and run `repo sync --adopt` to claim the entries again", display, err)
		}
	}
	if r.Version < 1 || r.Version > recordVersion {
		return nil, fmt.Errorf("%s: ownership record version %d is not supported (this repo reads versions 1 to %d)", display, r.Version, recordVersion)
	}
	return r, nil
}

// parseRecord reads a record in the form Bytes writes, which is what
// ReadRecord meets on every run, with gjson: decoding it with encoding/json
// took a tenth of a small sync. Anything else — an unknown, repeated or
// differently cased key, a null, another type, a number that is not a
// plain integer, invalid JSON — gives ok false, and ReadRecord decodes the
// file with encoding/json, which then decides what the record holds or how
// it is damaged. So a record parseRecord accepts reads as encoding/json
// reads it.
func parseRecord(data []byte) (*Record, bool) {
	if !gjson.ValidBytes(data) {
		return nil, false
	}
	r := new(Record)
	ok := eachMember(gjson.ParseBytes(data), func(k string, v gjson.Result) (ok bool) {
		switch k {
		case "version":
			n, err := strconv.Atoi(v.Raw)
			r.Version = n
			return v.Type == gjson.Number && err == nil && strconv.Itoa(n) == v.Raw
		case "root":
			r.Root, ok = recordString(v)
			return ok
		case "id":
			// encoding/json leaves an empty one out: not the form Bytes writes.
			r.ID, ok = recordString(v)
			return ok && r.ID != ""
		case "targets":
			r.Targets = []*RecordEntry{}
			return eachElement(v, func(t gjson.Result) bool {
				e, ok := parseRecordEntry(t)
				r.Targets = append(r.Targets, e)
				return ok
			})
		}
		return false
	})
	return r, ok
}

func parseRecordEntry(t gjson.Result) (*RecordEntry, bool) {
	e := new(RecordEntry)
	ok := eachMember(t, func(k string, v gjson.Result) (ok bool) {
		switch k {
		case "file":
			e.File, ok = recordString(v)
			return ok
		case "key":
			e.Key, ok = recordStrings(v)
			return ok
		case "created":
			e.Created, ok = parseCreated(v)
			return ok
		case "entries":
			// Not eachMember: it looks for repeated keys the slow way,
			// which is fine for three field names, not for every entry.
			if !v.IsObject() {
				return false
			}
			e.Entries = map[string]Owned{}
			ok = true
			v.ForEach(func(k, o gjson.Result) bool {
				name, plain := recordString(k)
				_, repeated := e.Entries[name]
				var owned Owned
				ok = plain && !repeated && eachMember(o, func(k string, v gjson.Result) (ok bool) {
					switch k {
					case "extension":
						owned.Extension, ok = recordString(v)
					case "digest":
						owned.Digest, ok = recordString(v)
					case "previous":
						// encoding/json leaves an empty one out: not the form Bytes writes.
						owned.Previous, ok = recordString(v)
						ok = ok && owned.Previous != ""
					case "defaults":
						owned.Defaults = map[string]string{}
						ok = eachMember(v, func(member string, d gjson.Result) bool {
							digest, plain := recordString(d)
							owned.Defaults[member] = digest
							return plain
						})
					}
					return ok
				})
				e.Entries[name] = owned
				return ok
			})
			return ok
		}
		return false
	})
	return e, ok
}

// parseCreated reads a RecordEntry.Created as encoding/json would.
func parseCreated(v gjson.Result) (*Created, bool) {
	c := new(Created)
	ok := eachMember(v, func(k string, v gjson.Result) (ok bool) {
		switch k {
		case "file":
			c.File = v.Type == gjson.True
			return v.Type == gjson.True || v.Type == gjson.False
		case "folders":
			n, err := strconv.Atoi(v.Raw)
			c.Folders = n
			return v.Type == gjson.Number && err == nil && strconv.Itoa(n) == v.Raw
		case "key":
			c.Key, ok = recordStrings(v)
			return ok
		}
		return false
	})
	return c, ok
}

// recordStrings reads an array of recordString.
func recordStrings(v gjson.Result) ([]string, bool) {
	out := []string{}
	ok := eachElement(v, func(seg gjson.Result) bool {
		s, ok := recordString(seg)
		out = append(out, s)
		return ok
	})
	return out, ok
}

// eachMember calls f with each member of object o, and reports whether o
// is an object whose keys need no unescaping and are not repeated, and
// every call returned true.
func eachMember(o gjson.Result, f func(key string, v gjson.Result) bool) bool {
	if !o.IsObject() {
		return false
	}
	ok := true
	var seen []string
	o.ForEach(func(k, v gjson.Result) bool {
		key, plain := recordString(k)
		if ok = plain && !slices.Contains(seen, key); ok {
			seen = append(seen, key)
			ok = f(key, v)
		}
		return ok
	})
	return ok
}

// eachElement calls f with each element of array a, and reports whether a
// is an array and every call returned true.
func eachElement(a gjson.Result, f func(v gjson.Result) bool) bool {
	if !a.IsArray() {
		return false
	}
	ok := true
	a.ForEach(func(_, v gjson.Result) bool {
		ok = f(v)
		return ok
	})
	return ok
}

// recordString is a string value whose text gjson and encoding/json read
// the same: valid UTF-8 without escapes (a record holds file names, server
// names and digests; others go to encoding/json).
func recordString(v gjson.Result) (string, bool) {
	if v.Type != gjson.String || strings.IndexByte(v.Raw, '\\') >= 0 || !utf8.ValidString(v.Str) {
		return "", false
	}
	return v.Str, true
}

// Find returns the entries owned in one target (nil if none).
func (r *Record) Find(file string, key []string) *RecordEntry {
	for _, t := range r.Targets {
		if t.File == file && slices.Equal(t.Key, key) {
			return t
		}
	}
	return nil
}

// clone is a copy of r that Put on either leaves the other as it is.
func (r *Record) clone() *Record {
	c := &Record{Version: r.Version, Root: r.Root, ID: r.ID, Targets: make([]*RecordEntry, len(r.Targets))}
	for i, t := range r.Targets {
		c.Targets[i] = &RecordEntry{File: t.File, Key: slices.Clone(t.Key), Created: t.Created.clone(), Entries: maps.Clone(t.Entries)}
	}
	return c
}

// SetCreated replaces what the record says repo created for a target it
// lists (see Created); a Created that says nothing is stored as nil.
func (r *Record) SetCreated(file string, key []string, c *Created) {
	if t := r.Find(file, key); t != nil {
		if c.none() {
			c = nil
		}
		t.Created = c.clone()
	}
}

// take makes e, a target of another record, one of r's: its entries and
// what repo created for it (Created), which Put alone would leave behind.
// Every move of a target between records goes through it: the committed
// record and the clone's (takeOver), a record kept under another path to
// the workspace (aliases).
func (r *Record) take(e *RecordEntry) {
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
		r.Targets = append(r.Targets, &RecordEntry{File: file, Key: slices.Clone(key), Entries: entries})
	}
}

// Bytes renders the record deterministically: targets sorted, two-space
// indent, final newline, no timestamps — so a second sync rewrites nothing
// and a committed record diffs cleanly. The text is what encoding/json's
// Encoder gives with two-space indent and no HTML escaping (records written
// by earlier versions stay byte for byte), written directly: a sync renders
// its records on every run, and reflection made that a tenth of its time.
func (r *Record) Bytes() []byte {
	slices.SortFunc(r.Targets, func(a, b *RecordEntry) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return slices.Compare(a.Key, b.Key)
	})
	if r.Targets == nil {
		r.Targets = []*RecordEntry{}
	}
	b := make([]byte, 0, 256+200*len(r.Targets))
	b = fmt.Appendf(b, "{\n  \"version\": %d,\n", r.Version)
	if r.Root != "" {
		b = append(b, `  "root": `...)
		b = ordered.AppendString(b, r.Root)
		b = append(b, ",\n"...)
	}
	if r.ID != "" {
		b = append(b, `  "id": `...)
		b = ordered.AppendString(b, r.ID)
		b = append(b, ",\n"...)
	}
	b = append(b, `  "targets": [`...)
	for i, t := range r.Targets {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    {\n      \"file\": "...)
		b = ordered.AppendString(b, t.File)
		b = append(b, ",\n      \"key\": "...)
		b = appendIndentedStrings(b, t.Key, "      ")
		if c := t.Created; c != nil {
			b = append(b, ",\n      \"created\": "...)
			b = appendCreated(b, c)
		}
		b = append(b, ",\n      \"entries\": "...)
		switch {
		case t.Entries == nil:
			b = append(b, "null"...)
		case len(t.Entries) == 0:
			b = append(b, "{}"...)
		default:
			b = append(b, '{')
			for j, name := range slices.Sorted(maps.Keys(t.Entries)) {
				if j > 0 {
					b = append(b, ',')
				}
				o := t.Entries[name]
				b = append(b, "\n        "...)
				b = ordered.AppendString(b, name)
				b = append(b, ": {\n          \"extension\": "...)
				b = ordered.AppendString(b, o.Extension)
				b = append(b, ",\n          \"digest\": "...)
				b = ordered.AppendString(b, o.Digest)
				if o.Previous != "" {
					b = append(b, ",\n          \"previous\": "...)
					b = ordered.AppendString(b, o.Previous)
				}
				if len(o.Defaults) > 0 {
					b = append(b, ",\n          \"defaults\": {"...)
					for k, member := range slices.Sorted(maps.Keys(o.Defaults)) {
						if k > 0 {
							b = append(b, ',')
						}
						b = append(b, "\n            "...)
						b = ordered.AppendString(b, member)
						b = append(b, ": "...)
						b = ordered.AppendString(b, o.Defaults[member])
					}
					b = append(b, "\n          }"...)
				}
				b = append(b, "\n        }"...)
			}
			b = append(b, "\n      }"...)
		}
		b = append(b, "\n    }"...)
	}
	if len(r.Targets) > 0 {
		b = append(b, "\n  "...)
	}
	return append(b, "]\n}\n"...)
}

// appendCreated appends c as the indenting Encoder does inside a target.
func appendCreated(b []byte, c *Created) []byte {
	var members [][]byte
	if c.File {
		members = append(members, []byte(`"file": true`))
	}
	if c.Folders != 0 {
		members = append(members, strconv.AppendInt([]byte(`"folders": `), int64(c.Folders), 10))
	}
	if len(c.Key) > 0 {
		members = append(members, appendIndentedStrings([]byte(`"key": `), c.Key, "        "))
	}
	if len(members) == 0 {
		return append(b, "{}"...)
	}
	b = append(b, '{')
	for i, m := range members {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n        "...)
		b = append(b, m...)
	}
	return append(b, "\n      }"...)
}

// appendIndentedStrings appends a string list as the indenting Encoder
// does at the given indent.
func appendIndentedStrings(b []byte, list []string, indent string) []byte {
	switch {
	case list == nil:
		return append(b, "null"...)
	case len(list) == 0:
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		b = append(b, indent...)
		b = append(b, "  "...)
		b = ordered.AppendString(b, s)
	}
	b = append(b, '\n')
	b = append(b, indent...)
	return append(b, ']')
}

// digest fingerprints an entry value. Key order and whitespace do not
// matter (a tool that reformats its file has not edited our entry), so the
// value is canonicalised first.
func digest(raw []byte) string {
	return digestOf(canon.JSON(raw), "")
}

// normalizedDigest fingerprints an entry with the workspace root spelled
// <<root>>: the digest of an entry does not depend on where the workspace
// is, so a committed record stays valid on every clone.
func normalizedDigest(raw []byte, root string) string {
	return digestOf(canon.JSON(raw), root)
}

// entryDigest is normalizedDigest(ordered.JSON(v), root) for an entry repo
// builds, without rendering it (canon.Value).
func entryDigest(v ordered.Object, root string) string {
	c, ok := canon.Value(v)
	if !ok {
		c = canon.JSON(ordered.JSON(v))
	}
	return digestOf(c, root)
}

// digestOf hashes a canonical entry, with root (if any) spelled <<root>>:
// the text between the root's occurrences is hashed piece by piece, which
// is bytes.ReplaceAll without the copy.
func digestOf(c []byte, root string) string {
	h := sha256.New()
	if root != "" {
		text := []byte(canon.Text(root))
		for {
			i := bytes.Index(c, text)
			if i < 0 {
				break
			}
			h.Write(c[:i])
			h.Write([]byte("<<root>>"))
			c = c[i+len(text):]
		}
	}
	h.Write(c)
	var sum [sha256.Size]byte
	return "sha256:" + hex.EncodeToString(h.Sum(sum[:0])[:16])
}

// matchesDigest reports whether an entry found in a file is the one a
// record digest was taken of. The entry may have been written at another
// root (a teammate's checkout): the root it shows — the part of a path
// before /.repository/extensions/ — is tried as well as this one.
func matchesDigest(raw []byte, digest, root string) bool {
	if normalizedDigest(raw, root) == digest {
		return true
	}
	c := string(canon.JSON(raw))
	marker := canon.Text(string(filepath.Separator) + ".repository" + string(filepath.Separator) + "extensions" + string(filepath.Separator))
	if i := strings.Index(c, marker); i > 0 {
		start := strings.LastIndexByte(c[:i], '"') + 1
		if other := c[start:i]; other != "" {
			var unq string
			if json.Unmarshal([]byte(`"`+other+`"`), &unq) == nil && normalizedDigest(raw, unq) == digest {
				return true
			}
		}
	}
	return false
}

// relocated reports whether cur is want with the workspace root replaced by
// some other absolute path everywhere it occurs: the same entry, written by
// repo in a checkout at another path.
func relocated(cur, want []byte, root string) bool {
	if root == "" {
		return false
	}
	c, w, r := string(canon.JSON(cur)), string(canon.JSON(want)), canon.Text(root)
	i := strings.Index(w, r)
	if i < 0 || !strings.HasPrefix(c, w[:i]) {
		return false
	}
	// The other root ends where the text after the root in want resumes;
	// that text is never empty (at least the string's closing quote).
	after := w[i+len(r):]
	if j := strings.Index(after, r); j >= 0 {
		after = after[:j]
	}
	k := strings.Index(c[i:], after)
	if k <= 0 {
		return false
	}
	other := c[i : i+k]
	if other == r || !(strings.HasPrefix(other, "/") || (len(other) > 2 && other[1] == ':')) {
		return false
	}
	return strings.ReplaceAll(w, r, other) == c
}

// FileLockPath is the lock of a per-user file (a local- or user-scope
// target, shared by every workspace on the machine), keyed by its real
// path: in the per-user state folder, next to the workspace locks.
func FileLockPath(env target.Env, real string) (string, error) {
	dir, err := StateDir(env)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(real))
	return filepath.Join(dir, "locks", "file-"+hex.EncodeToString(sum[:8])+".lock"), nil
}

// LockPath is the lock file of a workspace: in the per-user state folder,
// so that no file appears in the repository.
func LockPath(env target.Env) (string, error) {
	dir, err := StateDir(env)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(env.Root))
	return filepath.Join(dir, "locks", hex.EncodeToString(sum[:8])+".lock"), nil
}
