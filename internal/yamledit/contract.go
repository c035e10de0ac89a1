package yamledit

import (
	"bytes"

	"github.com/repo-manager/repo/internal/editor"
)

// Format is how repo edits one tool's YAML file: the shape of its server
// map (a Map, or a List whose items carry their name in NameField) and the
// skeleton a new file starts from, which must parse. Its documents keep
// the editor contract (internal/editor) that the plan edits every
// format through.
type Format struct {
	Kind      Kind
	NameField string
	Skeleton  string
}

// Parse reads a file (a copy of data).
func (f Format) Parse(data []byte) (editor.Doc, error) {
	d, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return file{d, f}, nil
}

// New is the skeleton; it panics if the skeleton does not parse (the
// caller checks a profile's skeleton first).
func (f Format) New() editor.Doc { return file{New([]byte(f.Skeleton)), f} }

// file is a Doc with the Format it was opened with: the contract's Doc.
type file struct {
	d *Doc
	f Format
}

func (x file) with(d *Doc) editor.Doc {
	if d == x.d {
		return x // unchanged: the same document, as the contract allows
	}
	return file{d, x.f}
}

func (x file) Entries(key []string) ([]editor.Member, bool, error) {
	return members(x.d.Entries(key, x.f.Kind, x.f.NameField))
}

// Line reads the entries: it is for a message, once.
func (x file) Line(key []string, name string) int {
	ms, _, err := x.Entries(key)
	if err != nil {
		return 0
	}
	for _, m := range ms {
		if m.Key == name {
			return m.Line
		}
	}
	return 0
}

func (x file) Write(key []string, updates, adds []editor.Entry) (editor.Doc, error) {
	d, err := x.d.Replace(key, x.f.Kind, x.f.NameField, entries(updates))
	if err != nil {
		return nil, err
	}
	if d, err = d.Insert(key, x.f.Kind, x.f.NameField, entries(adds)); err != nil {
		return nil, err
	}
	return x.with(d), nil
}

func entries(es []editor.Entry) []Entry {
	out := make([]Entry, len(es))
	for i, e := range es {
		out[i] = Entry(e)
	}
	return out
}

func (x file) Delete(key []string, names []string) (editor.Doc, error) {
	d, err := x.d.DeleteAll(key, x.f.Kind, x.f.NameField, names)
	if err != nil {
		return nil, err
	}
	return x.with(d), nil
}

func (x file) Depth(key []string) (int, error) { return x.d.Depth(key) }

func (x file) DeleteEmpty(key []string) (editor.Doc, bool, error) {
	d, removed, err := x.d.DeleteEmpty(key)
	if err != nil {
		return nil, false, err
	}
	return x.with(d), removed, nil
}

// Bare: blank, or the skeleton (BOM and surrounding whitespace aside).
func (x file) Bare() bool {
	return bytes.Equal(bytes.TrimSpace(bytes.TrimPrefix(x.Bytes(), utf8BOM)), bytes.TrimSpace([]byte(x.f.Skeleton)))
}

func (x file) Bytes() []byte { return x.d.Bytes() }

// members are the editor's members as the contract's.
func members(ms []Member, found bool, err error) ([]editor.Member, bool, error) {
	if err != nil || !found {
		return nil, found, err
	}
	out := make([]editor.Member, len(ms))
	for i, m := range ms {
		out[i] = editor.Member(m)
	}
	return out, true, nil
}
