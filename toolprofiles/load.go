package toolprofiles

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/repo-manager/repo/internal/regfile"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/internal/tomltext"
)

// Set is a loaded collection of profiles, by id.
type Set struct {
	byID map[string]*Profile
	ids  []string // sorted
	// machine is the set without the workspace's profiles — the built-in
	// ones and the user's own — which alone apply to the local and user
	// scopes (see ForScope); nil when the workspace defines none.
	machine *Set
}

// ForScope is the set of profiles that apply to a scope: for the project
// scope every profile, a workspace's replacing a built-in or user profile
// of its id; for the local and user scopes only the built-in profiles and
// the user's own, whatever the workspace defines. A workspace's profile
// never describes a file outside the workspace, and its entry dialect
// never shapes an entry in one.
func (s *Set) ForScope(scope string) *Set {
	if scope != ScopeProject && s.machine != nil {
		return s.machine
	}
	return s
}

// Get returns the profile with id, or nil.
func (s *Set) Get(id string) *Profile { return s.byID[id] }

// All returns every profile, sorted by id.
func (s *Set) All() []*Profile {
	out := make([]*Profile, len(s.ids))
	for i, id := range s.ids {
		out[i] = s.byID[id]
	}
	return out
}

// IDs returns the sorted profile ids.
func (s *Set) IDs() []string { return append([]string(nil), s.ids...) }

// BuiltinOrigin is the origin prefix of the built-in profiles, which are
// defined by the files in profiles/.
const BuiltinOrigin = "builtin:"

// Builtin returns the built-in profiles. They are compiled in as Go values
// (builtin_gen.go, generated from profiles/*.toml by go generate) rather
// than decoded from TOML on every run, which took most of a small sync's
// start-up; TestBuiltinMatchesTOML keeps them equal to what the strict
// decoder makes of the files. Each call returns new values, so a caller
// may change its profiles without affecting anyone else's. They are
// copied from static tables in a few large allocations, not built one
// value at a time (internal/profilegen says why).
func Builtin() (*Set, error) {
	ps := builtinProfiles() // sorted by id
	s := &Set{byID: make(map[string]*Profile, len(ps)), ids: make([]string, len(ps))}
	for i := range ps {
		p := &ps[i]
		s.byID[p.ID], s.ids[i] = p, p.ID
	}
	return s, nil
}

// LoadFS decodes every *.toml file at the top of fsys strictly, naming each
// profile's origin label + file name. go generate builds the built-in
// profiles with it from profiles/.
func LoadFS(fsys fs.FS, label string) (*Set, error) {
	s := &Set{byID: map[string]*Profile{}}
	if err := s.addFS(fsys, label, sourceBuiltin, ""); err != nil {
		return nil, err
	}
	s.sortIDs()
	return s, nil
}

// Load returns the profiles that apply in the workspace at root: the
// built-in ones, replaced or added to by the user's own in UserDir (any
// scope), and, for the project scope only, by the workspace's in
// <root>/.repository/toolprofiles/*.toml (see ForScope). A profile with a
// known id replaces that profile whole; a new id adds a tool. A workspace
// profile that describes anything but project files inside the workspace
// is refused, with the file, the line and the rule (confine). root ""
// loads no workspace profiles (outside a workspace).
func Load(root string, env Env) (*Set, error) {
	s, err := Builtin()
	if err != nil {
		return nil, err
	}
	userDir, userLabel := UserDir(env), ""
	if userDir != "" {
		userLabel = displayDir(userDir, env.Home)
		if err := s.addDir(userDir, userLabel, sourceUser, ""); err != nil {
			return nil, err
		}
		if len(s.byID) != len(s.ids) {
			// Only a new id changes the sorted list: a user's profile
			// of a built-in id replaces it in place.
			s.sortIDs()
		}
	}
	if root == "" {
		return s, nil
	}
	ws := &Set{byID: maps.Clone(s.byID), machine: s}
	if userLabel == "" {
		userLabel = "~/.config/repo/toolprofiles/"
	}
	dir := filepath.Join(root, ".repository", "toolprofiles")
	if err := ws.addDir(dir, filepath.ToSlash(filepath.Join(".repository", "toolprofiles"))+"/", sourceWorkspace, userLabel); err != nil {
		return nil, err
	}
	if len(ws.byID) == len(s.byID) && !ws.replacedAny(s) {
		return s, nil // the workspace defines no profile
	}
	ws.sortIDs()
	return ws, nil
}

// replacedAny reports whether s holds a profile other than base's of its id.
func (s *Set) replacedAny(base *Set) bool {
	for id, p := range s.byID {
		if base.byID[id] != p {
			return true
		}
	}
	return false
}

// UserVars are the directory variables UserDir reads on goos, in order.
func UserVars(goos string) []string {
	if goos == "windows" {
		return []string{"XDG_CONFIG_HOME", "APPDATA"}
	}
	return []string{"XDG_CONFIG_HOME"}
}

// UserDir is the folder of the user's own profiles:
// $XDG_CONFIG_HOME/repo/toolprofiles (on Windows else
// %APPDATA%\repo\toolprofiles), else ~/.config/repo/toolprofiles; "" when
// no home folder is known. A relative value of a variable is ignored, as
// for every folder variable (Env.DirVar). Only the user writes there: the
// profiles in it may describe any file, in any scope.
func UserDir(env Env) string {
	for _, name := range UserVars(env.GOOS) {
		if base, _ := env.DirVar(name); base != "" {
			return filepath.Join(base, "repo", "toolprofiles")
		}
	}
	if env.Home == "" {
		return ""
	}
	return filepath.Join(env.Home, ".config", "repo", "toolprofiles")
}

// displayDir is dir as ~/… when it is in home, with a trailing slash.
func displayDir(dir, home string) string {
	if home != "" {
		if r, err := filepath.Rel(home, dir); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "~/" + filepath.ToSlash(r) + "/"
		}
	}
	return filepath.ToSlash(dir) + "/"
}

// addDir adds the profiles of a folder, if it exists.
func (s *Set) addDir(dir, label string, src source, userDir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", strings.TrimSuffix(label, "/"), err)
	case !fi.IsDir():
		return fmt.Errorf("%s: is not a folder (repo reads tool profiles from it)", strings.TrimSuffix(label, "/"))
	}
	return s.addFS(os.DirFS(dir), label, src, userDir)
}

func (s *Set) sortIDs() {
	s.ids = s.ids[:0]
	for id := range s.byID {
		s.ids = append(s.ids, id)
	}
	sort.Strings(s.ids)
}

func (s *Set) addFS(fsys fs.FS, label string, src source, userDir string) error {
	names, err := fs.Glob(fsys, "*.toml")
	if err != nil {
		return err
	}
	seen := map[string]string{}
	for _, name := range names {
		if err := termtext.Check(path.Base(name)); err != nil {
			return fmt.Errorf("%s: a profile file's name must be printable: %v; rename the file", termtext.Safe(label+path.Base(name)), err)
		}
		// A FIFO or device named *.toml would block or never end the read.
		fi, err := fs.Stat(fsys, name)
		if err == nil {
			err = regfile.Check(fi)
		}
		var data []byte
		if err == nil {
			data, err = fs.ReadFile(fsys, name)
		}
		if err != nil {
			return fmt.Errorf("%s%s: %w", label, path.Base(name), err)
		}
		origin := label + path.Base(name)
		p, err := decode(data, origin, src, userDir+path.Base(name))
		if err != nil {
			return err
		}
		if prev, ok := seen[p.ID]; ok {
			return fmt.Errorf("%s: profile id %q is also defined in %s", origin, p.ID, prev)
		}
		seen[p.ID] = origin
		s.byID[p.ID] = p
	}
	return nil
}

// Decode parses one profile file strictly: an unknown key is an error that
// names the file, the line and the key.
func Decode(data []byte, origin string) (*Profile, error) {
	return decode(data, origin, sourceBuiltin, "")
}

// decode is Decode of a profile from src; a workspace profile is then
// confined (userFile: where the user's own profile of that name would go,
// for the message).
func decode(data []byte, origin string, src source, userFile string) (*Profile, error) {
	// Ids, names, paths and notes are printed (repo tools, doctor, every
	// message about a file); a skeleton is file content, with its newlines.
	// Checked first, so that no decoder message prints such a key.
	if p := tomltext.Check(data, func(key []string) bool { return key[len(key)-1] != "skeleton" }); p != nil {
		return nil, fmt.Errorf("%s: line %d, column %d: must be printable: %v", origin, p.Line, p.Col, p)
	}
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var p Profile
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%s: %s", origin, describeTOMLError(err))
	}
	p.origin, p.source = origin, src
	p.applyDefaults()
	if src == sourceWorkspace {
		// Before validate: its rules for local and user scope would
		// otherwise refuse a path there without saying that the scope
		// itself is what a workspace may not describe.
		if err := p.confine(data, userFile); err != nil {
			return nil, err
		}
	}
	if err := p.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", origin, err)
	}
	return &p, nil
}

// describeTOMLError turns go-toml's errors into "line L, column C: what".
// StrictMissingError is checked first: it unwraps to its DecodeErrors, so
// asking for a DecodeError first would report only "unknown field" for the
// first key, without naming it.
func describeTOMLError(err error) string {
	var serr *toml.StrictMissingError
	if errors.As(err, &serr) {
		var parts []string
		for _, e := range serr.Errors {
			row, col := e.Position()
			parts = append(parts, fmt.Sprintf("line %d, column %d: unknown key %q", row, col, strings.Join(e.Key(), ".")))
		}
		return strings.Join(parts, "; ")
	}
	var derr *toml.DecodeError
	if errors.As(err, &derr) {
		row, col := derr.Position()
		return fmt.Sprintf("line %d, column %d: %s", row, col, derr.Error())
	}
	return err.Error()
}
