package plan

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/repo-manager/repo/internal/gittrack"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/regfile"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/termtext"
)

// A workspace's per-user record is kept under its root's path, but a
// workspace can move (mv ws-a ws-b). What recognises it at the new path is
// an identity kept in the workspace itself, which moves with it: a random
// id, and the root it was last synced at, in IdentityPath — a folder of
// this clone's own files that git ignores by a .gitignore of its own, so
// that no clone commits it and no repository needs to list it. The
// per-user record holds the same id (Record.ID).
//
// At a root that has no record yet, an identity that names another root
// whose record has the same id is a move, and the record follows the
// workspace (the old root becomes an alias: planAliases takes its record
// over, removes the entries written under its key, and deletes it) —
// unless the old root still holds a workspace with that identity: then
// this one is a copy (cp -r), and gets an id of its own. A second clone has
// no identity (it is ignored), so it gets its own. An identity git tracks
// came through the repository, and is refused where repo would write it.
//
// The trust store does not follow a move: it is keyed by the root, and a
// moved workspace's servers resolve to other paths anyway, so the user
// trusts them again (repo trust).

// IdentityPath is the file of the clone's identity in the workspace at root.
func IdentityPath(root string) string {
	return filepath.Join(root, ".repository", ".clone", "workspace.json")
}

// identityIgnore is the .gitignore of the identity's folder: it ignores
// everything there, itself included, so git never shows the folder.
const identityIgnore = "# repo: this clone's own files on this machine (its identity); never committed\n*\n"

// identity is the form of the identity file.
type identity struct {
	ID   string `json:"id"`
	Root string `json:"root"`
}

// cloneState is what recognise found out about the workspace, and what
// the plan keeps of it.
type cloneState struct {
	id        string // this clone's id
	movedFrom string // the root this workspace was moved from, whose record it takes
	copyOf    string // the root of the workspace this one is a copy of
	before    []byte // the identity file as read; nil when missing
}

// recognise reads the identity of the workspace at env.Root and returns
// env with the root it was moved from, if any, among its Aliases (see the
// comment above).
func recognise(env target.Env) (target.Env, *cloneState, error) {
	path := IdentityPath(env.Root)
	cs := &cloneState{}
	ident, raw, err := readIdentity(path)
	if err != nil {
		return env, nil, fmt.Errorf("%s: cannot read this clone's identity: %w", env.Display(path), err)
	}
	cs.before = raw
	ownPath, err := UserRecordPath(env)
	if err != nil {
		return env, nil, err
	}
	own, ownRaw, err := record.Read(ownPath, env.Display(ownPath))
	if err != nil {
		return env, nil, err
	}
	switch {
	case ident == nil:
		cs.id = own.ID
	case ident.Root == env.Root || sameDir(ident.Root, env.Root):
		cs.id = ident.ID
	default:
		cs.id = ident.ID
		if ownRaw != nil {
			break // this root has a record: it alone says what is this workspace's
		}
		oldEnv := env
		oldEnv.Root = ident.Root
		oldPath, err := UserRecordPath(oldEnv)
		if err != nil {
			return env, nil, err
		}
		old, oldRaw, err := record.Read(oldPath, env.Display(oldPath))
		if err != nil || oldRaw == nil || old.ID != ident.ID || old.Root != ident.Root {
			break // no record of this workspace there: nothing follows
		}
		if there, _, _ := readIdentity(IdentityPath(ident.Root)); there != nil && there.ID == ident.ID && there.Root == ident.Root {
			cs.copyOf, cs.id = ident.Root, ""
			break
		}
		cs.movedFrom = ident.Root
		env.Aliases = append(slices.Clip(env.Aliases), ident.Root)
	}
	if cs.id == "" {
		if cs.id, err = newID(env.Root); err != nil {
			return env, nil, err
		}
	}
	return env, cs, nil
}

// newIDs are the ids made for roots that had none, once per process:
// every plan of a run (a plan made again after a tool wrote its file, a
// plan only looked at) names the clone alike until the id is written.
var newIDs sync.Map

// newID is a new random id for the clone at root (see newIDs).
func newID(root string) (string, error) {
	if id, ok := newIDs.Load(root); ok {
		return id.(string), nil
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	id, _ := newIDs.LoadOrStore(root, hex.EncodeToString(b[:]))
	return id.(string), nil
}

// readIdentity reads an identity file: nil when there is none, or when it
// is not one (repo then writes a new one; the id it held recognised
// nothing).
func readIdentity(path string) (*identity, []byte, error) {
	data, err := regfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var ident identity
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if dec.Decode(&ident) != nil || !validID(ident.ID) || !filepath.IsAbs(ident.Root) {
		return nil, data, nil
	}
	return &ident, data, nil
}

// validID: 32 lowercase hex digits, as recognise makes them.
func validID(id string) bool {
	if len(id) != 32 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil && id == string(bytes.ToLower([]byte(id)))
}

// sameDir reports whether two paths name one existing folder.
func sameDir(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// identityFiles are the files that keep the clone's identity, as a plan
// writes them (Plan.State): the identity, and the .gitignore of its folder
// when it is missing. An identity git tracks is refused, with the fix: it
// came through the repository, and every clone would write it.
func (cs *cloneState) identityFiles(env target.Env) ([]*FilePlan, error) {
	path := IdentityPath(env.Root)
	after := []byte("{\n  \"id\": " + string(ordered.AppendString(nil, cs.id)) + ",\n  \"root\": " + string(ordered.AppendString(nil, env.Root)) + "\n}\n")
	if bytes.Equal(after, cs.before) {
		return nil, nil
	}
	if top, ok := gittrack.Top(env.Root); ok {
		tracked, err := env.Git.Tracked(top, []string{filepath.Dir(path)})
		if err != nil {
			return nil, err
		}
		if tracked[filepath.Dir(path)] {
			rel := env.Display(filepath.Dir(path))
			return nil, fmt.Errorf("%s: git tracks this clone's identity, which must stay on this clone (committed, every clone would be taken for the one that wrote it); from the workspace root, run 'git rm -r %s' and commit, then run repo again", termtext.Safe(rel), termtext.Safe(rel))
		}
	}
	files := []*FilePlan{{Path: path, Display: env.Display(path), Scope: ScopeRecord, Existed: cs.before != nil, Before: cs.before, After: after, Mode: 0o644}}
	ignore := filepath.Join(filepath.Dir(path), ".gitignore")
	if _, err := os.Lstat(ignore); errors.Is(err, fs.ErrNotExist) {
		files = append(files, &FilePlan{Path: ignore, Display: env.Display(ignore), Scope: ScopeRecord, After: []byte(identityIgnore), Mode: 0o644})
	}
	return files, nil
}
