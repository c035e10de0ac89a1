package plan

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/repo-manager/repo/internal/editor"
	"github.com/repo-manager/repo/internal/jsonedit"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/tomledit"
	"github.com/repo-manager/repo/internal/yamledit"
	"github.com/repo-manager/repo/toolprofiles"
)

// Member is one entry of a server map as found in a file, as strict JSON.
type Member = editor.Member

// Document is a parsed config file that a format editor can change: the
// server map at a key path in it. It is the editor contract
// (internal/editor), which jsonedit, tomledit and yamledit keep.
type Document = editor.Doc

// Format opens the documents of one target: its file format, with the
// options the target's profile chose.
type Format = editor.Format

// FormatFor returns the editor of a target: the JSON dialect and the
// skeleton of a new file, the shape of a YAML server map (a map, or a list
// whose items carry their name in a field).
func FormatFor(t *target.Target) (Format, error) {
	switch t.Format {
	case toolprofiles.FormatJSON:
		return jsonedit.Format{Dialect: jsonedit.Strict, Skeleton: t.Skeleton}, nil
	case toolprofiles.FormatJSONComments:
		return jsonedit.Format{Dialect: jsonedit.Comments, Skeleton: t.Skeleton}, nil
	case toolprofiles.FormatJSONC:
		return jsonedit.Format{Dialect: jsonedit.JSONC, Skeleton: t.Skeleton}, nil
	case toolprofiles.FormatTOML:
		return tomledit.Format{}, nil
	case toolprofiles.FormatYAML:
		if t.Skeleton != "" {
			if _, err := yamledit.Parse([]byte(t.Skeleton)); err != nil {
				return nil, fmt.Errorf("the profile's skeleton for a new file is not valid YAML: %w", err)
			}
		}
		f := yamledit.Format{Kind: yamledit.Map, Skeleton: t.Skeleton}
		if t.Container == toolprofiles.ContainerList {
			f.Kind, f.NameField = yamledit.List, t.NameField
		}
		return f, nil
	}
	return nil, fmt.Errorf("no editor for format %q", t.Format)
}

// editorEntries is a target's entries as the editors write them.
func editorEntries(es []target.Desired) []editor.Entry {
	out := make([]editor.Entry, len(es))
	for i, e := range es {
		out[i] = editor.Entry{Name: e.Name, Value: ordered.JSON(e.Value)}
	}
	return out
}

// isBlank reports a file with nothing but whitespace (and a BOM) in it: it
// is treated as a new document, since there is nothing in it to keep.
func isBlank(data []byte) bool {
	return len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))) == 0
}

// locatedError is an editor's error that says where in the file its
// cause is (see editor.Located).
type locatedError = editor.Located

// position extracts line and column from an editor error, if it has them.
func position(err error) (int, int) {
	var le locatedError
	if errors.As(err, &le) {
		return le.Position()
	}
	return 0, 0
}

// stripPosition drops an editor error's own position from its message
// when the message begins with it; FileError prints the position as
// file:line:col.
func stripPosition(err error) error {
	if le, ok := err.(locatedError); ok {
		return errors.New(le.Reason())
	}
	return err
}
