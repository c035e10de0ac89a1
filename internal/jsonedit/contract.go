package jsonedit

import (
	"bytes"
	"errors"

	"github.com/repo-manager/repo/internal/editor"
)

// Format is how repo edits one tool's JSON file: the dialect the tool reads
// and the skeleton a new file starts from (empty: "{}\n"). Its documents
// keep the editor contract (internal/editor) that the plan edits
// every format through.
type Format struct {
	Dialect  Dialect
	Skeleton string
}

// Parse reads a file; the document keeps data, which must not change
// afterwards (a ~/.claude.json of 100 MB is not copied). Outside Strict, a
// file with nothing but comments (VS Code reads that as empty settings)
// is an empty object after them: the comments stay.
func (f Format) Parse(data []byte) (editor.Doc, error) {
	d, err := ParseOwned(data, f.Dialect)
	var se *SyntaxError
	if f.Dialect != Strict && errors.As(err, &se) && se.Msg == "empty document" {
		nl := "\n"
		if bytes.Contains(data, []byte("\r\n")) {
			nl = "\r\n"
		}
		filled := append([]byte{}, data...)
		if !bytes.HasSuffix(filled, []byte("\n")) {
			filled = append(filled, nl...)
		}
		d, err = ParseOwned(append(filled, "{}"+nl...), f.Dialect)
	}
	if err != nil {
		return nil, err
	}
	return file{d, f}, nil
}

// New is the skeleton, or "{}\n" when there is none or it does not parse.
func (f Format) New() editor.Doc {
	if f.Skeleton != "" {
		if d, err := Parse([]byte(f.Skeleton), f.Dialect); err == nil {
			return file{d, f}
		}
	}
	return file{New(f.Dialect), f}
}

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

// Entries leaves Line 0 (see Members); Line numbers one entry.
func (x file) Entries(key []string) ([]editor.Member, bool, error) {
	return members(x.d.Members(key))
}

func (x file) Line(key []string, name string) int { return x.d.MemberLine(key, name) }

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
		kvs[i] = KeyValue{Key: e.Name, Value: e.Value}
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

func (x file) Depth(key []string) (int, error) { return x.d.Depth(key) }

func (x file) DeleteEmpty(key []string) (editor.Doc, bool, error) {
	d, removed, err := x.d.DeleteEmpty(key)
	if err != nil {
		return nil, false, err
	}
	return x.with(d), removed, nil
}

// Bare: without a skeleton, an object with nothing but whitespace in it;
// with one, the skeleton's bytes (BOM and surrounding whitespace aside).
func (x file) Bare() bool {
	b := bytes.TrimSpace(bytes.TrimPrefix(x.d.View(), utf8BOM))
	if x.f.Skeleton == "" {
		return len(b) >= 2 && b[0] == '{' && b[len(b)-1] == '}' && allWS(b[1:len(b)-1])
	}
	return bytes.Equal(b, bytes.TrimSpace(x.f.New().Bytes()))
}

func (x file) Bytes() []byte { return x.d.View() }

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
