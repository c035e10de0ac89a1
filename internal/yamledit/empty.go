package yamledit

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/goccy/go-yaml/ast"

	"github.com/repo-manager/repo/internal/jsonvalue"
	"github.com/repo-manager/repo/internal/textedit"
)

// Depth returns how many leading keys of path the document has: len(path)
// when the container at path exists (empty or null included). A value on
// the path that is not a mapping, a duplicate key or an alias that cannot
// be followed is an error, as for Entries.
func (d *Doc) Depth(path []string) (int, error) {
	l, err := d.locate(path)
	if err != nil {
		return 0, err
	}
	return l.depth, nil
}

// emptyValue reports whether s, the text after a key's colon, is that of a
// member DeleteEmpty removes: an empty container, or null, and no comment.
func emptyValue(s string) bool {
	switch s {
	case "", "{}", "[]", "{ }", "[ ]", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// DeleteEmpty removes the member at path when it is an empty container on
// one line of its own — `key: {}`, `key: []` or a null `key:`, with no
// comment on the line — which is what Delete leaves of a container once
// its last entry is gone. It is how a container repo created goes: its
// line goes, every other byte stays. A mapping it leaves without members
// gets `{}` after its key (a key with nothing under it would be null),
// except the top-level one, which is then an empty document. removed is
// false, with d itself, when the member is missing, holds anything, is
// written another way (flow style around it, an anchor, a tag, an
// explicit key) or is the whole document.
func (d *Doc) DeleteEmpty(path []string) (nd *Doc, removed bool, err error) {
	if len(path) == 0 {
		return d, false, nil
	}
	l, err := d.locate(path)
	if err != nil {
		return nil, false, err
	}
	if l.depth < len(path) || l.props || l.alias || !isNull(l.val) && !isFlowEmpty(l.val) {
		return d, false, nil
	}
	if d.checkKeyLine(l, path) != nil {
		return d, false, nil
	}
	parent := path[:len(path)-1]
	host, hostMember := d.root, (*ast.MappingValueNode)(nil)
	if len(parent) > 0 {
		pl, err := d.locate(parent)
		if err != nil {
			return nil, false, err
		}
		m, ok := asMapping(pl.val)
		if !ok || pl.props || pl.alias {
			return d, false, nil
		}
		host, hostMember = m, pl.mv
	}
	if host == nil || host.IsFlowStyle {
		return d, false, nil
	}
	kl, kc := nodePos(l.mv.Key)
	if d.spaceIndent(kl) != kc-1 {
		return d, false, nil // the key does not start its line
	}
	colon, err := d.colonEnd(l.mv)
	if err != nil {
		return d, false, nil
	}
	if !emptyValue(string(bytes.TrimSpace(d.body[colon:d.lineEnd(kl)]))) {
		return d, false, nil // a comment, or a value on later lines
	}
	for x := kl + 1; x <= l.bound && x <= d.lastRow; x++ {
		if !d.isTrivial(x) {
			return d, false, nil
		}
	}
	before := d.hostState(host)
	var ss []textedit.Splice
	if kl == 1 {
		end := len(d.body)
		if len(d.lines) > 1 {
			end = d.lineStart(2)
		}
		ss = append(ss, textedit.Splice{At: 0, Del: end})
	} else {
		ss = append(ss, d.cutLines(kl, kl))
	}
	if len(host.Values) == 1 && hostMember != nil {
		at, err := d.colonEnd(hostMember)
		if err != nil {
			return d, false, nil
		}
		ss = append(ss, textedit.Splice{At: at, Ins: []byte(" {}")})
	}
	nd, err = d.reparse(edit{ss: ss}, "removing the empty container")
	if err != nil {
		return nil, false, err
	}
	if err := nd.checkRemoved(path, before); err != nil {
		return nil, false, err
	}
	return nd, true, nil
}

// checkRemoved checks a DeleteEmpty: the member at path is gone, and its
// mapping holds what it held (before) but for it.
func (nd *Doc) checkRemoved(path []string, before hostState) error {
	parent, key := path[:len(path)-1], path[len(path)-1]
	l, err := nd.locate(path)
	if err != nil {
		return fmt.Errorf("yamledit: internal error: re-reading the edited document: %w", err)
	}
	if l.depth == len(path) {
		return errors.New("yamledit: internal error: the container is still there after removing it")
	}
	var host *ast.MappingNode
	if len(parent) == 0 {
		host = nd.root
	} else {
		pl, err := nd.locate(parent)
		if err != nil || pl.depth < len(parent) {
			return fmt.Errorf("yamledit: internal error: re-reading the edited document: %v", err)
		}
		host, _ = asMapping(pl.val)
	}
	after := nd.hostState(host)
	want := slices.DeleteFunc(slices.Clone(before.keys), func(k string) bool { return k == key })
	if !slices.Equal(want, after.keys) {
		return errors.New("yamledit: internal error: removing the empty container changed the keys of its mapping")
	}
	if before.value != nil {
		delete(before.value, key)
		if after.value == nil || !reflect.DeepEqual(before.value, after.value) {
			return errors.New("yamledit: internal error: removing the empty container changed its mapping")
		}
	}
	return nil
}

// hostState is what DeleteEmpty checks of the mapping it edits: its keys,
// in order, and its value (nil when JSON cannot hold it: an alias without
// its anchor, a key that is not a scalar, ...).
type hostState struct {
	keys  []string
	value map[string]any
}

func (d *Doc) hostState(m *ast.MappingNode) hostState {
	st := hostState{keys: []string{}}
	if m == nil {
		st.value = map[string]any{}
		return st
	}
	for _, mv := range m.Values {
		k, _ := d.keyText(mv.Key)
		st.keys = append(st.keys, k)
	}
	if js, err := d.newConverter().toJSON(m); err == nil {
		if v, err := jsonvalue.Decode(js); err == nil {
			st.value, _ = v.(map[string]any)
		}
	}
	return st
}
