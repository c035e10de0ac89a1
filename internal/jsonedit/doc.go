// Package jsonedit edits JSON and JSONC configuration files surgically: it
// inserts, replaces or deletes one object member and leaves every other byte
// of the file exactly as it was (comments, blank lines, key order,
// indentation, trailing commas, CRLF line endings, a UTF-8 BOM, the presence
// or absence of a final newline).
//
// Strategy:
//
//  1. jsonc.ToJSON turns every comment and trailing comma into spaces. The
//     result, the "clean" copy, has the same length and the same line breaks at
//     the same offsets as the original, so an offset found in one is valid in
//     the other. Parse keeps both copies.
//  2. All structure is located on the clean copy, never on raw JSONC (where a
//     commented-out `// "mcpServers": {...}` line would look like the real
//     key). A small scanner walks objects member by member, so keys are matched
//     literally with no path syntax involved.
//  3. An edit is a short list of byte splices at those offsets, applied to the
//     ORIGINAL bytes. Inserted members copy the indentation and line endings of
//     their surroundings; values are pretty-printed with tidwall/pretty.
//  4. Every result is re-parsed under the same dialect and the edited path is
//     re-read, both with our scanner and with gjson (through PathSegment), and
//     compared semantically with what was meant to be written. A mismatch is an
//     error: a broken document is never returned.
//
// A Doc is immutable: Insert, Replace and Delete return a new Doc.
package jsonedit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/jsonc"

	"github.com/repo-manager/repo/internal/textedit"
)

// Dialect says which syntax a tool's reader accepts.
type Dialect int

const (
	// Strict is RFC 8259 only (Claude Code .mcp.json, Cursor, Roo, ...): a
	// comment or a trailing comma is an error.
	Strict Dialect = iota
	// Comments allows // and /* */ comments but not trailing commas (Gemini
	// CLI, Qwen Code settings.json).
	Comments
	// JSONC allows comments and trailing commas (VS Code, Zed, OpenCode).
	JSONC
)

// Doc is a parsed document. It is immutable.
type Doc struct {
	dialect Dialect
	data    []byte // the document's bytes, BOM included
	clean   []byte // same length as data: BOM, comments and trailing commas are spaces
	bom     int    // length of the UTF-8 BOM at the start of data (0 or 3)
	root    int    // offset of the top-level '{'
	idx     spans  // large containers of clean, for skipping values
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Parse checks data against the dialect and returns the document.
//
// A UTF-8 BOM is accepted and preserved. Empty or whitespace-only data (and,
// outside Strict, data holding only comments) is a *SyntaxError with Msg
// "empty document": the caller decides what an empty file means. Invalid
// UTF-8 and syntax errors are *SyntaxError. A top-level value that is not an
// object is a *TypeError with an empty Path. Duplicate keys are not checked
// here but by Object, Insert, Replace and Delete, in the objects they look into.
//
// Parse copies data; the caller may reuse it.
func Parse(data []byte, d Dialect) (*Doc, error) {
	return parse(bytes.Clone(data), d)
}

// ParseOwned is Parse without the copy: the Doc takes data over, and the
// caller must not change it afterwards. For large files (a ~/.claude.json
// of 100 MB) every copy counts.
func ParseOwned(data []byte, d Dialect) (*Doc, error) {
	return parse(data, d)
}

// New returns the document used when a file does not exist yet: "{}\n".
func New(d Dialect) *Doc {
	doc, err := parse([]byte("{}\n"), d)
	if err != nil {
		panic("jsonedit: New: " + err.Error()) // cannot happen: "{}\n" is valid in every dialect
	}
	return doc
}

// Bytes returns a copy of the document's current bytes (the original bytes
// for a document that was parsed and not edited).
func (d *Doc) Bytes() []byte { return bytes.Clone(d.data) }

// View returns the document's bytes without copying them; the caller must
// not change them.
func (d *Doc) View() []byte { return d.data }

// parse is Parse without the defensive copy: the Doc takes ownership of data.
func parse(data []byte, dialect Dialect) (*Doc, error) {
	bom := 0
	if bytes.HasPrefix(data, utf8BOM) {
		bom = len(utf8BOM)
	}
	if dialect == Strict && bom == 0 {
		// Valid strict JSON has no comments or trailing commas: the clean
		// copy would equal data, so skip making it.
		if idx, ok := validate(data); ok {
			start := skipWS(data, 0)
			if data[start] != '{' {
				line, col := position(data, bom, start)
				return nil, &TypeError{Path: []string{}, Got: typeName(data[start]), Line: line, Col: col}
			}
			return &Doc{dialect: dialect, data: data, clean: data, bom: bom, root: start, idx: idx}, nil
		}
	}
	if !utf8.Valid(data) {
		return nil, syntaxErrorAt(data, bom, textedit.FirstInvalidUTF8(data), "invalid UTF-8")
	}
	clean, err := stripComments(data, bom)
	if err != nil {
		return nil, err
	}

	// Collect candidate errors and report the earliest one in the document,
	// which is the one a user would look at first.
	p := problem{off: -1}
	checkDialect(&p, data, clean, bom, dialect)

	start := skipWS(clean, 0)
	if start == len(clean) {
		if p.off >= 0 {
			return nil, syntaxErrorAt(data, bom, p.off, p.msg)
		}
		return nil, &SyntaxError{Line: 1, Col: 1, Msg: "empty document"}
	}
	idx, ok := validate(clean)
	if !ok {
		off, msg := jsonError(clean, dialect)
		p.add(off, msg)
	}
	if p.off >= 0 {
		return nil, syntaxErrorAt(data, bom, p.off, p.msg)
	}
	if clean[start] != '{' {
		line, col := position(data, bom, start)
		return nil, &TypeError{Path: []string{}, Got: typeName(clean[start]), Line: line, Col: col}
	}
	return &Doc{dialect: dialect, data: data, clean: clean, bom: bom, root: start, idx: idx}, nil
}

// stripComments returns the clean copy of data: jsonc.ToJSON of everything
// after the BOM, with the BOM itself turned into spaces.
//
// jsonc v0.3.3 still returns one byte too many when the input ends with an
// unterminated "/*" (verified: "/*" becomes 3 bytes). A '\n' sentinel after
// the input avoids that: it ends a trailing // comment exactly like the end
// of input does, and cannot start or end anything, so the bytes before it
// come out as they would have without it.
func stripComments(data []byte, bom int) ([]byte, error) {
	buf := make([]byte, len(data)+1)
	copy(buf, data)
	buf[len(data)] = '\n'
	body := jsonc.ToJSONInPlace(buf[bom:])
	if len(body) != len(buf)-bom || &body[0] != &buf[bom] {
		// jsonc documents that the output has the input's length; every
		// offset in this package relies on it.
		return nil, fmt.Errorf("jsonedit: comment stripping changed the document length (%d -> %d)", len(buf)-bom, len(body))
	}
	clean := buf[:len(data):len(data)]
	for i := 0; i < bom; i++ {
		clean[i] = ' '
	}
	return clean, nil
}

// problem remembers the earliest syntax problem found so far.
type problem struct {
	off int
	msg string
}

func (p *problem) add(off int, msg string) {
	if p.off < 0 || off < p.off {
		p.off, p.msg = off, msg
	}
}

// checkDialect reports comments and trailing commas the dialect forbids. It
// finds them by comparing data with its clean copy: jsonc.ToJSON blanks
// exactly the comments and the trailing commas, and the first byte of a
// comment ('/') is always blanked.
func checkDialect(p *problem, data, clean []byte, bom int, dialect Dialect) {
	for i := bom; i < len(data); i++ {
		if data[i] == clean[i] {
			continue
		}
		switch {
		case data[i] == '/' && i+1 < len(data) && (data[i+1] == '/' || data[i+1] == '*'):
			if dialect == Strict {
				p.add(i, "comments are not allowed in strict JSON")
			}
			i = commentEnd(data, i, len(data)) - 1
		case data[i] == ',':
			switch dialect {
			case Strict:
				p.add(i, "trailing commas are not allowed in strict JSON")
			case Comments:
				p.add(i, "trailing commas are not allowed in this file (comments are, trailing commas are not)")
			}
			// jsonc also blanks a comma that follows no value at all, as in
			// {,} or [,]; no reader accepts that.
			if j := lastNonWS(clean, i); j < 0 || clean[j] == '{' || clean[j] == '[' || clean[j] == ',' {
				p.add(i, "unexpected comma")
			}
		default:
			// Inside an unterminated /* comment, which jsonc leaves starting
			// with "/*": json.Valid reports it at an earlier offset.
		}
	}
}

// jsonError returns the offset and message of the syntax error in clean,
// which validate has rejected; encoding/json words the message.
func jsonError(clean []byte, dialect Dialect) (int, string) {
	err := json.Unmarshal(clean, new(json.RawMessage))
	se, ok := err.(*json.SyntaxError)
	if !ok {
		return 0, "invalid JSON"
	}
	msg := se.Error()
	off := int(se.Offset) - 1 // Offset counts the offending byte
	if strings.HasPrefix(msg, "unexpected end") || off < 0 {
		off = int(se.Offset)
	}
	if off > len(clean) {
		off = len(clean)
	}
	// jsonc leaves an unterminated "/*" in place.
	if off+1 < len(clean) && clean[off] == '/' && clean[off+1] == '*' {
		if dialect == Strict {
			msg = "comments are not allowed in strict JSON"
		} else {
			msg = "unterminated /* comment"
		}
	}
	return off, msg
}

// typeName names the JSON type of the value starting with c.
func typeName(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}
