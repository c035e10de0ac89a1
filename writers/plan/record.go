package plan

import (
	"strings"

	"github.com/repo-manager/repo/writers/internal/canon"
	"github.com/repo-manager/repo/writers/internal/record"
	"github.com/repo-manager/repo/writers/target"
)

// The ownership record is package writers/internal/record: its types, its
// codec, its digests. These names keep it where importers of plan found
// it (they go when the job packages move under internal/).
type (
	// Record is record.Record: repo's memory of the entries it wrote.
	Record = record.Record
	// RecordEntry is record.Entry: what repo owns in one target.
	RecordEntry = record.Entry
	// Created is record.Created: what repo made for a target.
	Created = record.Created
	// Owned is record.Owned: one managed entry.
	Owned = record.Owned
)

// ReadRecord loads a record; a missing file is an empty record
// (record.Read).
func ReadRecord(path, display string) (*Record, []byte, error) { return record.Read(path, display) }

// ProjectRecordPath is where the record of project-scope entries lives
// (record.ProjectPath).
func ProjectRecordPath(root string) string { return record.ProjectPath(root) }

// MachineRecordPath is where the record of the machine-specific project
// files lives when they are git-ignored (record.MachinePath).
func MachineRecordPath(root string) string { return record.MachinePath(root) }

// owns reports whether an entry found in a file is the one recorded (or
// the one an interrupted sync was replacing), written at any root (see
// matchesDigestAt).
func owns(env target.Env, o record.Owned, raw []byte) bool {
	return matchesDigestAt(env, raw, o.Digest) || (o.Previous != "" && matchesDigestAt(env, raw, o.Previous))
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
