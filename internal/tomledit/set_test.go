package tomledit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/repo-manager/repo/internal/textedit"
)

// The editor writes servers in batches (Insert, Replace, DeleteAll) and
// removes them one at a time (Delete). set is the definition the batch
// edits are held to: the bytes of writing one server at a time, by an
// implementation of its own (an existing entry's first run of tables is
// overwritten where it stands, a new one appended to the managed block).

// set writes server name with the JSON object value, keeping the object's
// member order. An existing entry is replaced in place: its first run of
// [table.name…] sections is overwritten and any other sections of it are
// removed. A new entry is appended to the managed block, which is created at
// the end of the file when missing (after a blank line; a file without a
// final newline gets one before the block, and the block then ends without
// one). Setting an entry to a value it already has (by value: 20 equals
// 20.0) returns d unchanged.
//
// An entry written with dotted keys or as an inline value is a *LayoutError,
// as is a table path that is an inline table or not a table. The result is
// re-parsed and the entry re-read and compared with value; any difference, or
// any change elsewhere in the document, is an error.
func (d *Doc) set(table []string, name string, value []byte) (*Doc, error) {
	if !json.Valid(value) {
		return nil, errors.New("tomledit: Set: value is not valid JSON")
	}
	if !utf8.Valid(value) {
		return nil, errors.New("tomledit: Set: value is not valid UTF-8")
	}
	e, err := d.lookupEntry(table, name)
	if err != nil {
		return nil, err
	}
	if e.node != nil && (e.notTables || len(e.groups) == 0) {
		return nil, e.editError(table, name)
	}
	rendered, err := renderEntry(table, name, value, d.nl)
	if err != nil {
		return nil, err
	}
	if e.node != nil && jsonEqual(e.node.appendJSON(nil), value) {
		return d, nil
	}

	var out []byte
	if e.node != nil {
		out, err = d.replace(e.groups, rendered)
	} else {
		out, err = d.addToBlock(rendered)
	}
	if err != nil {
		return nil, err
	}
	nd, err := parse(out)
	if err != nil {
		return nil, fmt.Errorf("tomledit: Set produced an invalid document (%w); nothing was changed", err)
	}
	if err := nd.verifySet(d, table, name, value); err != nil {
		return nil, err
	}
	return nd, nil
}

// replace writes rendered over the first group and deletes the others.
func (d *Doc) replace(groups []span, rendered []byte) ([]byte, error) {
	g := groups[0]
	if !bytes.HasSuffix(d.data[g.start:g.end], []byte{'\n'}) {
		// The entry ends the file, which has no final newline: keep it so.
		rendered = trimNL(rendered)
	}
	ss := []textedit.Splice{{At: g.start, Del: g.end - g.start, Ins: rendered}}
	for _, g := range groups[1:] {
		ss = append(ss, d.deletion(g))
	}
	return apply(d.data, ss)
}

// verifySet checks a document produced by Set on old: the entry reads back
// as value, is editable, and nothing else in the document changed.
func (d *Doc) verifySet(old *Doc, table []string, name string, value []byte) error {
	e, err := d.lookupEntry(table, name)
	if err != nil {
		return fmt.Errorf("tomledit: Set: re-reading the result: %w", err)
	}
	if e.node == nil {
		return fmt.Errorf("tomledit: Set: server %s is missing from the result", quoteForMessage(name))
	}
	if e.notTables {
		return fmt.Errorf("tomledit: Set: server %s is not a table in the result", quoteForMessage(name))
	}
	if got := e.node.appendJSON(nil); !jsonEqual(got, value) {
		return fmt.Errorf("tomledit: Set: server %s reads back as %s, want %s", quoteForMessage(name), got, value)
	}
	return d.verifyRest(old, table, []string{name}, "Set of server "+quoteForMessage(name))
}
