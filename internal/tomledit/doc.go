// Package tomledit edits Codex's config.toml surgically: it reads, writes and
// deletes the MCP server entries under a table path (normally
// []string{"mcp_servers"}) and leaves every other byte of the file exactly as
// it was (comments, blank lines, key order, quoting style, CRLF line endings,
// a UTF-8 BOM, the presence or absence of a final newline).
//
// go-toml has no document model, so the package works on lines:
//
//  1. Parse walks the file with go-toml's comment-aware
//     unstable.Parser{KeepComments: true}: every top-level expression
//     (comment, key/value, [table], [[array table]]) becomes a run of whole
//     lines with its decoded key path, and an ordered tree of the document is
//     built from the same walk, so entries are read in file order with their
//     keys in file order. Then it validates the whole file with go-toml
//     (toml.Unmarshal; a table of many servers a part at a time, see
//     decode.go).
//  2. An entry [<table>."<name>"] is the set of table sections whose header
//     path starts with <table>.<name>: its own header, its sub-tables and
//     arrays of tables, wherever they are in the file and however the header
//     is quoted ([mcp_servers.x], [mcp_servers."x"], [mcp_servers.'x']).
//     Consecutive sections form one span, from the first header line to the
//     last key line; comments between them belong to the entry, comments
//     after its last key do not (they usually introduce the next table).
//  3. New entries go into a managed block between two marker comments
//     (MarkerStart, MarkerEnd), created at the end of the file. Markers are
//     recognised as whole-line comment expressions only, never inside a
//     multi-line string. Because TOML puts any key after a table header into
//     that table, a key written after the end marker would silently join the
//     last managed table: Parse refuses such a file.
//  4. Edits splice rendered text into the original bytes, re-parse
//     the result, re-read the entry and compare it semantically with what was
//     meant, and check that the rest of the document decodes exactly as
//     before. A mismatch is an error: a broken document is never returned.
//  5. Insert, Replace and DeleteAll edit many servers with the bytes of an
//     edit of each in turn, but parse and verify the result once, so
//     that a sync of N servers costs N, not N² (see batch.go).
//
// A Doc is immutable: edits return a new Doc.
package tomledit

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// The managed block's marker comments. Each is a whole line of its own.
const (
	MarkerStart = "# >>> repo managed MCP servers: edit .repository/extensions instead; repo sync rewrites this block"
	MarkerEnd   = "# <<< repo managed MCP servers"
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

type exprKind uint8

const (
	kComment exprKind = iota
	kKeyVal
	kTable      // [a.b]
	kArrayTable // [[a.b]]
)

const (
	notMarker = iota
	startMarker
	endMarker
)

// expr is one top-level expression of the document, as whole lines.
type expr struct {
	kind       exprKind
	start, end int      // byte offsets in Doc.data: start of its first line, end of its last line (after the newline, or EOF)
	line       int      // 1-based line of its first line
	path       []string // tables: the header path; key/values: the table's path followed by the dotted key
	hdr        int      // index of the table header the expression is under; -1 at top level
	marker     int      // comments: startMarker, endMarker or notMarker
	secEnd     int      // tables: end of the section's last key/value line (the header line's end if it has none)
}

// Doc is a parsed config.toml. It is immutable.
type Doc struct {
	data  []byte // the document's bytes, BOM included
	bom   int    // length of the UTF-8 BOM (0 or 3)
	nl    string // the newline of the file: "\r\n" if its first line break is CRLF, else "\n"
	exprs []expr
	root  *tnode
	// decoded is what go-toml decodes the document to, kept for the check
	// of an edit's result (verifyRest): go-toml's decoding takes time
	// quadratic in the number of tables of one parent table.
	decoded map[string]any

	// start and end are the indexes in exprs of the managed block's markers,
	// -1 when the file has no well-formed block (exactly one start marker
	// followed by exactly one end marker). strays lists the marker comments
	// of a malformed block.
	start, end int
	strays     []int
}

// Parse checks data with go-toml and returns the document. A UTF-8 BOM and
// CRLF line endings are accepted and preserved. Empty, whitespace-only and
// comment-only data is a valid, empty document. A TOML error is a
// *SyntaxError; a key after the managed block's end marker, which TOML would
// put into the last managed table, is a *LayoutError.
//
// Parse copies data; the caller may reuse it.
func Parse(data []byte) (*Doc, error) {
	return parse(bytes.Clone(data))
}

// New returns the document used when a file does not exist yet: no bytes.
func New() *Doc {
	d, err := parse(nil)
	if err != nil {
		panic("tomledit: New: " + err.Error()) // cannot happen: the empty document is valid
	}
	return d
}

// Bytes returns a copy of the document's bytes.
func (d *Doc) Bytes() []byte { return bytes.Clone(d.data) }

// parse is Parse without the defensive copy: the Doc takes ownership of data.
func parse(data []byte) (*Doc, error) {
	d, err := scanned(data)
	if err != nil {
		// go-toml has the last word on what is valid TOML, and says where.
		if _, verr := validate(data[d.bom:]); verr != nil {
			return nil, verr
		}
		return nil, err
	}
	if d.decoded, err = d.decode(chunkServers); err != nil {
		return nil, err
	}
	d.findBlock()
	if err := d.checkAfterEnd(); err != nil {
		return nil, err
	}
	return d, nil
}

// scanned returns the document as scan reads it, not validated yet; on an
// error, the Doc still has its BOM length.
func scanned(data []byte) (*Doc, error) {
	d := &Doc{data: data, nl: "\n", start: -1, end: -1}
	if bytes.HasPrefix(data, utf8BOM) {
		d.bom = len(utf8BOM)
	}
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		d.nl = "\r\n"
	}
	return d, d.scan(data[d.bom:])
}

// validate decodes body with go-toml and turns its error into a *SyntaxError.
func validate(body []byte) (map[string]any, error) {
	var m map[string]any
	err := toml.Unmarshal(body, &m)
	if err == nil {
		return m, nil
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		return nil, &SyntaxError{Line: line, Col: runeColumn(body, line, col), Msg: strings.TrimPrefix(de.Error(), "toml: ")}
	}
	return nil, &SyntaxError{Line: 1, Col: 1, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
}

// scan walks the top-level expressions of body with the comment-aware parser
// and fills d.exprs and d.root.
func (d *Doc) scan(body []byte) error {
	p := unstable.Parser{KeepComments: true}
	p.Reset(body)
	b := newBuilder()
	sec := section{hdr: -1}
	lastLineEnd := 0 // offsets in body
	line := 1
	for p.NextExpression() {
		n := p.Expression()
		e, first, last, err := readExpr(n, sec.path)
		if err != nil {
			return err
		}
		e.start, e.end = wholeLines(body, first, last)
		line += bytes.Count(body[lastLineEnd:e.start], []byte{'\n'})
		e.line = line
		line += bytes.Count(body[e.start:e.end], []byte{'\n'})
		lastLineEnd = e.end
		if err := addToTree(b, n, e, sec.path); err != nil {
			return err
		}
		d.addExpr(e, &sec)
	}
	if err := p.Error(); err != nil {
		// go-toml accepted the document, so its own parser cannot fail.
		return &SyntaxError{Line: 1, Col: 1, Msg: "tomledit: internal parser error: " + err.Error()}
	}
	d.root = b.root
	return nil
}

// section is the table scan is in: the index in d.exprs of its header (-1
// at the top level) and its path.
type section struct {
	hdr  int
	path []string
}

// readExpr returns the expression of the top-level node n, in the section
// with the path hdrPath, with the raw extent in the body of its first and
// last parts (for a header, its first and last key); its place in the
// document is left to the caller.
func readExpr(n *unstable.Node, hdrPath []string) (e expr, first, last unstable.Range, err error) {
	switch n.Kind {
	case unstable.Comment:
		e.kind = kComment
		switch strings.TrimRight(string(n.Data), " \t") {
		case MarkerStart:
			e.marker = startMarker
		case MarkerEnd:
			e.marker = endMarker
		}
		return e, n.Raw, n.Raw, nil
	case unstable.KeyValue:
		e.kind = kKeyVal
		e.path = append(append([]string(nil), hdrPath...), keyParts(n)...)
		return e, n.Raw, n.Raw, nil
	case unstable.Table, unstable.ArrayTable:
		e.kind = kTable
		if n.Kind == unstable.ArrayTable {
			e.kind = kArrayTable
		}
		it := n.Key()
		for it.Next() {
			k := it.Node()
			if e.path == nil {
				first = k.Raw
			}
			last = k.Raw
			e.path = append(e.path, string(k.Data))
		}
		return e, first, last, nil
	}
	return e, first, last, fmt.Errorf("tomledit: unexpected top-level %s", n.Kind)
}

// wholeLines returns the byte offsets in body of the start of the line
// holding first and of the end of the line holding last (after its
// newline, or the end of body).
func wholeLines(body []byte, first, last unstable.Range) (start, end int) {
	startOff := int(first.Offset)
	endOff := int(last.Offset + last.Length)
	start = bytes.LastIndexByte(body[:startOff], '\n') + 1
	if i := bytes.IndexByte(body[endOff:], '\n'); i >= 0 {
		return start, endOff + i + 1
	}
	return start, len(body)
}

// addToTree adds the key/value or table header n, read as e in the section
// with the path hdrPath, to the tree b builds, which needs its nodes.
func addToTree(b *builder, n *unstable.Node, e expr, hdrPath []string) error {
	switch e.kind {
	case kKeyVal:
		return b.keyval(n, e.path[len(hdrPath):], e.line)
	case kTable, kArrayTable:
		return b.header(e.path, e.kind == kArrayTable, e.line)
	}
	return nil
}

// addExpr appends e, whose offsets are in the body after the BOM, to
// d.exprs: a header opens a section; a key/value extends the section it
// is in.
func (d *Doc) addExpr(e expr, sec *section) {
	e.start += d.bom
	e.end += d.bom
	e.hdr = sec.hdr
	if e.kind == kTable || e.kind == kArrayTable {
		sec.hdr, sec.path = len(d.exprs), e.path
		e.hdr = -1
		e.secEnd = e.end
	} else if e.kind == kKeyVal && sec.hdr >= 0 {
		d.exprs[sec.hdr].secEnd = e.end
	}
	d.exprs = append(d.exprs, e)
}

// keyParts returns the decoded parts of a key/value's (dotted) key.
func keyParts(n *unstable.Node) []string {
	var parts []string
	it := n.Key()
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

// findBlock locates the managed block's markers.
func (d *Doc) findBlock() {
	var starts, ends []int
	for i, e := range d.exprs {
		switch e.marker {
		case startMarker:
			starts = append(starts, i)
		case endMarker:
			ends = append(ends, i)
		}
	}
	if len(starts) == 1 && len(ends) == 1 && starts[0] < ends[0] {
		d.start, d.end = starts[0], ends[0]
		return
	}
	d.strays = append(starts, ends...)
}

// checkAfterEnd refuses a key/value that follows an end marker with no table
// header of its own in between: TOML reads it as a key of the table above the
// marker, a managed entry.
func (d *Doc) checkAfterEnd() error {
	for i, e := range d.exprs {
		if e.marker != endMarker {
			continue
		}
		for _, f := range d.exprs[i+1:] {
			if f.kind == kComment {
				continue
			}
			if f.kind == kKeyVal && f.hdr >= 0 {
				h := d.exprs[f.hdr]
				return &LayoutError{Line: f.line, Msg: fmt.Sprintf(
					"%s comes after the end of repo's managed block (line %d) with no table header of its own, "+
						"so TOML reads it as part of %s above it, silently changing a server's configuration; "+
						"move it above the block or under its own [table] header",
					excerpt(d.data[f.start:f.end]), e.line, headerText(h))}
			}
			break
		}
	}
	return nil
}

// excerpt quotes a key/value for an error message by its key: the value
// is the user's, and may be a credential that an error must not print
// into a terminal or a CI log.
func excerpt(b []byte) string {
	s := string(b)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, '='); i >= 0 {
		s = strings.TrimSpace(s[:i]) + " = …"
	}
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "..."
	}
	return "`" + s + "`"
}

// headerText renders a header for an error message, e.g. [mcp_servers."x"].
func headerText(e expr) string {
	s := formatPath(e.path)
	if e.kind == kArrayTable {
		return "[[" + s + "]]"
	}
	return "[" + s + "]"
}

// formatPath renders a key path the way repo writes it: bare keys where
// possible, quoted basic strings otherwise.
func formatPath(path []string) string {
	parts := make([]string, len(path))
	for i, k := range path {
		parts[i] = tomlKey(k)
	}
	return strings.Join(parts, ".")
}

// hasPrefix reports whether path starts with prefix.
func hasPrefix(path, prefix []string) bool {
	if len(path) < len(prefix) {
		return false
	}
	for i, p := range prefix {
		if path[i] != p {
			return false
		}
	}
	return true
}

// quoteForMessage quotes a server name for an error message.
func quoteForMessage(s string) string { return strconv.Quote(s) }
