package credential

import "strings"

// ref is a reference in a value: bytes [start, end), the variable it names
// (when it names one), and its literal default [defStart, defEnd) (-1
// without one).
type ref struct {
	start, end       int
	name             string
	defStart, defEnd int
}

// references finds what a tool or repo fills in instead of the text
// itself: ${NAME}, ${NAME:-default} (also -, := and =), ${env:NAME} and
// the other ${prefix:…} forms (VS Code's ${input:…}), Continue's
// ${{ … }}, OpenCode's {env:NAME} and {file:…}, $NAME in capitals (Crush,
// a shell), and repo's <<templates>>. An unterminated one is no
// reference: its text is literal.
func references(v string) []ref {
	var out []ref
	var closes map[int]int
	if strings.Contains(v, "${") {
		closes = closings(v)
	}
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case c == '$' && strings.HasPrefix(v[i:], "${{"):
			if j := strings.Index(bounded(v, i+3), "}}"); j >= 0 {
				end := i + 3 + j + 2
				out = append(out, ref{start: i, end: end, defStart: -1, defEnd: -1})
				i = end
				continue
			}
		case c == '$' && strings.HasPrefix(v[i:], "${"):
			if end := closes[i]; end > 0 {
				out = append(out, braced(v, i, end))
				i = end
				continue
			}
		case c == '$' && i+1 < len(v) && (isUpper(v[i+1]) || v[i+1] == '_'):
			j := i + 1
			for j < len(v) && (isUpper(v[j]) || isDigit(v[j]) || v[j] == '_') {
				j++
			}
			out = append(out, ref{start: i, end: j, name: v[i+1 : j], defStart: -1, defEnd: -1})
			i = j
			continue
		case c == '{' && (strings.HasPrefix(v[i:], "{env:") || strings.HasPrefix(v[i:], "{file:")):
			if j := strings.IndexByte(bounded(v, i), '}'); j > 0 {
				r := ref{start: i, end: i + j + 1, defStart: -1, defEnd: -1}
				if strings.HasPrefix(v[i:], "{env:") {
					r.name = v[i+5 : i+j]
				}
				out = append(out, r)
				i += j + 1
				continue
			}
		case c == '<' && strings.HasPrefix(v[i:], "<<"):
			if j := strings.Index(bounded(v, i+2), ">>"); j >= 0 {
				out = append(out, ref{start: i, end: i + 2 + j + 2, defStart: -1, defEnd: -1})
				i += 2 + j + 2
				continue
			}
		}
		i++
	}
	return out
}

// maxRef is the longest reference looked for: an unterminated ${ in a
// long text must not make every later one scan to its end.
const maxRef = 4096

// bounded is v[i:], at most maxRef bytes of it.
func bounded(v string, i int) string { return v[i:min(len(v), i+maxRef)] }

// closings maps the offset of each ${ in v to the offset just past the
// '}' that closes it, counting nested ${…}, in one pass: a ${ that nothing
// closes is not in it.
func closings(v string) map[int]int {
	out := map[int]int{}
	var open []int
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] == '$' && i+1 < len(v) && v[i+1] == '{':
			open = append(open, i)
			i++
		case v[i] == '}' && len(open) > 0:
			out[open[len(open)-1]] = i + 1
			open = open[:len(open)-1]
		}
	}
	return out
}

// braced reads the ${…} at v[start:end]: ${NAME}, ${NAME:-default},
// ${NAME-default}, ${NAME:=default}, ${NAME=default}, or ${prefix:NAME}.
func braced(v string, start, end int) ref {
	r := ref{start: start, end: end, defStart: -1, defEnd: -1}
	inner := start + 2
	j := inner
	for j < end-1 && (isUpper(v[j]) || isLower(v[j]) || isDigit(v[j]) || v[j] == '_') {
		j++
	}
	r.name = v[inner:j]
	rest := v[j : end-1]
	switch {
	case strings.HasPrefix(rest, ":-"), strings.HasPrefix(rest, ":="):
		r.defStart, r.defEnd = j+2, end-1
	case strings.HasPrefix(rest, "-"), strings.HasPrefix(rest, "="):
		r.defStart, r.defEnd = j+1, end-1
	case strings.HasPrefix(rest, ":"):
		r.name = strings.TrimSpace(v[j+1 : end-1]) // ${env:NAME}, ${input:id}
	}
	return r
}
