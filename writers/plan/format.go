package plan

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers/jsonedit"
	"github.com/repo-manager/repo/writers/target"
	"github.com/repo-manager/repo/writers/tomledit"
	"github.com/repo-manager/repo/writers/yamledit"
)

// Member is one entry of a server map as found in a file, as strict JSON.
type Member struct {
	Key   string
	Value []byte
	Line  int
}

// editorMember is the member type every editor returns; converting it is
// the same for all three.
type editorMember interface {
	~struct {
		Key   string
		Value []byte
		Line  int
	}
}

// entries adapts an editor's Entries result.
func entries[M editorMember](ms []M, found bool, err error) ([]Member, bool, error) {
	if err != nil || !found {
		return nil, found, err
	}
	out := make([]Member, len(ms))
	for i, m := range ms {
		out[i] = Member(m)
	}
	return out, true, nil
}

// keyValues is a target's entries as jsonedit members.
func keyValues(es []target.Desired) []jsonedit.KeyValue {
	kvs := make([]jsonedit.KeyValue, len(es))
	for i, e := range es {
		kvs[i] = jsonedit.KeyValue{Key: e.Name, Value: ordered.JSON(e.Value)}
	}
	return kvs
}

// Document is a parsed config file that a format editor can change: the
// server map at a key path in it. Edits return a new document and touch no
// byte outside the edited entries.
type Document interface {
	Entries(key []string) (members []Member, found bool, err error)
	// Write rewrites the entries the file has (updates) where they stand,
	// then adds the new ones (adds), in order: one edit, parsed and
	// verified once, which keeps a first sync linear in the number of
	// servers.
	Write(key []string, updates, adds []target.Desired) (Document, error)
	Delete(key []string, name string) (Document, error)
	Bytes() []byte
}

// Format opens the documents of one target: its file format, and for YAML
// the shape of its server map.
type Format interface {
	Parse(data []byte) (Document, error)
	New() Document
}

// FormatFor returns the editor of a target.
func FormatFor(t *target.Target) (Format, error) {
	switch t.Format {
	case toolprofiles.FormatJSON:
		return jsonFormat{jsonedit.Strict, t.Skeleton}, nil
	case toolprofiles.FormatJSONComments:
		return jsonFormat{jsonedit.Comments, t.Skeleton}, nil
	case toolprofiles.FormatJSONC:
		return jsonFormat{jsonedit.JSONC, t.Skeleton}, nil
	case toolprofiles.FormatTOML:
		return tomlFormat{}, nil
	case toolprofiles.FormatYAML:
		if t.Skeleton != "" {
			if _, err := yamledit.Parse([]byte(t.Skeleton)); err != nil {
				return nil, fmt.Errorf("the profile's skeleton for a new file is not valid YAML: %w", err)
			}
		}
		f := yamlFormat{skeleton: t.Skeleton, kind: yamledit.Map}
		if t.Container == toolprofiles.ContainerList {
			f.kind, f.nameField = yamledit.List, t.NameField
		}
		return f, nil
	}
	return nil, fmt.Errorf("no editor for format %q", t.Format)
}

// yamlFormat edits Continue's and Goose's YAML: a map of entries, or a
// list of entries carrying their name in nameField.
type yamlFormat struct {
	skeleton  string
	kind      yamledit.Kind
	nameField string
}

func (f yamlFormat) Parse(data []byte) (Document, error) {
	d, err := yamledit.Parse(data)
	if err != nil {
		return nil, err
	}
	return f.doc(d), nil
}

func (f yamlFormat) New() Document { return f.doc(yamledit.New([]byte(f.skeleton))) }

func (f yamlFormat) doc(d *yamledit.Doc) yamlDoc {
	return yamlDoc{d: d, kind: f.kind, nameField: f.nameField}
}

type yamlDoc struct {
	d         *yamledit.Doc
	kind      yamledit.Kind
	nameField string
}

func (y yamlDoc) with(d *yamledit.Doc) yamlDoc { y.d = d; return y }

func (y yamlDoc) Entries(key []string) ([]Member, bool, error) {
	return entries(y.d.Entries(key, y.kind, y.nameField))
}

func (y yamlDoc) Write(key []string, updates, adds []target.Desired) (Document, error) {
	d, err := y.d.Replace(key, y.kind, y.nameField, yamlEntries(updates))
	if err != nil {
		return nil, err
	}
	if d, err = d.Insert(key, y.kind, y.nameField, yamlEntries(adds)); err != nil {
		return nil, err
	}
	return y.with(d), nil
}

func yamlEntries(es []target.Desired) []yamledit.Entry {
	out := make([]yamledit.Entry, len(es))
	for i, e := range es {
		out[i] = yamledit.Entry{Name: e.Name, Value: ordered.JSON(e.Value)}
	}
	return out
}

func (y yamlDoc) Delete(key []string, name string) (Document, error) {
	d, err := y.d.Delete(key, y.kind, y.nameField, name)
	if err != nil {
		return nil, err
	}
	return y.with(d), nil
}

func (y yamlDoc) Bytes() []byte { return y.d.Bytes() }

// Depth and DeleteEmpty make yamlDoc a containerEditor.
func (y yamlDoc) Depth(key []string) (int, error) { return y.d.Depth(key) }

func (y yamlDoc) DeleteEmpty(key []string) (Document, bool, error) {
	d, removed, err := y.d.DeleteEmpty(key)
	if err != nil {
		return nil, false, err
	}
	return y.with(d), removed, nil
}

// tomlFormat edits Codex's config.toml: entries are [<key>."<name>"]
// tables (a map), in a marked block at the end of the file.
type tomlFormat struct{}

func (tomlFormat) Parse(data []byte) (Document, error) {
	d, err := tomledit.Parse(data)
	if err != nil {
		return nil, err
	}
	return tomlDoc{d}, nil
}

func (tomlFormat) New() Document { return tomlDoc{tomledit.New()} }

type tomlDoc struct{ d *tomledit.Doc }

func (t tomlDoc) Entries(key []string) ([]Member, bool, error) {
	return entries(t.d.Entries(key))
}

// tomlKeyValues is a target's entries as tomledit servers.
func tomlKeyValues(es []target.Desired) []tomledit.KeyValue {
	kvs := make([]tomledit.KeyValue, len(es))
	for i, e := range es {
		kvs[i] = tomledit.KeyValue{Name: e.Name, Value: ordered.JSON(e.Value)}
	}
	return kvs
}

func (t tomlDoc) Write(key []string, updates, adds []target.Desired) (Document, error) {
	d, err := t.d.Replace(key, tomlKeyValues(updates))
	if err != nil {
		return nil, err
	}
	if d, err = d.Insert(key, tomlKeyValues(adds)); err != nil {
		return nil, err
	}
	return tomlDoc{d}, nil
}

func (t tomlDoc) Delete(key []string, name string) (Document, error) {
	d, err := t.d.Delete(key, name)
	if err != nil {
		return nil, err
	}
	return tomlDoc{d}, nil
}

// DeleteAll removes entries with one parse and one verification of the
// file (the bytes of a Delete of each; see deleteEntries).
func (t tomlDoc) DeleteAll(key []string, names []string) (Document, error) {
	d, err := t.d.DeleteAll(key, names)
	if err != nil {
		return nil, err
	}
	return tomlDoc{d}, nil
}

func (t tomlDoc) Bytes() []byte { return t.d.Bytes() }

// isBlank reports a file with nothing but whitespace (and a BOM) in it: it
// is treated as a new document, since there is nothing in it to keep.
func isBlank(data []byte) bool {
	return len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))) == 0
}

type jsonFormat struct {
	dialect  jsonedit.Dialect
	skeleton string
}

func (f jsonFormat) Parse(data []byte) (Document, error) {
	d, err := jsonedit.ParseOwned(data, f.dialect) // data is the plan's Before: never changed
	var se *jsonedit.SyntaxError
	if f.dialect != jsonedit.Strict && errors.As(err, &se) && se.Msg == "empty document" {
		// Nothing but comments (VS Code reads that as empty settings): keep
		// them, and put the object after them.
		nl := "\n"
		if bytes.Contains(data, []byte("\r\n")) {
			nl = "\r\n"
		}
		filled := append([]byte{}, data...)
		if !bytes.HasSuffix(filled, []byte("\n")) {
			filled = append(filled, nl...)
		}
		d, err = jsonedit.Parse(append(filled, "{}"+nl...), f.dialect)
	}
	if err != nil {
		return nil, err
	}
	return jsonDoc{d}, nil
}

func (f jsonFormat) New() Document {
	if f.skeleton != "" {
		if d, err := jsonedit.Parse([]byte(f.skeleton), f.dialect); err == nil {
			return jsonDoc{d}
		}
	}
	return jsonDoc{jsonedit.New(f.dialect)}
}

type jsonDoc struct{ d *jsonedit.Doc }

// Entries leaves Line 0: see jsonedit.Members, and EntryLine.
func (j jsonDoc) Entries(key []string) ([]Member, bool, error) {
	return entries(j.d.Members(key))
}

// EntryLine numbers an entry for a message (see lineOf).
func (j jsonDoc) EntryLine(key []string, name string) int {
	return j.d.MemberLine(key, name)
}

func (j jsonDoc) Write(key []string, updates, adds []target.Desired) (Document, error) {
	d, err := j.d.Replace(key, keyValues(updates))
	if err != nil {
		return nil, err
	}
	if d, err = d.Insert(key, keyValues(adds)); err != nil {
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

func (j jsonDoc) Bytes() []byte { return j.d.View() }

// Depth and DeleteEmpty make jsonDoc a containerEditor.
func (j jsonDoc) Depth(key []string) (int, error) { return j.d.Depth(key) }

func (j jsonDoc) DeleteEmpty(key []string) (Document, bool, error) {
	d, removed, err := j.d.DeleteEmpty(key)
	if err != nil {
		return nil, false, err
	}
	return jsonDoc{d}, removed, nil
}

// locatedError is an editor's error that says where in the file its
// cause is (jsonedit's, tomledit's and yamledit's syntax and layout
// errors). Its message is the position, then the reason.
type locatedError interface {
	error
	// Position is the 1-based line and column; column 0 when the error is
	// about a whole line.
	Position() (line, col int)
	// Reason is the message without the position, for a FileError, which
	// prints it as file:line:col.
	Reason() string
}

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
