package yamledit

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// Limits on what Parse reads. goccy/go-yaml's parser takes time and memory
// that grow with the square of the nesting depth (a 100 KB file of
// `[[[[…` took 11 GB and 13 s), so the depth is checked before the parser
// sees a document, twice: a scan of the bytes (scanLimits) refuses such a
// file at once, before goccy/go-yaml's lexer allocates some fifty bytes
// for each of its bytes; then the lexer's tokens, which say exactly what
// is a quoted or block scalar, are counted the same way
// (scanTokens), so that nothing the scan took for text gets through.
// The lexer takes time and memory in proportion to its input. JSON and
// TOML files are refused past 10,000 levels (encoding/json's and
// go-toml's limits); YAML stops at 1,000, where goccy/go-yaml still parses
// in milliseconds. No tool config comes near either limit.
const (
	// maxBytes is the largest YAML file Parse reads. goccy/go-yaml takes
	// some 100 bytes of allocations for each byte it reads: an 8 MiB Goose
	// file (30,000 extensions) parses in about 3 s and 800 MB, denser
	// YAML costs more. 10,000 servers take 4.5 MB in Goose's file, 3.7 MB
	// in Continue's.
	maxBytes = 8 << 20
	// maxNesting is the deepest nesting of collections Parse reads, as
	// scanLimits counts it.
	maxNesting = maxDepth
)

// limitScanner measures how deeply a YAML document nests without parsing
// it, in one pass over its bytes. It is not a YAML parser: it knows
// indentation, the block indicators ("- ", "? ", ": "), flow collections,
// quoted scalars, comments and block scalars, enough to measure ordinary
// files and every plainly deep one; where it cannot tell text from
// structure it takes text, which can only make it count less (the token
// check catches what it misses). It counts
//
//   - one level for each indentation deeper than the one before on the
//     lines of block collections, and for each node starting after a
//     block indicator on the same line ("- - - a" is three);
//   - one level for each open "[" or "{".
//
// A block sequence flush with its parent key shares that key's column, so
// the parser may find up to twice as many levels as the count (FuzzLimits
// holds scanTokens to that).
type limitScanner struct {
	limit int
	line  int    // 1-based number of the current line
	text  []byte // the current line, without its line break
	stack []int  // columns of the open block nodes, increasing
	flow  int    // open flow collections
	quote byte   // the quote of a quoted scalar left open at the end of a line, or 0
	// A block scalar whose text follows on the next lines: the column of
	// the node it belongs to, and the indentation of its text (0 until the
	// first line with text sets it).
	inScalar     bool
	scalarOwner  int
	scalarIndent int
	err          *SyntaxError
}

// checkLimits refuses a document larger than maxBytes or nested deeper than
// maxNesting, with a *SyntaxError naming where.
func checkLimits(body []byte) error {
	if len(body) > maxBytes {
		return &SyntaxError{Line: 1, Col: 1, Msg: fmt.Sprintf("the file is %.1f MiB; repo reads YAML files of up to %d MiB (is it the tool's config file?)", float64(len(body))/(1<<20), maxBytes>>20)}
	}
	return scanLimits(body, maxNesting)
}

// scanLimits checks the nesting of body against limit.
func scanLimits(body []byte, limit int) error {
	s := &limitScanner{limit: limit}
	for len(body) > 0 || s.line == 0 {
		s.line++
		text := body
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			text, body = body[:i], body[i+1:]
		} else {
			body = nil
		}
		s.text = bytes.TrimSuffix(text, []byte{'\r'})
		s.scanLine()
		if s.err != nil {
			return s.err
		}
		if len(body) == 0 {
			break
		}
	}
	return nil
}

func (s *limitScanner) fail(col int) {
	if s.err == nil {
		s.err = nestingError(s.line, 1+utf8.RuneCount(s.text[:min(col, len(s.text))]), s.limit)
	}
}

// push opens a block node at column col.
func (s *limitScanner) push(col int) {
	if n := len(s.stack); n == 0 || s.stack[n-1] < col {
		s.stack = append(s.stack, col)
	}
	if len(s.stack)+s.flow > s.limit {
		s.fail(col)
	}
}

func (s *limitScanner) spaces(i int) int {
	for i < len(s.text) && s.text[i] == ' ' {
		i++
	}
	return i
}

func (s *limitScanner) blanks(i int) int {
	for i < len(s.text) && (s.text[i] == ' ' || s.text[i] == '\t') {
		i++
	}
	return i
}

// separated reports whether s.text[i] is followed by a blank or the end of
// the line (as an indicator must be).
func (s *limitScanner) separated(i int) bool {
	return i+1 >= len(s.text) || s.text[i+1] == ' ' || s.text[i+1] == '\t'
}

func (s *limitScanner) scanLine() {
	indent := s.spaces(0)
	blank := indent == len(s.text)
	if s.inScalar {
		if blank {
			return
		}
		if indent > s.scalarOwner && (s.scalarIndent == 0 || indent >= s.scalarIndent) {
			if s.scalarIndent == 0 {
				s.scalarIndent = indent
			}
			return
		}
		s.inScalar = false
	}
	switch {
	case s.quote != 0:
		s.inFlowOrQuote(0)
		return
	case s.flow > 0:
		s.inFlowOrQuote(0)
		return
	}
	if blank || s.text[indent] == '#' {
		return
	}
	if indent == 0 {
		switch {
		case s.text[0] == '%':
			return // a directive
		case bytes.HasPrefix(s.text, []byte("---")) && s.separated(2):
			s.stack = s.stack[:0]
			s.node(s.blanks(3), 0, false)
			return
		case bytes.HasPrefix(s.text, []byte("...")) && s.separated(2):
			s.stack = s.stack[:0]
			return
		}
	}
	for n := len(s.stack); n > 0 && s.stack[n-1] > indent; n-- {
		s.stack = s.stack[:n-1]
	}
	s.push(indent)
	s.node(indent, indent, true)
}

// node scans the rest of the line from i, where a node (or the value after
// a key) starts; owner is the column of the node a block scalar header
// here would belong to, and nested whether block indicators may start
// nested nodes here.
func (s *limitScanner) node(i, owner int, nested bool) {
	for s.err == nil && i < len(s.text) {
		c := s.text[i]
		switch {
		case nested && (c == '-' || c == '?' || c == ':') && s.separated(i):
			owner = i
			i = s.blanks(i + 1)
			if i < len(s.text) && s.text[i] != '#' {
				s.push(i)
			}
			continue
		case c == '&' || c == '!':
			// An anchor or a tag before the node.
			for i < len(s.text) && s.text[i] != ' ' && s.text[i] != '\t' {
				i++
			}
			i = s.blanks(i)
			continue
		case c == '#':
			return
		case c == '|' || c == '>':
			s.blockScalar(i, owner)
			return
		case c == '[' || c == '{':
			s.inFlowOrQuote(i)
			return
		case c == '"' || c == '\'':
			s.quote = c
			end := s.closeQuote(i + 1)
			if end < 0 {
				return // continues on the next lines
			}
			i = end
		default:
			// A plain scalar: up to ": " (a key), " #" or the end.
			for i < len(s.text) && !(s.text[i] == ':' && s.separated(i)) && !(s.text[i] == '#' && (s.text[i-1] == ' ' || s.text[i-1] == '\t')) {
				i++
			}
		}
		// After a scalar: a key's colon, a comment or the end.
		i = s.blanks(i)
		if i < len(s.text) && s.text[i] == ':' && s.separated(i) {
			// A key: its value follows on this line (no block
			// indicators: "a: - b" is no sequence) or on the next.
			owner = s.keyColumn(owner)
			i = s.blanks(i + 1)
			nested = false
			continue
		}
		return
	}
}

// keyColumn is the column of the mapping a key on this line belongs to:
// the innermost open block node.
func (s *limitScanner) keyColumn(owner int) int {
	if n := len(s.stack); n > 0 {
		return s.stack[n-1]
	}
	return owner
}

// blockScalar reads a block scalar header at i: its text is on the next
// lines indented deeper than owner (by the indentation indicator, when
// there is one).
func (s *limitScanner) blockScalar(i, owner int) {
	explicit := 0
	for j := i + 1; j < len(s.text) && s.text[j] != ' ' && s.text[j] != '\t'; j++ {
		if c := s.text[j]; c >= '1' && c <= '9' {
			explicit = int(c - '0')
		}
	}
	s.inScalar, s.scalarOwner, s.scalarIndent = true, owner, 0
	if explicit > 0 {
		s.scalarIndent = owner + explicit
	}
}

// closeQuote returns the index just past the closing quote s.quote from i
// on, or -1 when the scalar goes on to the next line; it clears s.quote
// when the scalar ends.
func (s *limitScanner) closeQuote(i int) int {
	for ; i < len(s.text); i++ {
		switch c := s.text[i]; {
		case s.quote == '"' && c == '\\':
			i++
		case c == s.quote:
			if s.quote == '\'' && i+1 < len(s.text) && s.text[i+1] == '\'' {
				i++
				continue
			}
			s.quote = 0
			return i + 1
		}
	}
	return -1
}

// inFlowOrQuote scans from i inside an open quoted scalar or flow
// collection (or at the "[" or "{" that opens one) to the end of the line.
func (s *limitScanner) inFlowOrQuote(i int) {
	for s.err == nil && i < len(s.text) {
		if s.quote != 0 {
			if i = s.closeQuote(i); i < 0 {
				return
			}
			continue
		}
		switch c := s.text[i]; c {
		case '[', '{':
			s.flow++
			if len(s.stack)+s.flow > s.limit {
				s.fail(i)
			}
		case ']', '}':
			if s.flow > 0 {
				s.flow--
			}
			if s.flow == 0 {
				return // the rest is a comment, or an error for the parser
			}
		case '"', '\'':
			if i == 0 || bytes.IndexByte([]byte(" \t[{,:"), s.text[i-1]) >= 0 {
				s.quote = c
			}
		case '#':
			if i == 0 || s.text[i-1] == ' ' || s.text[i-1] == '\t' {
				return
			}
		}
		i++
	}
}

// nestingError is the refusal of a document nested deeper than limit.
func nestingError(line, col, limit int) *SyntaxError {
	return &SyntaxError{Line: line, Col: col,
		Msg: fmt.Sprintf("collections are nested more than %d levels deep here; repo does not read YAML nested this deep (flatten this part of the file)", limit)}
}
