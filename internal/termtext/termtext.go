// Package termtext keeps text that a workspace chose from acting on a
// terminal or a CI log. A server name, an argument or a profile path may
// hold a carriage return and an escape sequence that redraws the line
// (so `bash -c 'curl … | sh'` shows as `node server.js`), an OSC sequence
// that sets the window title or the clipboard, a newline that starts a
// `::error::` workflow command on a GitHub runner, or a bidirectional
// override that reorders what is read. Printed through Safe, such text
// shows as what it is.
package termtext

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Printable reports whether s is valid UTF-8 made only of characters that
// print as themselves: letters, marks, numbers, punctuation, symbols and
// the ASCII space. Control characters (C0, DEL, C1), format characters
// (bidirectional overrides, zero-width joiners), line and paragraph
// separators, private-use and unassigned code points are not.
func Printable(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || !unicode.IsPrint(r) {
			return false
		}
		i += size
	}
	return true
}

// Safe is s as it may be printed: s itself when it is Printable, else a
// Go-syntax double-quoted string in which every character that is not
// printable, and every byte that is not UTF-8, is an escape (\r, \x1b,
// \u202e). The quotes say that the text was changed for display.
func Safe(s string) string {
	if Printable(s) {
		return s
	}
	return strconv.Quote(s)
}

// Check returns nil when s is Printable, else an error naming the first
// character that is not and its byte offset, for a refusal at load time
// ("server name: control character U+001B at byte 3").
func Check(s string) error {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return fmt.Errorf("byte 0x%02x at offset %d is not UTF-8", s[i], i)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return fmt.Errorf("control character %U at byte %d", r, i)
		case !unicode.IsPrint(r):
			return fmt.Errorf("unprintable character %U at byte %d", r, i)
		}
		i += size
	}
	return nil
}
