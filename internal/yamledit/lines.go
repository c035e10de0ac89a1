package yamledit

import (
	"bytes"
	"unicode/utf8"

	"github.com/repo-manager/repo/internal/textedit"
)

// lineStarts returns the offset of the start of each line. A body ending in
// a line break has a last, empty line after it.
func lineStarts(b []byte) []int {
	starts := []int{0}
	for i, c := range b {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineStart returns the offset where line l (1-based) starts.
func (d *Doc) lineStart(l int) int { return d.lines[l-1] }

// lineEnd returns the offset just past the content of line l: its line
// break ("\n" or "\r\n") or the end of the body.
func (d *Doc) lineEnd(l int) int {
	if l >= len(d.lines) {
		return len(d.body)
	}
	e := d.lines[l] - 1 // the '\n'
	if e > d.lines[l-1] && d.body[e-1] == '\r' {
		e--
	}
	return e
}

func (d *Doc) lineText(l int) []byte { return d.body[d.lineStart(l):d.lineEnd(l)] }

// indentEnd returns the number of blanks (spaces and tabs) starting line l.
func (d *Doc) indentEnd(l int) int {
	t := d.lineText(l)
	i := 0
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	return i
}

// spaceIndent returns the number of spaces starting line l.
func (d *Doc) spaceIndent(l int) int {
	t := d.lineText(l)
	i := 0
	for i < len(t) && t[i] == ' ' {
		i++
	}
	return i
}

func (d *Doc) isBlank(l int) bool { return d.indentEnd(l) == len(d.lineText(l)) }

// isTrivial reports a blank line or a line holding only a comment.
func (d *Doc) isTrivial(l int) bool { return d.isBlank(l) || d.comment[l] }

// position converts a body offset to a 1-based line and rune column.
func (d *Doc) position(off int) (line, col int) {
	off = min(off, len(d.body))
	line = 1 + bytes.Count(d.body[:off], []byte{'\n'})
	start := bytes.LastIndexByte(d.body[:off], '\n') + 1
	return line, 1 + utf8.RuneCount(d.body[start:off])
}

// offsetOf converts a 1-based line and rune column into a body offset.
func (d *Doc) offsetOf(line, col int) int {
	start, end := d.lineStart(line), d.lineEnd(line)
	off := start
	for c := 1; c < col && off < end; c++ {
		_, n := utf8.DecodeRune(d.body[off:end])
		off += n
	}
	return off
}

// deleteLines returns the splice that removes lines a..b together with the
// line break before them (a > 1), so that removing lines that were inserted
// after line a-1 gives back the bytes before the insertion exactly.
func (d *Doc) deleteLines(a, b int) textedit.Splice {
	at := d.lineEnd(a - 1)
	return textedit.Splice{At: at, Del: d.lineEnd(b) - at}
}

// cutLines is deleteLines, except at the end of a file without a final line
// break when the line before a is in a block scalar: the line break after
// it is part of the scalar's value, so it stays (and the file now ends
// with it).
func (d *Doc) cutLines(a, b int) textedit.Splice {
	s := d.deleteLines(a, b)
	if a > 1 && s.At+s.Del == len(d.body) && d.body[len(d.body)-1] != '\n' && d.inScalar[a-1] {
		start := d.lineStart(a)
		return textedit.Splice{At: start, Del: len(d.body) - start}
	}
	return s
}

// endsScalarAtEOF reports whether line l is the end of a file that ends
// inside a block scalar without a final line break: lines added after it
// would change the scalar's value.
func (d *Doc) endsScalarAtEOF(l int) bool {
	return d.eofScalar && l >= 1 && d.lineEnd(l) == len(d.body)
}

// insertAfter returns the splice that adds lines after line l (0: at the
// very start, before line 1).
func (d *Doc) insertAfter(l int, lines []string) textedit.Splice {
	text := []byte(joinLines(lines, d.nl))
	if l == 0 {
		return textedit.Splice{At: 0, Ins: append(text, d.nl...)}
	}
	return textedit.Splice{At: d.lineEnd(l), Ins: append([]byte(d.nl), text...)}
}

func joinLines(lines []string, nl string) string {
	n := 0
	for _, l := range lines {
		n += len(l) + len(nl)
	}
	b := make([]byte, 0, n)
	for i, l := range lines {
		if i > 0 {
			b = append(b, nl...)
		}
		b = append(b, l...)
	}
	return string(b)
}

// checkAppend checks that lines can be added after line l without changing
// the meaning of what comes before: the last line with content before them
// must not end with a node property or indicator waiting for its node.
func (d *Doc) checkAppend(l int) error {
	for l > 0 && d.isTrivial(l) {
		l--
	}
	// goccy/go-yaml drops a tag at the very end of the input: a line with
	// content, no token and a leading "!" is one.
	if l > 0 && (d.dangling[l] || !d.tokens[l] && bytes.ContainsAny(d.lineText(l)[d.indentEnd(l):][:1], "!&")) {
		return &ShapeError{Line: l, Col: d.indentEnd(l) + 1, Msg: "the line ends with a tag, an anchor, a \"-\", a \"?\" or a block scalar header and no value; repo cannot add entries after it"}
	}
	return nil
}
