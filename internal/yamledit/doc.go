// Package yamledit edits YAML configuration files surgically: it inserts,
// replaces or deletes one entry of a map or of a list of named mappings and
// leaves every byte outside that entry exactly as it was (comments, blank
// lines, quoting, the indentation of other keys, flush or indented
// sequences, folded scalars, CRLF line endings, a UTF-8 BOM, the presence or
// absence of a final newline).
//
// It serves two shapes:
//
//   - Map: a mapping keyed by entry name, each value a mapping (Goose's
//     top-level `extensions:`).
//   - List: a sequence of mappings, each identified by its "name" member
//     (Continue's `mcpServers:` in config.yaml and in the
//     .continue/mcpServers/*.yaml drop-in files).
//
// Strategy:
//
//  1. goccy/go-yaml parses the document, both to validate it and to locate
//     keys, sequence entries and comment lines through token positions. It is
//     given a copy with CRLF turned into LF (goccy miscounts lines after a
//     CRLF blank line) and without the BOM, so its line numbers are the lines
//     of the original file. goccy/go-yaml's parser grows with the square of
//     a document's nesting and of the number of keys in one mapping: the
//     nesting is checked before it parses (limits.go), and a mapping with
//     many keys is parsed in pieces (wide.go).
//  2. An entry is a run of whole lines: from its key (or its "-") to its last
//     line that is neither blank nor a comment, found by looking at where the
//     next entry or the next key of the enclosing mapping starts. Edits are
//     byte splices of whole lines on the original bytes; an inserted entry is
//     rendered as text, in block style, at the indentation of its siblings.
//  3. Every result is parsed again, its container re-read and compared
//     semantically with what was meant (the new value, and every other entry
//     unchanged). A mismatch is an error: a broken document is never returned.
//
// Managed entries are written between the marker comments
//
//	# >>> repo managed: <name>
//	# <<< repo managed: <name>
//
// at the entry's indentation. They are a courtesy for readers: edits
// never depend on them (Goose rewrites its file and drops every
// comment), but they remove them together with the entry when present.
//
// Insert and Replace write many entries in one edit, with one parse and
// one verification of the result.
//
// Limits: the edits refuse, with a *ShapeError naming the line, a
// non-empty flow-style container (`mcpServers: [{...}]`), a container or
// parent carrying an anchor, a tag or an alias, an explicit ("? ") key on
// the path, an entry that does not start its own line, an entry defining an
// anchor used elsewhere, and adding lines where the line before them ends
// with a construct waiting for its node (a trailing tag, anchor, empty "-"
// or empty block scalar) or one that goccy/go-yaml only accepts at the very
// end of a file, both after the container's last item and before it (new
// lines go before the last item when they cannot go after it). Parse
// refuses multi-document streams, bare carriage returns, and files too
// large or too deep (limits.go). Entries reads all of these.
//
// A Doc is immutable: the edits return a new Doc.
package yamledit

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/repo-manager/repo/internal/textedit"
)

// Kind is the shape of the container holding the entries.
type Kind int

const (
	// Map is a mapping from entry name to entry value.
	Map Kind = iota
	// List is a sequence of mappings, each identified by the string value of
	// its name member (the nameField argument).
	List
)

func (k Kind) String() string {
	if k == List {
		return "list"
	}
	return "map"
}

// Member is one entry of a container, converted to JSON. For a List, Key is
// the item's name and Value the item without its name member. Line is the
// line of the entry's key (Map) or of its "-" (List).
type Member struct {
	Key   string
	Value []byte
	Line  int
}

// Doc is a parsed YAML document. It is immutable.
type Doc struct {
	bom   bool
	body  []byte // the bytes after the BOM, line endings as in the file
	lines []int  // start offset in body of each line; line l starts at lines[l-1]
	nl    string // the file's line ending: that of its first line break, else "\n"

	root    *ast.MappingNode // the top-level mapping; nil for an empty document
	lastRow int              // last line that belongs to the document's content (0: none)
	comment []bool           // comment[l]: line l holds nothing but a comment
	// dangling[l]: the last token on line l is a tag, an anchor, a "-", a
	// "?" or a block scalar header waiting for its node or content, which
	// whatever is added after it could become (goccy/go-yaml even takes a
	// less indented key after an empty "-" as the item's content).
	dangling []bool
	tokens   []bool // tokens[l]: a token other than a comment starts on line l
	// inScalar[l]: line l is in the body of a block scalar that keeps its
	// final line break ("|", ">", "|+", ">+"): removing the line break
	// after it, or adding one at the end of the file, changes its value.
	inScalar []bool
	// eofScalar: the file ends inside such a block scalar, without a final
	// line break. Whatever is added after it would give it one.
	eofScalar bool
	// keepHead[l]: line l ends with the header of such a block scalar (the
	// blank lines after it are its body; see removal.inScalar).
	keepHead []bool
	nodes    *ast.DocumentNode

	// origins remember the containers that Insert made (or turned from null
	// or flow-empty into block style) in this chain of edits, so that
	// removing their last entry can give back the exact original bytes.
	origins []origin
}

// origin records one container created or converted by Insert: original is
// the document body before, emptied the body once the container was a bare
// `key:` ready to receive entries.
type origin struct {
	path     []string
	kind     Kind
	original []byte
	emptied  []byte
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Parse checks data and returns the document.
//
// A UTF-8 BOM and CRLF line endings are accepted and preserved. Empty data,
// or data holding only blank lines and comments, is an empty document. The
// errors are:
//   - *SyntaxError: a file larger than 8 MiB or nested more than 1,000
//     levels deep (see checkLimits; checked before anything else reads
//     it), invalid UTF-8, a carriage return not followed by a line feed,
//     anything goccy/go-yaml rejects (with its position), or a stream of
//     more than one document;
//   - *ShapeError: a top-level value that is not a mapping.
//
// Duplicate keys are not checked here but by Entries, Insert, Replace and Delete, in
// the mappings they look into. Parse copies data; the caller may reuse it.
func Parse(data []byte) (*Doc, error) {
	data = bytes.Clone(data)
	bom := bytes.HasPrefix(data, utf8BOM)
	if bom {
		data = data[len(utf8BOM):]
	}
	if err := checkLimits(data); err != nil {
		return nil, err
	}
	return parse(bom, data)
}

// New returns the document of a file that does not exist yet, holding
// skeleton (which may be empty). It panics if skeleton does not parse: the
// skeletons are constants of the program.
func New(skeleton []byte) *Doc {
	d, err := Parse(skeleton)
	if err != nil {
		panic("yamledit: New: invalid skeleton: " + err.Error())
	}
	return d
}

// Bytes returns a copy of the document's bytes, BOM included.
func (d *Doc) Bytes() []byte {
	out := make([]byte, 0, len(utf8BOM)+len(d.body))
	if d.bom {
		out = append(out, utf8BOM...)
	}
	return append(out, d.body...)
}

// parse builds a Doc; it takes ownership of body (the bytes after the BOM).
func parse(bom bool, body []byte) (*Doc, error) {
	d := &Doc{bom: bom, body: body, nl: "\n"}
	if !utf8.Valid(body) {
		off := textedit.FirstInvalidUTF8(body)
		line, col := d.position(off)
		return nil, &SyntaxError{Line: line, Col: col, Msg: "invalid UTF-8"}
	}
	d.lines = lineStarts(body)
	for i, c := range body {
		if c != '\r' {
			continue
		}
		if i+1 >= len(body) || body[i+1] != '\n' {
			line, col := d.position(i)
			return nil, &SyntaxError{Line: line, Col: col, Msg: "carriage return without a line feed (only LF and CRLF line endings are supported)"}
		}
	}
	if i := bytes.IndexByte(body, '\n'); i > 0 && body[i-1] == '\r' {
		d.nl = "\r\n"
	}

	norm := strings.ReplaceAll(string(body), "\r\n", "\n")
	toks, f, err := goccyParse(norm)
	if err != nil {
		return nil, err
	}
	d.comment = make([]bool, len(d.lines)+2)
	d.dangling = make([]bool, len(d.lines)+2)
	d.tokens = make([]bool, len(d.lines)+2)
	for _, tk := range toks {
		if tk.Position == nil {
			continue
		}
		l := tk.Position.Line
		if l < 1 || l > len(d.lines) {
			continue
		}
		if tk.Type == token.CommentType {
			if d.indentEnd(l)+1 == tk.Position.Column {
				d.comment[l] = true
			}
			continue
		}
		switch tk.Type {
		case token.TagType, token.AnchorType, token.SequenceEntryType, token.MappingKeyType,
			token.LiteralType, token.FoldedType:
			d.dangling[l] = true
		default:
			d.dangling[l] = false
		}
		d.tokens[l] = true
	}
	d.markScalars(toks)
	if err := d.setRoot(f); err != nil {
		return nil, err
	}
	return d, nil
}

// markScalars fills inScalar and eofScalar. goccy/go-yaml gives a block
// scalar as its header token followed by one token for its text (whose
// position is not that of the text); the text takes the lines up to the
// next token's.
func (d *Doc) markScalars(toks token.Tokens) {
	d.inScalar = make([]bool, len(d.lines)+2)
	d.keepHead = make([]bool, len(d.lines)+2)
	for i, tk := range toks {
		if tk.Type != token.LiteralType && tk.Type != token.FoldedType || tk.Position == nil || strings.Contains(tk.Value, "-") {
			continue
		}
		if i+1 >= len(toks) {
			continue // a header at the very end: no text
		}
		if l := tk.Position.Line; l >= 1 && l <= len(d.lines) {
			d.keepHead[l] = true
		}
		end := len(d.lines)
		if i+2 < len(toks) && toks[i+2].Position != nil {
			end = toks[i+2].Position.Line - 1
		}
		for l := max(tk.Position.Line+1, 1); l <= min(end, len(d.lines)); l++ {
			d.inScalar[l] = true
		}
	}
	d.eofScalar = len(d.body) > 0 && d.body[len(d.body)-1] != '\n' && d.inScalar[len(d.lines)]
}

// goccyParse tokenizes and parses src, turning a panic of the parser into
// a *SyntaxError. The tokens are checked for nesting and wide mappings
// before the parser sees them (see limits.go and wide.go).
func goccyParse(src string) (toks token.Tokens, f *ast.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			toks, f, err = nil, nil, &SyntaxError{Line: 1, Col: 1, Msg: fmt.Sprintf("the YAML parser failed on this document (%v)", r)}
		}
	}()
	toks = lexer.Tokenize(src)
	wide, err := scanTokens(toks, maxNesting)
	if err != nil {
		return nil, nil, err
	}
	if len(wide) > 0 {
		return parseWide(src, toks, wide)
	}
	f, err = parser.Parse(toks, parser.ParseComments, parser.AllowDuplicateMapKey())
	if err != nil {
		return nil, nil, fromGoccy(err)
	}
	return toks, f, nil
}

// goccyError is the interface of goccy/go-yaml's positioned errors.
type goccyError interface {
	GetToken() *token.Token
	GetMessage() string
}

func fromGoccy(err error) *SyntaxError {
	se := &SyntaxError{Line: 1, Col: 1, Msg: err.Error()}
	var ge goccyError
	if errors.As(err, &ge) {
		se.Msg = ge.GetMessage()
		if tk := ge.GetToken(); tk != nil && tk.Position != nil {
			se.Line, se.Col = max(tk.Position.Line, 1), max(tk.Position.Column, 1)
		}
	}
	return se
}

// setRoot picks the content document of f and its top-level mapping.
//
// goccy/go-yaml reports a comment before a leading "---" and a comment after
// a final "..." as documents of their own; they are not. A document is real
// when it has a "---" or some content that is not a comment or directive.
func (d *Doc) setRoot(f *ast.File) error {
	var real []*ast.DocumentNode
	for _, doc := range f.Docs {
		if doc.Start != nil || !isTrivia(doc.Body) {
			real = append(real, doc)
		}
	}
	if len(real) > 1 {
		line := 1
		if tk := real[1].Start; tk != nil && tk.Position != nil {
			line = tk.Position.Line
		} else if real[1].Body != nil && real[1].Body.GetToken() != nil {
			line = real[1].Body.GetToken().Position.Line
		}
		return &SyntaxError{Line: line, Col: 1, Msg: "more than one YAML document in the file; only single-document files are supported"}
	}

	d.lastRow = len(d.lines)
	if len(d.body) == 0 {
		d.lastRow = 0
	} else if d.body[len(d.body)-1] == '\n' {
		d.lastRow-- // the empty "line" after the final line break
	}
	if len(real) == 0 {
		return nil
	}
	doc := real[0]
	d.nodes = doc
	if doc.End != nil && doc.End.Position != nil {
		d.lastRow = min(d.lastRow, doc.End.Position.Line-1)
	}
	if isTrivia(doc.Body) {
		return nil
	}
	body, _ := unwrapProps(doc.Body)
	if isImplicitNull(body) {
		return nil // a tag alone
	}
	m, ok := asMapping(body)
	if !ok {
		line, col := nodePos(body)
		return &ShapeError{Line: line, Col: col, Msg: fmt.Sprintf("the top-level value is %s, want a mapping", describe(body))}
	}
	d.root = m
	return nil
}

// isTrivia reports a document body with nothing but comments or
// directives. (goccy/go-yaml v1.19.2 also gives an implicit null as the
// body of a bare "#" after a "..." line.)
func isTrivia(n ast.Node) bool {
	switch n.(type) {
	case nil, *ast.CommentGroupNode, *ast.CommentNode, *ast.DirectiveNode:
		return true
	}
	return isNil(n) || isImplicitNull(n)
}
