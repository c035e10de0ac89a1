package writers

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/ordered"
)

// RecordVersion is the format version of ownership records.
const RecordVersion = 1

// Record is repo's memory of the entries it wrote: per target, each name
// with a digest of the value written — never the value, which can hold a
// secret. It is the source of truth for ownership; nothing in the tool
// files themselves is trusted to say what repo owns.
type Record struct {
	Version int `json:"version"`
	// Root is set only in per-user records, which live outside the workspace.
	Root    string         `json:"root,omitempty"`
	Targets []*RecordEntry `json:"targets"`
}

// RecordEntry is what repo owns in one target.
type RecordEntry struct {
	File    string           `json:"file"` // root-relative (project) or absolute (per-user)
	Key     []string         `json:"key"`
	Entries map[string]Owned `json:"entries"`
}

// Owned is one managed entry.
type Owned struct {
	Extension string `json:"extension"`
	Digest    string `json:"digest"`
}

// ProjectRecordPath is where the record of project-scope entries lives. It
// is meant to be committed: it holds relative paths and digests only.
func ProjectRecordPath(root string) string {
	return filepath.Join(root, ".repository", "mcp-managed.json")
}

// UserRecordPath is where the record of one workspace's local- and
// user-scope entries lives: outside the workspace, since those files are
// the user's, one record per workspace so that two workspaces writing to
// the same ~/.claude.json never claim each other's entries.
func UserRecordPath(env Env) (string, error) {
	sum := sha256.Sum256([]byte(env.Root))
	name := hex.EncodeToString(sum[:8]) + ".json"
	base := ""
	if env.Getenv != nil {
		base = env.Getenv("XDG_STATE_HOME")
		if env.GOOS == "windows" && base == "" {
			base = env.Getenv("LOCALAPPDATA")
		}
	}
	if base == "" {
		if env.Home == "" {
			return "", errors.New("the home directory is not known (set HOME): repo keeps its record of per-user entries there")
		}
		base = filepath.Join(env.Home, ".local", "state")
	}
	return filepath.Join(base, "repo", "workspaces", name), nil
}

// ReadRecord loads a record; a missing file is an empty record.
func ReadRecord(path, display string) (*Record, []byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Record{Version: RecordVersion}, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: cannot read the ownership record: %w", display, err)
	}
	var r Record
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, nil, fmt.Errorf("%s: the ownership record is damaged (%v); restore it from version control, or delete it and run `repo sync --adopt` to claim the entries again", display, err)
	}
	if r.Version != RecordVersion {
		return nil, nil, fmt.Errorf("%s: ownership record version %d is not supported (this repo reads version %d)", display, r.Version, RecordVersion)
	}
	return &r, data, nil
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
// and a committed record diffs cleanly.
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
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		panic(err) // the record holds only strings
	}
	return b.Bytes()
}

// Digest fingerprints an entry value. Key order and whitespace do not
// matter (a tool that reformats its file has not edited our entry), so the
// value is canonicalised first.
func Digest(raw []byte) string {
	sum := sha256.Sum256(canonical(raw))
	return "sha256:" + hex.EncodeToString(sum[:16])
}

// normalizedDigest fingerprints an entry with the workspace root spelled
// <<root>>: the digest of an entry does not depend on where the workspace
// is, so a committed record stays valid on every clone.
func normalizedDigest(raw []byte, root string) string {
	canon := canonical(raw)
	if root != "" {
		canon = bytes.ReplaceAll(canon, []byte(jsonText(root)), []byte("<<root>>"))
	}
	sum := sha256.Sum256(canon) // canon is canonical already
	return "sha256:" + hex.EncodeToString(sum[:16])
}

// matchesDigest reports whether an entry found in a file is the one a
// record digest was taken of. The entry may have been written at another
// root (a teammate's checkout): the root it shows — the part of a path
// before /.repository/extensions/ — is tried as well as this one.
func matchesDigest(raw []byte, digest, root string) bool {
	if normalizedDigest(raw, root) == digest {
		return true
	}
	canon := string(canonical(raw))
	marker := jsonText(string(filepath.Separator) + ".repository" + string(filepath.Separator) + "extensions" + string(filepath.Separator))
	if i := strings.Index(canon, marker); i > 0 {
		start := strings.LastIndexByte(canon[:i], '"') + 1
		if other := canon[start:i]; other != "" {
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
	c, w, r := string(canonical(cur)), string(canonical(want)), jsonText(root)
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

// canonical is an entry as compact JSON with object keys sorted, so a tool
// that reorders or reindents its file has not changed the entry. It walks
// the value with gjson rather than decoding it into Go values: a sync
// canonicalises every entry of every file, and this is the hot path.
func canonical(raw []byte) []byte {
	r := gjson.ParseBytes(raw)
	if !r.IsObject() && !r.IsArray() && !gjson.ValidBytes(raw) {
		return raw
	}
	var b bytes.Buffer
	b.Grow(len(raw))
	writeCanonical(&b, r)
	return b.Bytes()
}

func writeCanonical(b *bytes.Buffer, r gjson.Result) {
	switch {
	case r.IsObject():
		type kv struct {
			key string
			val gjson.Result
		}
		var members []kv
		r.ForEach(func(k, v gjson.Result) bool {
			members = append(members, kv{k.String(), v})
			return true
		})
		sort.SliceStable(members, func(i, j int) bool { return members[i].key < members[j].key })
		b.WriteByte('{')
		for i, m := range members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(ordered.JSON(m.key))
			b.WriteByte(':')
			writeCanonical(b, m.val)
		}
		b.WriteByte('}')
	case r.IsArray():
		b.WriteByte('[')
		i := 0
		r.ForEach(func(_, v gjson.Result) bool {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonical(b, v)
			i++
			return true
		})
		b.WriteByte(']')
	case r.Type == gjson.String:
		b.Write(ordered.JSON(r.String())) // one spelling per string, whatever the escapes
	default:
		b.WriteString(r.Raw)
	}
}

// jsonText is s as it appears inside a JSON string (quotes removed).
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
