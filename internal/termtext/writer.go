package termtext

import (
	"io"
	"unicode/utf8"
)

// Writer is the last guard between a program and its output stream: what
// it passes on holds no character that is not printable but "\n", "\r\n"
// and "\t" — and, when SGR says colour is on, the colour sequences
// (ESC [ … m) the program paints with. Everything else is written as a
// JSON-style escape (\u001b, \u202e, a surrogate pair above U+FFFF; \xff
// for a byte that is not UTF-8), which is also a valid escape inside a JSON
// string, so a JSON document stays valid: encoding/json writes DEL, C1
// controls and format characters as they are.
//
// The text a program prints is escaped where it is printed (Safe, Lines);
// Writer is there for the message no one thought of. A character or
// sequence split across two writes is held until the next one, or Flush.
type Writer struct {
	w    io.Writer
	sgr  func() bool
	held []byte
	buf  []byte
	err  error
}

// NewWriter guards w. sgr, when not nil, reports whether colour sequences
// may pass (asked when one is met).
func NewWriter(w io.Writer, sgr func() bool) *Writer {
	return &Writer{w: w, sgr: sgr}
}

// Unwrap is the guarded writer, for a caller that must know whether it is
// a terminal.
func (g *Writer) Unwrap() io.Writer { return g.w }

// maxHeld bounds what is held back at the end of a write: an SGR sequence
// repo writes is a few bytes long.
const maxHeld = 16

// Write escapes p and writes it. It reports len(p) written unless the
// underlying writer fails.
func (g *Writer) Write(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	data := p
	if len(g.held) > 0 {
		data = append(append([]byte(nil), g.held...), p...)
		g.held = g.held[:0]
	}
	if clean(data) {
		if err := g.emit(data); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	g.buf = g.buf[:0]
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f):
			g.buf = append(g.buf, c)
			i++
			continue
		case c == '\r':
			if i+1 == len(data) {
				g.held = append(g.held, c)
				i++
				continue
			}
			if data[i+1] == '\n' {
				g.buf = append(g.buf, c)
				i++
				continue
			}
		case c == 0x1b && g.sgr != nil:
			n, complete := sgrLen(data[i:])
			if !complete && len(data)-i < maxHeld {
				g.held = append(g.held, data[i:]...)
				i = len(data)
				continue
			}
			if n > 0 && g.sgr() {
				g.buf = append(g.buf, data[i:i+n]...)
				i += n
				continue
			}
		case c >= utf8.RuneSelf:
			if !utf8.FullRune(data[i:]) {
				g.held = append(g.held, data[i:]...)
				i = len(data)
				continue
			}
			r, size := utf8.DecodeRune(data[i:])
			if r != utf8.RuneError || size > 1 {
				if printable(r) {
					g.buf = append(g.buf, data[i:i+size]...)
				} else {
					g.buf = appendU(g.buf, r)
				}
				i += size
				continue
			}
			g.buf = append(g.buf, '\\', 'x', hex[c>>4], hex[c&15])
			i++
			continue
		}
		g.buf = appendU(g.buf, rune(c))
		i++
	}
	if err := g.emit(g.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held back, escaped: the output ends there.
func (g *Writer) Flush() error {
	if len(g.held) == 0 || g.err != nil {
		return g.err
	}
	held := g.held
	g.held = nil
	var out []byte // an unfinished sequence is no colour: escaped
	for i := 0; i < len(held); {
		r, size := utf8.DecodeRune(held[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, '\\', 'x', hex[held[i]>>4], hex[held[i]&15])
		case r == '\n' || r == '\t' || (r < utf8.RuneSelf && r >= 0x20 && r != 0x7f) || (r >= utf8.RuneSelf && printable(r)):
			out = append(out, held[i:i+size]...)
		default:
			out = appendU(out, r)
		}
		i += size
	}
	return g.emit(out)
}

func (g *Writer) emit(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if _, err := g.w.Write(b); err != nil {
		g.err = err
		return err
	}
	return nil
}

// clean reports whether p passes as it is: printable ASCII, "\n" and
// "\t", and "\r" before "\n" — the common case, checked without copying.
func clean(p []byte) bool {
	for i, c := range p {
		if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
			continue
		}
		if c == '\r' && i+1 < len(p) && p[i+1] == '\n' {
			continue
		}
		return false
	}
	return true
}

// sgrLen is the length of the colour sequence ESC [ digits and ';' m at
// the start of p, or 0 when p does not start with one; complete is false
// when p ends before it could tell.
func sgrLen(p []byte) (n int, complete bool) {
	if len(p) < 2 {
		return 0, false
	}
	if p[1] != '[' {
		return 0, true
	}
	for i := 2; i < len(p); i++ {
		switch c := p[i]; {
		case c == 'm':
			return i + 1, true
		case c >= '0' && c <= '9' || c == ';':
		default:
			return 0, true
		}
	}
	return 0, false
}

const hex = "0123456789abcdef"

// appendU appends r as a JSON escape: \u001b, or a surrogate pair.
func appendU(b []byte, r rune) []byte {
	if r > 0xffff {
		r -= 0x10000
		b = appendU(b, 0xd800+(r>>10))
		return appendU(b, 0xdc00+(r&0x3ff))
	}
	return append(b, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
}
