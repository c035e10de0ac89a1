package translator

import "strings"

// envRefs finds the environment references in s — ${NAME} or
// ${NAME:-default}, NAME a letter or underscore then letters, digits and
// underscores, the default anything up to the first } — as the pattern
// \$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\} does with
// FindAllStringSubmatchIndex: for each, leftmost first and not
// overlapping, the start and end of the reference, of the name, of ":-"
// and the default, and of the default (-1, -1 without one). ${{…}}
// (Continue) and ${env:…}, ${input:…} (already tool syntax) are not
// references. Read by hand: compiling the pattern cost every run that
// translates a reference more than translating.
func envRefs(s string) [][]int {
	var out [][]int
	for i := 0; ; {
		j := strings.Index(s[i:], "${")
		if j < 0 {
			return out
		}
		if m := envRefAt(s, i+j); m != nil {
			out = append(out, m)
			i = m[1]
		} else {
			i += j + 1
		}
	}
}

// firstEnvRef is the text of the first environment reference in s, or "".
func firstEnvRef(s string) string {
	for i := 0; ; {
		j := strings.Index(s[i:], "${")
		if j < 0 {
			return ""
		}
		if m := envRefAt(s, i+j); m != nil {
			return s[m[0]:m[1]]
		}
		i += j + 1
	}
}

// envRefAt is the reference that begins with the "${" at s[at:], or nil.
func envRefAt(s string, at int) []int {
	name := at + 2
	end := name
	for end < len(s) && (s[end] == '_' || 'A' <= s[end] && s[end] <= 'Z' || 'a' <= s[end] && s[end] <= 'z' || end > name && '0' <= s[end] && s[end] <= '9') {
		end++
	}
	switch {
	case end == name || end == len(s):
		return nil
	case s[end] == '}':
		return []int{at, end + 1, name, end, -1, -1, -1, -1}
	case strings.HasPrefix(s[end:], ":-"):
		def := end + 2
		close := strings.IndexByte(s[def:], '}')
		if close < 0 {
			return nil
		}
		return []int{at, def + close + 1, name, end, end, def + close, def, def + close}
	}
	return nil
}
