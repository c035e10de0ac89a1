// Package shellquote spells command lines that a user can paste into a
// POSIX shell: repo prints them as the fix for what it found, and shows a
// server's command line with them.
package shellquote

import (
	"strings"
	"unicode/utf8"

	"github.com/repo-manager/repo/internal/termtext"
)

// Join quotes words that a POSIX shell would split or expand, so the
// printed command line can be pasted. A word holding a character that is
// not printable (a carriage return, an escape sequence, a newline, a
// bidirectional override, a byte that is not UTF-8) is written as $'…'
// with escapes (POSIX.1-2024, bash, zsh, ksh): in single quotes it would
// reach the terminal as it is, redraw the line or start another one, and
// the command shown would not be the command run.
func Join(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		switch {
		case w != "" && strings.IndexFunc(w, func(r rune) bool {
			return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '=' || r == ':' || r == ',' || r == '@' || r == '+' ||
				(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9'))
		}) < 0:
			out[i] = w
		case !termtext.Printable(w):
			out[i] = dollarQuote(w)
		default:
			out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

// dollarQuote spells w as $'…': printable characters as they are, \\ and
// \' for the backslash and the quote, \n \r \t for those, and every other
// byte of a character that is not printable as \xHH — the escapes every
// shell with $'…' knows, which give back w's exact bytes. A hex digit right
// after \xHH starts a new $'…' (POSIX leaves a third digit unspecified).
func dollarQuote(w string) string {
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.WriteString("$'")
	afterHex := false
	for i := 0; i < len(w); {
		r, size := utf8.DecodeRuneInString(w[i:])
		escaped := false
		switch {
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteByte(w[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case !(r == utf8.RuneError && size == 1) && termtext.Printable(w[i:i+size]):
			if afterHex && strings.ContainsRune("0123456789abcdefABCDEF", r) {
				b.WriteString("'$'")
			}
			b.WriteString(w[i : i+size])
		default:
			for _, c := range []byte(w[i : i+size]) {
				b.WriteString(`\x`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&15])
			}
			escaped = true
		}
		afterHex = escaped
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}
