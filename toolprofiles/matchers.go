package toolprofiles

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Matching the built-in profiles' patterns without regexp. A no-op check
// of the example workspace spent about 220 µs of its 5.9 ms of CPU in Go's
// regexp for the rules' patterns (perf, 300 runs): about 110 µs compiling
// the 9 it needed and 100 µs running 47 FindAllStringIndex calls on values
// of 17 to 84 bytes, most of which hold a '$' (${workspaceFolder}), so
// the needle (needle.go) does not spare them. Each built-in pattern is
// small enough to match by hand in a few lines, so a run with only
// built-in profiles compiles and runs no regexp for them. A pattern that
// is not in the table — a user's or a workspace's profile — is compiled
// as before. FuzzBuiltinMatchers holds every matcher to its pattern's
// regexp (RE2, leftmost-first, UTF-8 as regexp decodes it), and
// TestBuiltinPatternsHaveMatchers fails when a built-in profile has a
// pattern the table lacks.

// matcher finds the matches of one pattern. at reports where the match
// that begins at s[i] (i < len(s)) ends — the one the pattern's regexp
// prefers — or -1 when none begins there; it never returns i (no pattern
// here matches empty text, so an empty s holds no match). first holds
// the bytes a match can begin with, all ASCII: an ASCII byte always
// begins a rune, however the bytes before it decode, so the search may
// skip to it bytewise.
type matcher struct {
	pattern  string // the pattern's exact text
	first    string
	anchored bool // the pattern begins with ^: only a match at 0 counts
	at       func(s string, i int) int
}

// handMatcher returns the matcher for pattern, or nil when it has none.
// Eighteen comparisons, most ending at the lengths, cost about what a
// map's hashing does, and an array of literals is laid out in the binary
// where a map would be built at start-up (TestNothingAllocatedAtStartup).
func handMatcher(pattern string) *matcher {
	for i := range handMatchers {
		if handMatchers[i].pattern == pattern {
			return &handMatchers[i]
		}
	}
	return nil
}

// handMatchers holds a matcher for each pattern the built-in profiles
// carry (profiles/*.toml).
var handMatchers = [...]matcher{
	{pattern: `\$\{[^}]*\}`, first: "$", at: func(s string, i int) int {
		if !strings.HasPrefix(s[i:], "${") {
			return -1
		}
		return brace(s, i+2)
	}},
	{pattern: `\{(env|file):[^}]+\}`, first: "{", at: func(s string, i int) int {
		switch {
		case strings.HasPrefix(s[i:], "{env:"):
			return brace1(s, i+len("{env:"))
		case strings.HasPrefix(s[i:], "{file:"):
			return brace1(s, i+len("{file:"))
		}
		return -1
	}},
	{pattern: `\$\{env:[^}]+\}`, first: "$", at: func(s string, i int) int {
		if !strings.HasPrefix(s[i:], "${env:") {
			return -1
		}
		return brace1(s, i+len("${env:"))
	}},
	{pattern: `\$\{(env:\w+|workspaceFolder)\}`, first: "$", at: func(s string, i int) int {
		switch {
		case strings.HasPrefix(s[i:], "${env:"):
			j := i + len("${env:")
			if w := wordEnd(s, j); w > j && byteAt(s, w) == '}' {
				return w + 1
			}
		case strings.HasPrefix(s[i:], "${workspaceFolder}"):
			return i + len("${workspaceFolder}")
		}
		return -1
	}},
	{pattern: `\$(\w+|\{[^}]+\})`, first: "$", at: func(s string, i int) int { return dollarWordOrBrace(s, i, brace1) }},
	{pattern: `\$(\w+|\{[^}]*\})`, first: "$", at: func(s string, i int) int { return dollarWordOrBrace(s, i, brace) }},
	{pattern: `^\$(\w+|\{[^}]*\})`, first: "$", anchored: true, at: func(s string, i int) int {
		return dollarWordOrBrace(s, i, brace)
	}},
	{pattern: `\$\{[^{}]+\}|\$[A-Za-z_][A-Za-z0-9_]*|\\\$`, first: `$\`, at: func(s string, i int) int {
		if s[i] == '\\' {
			if byteAt(s, i+1) == '$' {
				return i + 2
			}
			return -1
		}
		if s[i] != '$' {
			return -1
		}
		if byteAt(s, i+1) == '{' {
			// \$\{[^{}]+\}: the first brace after ${ must close it.
			j := i + 2
			if k := strings.IndexAny(s[j:], "{}"); k > 0 && s[j+k] == '}' {
				return j + k + 1
			}
			return -1 // nor can \$[A-Za-z_] match: '{' follows
		}
		return identEnd(s, i+1)
	}},
	{pattern: `\$\{[A-Za-z_][A-Za-z0-9_]*\}`, first: "$", at: func(s string, i int) int {
		if !strings.HasPrefix(s[i:], "${") {
			return -1
		}
		if w := identEnd(s, i+2); w >= 0 && byteAt(s, w) == '}' {
			return w + 1
		}
		return -1
	}},
	{pattern: `\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}`, first: "$", at: func(s string, i int) int {
		if !strings.HasPrefix(s[i:], "${") {
			return -1
		}
		w := identEnd(s, i+2)
		switch {
		case w < 0:
			return -1
		case strings.HasPrefix(s[w:], ":-"):
			// Without the default, '}' would have to follow the name, and
			// ':' does.
			return brace(s, w+2)
		case byteAt(s, w) == '}':
			return w + 1
		}
		return -1
	}},
	{pattern: `\$([\pL\pN_]+|\{[^}]*\})`, first: "$", at: func(s string, i int) int {
		if s[i] != '$' {
			return -1
		}
		j := i + 1
		for j < len(s) {
			// regexp decodes invalid UTF-8 as U+FFFD, one byte at a time,
			// as DecodeRuneInString does; U+FFFD is neither L nor N.
			r, size := utf8.DecodeRuneInString(s[j:])
			if r != '_' && !unicode.In(r, unicode.L, unicode.N) {
				break
			}
			j += size
		}
		if j > i+1 {
			return j
		}
		if byteAt(s, i+1) == '{' {
			return brace(s, i+2)
		}
		return -1
	}},
	{pattern: `%\w+%`, first: "%", at: func(s string, i int) int {
		if s[i] != '%' {
			return -1
		}
		if w := wordEnd(s, i+1); w > i+1 && byteAt(s, w) == '%' {
			return w + 1
		}
		return -1
	}},
	{pattern: `%[^%\s]+%`, first: "%", at: func(s string, i int) int {
		if s[i] != '%' {
			return -1
		}
		j := i + 1
		for j < len(s) && s[j] != '%' && !isSpace(s[j]) {
			j++
		}
		if j > i+1 && byteAt(s, j) == '%' {
			return j + 1
		}
		return -1
	}},
	// \s* and [^}\s]+ take disjoint bytes, so the greedy reading is the
	// only one: spaces, a run of neither '}' nor space, spaces, }}.
	{pattern: `\$\{\{\s*[^}\s]+\s*\}\}`, first: "$", at: func(s string, i int) int {
		if !strings.HasPrefix(s[i:], "${{") {
			return -1
		}
		j := spaceEnd(s, i+3)
		k := j
		for k < len(s) && s[k] != '}' && !isSpace(s[k]) {
			k++
		}
		if k == j {
			return -1
		}
		k = spaceEnd(s, k)
		if strings.HasPrefix(s[k:], "}}") {
			return k + 2
		}
		return -1
	}},
	{pattern: `\$\{PLUGIN_ROOT\}`, first: "$", at: func(s string, i int) int {
		if strings.HasPrefix(s[i:], "${PLUGIN_ROOT}") {
			return i + len("${PLUGIN_ROOT}")
		}
		return -1
	}},

	// Name patterns (EntryFormat and Advice NamePattern): the whole name
	// from a set of ASCII bytes. Without the m flag, $ is the end of the
	// text, not of a line.
	{pattern: `^[A-Za-z0-9_-]+$`, anchored: true, at: func(s string, _ int) int {
		return onlyBytes(s, letters+upper+digits+"_-")
	}},
	{pattern: `^[A-Za-z0-9_:@/.-]+$`, anchored: true, at: func(s string, _ int) int {
		return onlyBytes(s, letters+upper+digits+"_:@/.-")
	}},
	{pattern: `^[a-z0-9_-]+$`, anchored: true, at: func(s string, _ int) int {
		return onlyBytes(s, letters+digits+"_-")
	}},
}

const (
	letters = "abcdefghijklmnopqrstuvwxyz"
	upper   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digits  = "0123456789"
)

// onlyBytes returns len(s) when s is made of the bytes in set, else -1.
// The set is ASCII: a byte of a multi-byte or invalid rune is never in
// it, as the rune is not.
func onlyBytes(s, set string) int {
	for j := 0; j < len(s); j++ {
		if strings.IndexByte(set, s[j]) < 0 {
			return -1
		}
	}
	return len(s)
}

// index returns the leftmost match at or after pos, as regexp's search
// from pos finds it, or -1, -1.
func (m *matcher) index(s string, pos int) (int, int) {
	if m.anchored {
		if pos == 0 && s != "" {
			if e := m.at(s, 0); e >= 0 {
				return 0, e
			}
		}
		return -1, -1
	}
	for pos < len(s) {
		k := strings.IndexAny(s[pos:], m.first)
		if k < 0 {
			break
		}
		i := pos + k
		if e := m.at(s, i); e >= 0 {
			return i, e
		}
		pos = i + 1
	}
	return -1, -1
}

// findAll is regexp's FindAllStringIndex: up to n matches (all when n <
// 0), each searched for from the end of the one before; nil when none. A
// match is never empty, so regexp's rule for empty matches never applies.
func (m *matcher) findAll(s string, n int) [][]int {
	var out [][]int
	for pos := 0; n < 0 || len(out) < n; {
		i, e := m.index(s, pos)
		if i < 0 {
			break
		}
		out = append(out, []int{i, e})
		pos = e
	}
	return out
}

// matchString is regexp's MatchString.
func (m *matcher) matchString(s string) bool {
	i, _ := m.index(s, 0)
	return i >= 0
}

// findIndex is regexp's FindStringIndex.
func (m *matcher) findIndex(s string) []int {
	if i, e := m.index(s, 0); i >= 0 {
		return []int{i, e}
	}
	return nil
}

// brace returns the end of [^}]*\} read from s[i]: just past the first
// '}' at or after i, or -1. [^}] takes any rune but '}', invalid UTF-8
// included, so the bytes before it need no decoding.
func brace(s string, i int) int {
	if k := strings.IndexByte(s[i:], '}'); k >= 0 {
		return i + k + 1
	}
	return -1
}

// brace1 is brace for [^}]+\}: at least one rune before the '}'.
func brace1(s string, i int) int {
	if e := brace(s, i); e > i+1 {
		return e
	}
	return -1
}

// dollarWordOrBrace matches \$(\w+|\{…\}) at s[i], the braces read by
// closing (brace or brace1). \w+ is tried first and is greedy.
func dollarWordOrBrace(s string, i int, closing func(string, int) int) int {
	if s[i] != '$' {
		return -1
	}
	if w := wordEnd(s, i+1); w > i+1 {
		return w
	}
	if byteAt(s, i+1) == '{' {
		return closing(s, i+2)
	}
	return -1
}

// identEnd returns the end of [A-Za-z_][A-Za-z0-9_]* read from s[i], or
// -1 when s[i] cannot begin it.
func identEnd(s string, i int) int {
	if c := byteAt(s, i); c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
		return wordEnd(s, i+1)
	}
	return -1
}

// wordEnd returns the end of the run of \w bytes ([0-9A-Za-z_], ASCII
// only in Go's regexp) from s[i].
func wordEnd(s string, i int) int {
	for i < len(s) && isWord(s[i]) {
		i++
	}
	return i
}

// spaceEnd returns the end of the run of \s bytes from s[i].
func spaceEnd(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

func isWord(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// isSpace is Go regexp's \s: [\t\n\f\r ], without \v.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// byteAt is s[i], or 0 past the end (no pattern here looks for a NUL).
func byteAt(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}
