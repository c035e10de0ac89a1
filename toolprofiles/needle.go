package toolprofiles

import "strings"

// Matching an Expansion without compiling it. Compiling a rule's Pattern
// is most of what checking a small workspace's values costs: Amazon Q's
// command rule (\$([\pL\pN_]+|…), Unicode classes) takes longer to compile
// than the rest of the translation, and most values hold no '$' at all.
// A pattern of the simplest shape — which all built-in rules but one have —
// tells a byte every match holds; a value without it does not match, and
// the pattern is compiled only for a value that has it (bench/run.sh, the
// startup cases; BenchmarkExpansionMatch). The built-in patterns are not
// compiled at all: each has a matcher by hand (matchers.go); the needle
// serves the patterns of users' and workspaces' profiles.

// MatchString reports whether s holds text the rule's Pattern matches;
// false when the rule has none.
func (x *Expansion) MatchString(s string) bool {
	if m := handMatcher(x.Pattern); m != nil {
		return m.matchString(s)
	}
	if !x.mayMatch(s) {
		return false
	}
	return x.Regexp().MatchString(s)
}

// FindStringIndex is regexp's FindStringIndex for the rule's Pattern; nil
// when the rule has none.
func (x *Expansion) FindStringIndex(s string) []int {
	if m := handMatcher(x.Pattern); m != nil {
		return m.findIndex(s)
	}
	if !x.mayMatch(s) {
		return nil
	}
	return x.Regexp().FindStringIndex(s)
}

// FindAllStringIndex is regexp's FindAllStringIndex for the rule's
// Pattern; nil when the rule has none.
func (x *Expansion) FindAllStringIndex(s string, n int) [][]int {
	if m := handMatcher(x.Pattern); m != nil {
		return m.findAll(s, n)
	}
	if !x.mayMatch(s) {
		return nil
	}
	return x.Regexp().FindAllStringIndex(s, n)
}

// mayMatch is false when s cannot hold a match of the rule's Pattern.
func (x *Expansion) mayMatch(s string) bool {
	if x.Pattern == "" {
		return false
	}
	c, ok := needle(x.Pattern)
	return !ok || strings.IndexByte(s, c) >= 0
}

// regexpMeta are the characters that are not themselves outside a class.
const regexpMeta = `\.+*?()|[]{}^$`

// needle returns a byte that every match of pattern (RE2 syntax, as
// validated when a profile is decoded) holds, and false when the pattern's
// shape does not tell one. It reads one shape: an optional ^, then one
// ASCII punctuation character, escaped (\$ \{) or not (%), that no
// quantifier makes optional, and no | outside parentheses. A match of such
// a pattern begins with that character. A flag group ((?i)) begins with a
// parenthesis and a class with a bracket: neither shape is read, nor is a
// pattern with \Q…\E, whose quoted text the scan would misread.
func needle(pattern string) (byte, bool) {
	p := strings.TrimPrefix(pattern, "^")
	var c byte
	switch {
	case len(p) >= 2 && p[0] == '\\' && isASCIIPunct(p[1]):
		c, p = p[1], p[2:]
	case len(p) >= 1 && isASCIIPunct(p[0]) && !strings.ContainsRune(regexpMeta, rune(p[0])):
		c, p = p[0], p[1:]
	default:
		return 0, false
	}
	if p != "" && strings.ContainsRune("?*{", rune(p[0])) {
		return 0, false // \$? \$* \${0,2}: the character may be absent
	}
	if strings.Contains(pattern, `\Q`) || alternatesAtTop(p) {
		return 0, false
	}
	return c, true
}

// alternatesAtTop reports whether p has a | outside parentheses and
// classes, or cannot be read (unbalanced): then its first character need
// not be in every match.
func alternatesAtTop(p string) bool {
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++ // the escaped character (\pL, \x{41}: their tails hold no | ( ) [)
		case '[':
			end := classEnd(p, i)
			if end < 0 {
				return true
			}
			i = end
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return true
			}
		case '|':
			if depth == 0 {
				return true
			}
		}
	}
	return depth != 0
}

// classEnd returns the index of the ] that closes the class opened at
// p[open], or -1. A ] first in the class ([]a], [^]a]) is a member, as are
// escaped characters and named classes ([[:alpha:]]).
func classEnd(p string, open int) int {
	i := open + 1
	if i < len(p) && p[i] == '^' {
		i++
	}
	if i < len(p) && p[i] == ']' {
		i++
	}
	for ; i < len(p); i++ {
		switch {
		case p[i] == '\\':
			i++
		case p[i] == '[' && i+1 < len(p) && p[i+1] == ':':
			end := strings.Index(p[i+2:], ":]")
			if end < 0 {
				return -1
			}
			i += 2 + end + 1
		case p[i] == ']':
			return i
		}
	}
	return -1
}

func isASCIIPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9')
}
