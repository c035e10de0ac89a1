package plan

import (
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// Shortening: a line that holds a whole file (a minified
// ~/.cursor/mcp.json) or is longer than longLine is printed by what
// changed in it, never whole: a deleted line paired with the inserted one
// that replaces it keeps the bytes they do not share (widened to whole
// tokens), and from there every token of repo's own entries and every
// bracket, comma and colon next to them; the rest of the line — the
// user's other entries — is elided. A long line that is not replaced
// keeps only repo's tokens and what joins them.

const (
	longLine = 400 // bytes from which a line in a diff is shown by its change
	elision  = "…"
)

// own is what may stay in a shortened line: the values and keys of repo's
// entries (ownValues, ownKeys).
type own struct{ values, keys map[string]bool }

func (o own) has(s string) bool { return o.values[s] || o.keys[s] }

// shorten shortens the long lines of a hunk; with oneLine (the texts have
// one line each) every changed line counts as long.
func shorten(h *udiff.Hunk, oneLine bool, o own) {
	long := func(s string) bool { return oneLine || len(s) > longLine }
	lines := h.Lines
	for i := 0; i < len(lines); {
		if lines[i].Kind != udiff.Delete {
			if long(lines[i].Content) {
				lines[i].Content = keepOwn(lines[i].Content, -1, -1, o)
			}
			i++
			continue
		}
		d := i
		for i < len(lines) && lines[i].Kind == udiff.Delete {
			i++
		}
		ins := i
		for i < len(lines) && lines[i].Kind == udiff.Insert {
			i++
		}
		for k := 0; d+k < ins || ins+k < i; k++ {
			a, b := d+k < ins, ins+k < i
			switch {
			case a && b:
				x, y := lines[d+k].Content, lines[ins+k].Content
				if !long(x) && !long(y) {
					continue
				}
				p, s := sharedEnds(x, y)
				lines[d+k].Content = keepOwn(x, p, len(x)-s, o)
				lines[ins+k].Content = keepOwn(y, p, len(y)-s, o)
			case a && long(lines[d+k].Content):
				lines[d+k].Content = keepOwn(lines[d+k].Content, -1, -1, o)
			case b && long(lines[ins+k].Content):
				lines[ins+k].Content = keepOwn(lines[ins+k].Content, -1, -1, o)
			}
		}
	}
}

// sharedEnds are the lengths of the common prefix and suffix of x and y,
// not overlapping.
func sharedEnds(x, y string) (int, int) {
	p := 0
	for p < len(x) && p < len(y) && x[p] == y[p] {
		p++
	}
	s := 0
	for s < len(x)-p && s < len(y)-p && x[len(x)-1-s] == y[len(y)-1-s] {
		s++
	}
	return p, s
}

// piece is a token of a line or a run of joining bytes between tokens.
type piece struct {
	start, end int
	token      bool   // a string or a word; else brackets, commas, colons, spaces
	value      string // a token's value, quotes taken off
}

// pieces splits a line into tokens (quoted strings, words) and the bytes
// that join them.
func linePieces(line string) []piece {
	var out []piece
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case joiner(c):
			j := i
			for j < len(line) && joiner(line[j]) {
				j++
			}
			out = append(out, piece{start: i, end: j})
			i = j
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(line) && line[j] != c {
				if line[j] == '\\' && c == '"' {
					j++
				}
				j++
			}
			j = min(j+1, len(line))
			out = append(out, piece{start: i, end: j, token: true, value: strings.Trim(line[i:j], string(c))})
			i = j
		default:
			j := i
			for j < len(line) && !joiner(line[j]) && line[j] != '"' && line[j] != '\'' {
				j++
			}
			out = append(out, piece{start: i, end: j, token: true, value: line[i:j]})
			i = j
		}
	}
	return out
}

func joiner(c byte) bool {
	return strings.IndexByte("{}[],:= \t\r\n", c) >= 0
}

// keepOwn shortens line to what changed in it, line[start:end] widened
// to whole tokens (start < 0: nothing changed, a line not replaced), and
// the tokens of repo's and the joining bytes reached from there; each run
// of what is left out becomes one elision. The line break stays.
func keepOwn(line string, start, end int, o own) string {
	nl := ""
	if strings.HasSuffix(line, "\n") {
		nl, line = "\n", line[:len(line)-1]
		end = min(end, len(line))
		start = min(start, len(line))
	}
	ps := linePieces(line)
	keep := make([]bool, len(ps))
	var seeds []int
	for i, p := range ps {
		switch {
		case start >= 0 && p.start < end && p.end > start, // changed
			start >= 0 && start == end && !p.token && p.start <= start && start <= p.end: // joins at an insertion point
			keep[i] = true
			seeds = append(seeds, i)
		case start < 0 && p.token && o.values[p.value]:
			keep[i] = true
			seeds = append(seeds, i)
		}
	}
	// From each kept piece, outwards over repo's tokens and what joins.
	for _, s := range seeds {
		for _, dir := range []int{-1, 1} {
			for i := s + dir; i >= 0 && i < len(ps) && !keep[i]; i += dir {
				if ps[i].token && !o.has(ps[i].value) {
					break
				}
				keep[i] = true
			}
		}
	}
	var b strings.Builder
	elided := false
	for i, p := range ps {
		if keep[i] {
			b.WriteString(line[p.start:p.end])
			elided = false
			continue
		}
		if !elided {
			b.WriteString(elision)
			elided = true
		}
	}
	return b.String() + nl
}
