package termtext

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lines is multi-line text, such as a diff, as it may be printed: every
// character that is not printable is an escape (\x1b, \u202e, \xff for a
// byte that is not UTF-8), except the line ends and tabs that make the text
// what it is: "\n", "\r\n" and "\t". A lone "\r" is escaped, as it redraws
// the line on a terminal and ends one for a CI runner. Unlike Safe, Lines
// adds no quotes: it is for text whose lines are shown as they are, where
// an escape reads as what it is.
func Lines(s string) string {
	if linesOK(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n' || r == '\t' || r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			b.WriteByte(s[i])
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteByte(hex[s[i]>>4])
			b.WriteByte(hex[s[i]&15])
		case printable(r):
			b.WriteString(s[i : i+size])
		default:
			// The escape strconv.Quote gives the character: \r, \x1b,
			// \u202e; without its quotes.
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

// linesOK reports whether Lines leaves s as it is.
func linesOK(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t' && (c != '\r' || i+1 >= len(s) || s[i+1] != '\n')) || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || !printable(r) {
			return false
		}
		i += size
	}
	return true
}

// printable is a character above ASCII that prints as itself (see
// Printable).
func printable(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 0x20 && r != 0x7f
	}
	return unicode.IsPrint(r)
}
