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

// Shape is how a server map is laid out: a map keyed by name, or a list
// whose entries carry their name in NameField.
type Shape struct {
	List      bool
	NameField string
}

// Document is a parsed config file that a format editor can change. Edits
// return a new document and touch no byte outside the edited entry.
type Document interface {
	Entries(key []string, shape Shape) (members []Member, found bool, err error)
	Set(key []string, shape Shape, name string, value ordered.Object) (Document, error)
	// Insert adds entries that are not there yet, in order, in one edit.
	Insert(key []string, shape Shape, entries []target.Desired) (Document, error)
	// Replace writes new values of entries that are there, in one edit.
	Replace(key []string, shape Shape, entries []target.Desired) (Document, error)
	Delete(key []string, shape Shape, name string) (Document, error)
	Bytes() []byte
}

// shapeOf is the target's server-map layout.
func shapeOf(t *target.Target) Shape {
	return Shape{List: t.Container == toolprofiles.ContainerList, NameField: t.NameField}
}

// Format opens the documents of one target: its file format, and the
// shape of its server map.
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
		return yamlFormat{skeleton: t.Skeleton}, nil
	}
	return nil, fmt.Errorf("no editor for format %q", t.Format)
}

// yamlFormat edits Continue's and Goose's YAML: a map of entries, or a
// list of entries carrying their name.
type yamlFormat struct{ skeleton string }

func (yamlFormat) Parse(data []byte) (Document, error) {
	d, err := yamledit.Parse(data)
	if err != nil {
		return nil, err
	}
	return yamlDoc{d}, nil
}

func (f yamlFormat) New() Document { return yamlDoc{yamledit.New([]byte(f.skeleton))} }

type yamlDoc struct{ d *yamledit.Doc }

func yamlKind(s Shape) (yamledit.Kind, string) {
	if s.List {
		return yamledit.List, s.NameField
	}
	return yamledit.Map, ""
}

func (y yamlDoc) Entries(key []string, s Shape) ([]Member, bool, error) {
	kind, nameField := yamlKind(s)
	return entries(y.d.Entries(key, kind, nameField))
}

func (y yamlDoc) Set(key []string, s Shape, name string, value ordered.Object) (Document, error) {
	kind, nameField := yamlKind(s)
	d, err := y.d.Set(key, kind, nameField, name, ordered.JSON(value))
	if err != nil {
		return nil, err
	}
	return yamlDoc{d}, nil
}

// Insert writes all new entries of a target in one edit, parsed and
// verified once, which keeps a first sync linear in the number of servers.
func (y yamlDoc) Insert(key []string, s Shape, entries []target.Desired) (Document, error) {
	kind, nameField := yamlKind(s)
	d, err := y.d.Insert(key, kind, nameField, yamlEntries(entries))
	if err != nil {
		return nil, err
	}
	return yamlDoc{d}, nil
}

// Replace is Insert for entries the file has.
func (y yamlDoc) Replace(key []string, s Shape, entries []target.Desired) (Document, error) {
	kind, nameField := yamlKind(s)
	d, err := y.d.Replace(key, kind, nameField, yamlEntries(entries))
	if err != nil {
		return nil, err
	}
	return yamlDoc{d}, nil
}

func yamlEntries(es []target.Desired) []yamledit.Entry {
	out := make([]yamledit.Entry, len(es))
	for i, e := range es {
		out[i] = yamledit.Entry{Name: e.Name, Value: ordered.JSON(e.Value)}
	}
	return out
}

func (y yamlDoc) Delete(key []string, s Shape, name string) (Document, error) {
	kind, nameField := yamlKind(s)
	d, err := y.d.Delete(key, kind, nameField, name)
	if err != nil {
		return nil, err
	}
	return yamlDoc{d}, nil
}

func (y yamlDoc) Bytes() []byte { return y.d.Bytes() }

// Depth and DeleteEmpty make yamlDoc a containerEditor.
func (y yamlDoc) Depth(key []string) (int, error) { return y.d.Depth(key) }

func (y yamlDoc) DeleteEmpty(key []string) (Document, bool, error) {
	d, removed, err := y.d.DeleteEmpty(key)
	if err != nil {
		return nil, false, err
	}
	return yamlDoc{d}, removed, nil
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

func (t tomlDoc) Entries(key []string, _ Shape) ([]Member, bool, error) {
	return entries(t.d.Entries(key))
}

func (t tomlDoc) Set(key []string, _ Shape, name string, value ordered.Object) (Document, error) {
	d, err := t.d.Set(key, name, ordered.JSON(value))
	if err != nil {
		return nil, err
	}
	return tomlDoc{d}, nil
}

// tomlKeyValues is a target's entries as tomledit servers.
func tomlKeyValues(es []target.Desired) []tomledit.KeyValue {
	kvs := make([]tomledit.KeyValue, len(es))
	for i, e := range es {
		kvs[i] = tomledit.KeyValue{Name: e.Name, Value: ordered.JSON(e.Value)}
	}
	return kvs
}

// Insert writes all new entries with one parse and one verification of
// the file (the bytes of a Set of each), which keeps a first sync linear
// in the number of servers.
func (t tomlDoc) Insert(key []string, _ Shape, entries []target.Desired) (Document, error) {
	d, err := t.d.Insert(key, tomlKeyValues(entries))
	if err != nil {
		return nil, err
	}
	return tomlDoc{d}, nil
}

// Replace is Insert for entries the file has.
func (t tomlDoc) Replace(key []string, _ Shape, entries []target.Desired) (Document, error) {
	d, err := t.d.Replace(key, tomlKeyValues(entries))
	if err != nil {
		return nil, err
	}
	return tomlDoc{d}, nil
}

func (t tomlDoc) Delete(key []string, _ Shape, name string) (Document, error) {
	d, err := t.d.Delete(key, name)
	if err != nil {
		return nil, err
	}
	return tomlDoc{d}, nil
}

// DeleteAll removes entries with one parse and one verification of the
// file (the bytes of a Delete of each; see deleteEntries).
func (t tomlDoc) DeleteAll(key []string, _ Shape, names []string) (Document, error) {
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
func (j jsonDoc) Entries(key []string, _ Shape) ([]Member, bool, error) {
	return entries(j.d.Members(key))
}

// EntryLine numbers an entry for a message (see lineOf).
func (j jsonDoc) EntryLine(key []string, _ Shape, name string) int {
	return j.d.MemberLine(key, name)
}

func (j jsonDoc) Set(key []string, _ Shape, name string, value ordered.Object) (Document, error) {
	d, err := j.d.Set(key, name, ordered.JSON(value))
	if err != nil {
		return nil, err
	}
	return jsonDoc{d}, nil
}

// Insert writes all new entries of a target with one parse and one
// verification of the file, which keeps a first sync linear in the number
// of servers.
func (j jsonDoc) Insert(key []string, _ Shape, entries []target.Desired) (Document, error) {
	d, err := j.d.Insert(key, keyValues(entries))
	if err != nil {
		return nil, err
	}
	return jsonDoc{d}, nil
}

// Replace is Insert for entries the file has.
func (j jsonDoc) Replace(key []string, _ Shape, entries []target.Desired) (Document, error) {
	d, err := j.d.Replace(key, keyValues(entries))
	if err != nil {
		return nil, err
	}
	return jsonDoc{d}, nil
}

// insertEach is Insert (and Replace) for editors without a batch edit:
// their Set inserts or replaces.
func insertEach(doc Document, key []string, s Shape, entries []target.Desired) (Document, error) {
	for _, e := range entries {
		var err error
		if doc, err = doc.Set(key, s, e.Name, e.Value); err != nil {
			return nil, fmt.Errorf("writing entry %q: %w", e.Name, err)
		}
	}
	return doc, nil
}

func (j jsonDoc) Delete(key []string, _ Shape, name string) (Document, error) {
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
	var tse *tomledit.SyntaxError
	if errors.As(err, &tse) {
		return tse.Line, tse.Col
	}
	var tle *tomledit.LayoutError
	if errors.As(err, &tle) {
		return tle.Line, 0
	}
	var yse *yamledit.SyntaxError
	if errors.As(err, &yse) {
		return yse.Line, yse.Col
	}
	var yhe *yamledit.ShapeError
	if errors.As(err, &yhe) {
		return yhe.Line, yhe.Col
	}
	return 0, 0
}
