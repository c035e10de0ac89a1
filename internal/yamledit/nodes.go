package yamledit

import (
	"reflect"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// isNil reports a nil node, including a typed nil pointer.
func isNil(n ast.Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// asMapping returns n as a mapping. goccy/go-yaml sometimes represents a
// one-pair mapping by its MappingValueNode alone.
func asMapping(n ast.Node) (*ast.MappingNode, bool) {
	if isNil(n) {
		return nil, false
	}
	switch x := n.(type) {
	case *ast.MappingNode:
		return x, true
	case *ast.MappingValueNode:
		return &ast.MappingNode{BaseNode: &ast.BaseNode{}, Start: x.Start, IsFlowStyle: x.IsFlowStyle, Values: []*ast.MappingValueNode{x}}, true
	}
	return nil, false
}

// isNull reports an absent value, an implicit null (`key:`) or an explicit
// one (`null`, `~`).
func isNull(n ast.Node) bool {
	if isNil(n) {
		return true
	}
	_, ok := n.(*ast.NullNode)
	return ok
}

// isFlowEmpty reports `[]` or `{}`.
func isFlowEmpty(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.SequenceNode:
		return x != nil && x.IsFlowStyle && len(x.Values) == 0
	case *ast.MappingNode:
		return x != nil && x.IsFlowStyle && len(x.Values) == 0
	}
	return false
}

// unwrapProps strips anchors and tags from n; props reports whether there
// were any.
func unwrapProps(n ast.Node) (v ast.Node, props bool) {
	for i := 0; i < 64 && !isNil(n); i++ {
		switch x := n.(type) {
		case *ast.AnchorNode:
			n, props = x.Value, true
			continue
		case *ast.TagNode:
			n, props = x.Value, true
			continue
		}
		break
	}
	return n, props
}

// nodePos returns the line and column of the first character of n.
func nodePos(n ast.Node) (line, col int) {
	if isNil(n) {
		return 1, 1
	}
	switch x := n.(type) {
	case *ast.MappingValueNode:
		if !isNil(x.Key) {
			return nodePos(x.Key)
		}
	case *ast.MappingNode:
		if !x.IsFlowStyle && len(x.Values) > 0 {
			return nodePos(x.Values[0])
		}
	}
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return 1, 1
	}
	return max(tk.Position.Line, 1), max(tk.Position.Column, 1)
}

// describe names the kind of a YAML node for error messages.
func describe(n ast.Node) string {
	n, _ = unwrapProps(n)
	if isNil(n) {
		return "null"
	}
	switch x := n.(type) {
	case *ast.NullNode:
		return "null"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		if x.IsFlowStyle {
			return "a flow sequence"
		}
		return "a sequence"
	case *ast.StringNode, *ast.LiteralNode, *ast.MergeKeyNode:
		return "a string"
	case *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "a number"
	case *ast.BoolNode:
		return "a boolean"
	case *ast.AliasNode:
		return "an alias"
	}
	return "a " + strings.ToLower(n.Type().String())
}

// walk calls fn on n and every node below it, in document order.
func walk(n ast.Node, fn func(ast.Node)) {
	walkDepth(n, fn, 0)
}

func walkDepth(n ast.Node, fn func(ast.Node), depth int) {
	if isNil(n) || depth > maxDepth {
		return
	}
	fn(n)
	depth++
	switch x := n.(type) {
	case *ast.MappingNode:
		for _, v := range x.Values {
			walkDepth(v, fn, depth)
		}
	case *ast.MappingValueNode:
		walkDepth(x.Key, fn, depth)
		walkDepth(x.Value, fn, depth)
	case *ast.MappingKeyNode:
		walkDepth(x.Value, fn, depth)
	case *ast.SequenceNode:
		for _, v := range x.Values {
			walkDepth(v, fn, depth)
		}
	case *ast.AnchorNode:
		walkDepth(x.Value, fn, depth)
	case *ast.TagNode:
		walkDepth(x.Value, fn, depth)
	}
}

// hasKeepChomping reports a block scalar with the "+" chomping indicator
// in n: its trailing blank lines are part of its value.
func hasKeepChomping(n ast.Node) bool {
	found := false
	walk(n, func(n ast.Node) {
		if l, ok := n.(*ast.LiteralNode); ok && l.Start != nil && strings.Contains(l.Start.Value, "+") {
			found = true
		}
	})
	return found
}

// anchorName and aliasName return the name an anchor defines or an alias
// uses.
func anchorName(a *ast.AnchorNode) string {
	if isNil(a.Name) || a.Name.GetToken() == nil {
		return ""
	}
	return a.Name.GetToken().Value
}

func aliasName(a *ast.AliasNode) string {
	if isNil(a.Value) || a.Value.GetToken() == nil {
		return ""
	}
	return a.Value.GetToken().Value
}
