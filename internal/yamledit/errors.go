package yamledit

import (
	"fmt"
	"strconv"
	"strings"
)

// SyntaxError is a document that is not valid YAML, or not a YAML stream
// this package edits (several documents, a bare carriage return).
//
// In the error types of this package Line and Col are 1-based; Col counts
// Unicode code points from the start of the line, the BOM not included.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string { return located(e.Line, e.Col, e.Msg) }

// Position returns Line and Col.
func (e *SyntaxError) Position() (line, col int) { return e.Line, e.Col }

// Reason is the message without its position.
func (e *SyntaxError) Reason() string { return e.Msg }

// ShapeError is valid YAML whose structure does not fit the request: a
// container of the wrong kind, a duplicate key or name, a list item without
// a string name, a value that cannot be converted to JSON, or a layout this
// package does not edit (a non-empty flow-style container, an anchor or tag
// on a container it must change, ...). Line and Col locate the offending
// node.
type ShapeError struct {
	Line, Col int
	Msg       string
}

func (e *ShapeError) Error() string { return located(e.Line, e.Col, e.Msg) }

// Position returns Line and Col.
func (e *ShapeError) Position() (line, col int) { return e.Line, e.Col }

// Reason is the message without its position.
func (e *ShapeError) Reason() string { return e.Msg }

// located is the message of an error with a position.
func located(line, col int, msg string) string {
	return fmt.Sprintf("line %d, column %d: %s", line, col, msg)
}

// ValueError is a name, path or value given to Insert or Replace that cannot be written:
// not valid UTF-8, not a JSON object, a duplicate key in it, a number out of
// the range of YAML readers, a key too long for YAML.
type ValueError struct {
	Msg string
}

func (e *ValueError) Error() string { return "yamledit: " + e.Msg }

// formatPath renders a path as quoted keys: "a" > "mcpServers".
func formatPath(path []string) string {
	if len(path) == 0 {
		return "the top-level mapping"
	}
	q := make([]string, len(path))
	for i, k := range path {
		q[i] = strconv.Quote(k)
	}
	return strings.Join(q, " > ")
}
