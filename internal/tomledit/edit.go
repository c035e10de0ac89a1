package tomledit

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/repo-manager/repo/internal/textedit"
)

// Member is one entry of the server table as found in the file.
type Member struct {
	Key   string
	Value []byte // the entry as compact JSON (an object for a table entry)
	Line  int    // 1-based line where the entry is first defined
}

// Entries returns the servers under the table path (normally
// []string{"mcp_servers"}) in file order, each converted to compact JSON with
// its keys in file order: tables are objects, arrays arrays, strings,
// integers, floats (always with a fraction or an exponent, 20.0) and booleans
// themselves; datetimes, inf and nan become strings holding their TOML text.
// found is false when there is no such table.
//
// A table path written as an inline table (mcp_servers = { … }), as an array
// of tables or as any other value is a *LayoutError. Entries written with
// dotted keys are read like any other.
func (d *Doc) Entries(table []string) (members []Member, found bool, err error) {
	t, err := d.lookupTable(table)
	if err != nil || t == nil {
		return nil, false, err
	}
	members = make([]Member, 0, len(t.keys))
	for _, k := range t.keys {
		n := t.kids[k]
		members = append(members, Member{Key: k, Value: n.appendJSON(nil), Line: n.line})
	}
	return members, true, nil
}

// lookupTable returns the table at path, nil when it does not exist, or a
// *LayoutError when it, or a table on the way, is not a [table].
func (d *Doc) lookupTable(path []string) (*tnode, error) {
	if len(path) == 0 {
		return nil, errors.New("tomledit: empty table path")
	}
	for _, k := range path {
		if !utf8.ValidString(k) {
			return nil, fmt.Errorf("tomledit: table path segment %q is not valid UTF-8", k)
		}
	}
	t := d.root
	for i, k := range path {
		child := t.kids[k]
		if child == nil {
			return nil, nil
		}
		at := formatPath(path[:i+1])
		switch {
		case child.kind == nTable && child.how == inlineValue:
			return nil, &LayoutError{Line: child.line, Msg: fmt.Sprintf(
				"%s is written as an inline table (%s = { … }); repo writes one [%s.\"<name>\"] table per server "+
					"and cannot add to an inline table: convert it into [%s.\"<name>\"] tables",
				at, at, formatPath(path), formatPath(path))}
		case child.kind == nTable:
			t = child
		default:
			return nil, &LayoutError{Line: child.line, Msg: fmt.Sprintf(
				"%s is %s, not a table; repo needs one [%s.\"<name>\"] table per server",
				at, child.describe(), formatPath(path))}
		}
	}
	return t, nil
}

// span is a run of whole lines [start, end) of Doc.data.
type span struct{ start, end int }

// entry is what the file holds of one server.
type entry struct {
	node     *tnode // nil when absent
	sections []int  // indexes in Doc.exprs of the entry's table headers, in file order
	groups   []span // the entry's table sections, consecutive sections merged
	// notTables is set, with the line, when part of the entry is written
	// otherwise than as [table.name…] sections: dotted keys, an inline
	// value, or an array of tables [[table.name]].
	notTables     bool
	notTablesLine int
	notTablesWhat string
}

// lookupEntry finds the server name under the table path.
func (d *Doc) lookupEntry(table []string, name string) (*entry, error) {
	if !utf8.ValidString(name) {
		return nil, fmt.Errorf("tomledit: server name %q is not valid UTF-8", name)
	}
	es, err := d.lookupEntries(table, []string{name})
	if err != nil {
		return nil, err
	}
	return es[name], nil
}

// lookupEntries finds the servers under the table path in one pass over the
// document; every name gets an entry, with a nil node when it is absent.
// The names are valid UTF-8.
func (d *Doc) lookupEntries(table []string, names []string) (map[string]*entry, error) {
	t, err := d.lookupTable(table)
	if err != nil {
		return nil, err
	}
	es := make(map[string]*entry, len(names))
	for _, name := range names {
		e := &entry{}
		if t != nil {
			e.node = t.kids[name]
		}
		es[name] = e
	}
	if t == nil {
		return es, nil
	}
	// of returns the entry a table or key path belongs to, if it is one of
	// the servers looked up.
	of := func(path []string) *entry {
		if len(path) <= len(table) || !hasPrefix(path, table) {
			return nil
		}
		if e := es[path[len(table)]]; e != nil && e.node != nil {
			return e
		}
		return nil
	}
	var open *entry // the entry whose run of sections the last header continued
	for i, x := range d.exprs {
		switch x.kind {
		case kTable, kArrayTable:
			e := of(x.path)
			if e == nil {
				open = nil
				continue
			}
			if x.kind == kArrayTable && len(x.path) == len(table)+1 && !e.notTables {
				e.notTables, e.notTablesLine, e.notTablesWhat = true, x.line, "an array of tables ("+headerText(x)+")"
			}
			e.sections = append(e.sections, i)
			if open == e {
				e.groups[len(e.groups)-1].end = x.secEnd
			} else {
				e.groups = append(e.groups, span{x.start, x.secEnd})
				open = e
			}
		case kKeyVal:
			e := of(x.path)
			if e != nil && (x.hdr < 0 || of(d.exprs[x.hdr].path) != e) && !e.notTables {
				e.notTables, e.notTablesLine = true, x.line
				if len(x.path) == len(table)+1 {
					e.notTablesWhat = "a key/value (" + excerpt(d.data[x.start:x.end]) + ")"
				} else {
					e.notTablesWhat = "dotted keys (" + excerpt(d.data[x.start:x.end]) + ")"
				}
			}
		case kComment:
			if x.marker != notMarker {
				open = nil
			}
		}
	}
	return es, nil
}

func (e *entry) editError(table []string, name string) error {
	if !e.notTables { // no sections at all; cannot happen in a valid document
		e.notTablesLine, e.notTablesWhat = e.node.line, "something other than tables"
	}
	return &LayoutError{Line: e.notTablesLine, Msg: fmt.Sprintf(
		"server %s is written as %s; repo only edits servers written as [%s.%s] tables: "+
			"rewrite it as such a table, or remove it",
		quoteForMessage(name), e.notTablesWhat, formatPath(table), basicString(name))}
}

// Delete removes server name's tables (and one blank line next to them). When
// the managed block is left empty, the block goes too, and the file is back
// to its bytes from before the block was created. Deleting an absent server
// returns d unchanged. An entry written with dotted keys or as an inline value
// is a *LayoutError.
func (d *Doc) Delete(table []string, name string) (*Doc, error) {
	e, err := d.lookupEntry(table, name)
	if err != nil {
		return nil, err
	}
	if e.node == nil {
		return d, nil
	}
	if e.notTables || len(e.groups) == 0 {
		return nil, e.editError(table, name)
	}
	ss := make([]textedit.Splice, 0, len(e.groups))
	for _, g := range e.groups {
		ss = append(ss, d.deletion(g))
	}
	out, err := apply(d.data, ss)
	if err != nil {
		return nil, err
	}
	nd, err := parse(out)
	if err != nil {
		return nil, fmt.Errorf("tomledit: Delete produced an invalid document (%w); nothing was changed", err)
	}
	if nd.start >= 0 && nd.blockEmpty() {
		if nd, err = parse(nd.removeBlock()); err != nil {
			return nil, fmt.Errorf("tomledit: Delete produced an invalid document (%w); nothing was changed", err)
		}
	}
	if err := nd.verifyDelete(d, table, name); err != nil {
		return nil, err
	}
	return nd, nil
}

// deletion removes the span with one blank line next to it: the one before
// it if there is one, else the one after it. A span that ends the file
// without a final newline also takes the newline before it, so that the file
// still has no final newline.
func (d *Doc) deletion(g span) textedit.Splice {
	s, e := g.start, g.end
	if p := d.blankLineBefore(s); p >= 0 {
		s = p
	} else if n := d.blankLineAfter(e); n >= 0 {
		e = n
	}
	if e == len(d.data) && (e == 0 || d.data[e-1] != '\n') && s > d.bom {
		switch {
		case s >= 2 && d.data[s-2] == '\r' && d.data[s-1] == '\n':
			s -= 2
		case d.data[s-1] == '\n':
			s--
		}
	}
	return textedit.Splice{At: s, Del: e - s}
}

// blankLineBefore returns the start of the line before offset s (a line
// start) if that line holds only spaces and tabs, else -1.
func (d *Doc) blankLineBefore(s int) int {
	if s <= d.bom || d.data[s-1] != '\n' {
		return -1
	}
	p := bytes.LastIndexByte(d.data[:s-1], '\n') + 1
	if p < d.bom {
		p = d.bom
	}
	if len(bytes.Trim(d.data[p:s], " \t\r\n")) != 0 {
		return -1
	}
	return p
}

// blankLineAfter returns the end of the line starting at offset e if that
// line holds only spaces and tabs and ends with a newline, else -1.
func (d *Doc) blankLineAfter(e int) int {
	i := bytes.IndexByte(d.data[e:], '\n')
	if i < 0 || len(bytes.Trim(d.data[e:e+i+1], " \t\r\n")) != 0 {
		return -1
	}
	return e + i + 1
}

// lastContentEnd returns the end of the last line before offset off holding
// anything but whitespace (bom when there is none).
func (d *Doc) lastContentEnd(off int) int {
	i := off
	for i > d.bom {
		c := d.data[i-1]
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			break
		}
		i--
	}
	if i == d.bom {
		return d.bom
	}
	if j := bytes.IndexByte(d.data[i:off], '\n'); j >= 0 {
		return i + j + 1
	}
	return off
}

// createBlock appends a new managed block holding rendered at the end of the
// file: after the last line that is not blank (trailing blank lines end up
// after the block), one blank line, the start marker, the entry and the end
// marker. A file without a final newline gets one before the blank line, and
// the block then ends without one, so that removeBlock can restore the file.
func (d *Doc) createBlock(rendered []byte) []byte {
	c := d.lastContentEnd(len(d.data))
	var b []byte
	b = append(b, d.data[:c]...)
	finalNL := true
	if c > d.bom {
		if d.data[c-1] != '\n' {
			b = append(b, d.nl...)
			finalNL = false
		}
		b = append(b, d.nl...)
	}
	b = append(b, MarkerStart...)
	b = append(b, d.nl...)
	b = append(b, rendered...)
	b = append(b, MarkerEnd...)
	if finalNL {
		b = append(b, d.nl...)
	}
	return append(b, d.data[c:]...)
}

// addToBlock adds rendered entries to the managed block: after its last
// entry, or in a new block at the end of the file. A client that removed
// one of the markers leaves the other behind: it goes, and a new block
// starts at the end.
func (d *Doc) addToBlock(rendered []byte) ([]byte, error) {
	switch {
	case d.start >= 0:
		return d.appendToBlock(rendered)
	case len(d.strays) > 0:
		out, err := d.removeLines(d.strays)
		if err != nil {
			return nil, err
		}
		clean, err := parse(out)
		if err != nil {
			return nil, fmt.Errorf("tomledit: removing stray markers: %w", err)
		}
		return clean.createBlock(rendered), nil
	}
	return d.createBlock(rendered), nil
}

// appendToBlock inserts rendered after the last non-blank line of the block,
// after a blank line unless the block is empty.
func (d *Doc) appendToBlock(rendered []byte) ([]byte, error) {
	startEnd := d.exprs[d.start].end
	at := d.lastContentEnd(d.exprs[d.end].start)
	var ins []byte
	if at <= startEnd {
		at = startEnd
	} else {
		ins = append(ins, d.nl...)
	}
	ins = append(ins, rendered...)
	return apply(d.data, []textedit.Splice{{At: at, Ins: ins}})
}

// blockEmpty reports a well-formed block with nothing but blank lines between
// its markers.
func (d *Doc) blockEmpty() bool {
	return d.end == d.start+1 && len(bytes.Trim(d.data[d.exprs[d.start].end:d.exprs[d.end].start], " \t\r\n")) == 0
}

// removeBlock removes the managed block, undoing createBlock: the blank line
// before the block goes too, and when the block ends the file without a
// final newline, so does the newline createBlock added before it.
func (d *Doc) removeBlock() []byte {
	s, e := d.exprs[d.start].start, d.exprs[d.end].end
	prefix := d.data[:s]
	if p := d.blankLineBefore(s); p >= 0 && p > d.bom && (s-p == 1 || s-p == 2 && d.data[p] == '\r') {
		prefix = prefix[:p]
		if !bytes.HasSuffix(d.data[:e], []byte{'\n'}) {
			prefix = trimNL(prefix)
		}
	}
	out := append([]byte(nil), prefix...)
	return append(out, d.data[e:]...)
}

// removeLines removes whole expression lines.
func (d *Doc) removeLines(idx []int) ([]byte, error) {
	ss := make([]textedit.Splice, 0, len(idx))
	for _, i := range idx {
		ss = append(ss, textedit.Splice{At: d.exprs[i].start, Del: d.exprs[i].end - d.exprs[i].start})
	}
	return apply(d.data, ss)
}

// apply is textedit.Apply; splices it refuses are a bug of the editor.
func apply(data []byte, ss []textedit.Splice) ([]byte, error) {
	out, err := textedit.Apply(data, ss)
	if err != nil {
		return nil, fmt.Errorf("tomledit: internal error: %w", err)
	}
	return out, nil
}

// trimNL removes one trailing newline (CRLF or LF).
func trimNL(b []byte) []byte {
	switch {
	case bytes.HasSuffix(b, []byte("\r\n")):
		return b[:len(b)-2]
	case bytes.HasSuffix(b, []byte("\n")):
		return b[:len(b)-1]
	}
	return b
}
