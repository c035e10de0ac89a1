package yamledit

import (
	"bytes"
	"fmt"

	"github.com/goccy/go-yaml/ast"

	"github.com/repo-manager/repo/internal/jsonvalue"
)

// loc is what locate found along a path.
type loc struct {
	// depth is the number of path segments found. When depth < len(path),
	// path[depth] is missing: in host if host is not nil, else because the
	// value of mv (or, for depth 0, the whole document) is null or an empty
	// flow mapping.
	depth int
	host  *ast.MappingNode
	// hostBound is the last line host's members can extend to.
	hostBound int
	// mv is the member for path[depth-1] (nil when depth is 0).
	mv *ast.MappingValueNode
	// bound is the last line mv's value can extend to.
	bound int
	// val is mv's value, anchors and tags stripped and aliases followed.
	val ast.Node
	// props: mv's value has an anchor or a tag; alias: some value on the
	// path was reached through an alias. Neither can be edited as text.
	props, alias bool
}

// locate walks path through nested mappings.
func (d *Doc) locate(path []string) (loc, error) {
	var l loc
	m, bound := d.root, d.lastRow
	for i, seg := range path {
		if m == nil {
			l.depth, l.host = i, nil
			return l, nil
		}
		idx, err := d.findKey(m, seg, path[:i])
		if err != nil {
			return l, err
		}
		if idx < 0 {
			l.depth, l.host, l.hostBound = i, m, bound
			return l, nil
		}
		mv := m.Values[idx]
		nb := bound
		if !m.IsFlowStyle && idx+1 < len(m.Values) {
			next, _ := nodePos(m.Values[idx+1].Key)
			nb = min(nb, next-1)
		}
		val, props, alias, err := d.resolve(mv.Value)
		if err != nil {
			return l, err
		}
		l.depth, l.mv, l.bound, l.val, l.props = i+1, mv, nb, val, props
		l.alias = l.alias || alias
		if i == len(path)-1 {
			return l, nil
		}
		switch sub, ok := asMapping(val); {
		case isNull(val) || (ok && isFlowEmpty(sub)):
			m = nil
		case ok:
			m, bound = sub, nb
		default:
			line, col := nodePos(mv.Value)
			return l, &ShapeError{Line: line, Col: col, Msg: fmt.Sprintf("%s is %s, want a mapping", formatPath(path[:i+1]), describe(mv.Value))}
		}
	}
	return l, nil
}

// findKey returns the index of the member key in m, or -1. A key that
// appears twice is a *ShapeError.
func (d *Doc) findKey(m *ast.MappingNode, key string, path []string) (int, error) {
	idx := -1
	for i, mv := range m.Values {
		k, ok := d.keyText(mv.Key)
		if !ok || k != key {
			continue
		}
		if idx >= 0 {
			line, col := nodePos(mv.Key)
			return -1, &ShapeError{Line: line, Col: col, Msg: fmt.Sprintf("duplicate key %q in %s", key, formatPath(path))}
		}
		idx = i
	}
	return idx, nil
}

// entry is one member of a container.
type entry struct {
	key  string
	line int      // first line: the key (Map) or the "-" (List)
	col  int      // 0-based column of the key or "-"
	end  int      // last line that is neither blank nor a comment (block containers)
	node ast.Node // Map: the *ast.MappingValueNode; List: the item
	json []byte   // Map: the value; List: the item without its name member
	// ownsLine: nothing but blanks before the entry on its first line, so
	// that its lines can be cut out as a whole.
	ownsLine bool
	// foreign: a List item that is a mapping without the name field (a
	// Continue `- uses: org/block` hub reference). It is no entry: it is
	// kept as it is, and only its lines are known.
	foreign bool
}

// entries reads the container at l, which exists and is not null. block
// reports a block-style container (one whose entries are whole lines).
// For a List the result holds every item, foreign ones included.
func (d *Doc) entries(l loc, path []string, kind Kind, nameField string) (es []entry, block bool, err error) {
	switch kind {
	case Map:
		es, block, err = d.mapEntries(l, path, kind)
	case List:
		es, block, err = d.listEntries(l, path, kind, nameField)
	}
	if err != nil {
		return nil, false, err
	}
	if block {
		d.placeEntries(es, l.bound)
	}
	return es, block, nil
}

// mapEntries reads the members of the mapping at l, one entry each.
func (d *Doc) mapEntries(l loc, path []string, kind Kind) (es []entry, block bool, err error) {
	m, ok := asMapping(l.val)
	if !ok {
		return nil, false, d.kindError(l, path, kind)
	}
	c := d.newConverter()
	seen := map[string]bool{}
	for _, mv := range m.Values {
		k, err := c.key(mv.Key)
		if err != nil {
			return nil, false, err
		}
		if seen[k] {
			return nil, false, shapeAt(mv.Key, "duplicate key %q in %s", k, formatPath(path))
		}
		seen[k] = true
		js, err := c.toJSON(mv.Value)
		if err != nil {
			return nil, false, err
		}
		line, col := nodePos(mv.Key)
		es = append(es, entry{key: k, line: line, col: col - 1, node: mv, json: js})
	}
	return es, !m.IsFlowStyle, nil
}

// listEntries reads the items of the sequence at l, one entry each (see
// listItem); no two may have the same name.
func (d *Doc) listEntries(l loc, path []string, kind Kind, nameField string) (es []entry, block bool, err error) {
	seq, ok := l.val.(*ast.SequenceNode)
	if !ok {
		return nil, false, d.kindError(l, path, kind)
	}
	c := d.newConverter()
	block = !seq.IsFlowStyle
	seen := map[string]int{}
	for i, item := range seq.Values {
		// A block item is where its "-" is.
		line, col := nodePos(item)
		if block && i < len(seq.Entries) && seq.Entries[i] != nil && seq.Entries[i].Start != nil && seq.Entries[i].Start.Position != nil {
			p := seq.Entries[i].Start.Position
			line, col = p.Line, p.Column
		}
		e, err := d.listItem(c, item, i, line, col, path, nameField)
		if err != nil {
			return nil, false, err
		}
		if !e.foreign {
			if first, dup := seen[e.key]; dup {
				return nil, false, &ShapeError{Line: line, Col: col, Msg: fmt.Sprintf("duplicate %s %q in %s (first at line %d)", nameField, e.key, formatPath(path), first)}
			}
			seen[e.key] = line
		}
		es = append(es, e)
	}
	return es, block, nil
}

// listItem reads item i of a list, at line and col: a mapping named by its
// nameField (a string), whose JSON leaves the name out, or a foreign entry
// when it has no name.
func (d *Doc) listItem(c *converter, item ast.Node, i, line, col int, path []string, nameField string) (entry, error) {
	v, _, _, err := d.resolve(item)
	if err != nil {
		return entry{}, err
	}
	m, ok := asMapping(v)
	if !ok {
		return entry{}, &ShapeError{Line: line, Col: col, Msg: fmt.Sprintf("item %d of %s is %s, want a mapping with a %q", i+1, formatPath(path), describe(item), nameField)}
	}
	if !c.hasKey(m, nameField) {
		// No name: not an entry (a hub block reference such as
		// `- uses: org/block`). It is left as it is, unread.
		return entry{line: line, col: col - 1, node: item, foreign: true}, nil
	}
	var buf bytes.Buffer
	var nameNode ast.Node
	if err := c.object(&buf, m, nameField, &nameNode, 0); err != nil {
		return entry{}, err
	}
	nj, err := c.toJSON(nameNode)
	if err != nil {
		return entry{}, err
	}
	name, ok := jsonString(nj)
	if !ok {
		return entry{}, &ShapeError{Line: line, Col: col, Msg: fmt.Sprintf("item %d of %s: its %q is %s, want a string", i+1, formatPath(path), nameField, describe(nameNode))}
	}
	return entry{key: name, line: line, col: col - 1, node: item, json: buf.Bytes()}, nil
}

// placeEntries notes for each entry of a block container whether it
// starts its line, and its last line (bound: the container's last).
func (d *Doc) placeEntries(es []entry, bound int) {
	for i := range es {
		e := &es[i]
		e.ownsLine = e.line >= 1 && e.line <= len(d.lines) && d.spaceIndent(e.line) == e.col
		end := bound
		if i+1 < len(es) {
			end = es[i+1].line - 1
		}
		e.end = d.lastContent(e.line, end, hasKeepChomping(e.node))
	}
}

func (d *Doc) kindError(l loc, path []string, kind Kind) error {
	want := "a mapping"
	if kind == List {
		want = "a sequence"
	}
	line, col := nodePos(l.mv.Value)
	return &ShapeError{Line: line, Col: col, Msg: fmt.Sprintf("%s is %s, want %s", formatPath(path), describe(l.mv.Value), want)}
}

// lastContent returns the last line in start..bound that is neither blank
// nor a comment (start itself if there is none). With keepBlank (a block
// scalar keeping its trailing line breaks) the blank lines after it are
// included.
func (d *Doc) lastContent(start, bound int, keepBlank bool) int {
	bound = min(max(bound, start), len(d.lines))
	e := bound
	for e > start && d.isTrivial(e) {
		e--
	}
	if keepBlank {
		for e < bound && d.isBlank(e+1) {
			e++
		}
	}
	return e
}

// markerLines returns the lines in from..to (inclusive) that hold exactly
// the marker comment text.
func (d *Doc) markerLines(from, to int, text string) []int {
	var out []int
	for x := max(from, 1); x <= to && x <= len(d.lines); x++ {
		if d.comment[x] && string(bytes.TrimSpace(d.lineText(x))) == text {
			out = append(out, x)
		}
	}
	return out
}

// jsonString decodes a JSON string literal.
func jsonString(b []byte) (string, bool) {
	v, err := jsonvalue.Decode(b)
	s, ok := v.(string)
	return s, err == nil && ok
}
