package yamledit

import "github.com/goccy/go-yaml/ast"

// detectStyle finds how the file indents, looking first at the container
// (its key node, when it exists) and then at the whole document; the first
// example of each measure wins. Defaults: the unit is that of an indented
// sequence if there is one, else 2; sequences are indented by the unit
// under their key; item content starts 2 columns past the "-".
//
//   - unit: a key whose value is a block mapping starting on a later line:
//     the first child key's column minus the key's.
//   - seqIndent: a key whose value is a block sequence starting on a later
//     line: the "-" column minus the key's (0 for flush sequences).
//   - itemOff: a block sequence item that is a mapping starting on the "-"
//     line: its first key's column minus the "-"'s.
func (d *Doc) detectStyle(container ast.Node) style {
	var st style
	seqFound := false
	look := func(n ast.Node) {
		switch x := n.(type) {
		case *ast.MappingValueNode:
			kl, kc := nodePos(x.Key)
			v, _ := unwrapProps(x.Value)
			if m, ok := v.(*ast.MappingNode); ok && !m.IsFlowStyle && len(m.Values) > 0 && st.unit == 0 {
				fl, fc := nodePos(m.Values[0].Key)
				if fl > kl && fc > kc {
					st.unit = fc - kc
				}
			}
			if s, ok := v.(*ast.SequenceNode); ok && !s.IsFlowStyle && !seqFound {
				if dl, dc, ok := dashPos(s, 0); ok && dl > kl && dc >= kc {
					st.seqIndent, seqFound = dc-kc, true
				}
			}
		case *ast.SequenceNode:
			if x.IsFlowStyle || st.itemOff != 0 {
				return
			}
			for i, item := range x.Values {
				dl, dc, ok := dashPos(x, i)
				if !ok {
					continue
				}
				v, _ := unwrapProps(item)
				if m, ok := v.(*ast.MappingNode); ok && !m.IsFlowStyle && len(m.Values) > 0 {
					fl, fc := nodePos(m.Values[0].Key)
					if fl == dl && fc > dc+1 {
						st.itemOff = fc - dc
						return
					}
				}
			}
		}
	}
	if !isNil(container) {
		walk(container, look)
	}
	if d.nodes != nil {
		walk(d.nodes.Body, look)
	}
	if st.unit == 0 {
		st.unit = 2
		if seqFound && st.seqIndent > 0 {
			st.unit = st.seqIndent
		}
	}
	if !seqFound {
		st.seqIndent = st.unit
	}
	if st.itemOff == 0 {
		st.itemOff = 2
	}
	return st
}

// dashPos returns the position of the "-" of item i of a block sequence.
func dashPos(s *ast.SequenceNode, i int) (line, col int, ok bool) {
	if i >= len(s.Entries) || s.Entries[i] == nil || s.Entries[i].Start == nil || s.Entries[i].Start.Position == nil {
		return 0, 0, false
	}
	p := s.Entries[i].Start.Position
	return p.Line, p.Column, true
}
