package yamledit

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

const (
	// maxDepth bounds the nesting the converter follows (and that Parse
	// reads, see maxNesting).
	maxDepth = 1000
	// maxExpanded bounds the nodes one converter visits again through
	// aliases: ten anchors of ten aliases each (a "billion laughs"
	// document) would otherwise expand to 10^10 nodes.
	maxExpanded = 1 << 20
)

// converter turns YAML nodes into compact JSON. Scalars are resolved the way
// goccy/go-yaml resolves them (YAML 1.2: "yes" is a string). Merge keys
// ("<<") are ordinary keys, as in the YAML readers of Continue and Goose.
// Aliases are expanded; an infinity or NaN, a non-scalar key or a duplicate
// key is a *ShapeError.
type converter struct {
	d       *Doc
	anchors map[string][]anchorDef // built on first use, each list in document order
	// expanded counts the nodes visited through aliases; alias is the
	// outermost alias being expanded.
	expanded int
	alias    *ast.AliasNode
	active   map[ast.Node]bool // anchors being expanded (cycle guard)
}

type anchorDef struct {
	line, col int
	node      ast.Node
}

func (d *Doc) newConverter() *converter {
	return &converter{d: d, active: map[ast.Node]bool{}}
}

// toJSON returns the compact JSON of n.
func (c *converter) toJSON(n ast.Node) ([]byte, error) {
	var buf bytes.Buffer
	if err := c.value(&buf, n, 0); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func shapeAt(n ast.Node, format string, args ...any) *ShapeError {
	line, col := nodePos(n)
	return &ShapeError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// value writes the JSON of n, depth levels down, counting the nodes
// visited through an alias against maxExpanded.
func (c *converter) value(buf *bytes.Buffer, n ast.Node, depth int) error {
	if c.alias != nil {
		if c.expanded++; c.expanded > maxExpanded {
			return shapeAt(c.alias, "aliases here expand to more than %d values (a \"billion laughs\" document?); repo does not read it (write the values out, or use fewer aliases)", maxExpanded)
		}
	}
	if depth > maxDepth {
		return shapeAt(n, "values nested too deeply")
	}
	if isNil(n) {
		buf.WriteString("null")
		return nil
	}
	switch x := n.(type) {
	case *ast.MappingNode:
		return c.object(buf, x, "", nil, depth)
	case *ast.MappingValueNode:
		m, _ := asMapping(x)
		return c.object(buf, m, "", nil, depth)
	case *ast.SequenceNode:
		return c.array(buf, x, depth)
	case *ast.AnchorNode:
		return c.value(buf, x.Value, depth+1)
	case *ast.AliasNode:
		return c.aliasValue(buf, x, depth)
	case *ast.TagNode:
		return c.tagged(buf, x, depth)
	}
	return scalarJSON(buf, n)
}

// scalarJSON writes the JSON of the scalar n; infinities, NaN and nodes
// that are not scalars are a *ShapeError.
func scalarJSON(buf *bytes.Buffer, n ast.Node) error {
	switch x := n.(type) {
	case *ast.NullNode, *ast.CommentGroupNode, *ast.CommentNode:
		buf.WriteString("null")
	case *ast.BoolNode:
		buf.WriteString(strconv.FormatBool(x.Value))
	case *ast.IntegerNode:
		switch v := x.Value.(type) {
		case int64:
			buf.WriteString(strconv.FormatInt(v, 10))
		case uint64:
			buf.WriteString(strconv.FormatUint(v, 10))
		default:
			return shapeAt(n, "cannot read the integer %q", tokenValue(n))
		}
	case *ast.FloatNode:
		s, ok := floatJSON(tokenValue(n), x.Value)
		if !ok {
			return shapeAt(n, "the number %q cannot be represented in JSON", tokenValue(n))
		}
		buf.WriteString(s)
	case *ast.InfinityNode, *ast.NanNode:
		return shapeAt(n, "the number %q cannot be represented in JSON", tokenValue(n))
	case *ast.StringNode:
		writeJSONString(buf, x.Value)
	case *ast.LiteralNode:
		s := ""
		if x.Value != nil {
			s = x.Value.Value
		}
		writeJSONString(buf, s)
	case *ast.MergeKeyNode:
		writeJSONString(buf, "<<")
	default:
		return shapeAt(n, "unsupported YAML node (%s)", n.Type())
	}
	return nil
}

// array writes the items of s as a JSON array.
func (c *converter) array(buf *bytes.Buffer, s *ast.SequenceNode, depth int) error {
	buf.WriteByte('[')
	for i, v := range s.Values {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := c.value(buf, v, depth+1); err != nil {
			return err
		}
	}
	buf.WriteByte(']')
	return nil
}

// aliasValue writes the value of the node alias a refers to. An alias
// inside the node it refers to would expand forever: it is a *ShapeError.
// The outermost alias is remembered to name it when the expansion grows
// past maxExpanded.
func (c *converter) aliasValue(buf *bytes.Buffer, a *ast.AliasNode, depth int) error {
	target, err := c.resolveAlias(a)
	if err != nil {
		return err
	}
	if c.active[target] {
		return shapeAt(a, "alias *%s refers to itself", aliasName(a))
	}
	c.active[target] = true
	defer delete(c.active, target)
	if c.alias == nil {
		c.alias = a
		defer func() { c.alias = nil }()
	}
	return c.value(buf, target, depth+1)
}

// tagged writes the value of a tagged node: under !!str, the text of its
// scalar as a string (`!!str 1` is "1"); under any other tag, the value.
func (c *converter) tagged(buf *bytes.Buffer, t *ast.TagNode, depth int) error {
	if t.Start != nil && t.Start.Value == "!!str" {
		s, err := c.scalarText(t.Value)
		if err != nil {
			return err
		}
		writeJSONString(buf, s)
		return nil
	}
	return c.value(buf, t.Value, depth+1)
}

// object writes the members of m as a JSON object. If skip is not empty,
// the member with that key is left out and its value node stored in
// *skipped (it stays nil when there is none).
func (c *converter) object(buf *bytes.Buffer, m *ast.MappingNode, skip string, skipped *ast.Node, depth int) error {
	seen := make(map[string]bool, len(m.Values))
	buf.WriteByte('{')
	first := true
	for _, mv := range m.Values {
		k, err := c.key(mv.Key)
		if err != nil {
			return err
		}
		if seen[k] {
			return shapeAt(mv.Key, "duplicate key %q", k)
		}
		seen[k] = true
		if skip != "" && k == skip {
			*skipped = mv.Value
			if isNil(mv.Value) {
				*skipped = &ast.NullNode{BaseNode: &ast.BaseNode{}}
			}
			continue
		}
		if !first {
			buf.WriteByte(',')
		}
		first = false
		writeJSONString(buf, k)
		buf.WriteByte(':')
		if err := c.value(buf, mv.Value, depth+1); err != nil {
			return err
		}
	}
	buf.WriteByte('}')
	return nil
}

// hasKey reports whether m has a member with the key k (keys that are not
// scalars are no match; object reports them).
func (c *converter) hasKey(m *ast.MappingNode, k string) bool {
	for _, mv := range m.Values {
		if s, err := c.key(mv.Key); err == nil && s == k {
			return true
		}
	}
	return false
}

// key returns the text of a mapping key, which must be a scalar.
func (c *converter) key(n ast.Node) (string, error) {
	if mk, ok := n.(*ast.MappingKeyNode); ok {
		n = mk.Value
	}
	return c.scalarText(n)
}

// scalarText returns the string form of a scalar: the value of a string,
// the text of any other scalar as written.
func (c *converter) scalarText(n ast.Node) (string, error) {
	for i := 0; i < 64; i++ {
		if isNil(n) {
			return "", nil
		}
		switch x := n.(type) {
		case *ast.AnchorNode:
			n = x.Value
			continue
		case *ast.TagNode:
			n = x.Value
			continue
		case *ast.AliasNode:
			t, err := c.resolveAlias(x)
			if err != nil {
				return "", err
			}
			n = t
			continue
		case *ast.StringNode:
			return x.Value, nil
		case *ast.LiteralNode:
			if x.Value == nil {
				return "", nil
			}
			return x.Value.Value, nil
		case *ast.MergeKeyNode:
			return "<<", nil
		case *ast.NullNode, *ast.BoolNode, *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
			return tokenValue(n), nil
		}
		return "", shapeAt(n, "key or value is %s, want a scalar", describe(n))
	}
	return "", shapeAt(n, "too many anchors, tags or aliases in a row")
}

// keyText is the text of a mapping key for matching path segments and entry
// names; ok is false for a key that is not a scalar.
func (d *Doc) keyText(n ast.Node) (string, bool) {
	s, err := d.newConverter().key(n)
	return s, err == nil
}

func tokenValue(n ast.Node) string {
	if isNil(n) {
		return ""
	}
	tk := n.GetToken()
	if tk == nil {
		return ""
	}
	return tk.Value
}

// resolveAlias returns the node of the anchor an alias refers to: the last
// anchor of that name defined before the alias.
func (c *converter) resolveAlias(a *ast.AliasNode) (ast.Node, error) {
	if c.anchors == nil {
		c.anchors = c.d.anchorDefs()
	}
	name := aliasName(a)
	line, col := nodePos(a)
	defs := c.anchors[name]
	// The last definition before the alias.
	i, _ := slices.BinarySearchFunc(defs, [2]int{line, col}, func(d anchorDef, at [2]int) int {
		return cmp.Or(cmp.Compare(d.line, at[0]), cmp.Compare(d.col, at[1]))
	})
	if i == 0 {
		return nil, shapeAt(a, "alias *%s has no anchor before it", name)
	}
	return defs[i-1].node, nil
}

// anchorDefs lists the anchors of the document by name, in document order.
func (d *Doc) anchorDefs() map[string][]anchorDef {
	defs := map[string][]anchorDef{}
	if d.nodes == nil {
		return defs
	}
	walk(d.nodes.Body, func(n ast.Node) {
		if a, ok := n.(*ast.AnchorNode); ok {
			line, col := nodePos(a)
			name := anchorName(a)
			defs[name] = append(defs[name], anchorDef{line: line, col: col, node: a.Value})
		}
	})
	for _, ds := range defs {
		slices.SortStableFunc(ds, func(a, b anchorDef) int {
			return cmp.Or(cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col))
		})
	}
	return defs
}

// resolve strips anchors and tags from n and follows aliases; props
// reports anchors or tags, alias an alias on the way.
func (d *Doc) resolve(n ast.Node) (v ast.Node, props, alias bool, err error) {
	var c *converter
	for i := 0; i < 64; i++ {
		var p bool
		n, p = unwrapProps(n)
		props = props || p
		a, ok := n.(*ast.AliasNode)
		if !ok {
			return n, props, alias, nil
		}
		alias = true
		if c == nil {
			c = d.newConverter()
		}
		if n, err = c.resolveAlias(a); err != nil {
			return nil, props, alias, err
		}
	}
	return nil, props, alias, shapeAt(n, "too many aliases in a row")
}

func writeJSONString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // strings always encode
	buf.Truncate(buf.Len() - 1)
}

// floatJSON turns the text of a YAML float (as goccy/go-yaml accepts it:
// one '.', optional sign, exponent and underscores) into a JSON number.
func floatJSON(text string, v float64) (string, bool) {
	s := strings.ReplaceAll(text, "_", "")
	s = strings.TrimPrefix(s, "+")
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp = s[:i], s[i+1:]
	}
	ip, fp, _ := strings.Cut(mant, ".")
	ip = strings.TrimLeft(ip, "0")
	if ip == "" {
		ip = "0"
	}
	out := ip
	if fp != "" {
		out += "." + fp
	}
	if exp != "" {
		out += "e" + exp
	}
	if neg {
		out = "-" + out
	}
	if json.Valid([]byte(out)) {
		return out, true
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return "", false
	}
	return strconv.FormatFloat(v, 'g', -1, 64), true
}
