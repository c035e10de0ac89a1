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
	"path/filepath"
	"slices"

	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/regfile"
	"github.com/repo-manager/repo/internal/target"
)

// The bases of hand edits (handedit.go): the text of each entry as repo
// last wrote it, by its digest — the canonical JSON of the entry, its
// root spelled <<root>>, which is exactly what the digest hashes, so a
// base is checked against the record that names it and is the same on
// every clone. They are kept per workspace in the user's state folder
// (BasesPath), never in the workspace: an entry can hold what an
// extension wrote (a literal token), so the file is the user's alone (mode
// 0600), like the per-user record. A plan keeps the bases of the entries
// the records it read name after it, in one section per record it read
// (the workspace's records, the per-user one), and leaves the other
// section as it is. The file is repo's memory, not a record: a missing or
// damaged one costs only merges (a warning says so), and --check never
// judges it.

// BasesPath is the file of the bases of the workspace at env.Root.
func BasesPath(env target.Env) (string, error) {
	dir, err := StateDir(env)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(env.Root))
	return filepath.Join(dir, "bases", hex.EncodeToString(sum[:8])+".json"), nil
}

// The sections of the bases: the entries of the records in the workspace
// (committed and the clone's own), and those of the per-user record.
const (
	basesWorkspace = "workspace"
	basesUser      = "user"
)

// basesFile is the form of the file.
type basesFile struct {
	Version   int               `json:"version"`
	Root      string            `json:"root"`
	Workspace map[string]string `json:"workspace,omitempty"`
	User      map[string]string `json:"user,omitempty"`
}

// baseStore is the bases a plan reads, and what it adds.
type baseStore struct {
	path    string
	display string
	before  []byte // as read; nil when missing
	file    basesFile
	// canonical: before is the file's content as appendBases writes it
	// (decodeCanonicalBases read it), so the same content is the same bytes.
	canonical bool
	added     map[string]map[string]string // section → digest → text
	// digests: the run's (plan.Build); a base is checked against its
	// digest each time it is used, and hashed once per run.
	digests *record.Digests
	// retire is a store kept under an alias (a workspace moved, or
	// reached through a link) that this one took over: deleted.
	retire *FilePlan
}

// readBases reads the bases of the workspace; where it has none yet, those
// kept under one of its aliases. A file repo cannot read or parse is a
// warning: the plan goes on without bases.
func readBases(env target.Env) (*baseStore, string) {
	path, err := BasesPath(env)
	if err != nil {
		return nil, ""
	}
	bs := &baseStore{path: path, display: env.Display(path), added: map[string]map[string]string{}}
	bs.file.Root = env.Root
	data, warning, canonical := readBasesFile(path, env.Root, &bs.file)
	bs.before, bs.canonical = data, canonical
	if data == nil && warning == "" {
		for _, alias := range env.Aliases {
			aenv := env
			aenv.Root = alias
			apath, err := BasesPath(aenv)
			if err != nil {
				continue
			}
			var old basesFile
			if adata, w, _ := readBasesFile(apath, alias, &old); adata != nil && w == "" {
				bs.file.Workspace, bs.file.User = old.Workspace, old.User
				bs.retire = &FilePlan{Path: apath, Display: env.Display(apath), Scope: ScopeRecord, Existed: true, Before: adata, Delete: true, Mode: 0o600}
				break
			}
		}
	}
	if warning != "" {
		warning = fmt.Sprintf("%s: %s; repo cannot merge the hand edits of entries whose extension changed since it last wrote them (it puts those back), and writes the file anew", bs.display, warning)
	}
	return bs, warning
}

// readBasesFile reads one file of bases into f: its bytes (nil when
// missing, or not the bases of root), what is wrong with it, and whether
// they are exactly what appendBases writes for f.
func readBasesFile(path, root string, f *basesFile) ([]byte, string, bool) {
	data, err := regfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", false
	}
	if err != nil {
		return nil, fmt.Sprintf("cannot read what repo last wrote into each entry (%v)", err), false
	}
	read, canonical := decodeCanonicalBases(data)
	if !canonical {
		// Any other text: encoding/json decides, as it always did.
		read = basesFile{}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&read); err != nil || read.Version != 1 {
			return data, "what repo last wrote into each entry is damaged or of another version", false
		}
	}
	if read.Root != root {
		return nil, "", false // another workspace's (a hash collision): not read
	}
	*f = read
	return data, "", canonical
}

// get is the base of digest in section, checked against the digest.
func (bs *baseStore) get(section, digest string) (string, bool) {
	if bs == nil {
		return "", false
	}
	if text, ok := bs.section(section)[digest]; ok {
		return text, bs.digests.Canonical([]byte(text), "") == digest
	}
	text, ok := bs.added[section][digest] // checked when added
	return text, ok
}

// has reports whether the store holds a base of digest in section (which
// get checks when it is used, and plan when it is kept).
func (bs *baseStore) has(section, digest string) bool {
	if _, ok := bs.section(section)[digest]; ok {
		return true
	}
	_, ok := bs.added[section][digest]
	return ok
}

func (bs *baseStore) section(name string) map[string]string {
	if name == basesUser {
		return bs.file.User
	}
	return bs.file.Workspace
}

// add notes the base of an entry the plan writes (or keeps): text, whose
// digest noteBases checked (get does not hash it again).
func (bs *baseStore) add(section, digest, text string) {
	if bs.added[section] == nil {
		bs.added[section] = map[string]string{}
	}
	bs.added[section][digest] = text
}

// plan is the store as the plan leaves it: in each section whose records
// it read (kept: the digests they name after it), the bases of those
// digests; nil when that is what the file holds already.
func (bs *baseStore) plan(kept map[string][]string) []*FilePlan {
	if bs == nil {
		return nil
	}
	next := basesFile{Version: 1, Root: bs.file.Root, Workspace: bs.file.Workspace, User: bs.file.User}
	for section, digests := range kept {
		m := map[string]string{}
		for _, d := range digests {
			if text, ok := bs.get(section, d); ok {
				m[d] = text
			}
		}
		if len(m) == 0 {
			m = nil
		}
		if section == basesUser {
			next.User = m
		} else {
			next.Workspace = m
		}
	}
	var out []*FilePlan
	if bs.retire != nil {
		out = append(out, bs.retire)
	}
	if len(next.Workspace) == 0 && len(next.User) == 0 {
		if bs.before != nil {
			out = append(out, &FilePlan{Path: bs.path, Display: bs.display, Scope: ScopeRecord, Existed: true, Before: bs.before, Delete: true, Mode: 0o600})
		}
		return out
	}
	if bs.canonical && maps.Equal(next.Workspace, bs.file.Workspace) && maps.Equal(next.User, bs.file.User) {
		return out // the file holds this content, in these bytes
	}
	after := appendBases(make([]byte, 0, basesSize(&next)), &next)
	if bytes.Equal(after, bs.before) {
		return out
	}
	return append(out, &FilePlan{Path: bs.path, Display: bs.display, Scope: ScopeRecord, Existed: bs.before != nil, Before: bs.before, After: after, Mode: 0o600})
}

// recordDigests are the digests the entries of records name, sorted.
func recordDigests(recs ...*record.Record) []string {
	seen := map[string]bool{}
	for _, r := range recs {
		if r == nil {
			continue
		}
		for _, t := range r.Targets {
			for _, o := range t.Entries {
				seen[o.Digest] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// baseText is the base of an entry a plan writes.
type baseText struct{ section, digest, text string }

// noteBases adds to the plan the bases of the entries tp's target holds
// after it that the store lacks.
func (tp *targetPlan) noteBases() {
	if tp.bases == nil || tp.opts.ReadOnly {
		return // a plan only looked at keeps nothing
	}
	for name, o := range tp.next {
		want, ok := tp.wanted[name]
		if !ok || tp.bases.has(tp.section, o.Digest) {
			continue
		}
		text := normalizedText(want.Without(tp.t.Preserve...), tp.env.Root)
		if tp.opts.digests.Canonical(text, "") == o.Digest {
			tp.out.bases = append(tp.out.bases, baseText{tp.section, o.Digest, string(text)})
		}
	}
}

// keepBases is the store of bases as the plan leaves it (Plan.State).
func (rs *recordSet) keepBases() []*FilePlan {
	kept := map[string][]string{}
	if rs.workspace != nil {
		kept[basesWorkspace] = recordDigests(rs.workspace.project, rs.workspace.machine)
	}
	if st, ok := rs.byKind[recordUser]; ok {
		kept[basesUser] = recordDigests(st.rec)
	}
	return rs.bases.plan(kept)
}
