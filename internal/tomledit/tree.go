package tomledit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"
)

// The document tree: an ordered version of what go-toml decodes, built from
// the same parse that locates the lines, so that entries come out in file
// order with their keys in file order.

type nodeKind uint8

const (
	nTable nodeKind = iota
	nArray
	nScalar
)

// How a table or an array came to be.
type origin uint8

const (
	implicitTable origin = iota // created by a deeper header: [a.b] creates a
	headerTable                 // [a]
	dottedTable                 // a.b = 1 creates a
	inlineValue                 // a = { … } or a = [ … ], and everything inside them
	arrayOfTables               // [[a]]
)

type tnode struct {
	kind  nodeKind
	how   origin
	line  int // 1-based line where it was first defined
	keys  []string
	kids  map[string]*tnode
	elems []*tnode
	json  []byte // scalars: the value as JSON
	typ   string // scalars: "a string", "an integer", ... for messages
}

func newTable(how origin, line int) *tnode {
	return &tnode{kind: nTable, how: how, line: line, kids: map[string]*tnode{}}
}

func (t *tnode) add(k string, n *tnode) {
	t.keys = append(t.keys, k)
	t.kids[k] = n
}

type builder struct {
	root *tnode
	cur  *tnode
}

func newBuilder() *builder {
	r := newTable(headerTable, 1)
	return &builder{root: r, cur: r}
}

// header handles [path] and [[path]].
func (b *builder) header(path []string, array bool, line int) error {
	t := b.root
	for i, k := range path {
		last := i == len(path)-1
		child := t.kids[k]
		if last && array {
			if child == nil {
				child = &tnode{kind: nArray, how: arrayOfTables, line: line}
				t.add(k, child)
			}
			if child.kind != nArray || child.how != arrayOfTables {
				return fmt.Errorf("tomledit: line %d: %s is not an array of tables", line, formatPath(path[:i+1]))
			}
			elem := newTable(headerTable, line)
			child.elems = append(child.elems, elem)
			b.cur = elem
			return nil
		}
		if child == nil {
			child = newTable(implicitTable, line)
			t.add(k, child)
		}
		switch {
		case child.kind == nTable:
			t = child
		case child.kind == nArray && child.how == arrayOfTables && len(child.elems) > 0:
			t = child.elems[len(child.elems)-1]
		default:
			return fmt.Errorf("tomledit: line %d: %s is not a table", line, formatPath(path[:i+1]))
		}
		if last && t.how == implicitTable {
			t.how = headerTable
		}
	}
	b.cur = t
	return nil
}

// keyval handles key = value in the current table.
func (b *builder) keyval(n *unstable.Node, key []string, line int) error {
	v, err := valueNode(n.Value(), line)
	if err != nil {
		return err
	}
	return setDotted(b.cur, key, v, dottedTable, line)
}

// setDotted stores v at the dotted key under t, creating tables of origin how.
func setDotted(t *tnode, key []string, v *tnode, how origin, line int) error {
	for i, k := range key[:len(key)-1] {
		child := t.kids[k]
		if child == nil {
			child = newTable(how, line)
			t.add(k, child)
		}
		if child.kind != nTable {
			return fmt.Errorf("tomledit: line %d: %s is not a table", line, formatPath(key[:i+1]))
		}
		t = child
	}
	k := key[len(key)-1]
	if _, dup := t.kids[k]; dup {
		return fmt.Errorf("tomledit: line %d: duplicate key %s", line, formatPath(key))
	}
	t.add(k, v)
	return nil
}

// valueNode converts a value of the parse tree.
func valueNode(n *unstable.Node, line int) (*tnode, error) {
	switch n.Kind {
	case unstable.Array:
		a := &tnode{kind: nArray, how: inlineValue, line: line}
		it := n.Children()
		for it.Next() {
			c := it.Node()
			if c.Kind == unstable.Comment {
				continue
			}
			v, err := valueNode(c, line)
			if err != nil {
				return nil, err
			}
			a.elems = append(a.elems, v)
		}
		return a, nil
	case unstable.InlineTable:
		t := newTable(inlineValue, line)
		it := n.Children()
		for it.Next() {
			c := it.Node()
			if c.Kind != unstable.KeyValue {
				continue
			}
			v, err := valueNode(c.Value(), line)
			if err != nil {
				return nil, err
			}
			if err := setDotted(t, keyParts(c), v, inlineValue, line); err != nil {
				return nil, err
			}
		}
		return t, nil
	}
	j, err := scalarJSON(n)
	if err != nil {
		return nil, fmt.Errorf("tomledit: line %d: %w", line, err)
	}
	return &tnode{kind: nScalar, how: inlineValue, line: line, json: j, typ: scalarType(n.Kind)}, nil
}

func scalarType(k unstable.Kind) string {
	switch k {
	case unstable.String:
		return "a string"
	case unstable.Bool:
		return "a boolean"
	case unstable.Integer:
		return "an integer"
	case unstable.Float:
		return "a float"
	}
	return "a date-time"
}

// scalarJSON converts a TOML scalar to JSON. Datetimes become strings holding
// their TOML text; so do the floats inf and nan, which JSON cannot hold.
func scalarJSON(n *unstable.Node) ([]byte, error) {
	switch n.Kind {
	case unstable.String:
		return appendJSONString(nil, string(n.Data)), nil
	case unstable.Bool:
		return []byte(string(n.Data)), nil
	case unstable.Integer:
		s := strings.ReplaceAll(string(n.Data), "_", "")
		i, err := strconv.ParseInt(s, 0, 64)
		if err != nil {
			return nil, fmt.Errorf("integer %s: %w", n.Data, err)
		}
		return strconv.AppendInt(nil, i, 10), nil
	case unstable.Float:
		s := strings.ReplaceAll(string(n.Data), "_", "")
		switch strings.TrimLeft(s, "+-") {
		case "inf", "nan":
			return appendJSONString(nil, string(n.Data)), nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !math.IsInf(f, 0) && f != 0 {
			return nil, fmt.Errorf("float %s: %w", n.Data, err)
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return appendJSONString(nil, string(n.Data)), nil
		}
		return appendJSONFloat(nil, f), nil
	case unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		return appendJSONString(nil, string(n.Data)), nil
	}
	return nil, fmt.Errorf("unexpected value kind %s", n.Kind)
}

// appendJSONFloat writes f as a JSON number that keeps a float a float: it
// always has a fraction or an exponent (20.0, not 20).
func appendJSONFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	fmtc := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		fmtc = 'e'
	}
	s := strconv.FormatFloat(f, fmtc, -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return append(b, s...)
}

// appendJSONString writes s as a JSON string. s is valid UTF-8.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
			continue
		}
		switch {
		case c == '"':
			b = append(b, `\"`...)
		case c == '\\':
			b = append(b, `\\`...)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		default:
			b = append(b, c)
		}
		i++
	}
	return append(b, '"')
}

// appendJSON writes the node as compact JSON.
func (t *tnode) appendJSON(b []byte) []byte {
	switch t.kind {
	case nScalar:
		return append(b, t.json...)
	case nArray:
		b = append(b, '[')
		for i, e := range t.elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.appendJSON(b)
		}
		return append(b, ']')
	}
	b = append(b, '{')
	for i, k := range t.keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = t.kids[k].appendJSON(b)
	}
	return append(b, '}')
}

// describe names the kind of a node for messages.
func (t *tnode) describe() string {
	switch {
	case t.kind == nTable && t.how == inlineValue:
		return "an inline table"
	case t.kind == nTable:
		return "a table"
	case t.how == arrayOfTables:
		return "an array of tables"
	case t.kind == nArray:
		return "an array"
	}
	return t.typ
}
