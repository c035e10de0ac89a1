package writers

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers/jsonedit"
)

// Member is one entry of a server map as found in a file, as strict JSON.
type Member struct {
	Name  string
	Value []byte
	Line  int
}

// Document is a parsed config file that a format editor can change. Edits
// return a new document and touch no byte outside the edited entry.
type Document interface {
	Entries(key []string) (members []Member, found bool, err error)
	Set(key []string, name string, value ordered.Object) (Document, error)
	Delete(key []string, name string) (Document, error)
	Bytes() []byte
}

// Format opens documents of one format.
type Format interface {
	Parse(data []byte) (Document, error)
	New() Document
}

// FormatFor returns the editor of a profile format.
func FormatFor(name string) (Format, error) {
	switch name {
	case toolprofiles.FormatJSON:
		return jsonFormat{jsonedit.Strict}, nil
	case toolprofiles.FormatJSONComments:
		return jsonFormat{jsonedit.Comments}, nil
	case toolprofiles.FormatJSONC:
		return jsonFormat{jsonedit.JSONC}, nil
	}
	return nil, fmt.Errorf("no editor for format %q", name)
}

// isBlank reports a file with nothing but whitespace (and a BOM) in it: it
// is treated as a new document, since there is nothing in it to keep.
func isBlank(data []byte) bool {
	return len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))) == 0
}

type jsonFormat struct{ dialect jsonedit.Dialect }

func (f jsonFormat) Parse(data []byte) (Document, error) {
	d, err := jsonedit.Parse(data, f.dialect)
	if err != nil {
		return nil, err
	}
	return jsonDoc{d}, nil
}

func (f jsonFormat) New() Document { return jsonDoc{jsonedit.New(f.dialect)} }

type jsonDoc struct{ d *jsonedit.Doc }

func (j jsonDoc) Entries(key []string) ([]Member, bool, error) {
	ms, found, err := j.d.Object(key)
	if err != nil || !found {
		return nil, found, err
	}
	out := make([]Member, len(ms))
	for i, m := range ms {
		out[i] = Member{Name: m.Key, Value: m.Value, Line: m.Line}
	}
	return out, true, nil
}

func (j jsonDoc) Set(key []string, name string, value ordered.Object) (Document, error) {
	d, err := j.d.Set(key, name, ordered.JSON(value))
	if err != nil {
		return nil, err
	}
	return jsonDoc{d}, nil
}

func (j jsonDoc) Delete(key []string, name string) (Document, error) {
	d, err := j.d.Delete(key, name)
	if err != nil {
		return nil, err
	}
	return jsonDoc{d}, nil
}

func (j jsonDoc) Bytes() []byte { return j.d.Bytes() }

// position extracts line and column from an editor error, if it has them.
func position(err error) (int, int) {
	var se *jsonedit.SyntaxError
	if errors.As(err, &se) {
		return se.Line, se.Col
	}
	var te *jsonedit.TypeError
	if errors.As(err, &te) {
		return te.Line, te.Col
	}
	var de *jsonedit.DuplicateKeyError
	if errors.As(err, &de) {
		return de.Line, de.Col
	}
	return 0, 0
}
