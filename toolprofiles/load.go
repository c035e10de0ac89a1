package toolprofiles

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
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
// may change its profiles without affecting anyone else's.
func Builtin() (*Set, error) {
	s := &Set{byID: map[string]*Profile{}}
	for _, p := range builtinProfiles() {
		p.compile()
		s.byID[p.ID] = p
	}
	s.sortIDs()
	return s, nil
}

// LoadFS decodes every *.toml file at the top of fsys strictly, naming each
// profile's origin label + file name. go generate builds the built-in
// profiles with it from profiles/.
func LoadFS(fsys fs.FS, label string) (*Set, error) {
	s := &Set{byID: map[string]*Profile{}}
	if err := s.addFS(fsys, ".", label); err != nil {
		return nil, err
	}
	s.sortIDs()
	return s, nil
}

// Load returns the built-in profiles with the workspace's overrides from
// <root>/.repository/toolprofiles/*.toml applied: a profile with a known id
// replaces the built-in one whole, a new id adds a tool.
func Load(root string) (*Set, error) {
	s, err := Builtin()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, ".repository", "toolprofiles")
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err := s.addFS(os.DirFS(dir), ".", filepath.ToSlash(filepath.Join(".repository", "toolprofiles"))+"/"); err != nil {
		return nil, err
	}
	s.sortIDs()
	return s, nil
}

func (s *Set) sortIDs() {
	s.ids = s.ids[:0]
	for id := range s.byID {
		s.ids = append(s.ids, id)
	}
	sort.Strings(s.ids)
}

func (s *Set) addFS(fsys fs.FS, dir, label string) error {
	names, err := fs.Glob(fsys, path.Join(dir, "*.toml"))
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
		p, err := Decode(data, origin)
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
	p.origin = origin
	p.applyDefaults()
	if err := p.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", origin, err)
	}
	p.compile()
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
