package jsonedit

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/repo-manager/repo/internal/bigmem"
)

// SyntaxError locates a problem in the document's syntax.
//
// In all the error types of this package, Line and Col are 1-based and Col
// counts Unicode code points (runes) from the start of the line: a tab is one
// column, so is "ü"; a UTF-8 BOM at the start of the file is not counted.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string { return located(e) }

// Position returns Line and Col.
func (e *SyntaxError) Position() (line, col int) { return e.Line, e.Col }

// Reason is the message without its position.
func (e *SyntaxError) Reason() string { return e.Msg }

// TypeError says that a segment of a path exists but is not an object (for
// example "mcpServers" is an array, a string or null). An empty Path means the
// top-level value. Got is "array", "string", "number", "boolean" or "null".
// Line and Col locate the offending value.
type TypeError struct {
	Path      []string
	Got       string
	Line, Col int
}

func (e *TypeError) Error() string { return located(e) }

// Position returns Line and Col.
func (e *TypeError) Position() (line, col int) { return e.Line, e.Col }

// Reason is the message without its position.
func (e *TypeError) Reason() string {
	what := "the top-level value"
	if len(e.Path) > 0 {
		what = "the value of " + formatPath(e.Path)
	}
	return fmt.Sprintf("%s is %s %s, want an object", what, article(e.Got), e.Got)
}

// DuplicateKeyError says that Key appears more than once in the object at
// Path, an object that Object, Insert, Replace or Delete looked into. Line
// and Col locate the second occurrence.
type DuplicateKeyError struct {
	Path      []string
	Key       string
	Line, Col int
}

func (e *DuplicateKeyError) Error() string { return located(e) }

// Position returns Line and Col.
func (e *DuplicateKeyError) Position() (line, col int) { return e.Line, e.Col }

// Reason is the message without its position.
func (e *DuplicateKeyError) Reason() string {
	where := "the top-level object"
	if len(e.Path) > 0 {
		where = "the object at " + formatPath(e.Path)
	}
	return fmt.Sprintf("duplicate key %s in %s", strconv.Quote(e.Key), where)
}

// located is the message of an error of this package: its position, then
// its reason.
func located(e interface {
	Position() (line, col int)
	Reason() string
}) string {
	line, col := e.Position()
	return fmt.Sprintf("line %d, column %d: %s", line, col, e.Reason())
}

// formatPath renders a path as quoted keys: "projects" > "/home/u" > "mcpServers".
func formatPath(path []string) string {
	q := make([]string, len(path))
	for i, k := range path {
		q[i] = strconv.Quote(k)
	}
	return strings.Join(q, " > ")
}

func article(typ string) string {
	if typ == "array" || typ == "object" {
		return "an"
	}
	return "a"
}

// position converts a byte offset into a 1-based line and rune column.
func position(data []byte, bom, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	line = 1 + bytes.Count(data[:off], []byte{'\n'})
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	if start < bom {
		start = bom
	}
	if off < start {
		off = start
	}
	return line, 1 + utf8.RuneCount(data[start:off])
}

func syntaxErrorAt(data []byte, bom, off int, msg string) *SyntaxError {
	line, col := position(data, bom, off)
	return &SyntaxError{Line: line, Col: col, Msg: msg}
}

// lineCounter turns increasing offsets into line numbers in one pass.
type lineCounter struct {
	data []byte
	off  int
	line int
}

func (c *lineCounter) lineAt(off int) int {
	if c.line == 0 {
		c.line = 1
	}
	if off < c.off { // not increasing: start over
		c.off, c.line = 0, 1
	}
	c.line += bigmem.CountByte(c.data[c.off:off], '\n')
	c.off = off
	return c.line
}
