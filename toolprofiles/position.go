package toolprofiles

import (
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// position is where a key or a value is written in a profile file.
type position struct{ line, col int }

// positions maps the key paths of a TOML document to where each is
// written, so that a refusal of a decoded value can name its line: a table
// or key to its first mention ("scopes\x00local" to [scopes.local] or to
// the dotted key that first names it), an array element to the element
// ("scopes\x00project\x00paths\x000"), the n-th [[table]] of a path to its
// header ("…\x00installs\x000"). The decoder accepted the document, so
// the parser does too; a path it cannot place is simply not in the map.
type positions map[string]position

func tomlPositions(data []byte) positions {
	out := positions{}
	var p unstable.Parser
	p.Reset(data)
	counts := map[string]int{} // [[array tables]] seen, per path
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			keys, first := keyParts(e)
			table = keys
			if e.Kind == unstable.ArrayTable {
				out.add(&p, keys, first)
				id := strings.Join(keys, "\x00")
				table = append(slices0(keys), strconv.Itoa(counts[id]))
				counts[id]++
			}
			out.add(&p, table, first)
		case unstable.KeyValue:
			out.keyValue(&p, table, e)
		}
	}
	return out
}

// slices0 is a copy of s with room for one more element.
func slices0(s []string) []string { return append(make([]string, 0, len(s)+1), s...) }

// keyParts returns the parts of a table header's or key-value's dotted key,
// and the node of its first part.
func keyParts(n *unstable.Node) ([]string, *unstable.Node) {
	var keys []string
	var first *unstable.Node
	it := n.Key()
	for it.Next() {
		k := it.Node()
		if first == nil {
			first = k
		}
		keys = append(keys, string(k.Data))
	}
	return keys, first
}

// keyValue records a key-value under prefix, its dotted key's prefixes,
// and what is inside its value.
func (out positions) keyValue(p *unstable.Parser, prefix []string, kv *unstable.Node) {
	keys, first := keyParts(kv)
	path := append(slices0(prefix), keys...)
	for i := len(prefix) + 1; i <= len(path); i++ {
		out.add(p, path[:i], first)
	}
	out.value(p, path, kv.Value())
}

// value records the elements of an array and the members of an inline
// table at path.
func (out positions) value(p *unstable.Parser, path []string, v *unstable.Node) {
	switch v.Kind {
	case unstable.Array:
		i := 0
		it := v.Children()
		for it.Next() {
			c := it.Node()
			if c.Kind == unstable.Comment {
				continue
			}
			el := append(slices0(path), strconv.Itoa(i))
			out.add(p, el, c)
			out.value(p, el, c)
			i++
		}
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				out.keyValue(p, path, c)
			}
		}
	}
}

// add records path at node n, unless an earlier mention placed it.
func (out positions) add(p *unstable.Parser, path []string, n *unstable.Node) {
	id := strings.Join(path, "\x00")
	if _, ok := out[id]; ok || n == nil || n.Raw.Length == 0 {
		return
	}
	s := p.Shape(n.Raw)
	out[id] = position{s.Start.Line, s.Start.Column}
}

// at is the position of the longest prefix of path that the document
// places (an element's, else its key's, else its table's), and false when
// none is.
func (out positions) at(path ...string) (position, bool) {
	for n := len(path); n > 0; n-- {
		if pos, ok := out[strings.Join(path[:n], "\x00")]; ok {
			return pos, true
		}
	}
	return position{}, false
}
