package tomledit

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// SyntaxError locates a problem in the document's syntax, as reported by
// go-toml. Line and Col are 1-based; Col counts Unicode code points from the
// start of the line (a tab is one column, so is "ü"); a UTF-8 BOM at the start
// of the file is not counted.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

// Position returns Line and Col.
func (e *SyntaxError) Position() (line, col int) { return e.Line, e.Col }

// Reason is the message without its position.
func (e *SyntaxError) Reason() string { return e.Msg }

// LayoutError says that the document is valid TOML but laid out in a way
// repo cannot read or edit safely: the server map is an inline table or not a
// table at all, an entry is written with dotted keys, or a key follows the
// managed block. Line (1-based) locates the offending line.
type LayoutError struct {
	Line int
	Msg  string
}

func (e *LayoutError) Error() string {
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// Position returns Line, and column 0: the error is about the whole line.
func (e *LayoutError) Position() (line, col int) { return e.Line, 0 }

// Reason is the message without its position.
func (e *LayoutError) Reason() string { return e.Msg }

// runeColumn converts go-toml's byte column on a 1-based line of body into a
// code-point column.
func runeColumn(body []byte, line, byteCol int) int {
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(body[start:], '\n')
		if i < 0 {
			return byteCol
		}
		start += i + 1
	}
	end := start + byteCol - 1
	if end > len(body) {
		end = len(body)
	}
	if end < start {
		return 1
	}
	return 1 + utf8.RuneCount(body[start:end])
}
