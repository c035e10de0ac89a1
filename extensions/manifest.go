package extensions

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/repo-manager/repo/internal/tomltext"
)

// Manifest is an extension's extension.toml.
type Manifest struct {
	Name     string   `toml:"name"`
	Version  string   `toml:"version"`
	Provides Provides `toml:"provides"`
	Runtime  Runtime  `toml:"runtime"`
}

// Provides lists what the extension ships.
type Provides struct {
	MCP string `toml:"mcp"` // the MCP file, relative to the extension folder
}

// Runtime describes the extension's own interpreters.
type Runtime struct {
	Python string `toml:"python"` // the virtualenv, relative to the extension folder
}

// DefaultVenv is the virtualenv folder when the manifest names none.
const DefaultVenv = ".venv"

// decodeManifest parses extension.toml strictly: an unknown key is an error
// naming its line, because a misspelt key would otherwise be ignored and the
// extension would silently provide nothing.
func decodeManifest(data []byte, file, folder string) (*Manifest, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // editors on Windows write one
	if err := printable(data, file, folder, nil); err != nil {
		return nil, err
	}
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, tomlError(err, data, manifestTypes.Get(), file, folder)
	}
	if m.Name == "" {
		return nil, &Error{File: file, Extension: folder, Field: "name", Msg: "is required"}
	}
	if m.Name != folder {
		return nil, &Error{File: file, Extension: folder, Field: "name",
			Msg: fmt.Sprintf("%q must equal the folder name %q", m.Name, folder)}
	}
	if m.Runtime.Python == "" {
		m.Runtime.Python = DefaultVenv
	}
	return &m, nil
}

// printable refuses a key or string of a TOML file (those of keys for
// which want is true; nil: all) that holds a control, format or separator
// character: the extension's name and paths are printed, and a workspace
// must not write to the terminal or a CI log through them. Before the
// decoder, so that its messages (an unknown key) never print such a key.
func printable(data []byte, file, folder string, want func([]string) bool) error {
	if p := tomltext.Check(data, want); p != nil {
		if p.IsKey {
			return &Error{File: file, Line: p.Line, Col: p.Col, Extension: folder, Msg: "must be printable: " + p.Error()}
		}
		return &Error{File: file, Line: p.Line, Col: p.Col, Extension: folder, Field: p.Key, Msg: "must be printable: " + p.Err.Error()}
	}
	return nil
}

// tomlError turns go-toml errors into *Error with a position. Unknown keys
// are checked first: a StrictMissingError also matches DecodeError and would
// otherwise lose the key names. A value of the wrong type is explained with
// want (see typeMismatch), without go-toml's Go type names.
func tomlError(err error, data []byte, want map[string]string, file, ext string) error {
	var serr *toml.StrictMissingError
	if errors.As(err, &serr) && len(serr.Errors) > 0 {
		first := serr.Errors[0]
		row, col := first.Position()
		var keys []string
		for _, e := range serr.Errors {
			keys = append(keys, strings.Join(e.Key(), "."))
		}
		return &Error{File: file, Line: row, Col: col, Extension: ext,
			Msg: fmt.Sprintf("unknown key %s (known: name, version, provides.mcp, runtime.python)", strings.Join(keys, ", "))}
	}
	var derr *toml.DecodeError
	if errors.As(err, &derr) {
		row, col := derr.Position()
		if field, msg, ok := typeMismatch(derr, data, want); ok {
			return &Error{File: file, Line: row, Col: col, Extension: ext, Field: field, Msg: msg}
		}
		return &Error{File: file, Line: row, Col: col, Extension: ext, Msg: derr.Error()}
	}
	return &Error{File: file, Extension: ext, Msg: err.Error()}
}
