package tomledit

import (
	"bytes"

	"github.com/repo-manager/repo/internal/editor"
)

// Format is how repo edits Codex's config.toml (there are no options):
// its documents keep the editor contract (internal/editor) that
// the plan edits every format through.
type Format struct{}

// Parse reads a file (a copy of data).
func (Format) Parse(data []byte) (editor.Doc, error) {
	d, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return file{d}, nil
}

// New is the empty document.
func (Format) New() editor.Doc { return file{New()} }

// file is a Doc as the contract sees it. TOML has no containers to make:
// an entry is its own table, in a marked block that goes by itself when
// its last entry does.
type file struct{ d *Doc }

func (x file) with(d *Doc) editor.Doc { return file{d} }

func (x file) Entries(key []string) ([]editor.Member, bool, error) {
	return members(x.d.Entries(key))
}

// Line reads the entries: it is for a message, once.
func (x file) Line(key []string, name string) int {
	ms, _, err := x.d.Entries(key)
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
	d, err := x.d.Replace(key, keyValues(updates))
	if err != nil {
		return nil, err
	}
	if d, err = d.Insert(key, keyValues(adds)); err != nil {
		return nil, err
	}
	return x.with(d), nil
}

func keyValues(es []editor.Entry) []KeyValue {
	kvs := make([]KeyValue, len(es))
	for i, e := range es {
		kvs[i] = KeyValue(e)
	}
	return kvs
}

func (x file) Delete(key []string, names []string) (editor.Doc, error) {
	d, err := x.d.DeleteAll(key, names)
	if err != nil {
		return nil, err
	}
	return x.with(d), nil
}

func (x file) Depth(key []string) (int, error) { return len(key), nil }

func (x file) DeleteEmpty([]string) (editor.Doc, bool, error) { return x, false, nil }

// Bare: a new file is empty, so a bare one is blank.
func (x file) Bare() bool {
	return len(bytes.TrimSpace(bytes.TrimPrefix(x.d.data, utf8BOM))) == 0
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
