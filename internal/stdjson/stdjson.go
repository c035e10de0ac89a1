// Package stdjson writes and reads the JSON text encoding/json writes, by
// hand, for the state files a sync reads and writes on every run (the
// bases of hand edits, the trust store): encoding/json's reflection, its
// second, indenting pass and its decoder were a large part of a sync's
// work.
//
// Writing gives encoding/json's bytes exactly. Reading is for the text it
// writes and nothing else: a Reader refuses any other escape, a character
// the encoder would have escaped, a number in another form — anything
// whose meaning to encoding/json would need a second look. Its callers
// then read the file with encoding/json, as before, so both readers agree
// on every text the fast one takes (each caller fuzzes that), and
// encoding/json alone reports what is wrong with a file.
package stdjson

import (
	"slices"
	"unicode/utf8"
)

// hex is encoding/json's hex alphabet (lower case).
const hex = "0123456789abcdef"

// AppendString appends s quoted as encoding/json does with HTML escaping
// on (Marshal's default): \" \\ \b \f \n \r \t, \u00XX for the other
// control characters and for < > &, \ufffd for each byte that is not
// UTF-8, \u2028 and \u2029.
func AppendString(b []byte, s string) []byte { return appendString(b, s, true) }

// AppendStringNoHTML appends s quoted as an encoding/json Encoder does
// with SetEscapeHTML(false): as AppendString, but < > & as they are.
func AppendStringNoHTML(b []byte, s string) []byte { return appendString(b, s, false) }

func appendString(b []byte, s string, html bool) []byte {
	b = append(b, '"')
	// Most strings (names, paths, commands) are plain ASCII: find the
	// next byte that needs a second look by its class (one table load,
	// no chain of tests) and append each run of plain bytes whole.
	plainMax := byte(plain)
	if !html {
		plainMax = htmlOnly
	}
	start := 0
	for i := 0; ; {
		i = plainTo(s, i, plainMax)
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// plainTo is the index of the first byte from i on whose class is over
// limit (plain or htmlOnly), or len(s). A function of its own so that its
// loop keeps to registers.
func plainTo(s string, i int, limit byte) int {
	// Four bytes a test: with the classes 0, 1 and 2 and a limit of 0 or
	// 1, their classes or'ed are within the limit just when each is.
	for ; len(s)-i >= 4; i += 4 {
		w := s[i : i+4] // one bounds check for the four
		if class[w[0]]|class[w[1]]|class[w[2]]|class[w[3]] > limit {
			break
		}
	}
	for i < len(s) && class[s[i]] <= limit {
		i++
	}
	return i
}

// The classes in class: what encoding/json does with a byte. The third,
// 2, is for the control characters, " and \, and each byte of a non-ASCII
// character: appendString's slow path looks at those.
const (
	plain    = 0 // written as it is
	htmlOnly = 1 // < > &: escaped only with HTML escaping on
)

// class is the class of each byte. It is a constant, not a table built at
// start-up: the program must do no work before main (cmd's
// TestNothingAllocatedAtStartup).
const class = "" +
	"\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02" + // 00
	"\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02" + // 10
	"\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00" + // 20
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x01\x00" + // 30
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" + // 40
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00" + // 50
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" + // 60
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" + // 70
	"\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02" + // 80
	"\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02" + // 90
	"\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02" + // a0
	"\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02" + // b0
	"\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02" + // c0
	"\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02" + // d0
	"\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02" + // e0
	"\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02" // f0

// AppendInt appends n in decimal, as encoding/json writes an int.
func AppendInt(b []byte, n int) []byte {
	if n < 0 {
		b = append(b, '-')
		n = -n // never the smallest int: versions and ports
	}
	var digits [20]byte
	i := len(digits)
	for {
		i--
		digits[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return append(b, digits[i:]...)
}

// Reader reads JSON text as encoding/json writes it. Each method reads
// one thing at the current place and says whether it was there; after a
// false the reader's place is undefined, and its caller gives up. Only
// Space, Token, Peek and AtEnd skip white space: a caller that wants the
// layout too (the bytes the encoder writes, and no others) reads it with
// Lit.
type Reader struct {
	data     []byte
	pos      int
	buf      []byte // the text of a string with escapes, unescaped
	plainMax byte   // the highest class of the bytes a string holds as they are
}

// NewReader reads data written with AppendString.
func NewReader(data []byte) *Reader { return &Reader{data: data} }

// NewReaderNoHTML reads data written with AppendStringNoHTML: its strings
// hold < > & as they are, never escaped.
func NewReaderNoHTML(data []byte) *Reader { return &Reader{data: data, plainMax: htmlOnly} }

// Lit consumes s if the text goes on with it, byte for byte.
func (r *Reader) Lit(s string) bool {
	if len(r.data)-r.pos < len(s) || string(r.data[r.pos:r.pos+len(s)]) != s {
		return false
	}
	r.pos += len(s)
	return true
}

// Space skips white space (the four characters JSON allows).
func (r *Reader) Space() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// Token skips white space and consumes c if it comes next.
func (r *Reader) Token(c byte) bool {
	r.Space()
	if r.pos < len(r.data) && r.data[r.pos] == c {
		r.pos++
		return true
	}
	return false
}

// Peek skips white space and reports the next byte (0 at the end).
func (r *Reader) Peek() byte {
	r.Space()
	if r.pos < len(r.data) {
		return r.data[r.pos]
	}
	return 0
}

// AtEnd skips white space and reports whether the text ends there.
func (r *Reader) AtEnd() bool {
	r.Space()
	return r.pos == len(r.data)
}

// Done reports whether the text ends here, white space and all.
func (r *Reader) Done() bool { return r.pos == len(r.data) }

// Bool reads true or false.
func (r *Reader) Bool() (bool, bool) {
	switch {
	case r.Lit("true"):
		return true, true
	case r.Lit("false"):
		return false, true
	}
	return false, false
}

// Int reads a non-negative integer as encoding/json writes one: 0, or
// digits without a leading zero, at most 18 of them (so it fits).
func (r *Reader) Int() (int, bool) {
	start, n := r.pos, 0
	for r.pos < len(r.data) && r.data[r.pos] >= '0' && r.data[r.pos] <= '9' {
		n = n*10 + int(r.data[r.pos]-'0')
		r.pos++
	}
	digits := r.pos - start
	if digits == 0 || digits > 18 || (digits > 1 && r.data[start] == '0') {
		return 0, false
	}
	// what follows a number in JSON: never more of one (1.5, 1e3)
	if r.pos < len(r.data) {
		switch r.data[r.pos] {
		case '.', 'e', 'E', '+', '-':
			return 0, false
		}
	}
	return n, true
}

// Str reads a string as AppendString (with NewReaderNoHTML,
// AppendStringNoHTML) writes it: the escapes it writes and no other
// (\ufffd neither: it stands for a byte that was not UTF-8, which no
// decoder gives back), raw text only where it writes raw text.
func (r *Reader) Str() (string, bool) {
	if !r.Lit(`"`) {
		return "", false
	}
	data := r.data
	start := r.pos
	escaped := false // then r.buf holds the text up to start
	for i := r.pos; i < len(data); {
		c := data[i]
		if class[c] <= r.plainMax { // what the encoder writes as it is
			i++
			continue
		}
		switch {
		case c == '"':
			r.pos = i + 1
			if !escaped {
				return string(data[start:i]), true
			}
			return string(append(r.buf, data[start:i]...)), true
		case c == '\\':
			if !escaped {
				r.buf, escaped = r.buf[:0], true
			}
			r.buf = append(r.buf, data[start:i]...)
			e, n, ok := escape(data[i:])
			if !ok || (r.plainMax == htmlOnly && (e == '<' || e == '>' || e == '&')) {
				return "", false // the encoder writes these as they are
			}
			if e < utf8.RuneSelf {
				r.buf = append(r.buf, byte(e))
			} else {
				r.buf = utf8.AppendRune(r.buf, e)
			}
			i += n
			start = i
		case c < utf8.RuneSelf:
			return "", false // a character the encoder escapes
		default:
			e, size := utf8.DecodeRune(data[i:])
			if (e == utf8.RuneError && size == 1) || e == '\u2028' || e == '\u2029' {
				return "", false
			}
			i += size
		}
	}
	return "", false
}

// Object reads an object whose members member reads (called after each
// name and colon, at the value, white space skipped), each name at most
// once: a struct's fields, at most 20 of them (more is refused).
func (r *Reader) Object(member func(key string) bool) bool {
	return r.members(false, member)
}

// SortedObject reads an object whose names come in strictly increasing
// order, as encoding/json writes a map: each once, however many.
func (r *Reader) SortedObject(member func(key string) bool) bool {
	return r.members(true, member)
}

func (r *Reader) members(sorted bool, member func(key string) bool) bool {
	if !r.Token('{') {
		return false
	}
	if r.Token('}') {
		return true
	}
	var seen [20]string // more members than any type has: refused anyway
	n, prev := 0, ""
	for {
		r.Space()
		key, ok := r.Str()
		if !ok || !r.Token(':') {
			return false
		}
		switch {
		case sorted:
			if n > 0 && key <= prev {
				return false
			}
			prev, n = key, n+1
		case n == len(seen) || slices.Contains(seen[:n], key):
			return false
		default:
			seen[n] = key
			n++
		}
		r.Space()
		if !member(key) {
			return false
		}
		if r.Token('}') {
			return true
		}
		if !r.Token(',') {
			return false
		}
	}
}

// Array reads an array whose elements element reads (called at each,
// white space skipped).
func (r *Reader) Array(element func() bool) bool {
	if !r.Token('[') {
		return false
	}
	if r.Token(']') {
		return true
	}
	for {
		r.Space()
		if !element() {
			return false
		}
		if r.Token(']') {
			return true
		}
		if !r.Token(',') {
			return false
		}
	}
}

// Strings reads an array of strings (empty, not nil, for []).
func (r *Reader) Strings() ([]string, bool) {
	out := []string{}
	ok := r.Array(func() bool {
		s, ok := r.Str()
		out = append(out, s)
		return ok
	})
	return out, ok
}

// StringMap reads a map of strings as encoding/json writes one: names in
// increasing order (SortedObject).
func (r *Reader) StringMap() (map[string]string, bool) {
	m := map[string]string{}
	ok := r.SortedObject(func(k string) bool {
		v, ok := r.Str()
		m[k] = v
		return ok
	})
	return m, ok
}

// escape reads an escape at the start of b as AppendString writes one:
// what it stands for and its length.
func escape(b []byte) (rune, int, bool) {
	if len(b) < 2 {
		return 0, 0, false
	}
	switch b[1] {
	case '"', '\\':
		return rune(b[1]), 2, true
	case 'b':
		return '\b', 2, true
	case 'f':
		return '\f', 2, true
	case 'n':
		return '\n', 2, true
	case 'r':
		return '\r', 2, true
	case 't':
		return '\t', 2, true
	case 'u':
	default:
		return 0, 0, false
	}
	if len(b) < 6 {
		return 0, 0, false
	}
	switch {
	case b[2] == '2' && b[3] == '0' && b[4] == '2' && (b[5] == '8' || b[5] == '9'):
		return rune(0x2020 + int(b[5]-'0')), 6, true
	case b[2] == '0' && b[3] == '0':
		hi, lo := hexDigit(b[4]), hexDigit(b[5])
		if hi < 0 || lo < 0 {
			return 0, 0, false
		}
		c := byte(hi<<4 | lo)
		// only what the encoder writes so: the control characters
		// without a short escape, and < > &
		if (c < 0x20 && c != '\b' && c != '\f' && c != '\n' && c != '\r' && c != '\t') || c == '<' || c == '>' || c == '&' {
			return rune(c), 6, true
		}
	}
	return 0, 0, false
}

// hexDigit is the value of a lower-case hex digit, or -1.
func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return -1
}
