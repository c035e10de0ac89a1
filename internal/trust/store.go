package trust

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
	"sort"
	"strings"

	"github.com/repo-manager/repo/internal/gittrack"
	"github.com/repo-manager/repo/internal/regfile"
)

// storeVersion is the version of the store's file format.
const storeVersion = 1

// Store is one workspace's trust on this machine, and what repo remembers
// of the workspace's servers for the user (what the last sync wrote, which
// approvals a change outdated). It is a file of its own per workspace in
// the state folder (Path), mode 0600.
type Store struct {
	// Trusted are the servers the user trusted, by name: the definition
	// they looked at, and its digest.
	Trusted map[string]Entry
	// Synced is the digest of each server's definition (without profiles)
	// as the last writing project-scope sync in the workspace wrote it:
	// what "new or changed since the last sync" compares with.
	Synced map[string]string
	// Approved remembers, per tool whose approvals are bound to a server's
	// name, the definition digest an approval was given to, for servers
	// whose definition changed after it (see cmd's sync and doctor).
	Approved map[string]map[string]string

	path string
	root string
	read []byte // the file as read, to write only what changed
}

// Entry is one trusted server: the digest of the definition the user
// trusted, which alone decides, and that definition as shown to them (its
// literal credentials redacted: see Definition.Redact), to show what
// changed since.
type Entry struct {
	Digest     string     `json:"digest"`
	Definition Definition `json:"definition"`
}

// storeFile is the file's form.
type storeFile struct {
	Version  int                          `json:"version"`
	Root     string                       `json:"root"`
	Trusted  map[string]Entry             `json:"trusted"`
	Synced   map[string]string            `json:"synced,omitempty"`
	Approved map[string]map[string]string `json:"approved,omitempty"`
}

// Path is the store of the workspace at root (its real path, as repo keys
// every per-user record of a workspace) in repo's state folder stateDir.
func Path(stateDir, root string) string {
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(stateDir, "trust", hex.EncodeToString(sum[:8])+".json")
}

// RefusedError is a store repo will not read or write, with why and what
// to do.
type RefusedError struct {
	Path string // as shown
	Why  string
	Fix  string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("trust store %s: %s, so repo does not take trust from it: %s", e.Path, e.Why, e.Fix)
}

// Open reads the store at path for the workspace at root. A store that
// does not exist is empty. show is how a path is shown.
//
// The store is where the user's decisions live, so it is refused where a
// workspace could have put one (a *RefusedError): inside the workspace
// (XDG_STATE_HOME set by an .envrc to a folder the repository commits),
// in a file git tracks, in a file or folder of another user, or one that
// others may write.
func Open(path, root string, show func(string) string) (*Store, error) {
	s := &Store{path: path, root: root, Trusted: map[string]Entry{}, Synced: map[string]string{}, Approved: map[string]map[string]string{}}
	if err := check(path, root, show); err != nil {
		return nil, err
	}
	data, err := regfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trust store %s: %w", show(path), err)
	}
	f, ok := decodeStore(data)
	if !ok {
		// Not as Bytes writes it: encoding/json decides, as it always did.
		f = storeFile{}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return nil, fmt.Errorf("trust store %s is damaged (%v): delete it and trust the workspace's servers again (repo trust)", show(path), err)
		}
	}
	switch {
	case f.Version != storeVersion:
		return nil, fmt.Errorf("trust store %s: version %d is not supported (this repo reads version %d)", show(path), f.Version, storeVersion)
	case f.Root != root:
		return nil, fmt.Errorf("trust store %s belongs to the workspace %s, not %s: delete it and trust the workspace's servers again (repo trust)", show(path), f.Root, root)
	}
	s.read = data
	for name, e := range f.Trusted {
		s.Trusted[name] = e
	}
	for k, v := range f.Synced {
		s.Synced[k] = v
	}
	for tool, m := range f.Approved {
		s.Approved[tool] = map[string]string{}
		for k, v := range m {
			s.Approved[tool][k] = v
		}
	}
	return s, nil
}

// File is where the store lives.
func (s *Store) File() string { return s.path }

// Status is how a server's current definition stands with the store.
type Status string

const (
	Trusted   Status = "trusted"
	New       Status = "new"     // never trusted
	Changed   Status = "changed" // trusted with another definition
	Gone      Status = "gone"    // trusted, and no longer in the workspace
	NotListed Status = ""
)

// Check says whether the server name with definition d is trusted, and
// when it was trusted with another definition, that one.
func (s *Store) Check(name string, d Definition) (Status, *Definition) {
	e, ok := s.Trusted[name]
	switch {
	case !ok:
		return New, nil
	case e.Digest == d.Digest():
		return Trusted, nil
	}
	old := e.Definition
	return Changed, &old
}

// Trust records d as trusted for the server name, keeping shown (d as the
// user saw it, redacted) to show against a later definition.
func (s *Store) Trust(name string, d, shown Definition) {
	s.Trusted[name] = Entry{Digest: d.Digest(), Definition: shown}
}

// Revoke forgets the trust of the server name; false when there was none.
func (s *Store) Revoke(name string) bool {
	_, ok := s.Trusted[name]
	delete(s.Trusted, name)
	return ok
}

// Names are the trusted servers' names, sorted.
func (s *Store) Names() []string { return sortedKeys(s.Trusted) }

// Bytes is the store's file content: indented JSON, keys sorted, no
// timestamps, so that an unchanged store is not rewritten.
func (s *Store) Bytes() []byte {
	f := storeFile{Version: storeVersion, Root: s.root, Trusted: s.Trusted, Synced: s.Synced, Approved: map[string]map[string]string{}}
	for tool, m := range s.Approved {
		if len(m) > 0 {
			f.Approved[tool] = m
		}
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		panic(err) // strings, bools and maps of them always encode
	}
	return append(data, '\n')
}

// Save writes the store, when it changed, as a new file renamed over the
// old one, readable and writable by the user alone. The place is checked
// again, as Open does: it may have changed since.
func (s *Store) Save(show func(string) string) error {
	data := s.Bytes()
	if bytes.Equal(data, s.read) {
		return nil
	}
	if err := check(s.path, s.root, show); err != nil {
		return err
	}
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("trust store %s: %w", show(s.path), err)
	}
	// The folders may have been made just now: check them as made.
	if err := check(s.path, s.root, show); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".trust-*.tmp")
	if err != nil {
		return fmt.Errorf("trust store %s: %w", show(s.path), err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err == nil {
		_, err = tmp.Write(data)
		if err == nil {
			err = tmp.Sync()
		}
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), s.path)
		}
		if err != nil {
			return fmt.Errorf("trust store %s: %w", show(s.path), err)
		}
	} else {
		tmp.Close()
		return fmt.Errorf("trust store %s: %w", show(s.path), err)
	}
	s.read = data
	return nil
}

// check refuses a store a workspace could have put in place (see Open).
func check(path, root string, show func(string) string) error {
	refuse := func(why, fix string) error { return &RefusedError{Path: show(path), Why: why, Fix: fix} }
	real := realPath(path)
	realRoot := realPath(root)
	if within(realRoot, real) || within(root, path) {
		return refuse("it is inside the workspace, where a repository could have committed it",
			"point XDG_STATE_HOME (set by an .envrc or the like?) at a folder outside the workspace, or unset it")
	}
	// The file, and the two folders repo made for it (trust/ and repo/):
	// the user's, and written by nobody else.
	dir := filepath.Dir(path)
	for _, p := range []string{path, dir, filepath.Dir(dir)} {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("trust store %s: %w", show(path), err)
		}
		if p == path && !fi.Mode().IsRegular() {
			return refuse("it is not a regular file", "remove it, and trust the workspace's servers again (repo trust)")
		}
		if uid, mine := ownedByMe(fi); !mine {
			return refuse(fmt.Sprintf("%s belongs to another user (uid %d)", show(p), uid),
				"remove it, or point XDG_STATE_HOME at a folder of your own")
		}
		if othersMayWrite(fi) {
			return refuse(fmt.Sprintf("others may write %s (mode %04o)", show(p), fi.Mode().Perm()),
				"chmod go-w "+show(p))
		}
	}
	// A file git tracks came from a repository, wherever it is.
	if _, err := os.Stat(path); err == nil {
		if top, ok := gittrack.Top(filepath.Dir(real)); ok {
			tracked, err := gittrack.Tracked(top, []string{real})
			if err != nil {
				return fmt.Errorf("trust store %s: %w", show(path), err)
			}
			if tracked[real] {
				return refuse("git tracks it in "+show(top)+", so it came from a repository",
					"point XDG_STATE_HOME at a folder of your own that no repository holds")
			}
		}
	}
	return nil
}

// realPath is p with the symlinks of its longest existing part resolved.
func realPath(p string) string {
	p = filepath.Clean(p)
	var rest []string
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(append([]string{p}, rest...)...)
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
}

// within reports whether p is dir or inside it.
func within(dir, p string) bool {
	if dir == "" {
		return false
	}
	r, err := filepath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
