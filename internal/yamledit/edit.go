package yamledit

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/textedit"
)

// Editing rules (the tests spell them out):
//
//   - An entry is its lines, from its key or "-" to its last line that is
//     not blank or a comment, plus the marker comments naming it in the
//     comment lines around it (only those lines: other comments stay).
//   - Replace replaces an existing entry's lines with the rendered
//     entry between markers, at the same column. A new entry (Insert) goes
//     after the last item of the container (after that item's closing
//     marker when there is one), at the column of the items; several new
//     entries go there together, in order.
//   - A List item that is a mapping without the name field (Continue's
//     `- uses: org/block` hub references) is no entry: Entries leaves it
//     out, and no edit changes its lines.
//   - A missing container is created as `key:` lines (nested keys for a
//     longer path) after the last member of the host mapping; at top level,
//     at the end of the file (before a "..." document end). A null value
//     (`key:`, `key: null`, `key: ~`) or an empty flow value of the right
//     kind (`key: []` for a List, `key: {}` for a Map) becomes a block
//     container: the value's characters on the key line are removed and
//     the entries follow on the next lines, indented by the file's
//     sequence indentation (List) or unit (Map).
//   - Delete removes the entry's lines and its marker lines (and one blank
//     line when blank lines surround it, so no double gap is left).
//   - A file that ends inside a block scalar ("|" or ">", not "|-") without
//     a final line break would give the scalar a line break, and so change
//     its value, if lines were added after it; lines added after a tag or
//     an anchor that waits for its node would become that node. New entries
//     then go before the container's last item, a new key before the
//     host's last member.
//     Deleting the lines that end such a file keeps the line break that
//     ends a block scalar before them.
//
// Removing the last entry of a container: if this Doc was made by Insert from
// a document where the container was missing, null or flow-empty (an edit
// chain in this process) and nothing else changed since, Delete gives back
// the original bytes exactly. Otherwise (in particular for any document
// read from a file) the key stays, with an empty flow value written after
// its colon: `key: []` for a List, `key: {}` for a Map. A key left without
// a value would be null, where Continue's schema expects a list of servers
// and Goose a map of extensions.
//
// Every result is verified: it must parse, and the container must read
// back with the new value (or without the deleted entry) and every other
// entry unchanged.

// Entry is one entry to write: its name and its value, a JSON object.
type Entry struct {
	Name  string
	Value []byte
}

// Insert adds entries that the container at path does not hold yet, in
// order, in one edit: the bytes are those of inserting each in turn, but
// the document is parsed and verified once, not once per entry (a first
// sync writes hundreds of entries into one file). Missing or empty
// containers are created (see the rules above).
func (d *Doc) Insert(path []string, kind Kind, nameField string, es []Entry) (*Doc, error) {
	if len(es) == 0 {
		return d, nil
	}
	vals, err := checkEntries(path, kind, nameField, es)
	if err != nil {
		return nil, err
	}
	before, _, err := d.Entries(path, kind, nameField)
	if err != nil {
		return nil, err
	}
	if len(before) > 0 {
		have := make(map[string]bool, len(before))
		for _, m := range before {
			have[m.Key] = true
		}
		for _, e := range es {
			if have[e.Name] {
				return nil, &ValueError{Msg: fmt.Sprintf("Insert: entry %q is already in %s", e.Name, formatPath(path))}
			}
		}
	}
	return d.insert(path, kind, nameField, es, vals, before)
}

// Replace writes new values of entries that the container at path holds,
// in one edit, parsed and verified once. Each entry is rewritten where it
// stands, at its column. The indentation copied into them
// is the document's before the edit (replacing each in turn would look at
// the entries already rewritten first; the two differ only when those
// were the document's only example of some indentation).
func (d *Doc) Replace(path []string, kind Kind, nameField string, es []Entry) (*Doc, error) {
	if len(es) == 0 {
		return d, nil
	}
	vals, err := checkEntries(path, kind, nameField, es)
	if err != nil {
		return nil, err
	}
	return d.replace(path, kind, nameField, es, vals)
}

// checkEntries checks the arguments of an edit and the entries to write,
// and returns their values parsed.
func checkEntries(path []string, kind Kind, nameField string, es []Entry) ([]gjson.Result, error) {
	if err := checkArgs(path, kind, nameField, ""); err != nil {
		return nil, err
	}
	vals := make([]gjson.Result, len(es))
	seen := make(map[string]bool, len(es))
	for i, e := range es {
		if err := checkArgs(path, kind, nameField, e.Name); err != nil {
			return nil, err
		}
		if seen[e.Name] {
			return nil, &ValueError{Msg: fmt.Sprintf("entry %q is given twice", e.Name)}
		}
		seen[e.Name] = true
		v, err := checkValue(e.Value, kind, nameField)
		if err != nil {
			var ve *ValueError
			if len(es) > 1 && errors.As(err, &ve) {
				return nil, &ValueError{Msg: fmt.Sprintf("entry %q: %s", e.Name, ve.Msg)}
			}
			return nil, err
		}
		vals[i] = v
	}
	return vals, nil
}

// insert is Insert once the entries are checked; before is what the
// container holds.
func (d *Doc) insert(path []string, kind Kind, nameField string, es []Entry, vals []gjson.Result, before []Member) (*Doc, error) {
	cur, l, changed, err := d.readyContainer(path, kind)
	if err != nil {
		return nil, err
	}
	e, after, err := cur.insertEntries(l, path, kind, nameField, es, vals)
	if err != nil {
		return nil, err
	}
	// The new entries go after the line after; a container that had to be
	// made ready had no entries.
	want := make([]Member, 0, len(before)+len(es))
	i := 0
	for ; i < len(before) && (changed || before[i].Line <= after); i++ {
		want = append(want, before[i])
	}
	for _, x := range es {
		want = append(want, Member{Key: x.Name, Value: x.Value})
	}
	want = append(want, before[i:]...)
	nd, err := d.verify(cur, e, path, kind, nameField, want)
	if err != nil {
		return nil, err
	}
	nd.origins = slices.Clone(d.origins)
	if changed || isNull(l.val) {
		nd.origins = append(nd.origins, origin{path: slices.Clone(path), kind: kind, original: d.body, emptied: cur.body})
	}
	return nd, nil
}

// readyContainer brings the container at path into a state entries can be
// written into: a block container, or a bare `key:`. It returns the
// document (d itself when nothing had to change) and where the container
// is in it.
func (d *Doc) readyContainer(path []string, kind Kind) (cur *Doc, l loc, changed bool, err error) {
	cur = d
	for step := 0; ; step++ {
		if step > 2*len(path)+4 {
			return nil, l, false, errors.New("yamledit: internal error: could not create the container")
		}
		l, err = cur.locate(path)
		if err != nil {
			return nil, l, false, err
		}
		next, err := cur.prepare(l, path, kind)
		if err != nil {
			return nil, l, false, err
		}
		if next == nil {
			return cur, l, changed, nil
		}
		// Each step must bring the container closer: more of the path
		// present, or the value at the same depth now a bare `key:`.
		nl, err := next.locate(path)
		if err != nil {
			return nil, l, false, fmt.Errorf("yamledit: internal error: re-reading after creating the container: %w", err)
		}
		if nl.depth < l.depth || nl.depth == l.depth && (isImplicitNull(l.val) || !isImplicitNull(nl.val)) {
			line, col := 1, 1
			if l.mv != nil {
				line, col = nodePos(l.mv.Key)
			}
			return nil, l, false, &ShapeError{Line: line, Col: col, Msg: fmt.Sprintf("the YAML parser does not read %s where repo would add it; the lines before that place confuse it (an empty \"-\" item?)", formatPath(path[:min(l.depth+1, len(path))]))}
		}
		cur, changed = next, true
	}
}

// replace is Replace once the entries are checked.
func (d *Doc) replace(path []string, kind Kind, nameField string, es []Entry, vals []gjson.Result) (*Doc, error) {
	l, err := d.locate(path)
	if err != nil {
		return nil, err
	}
	if l.depth < len(path) || isNull(l.val) {
		return nil, &ValueError{Msg: fmt.Sprintf("Replace: %s has no entries", formatPath(path))}
	}
	items, block, err := d.entries(l, path, kind, nameField)
	if err != nil {
		return nil, err
	}
	index := make(map[string]int, len(items))
	for i, it := range items {
		if !it.foreign {
			index[it.key] = i
		}
	}
	st := d.detectStyle(l.mv)
	newValue := make(map[string][]byte, len(es))
	var ss []textedit.Splice
	for i, x := range es {
		idx, ok := index[x.Name]
		if !ok {
			return nil, &ValueError{Msg: fmt.Sprintf("Replace: %s has no entry %q", formatPath(path), x.Name)}
		}
		it := items[idx]
		if err := d.checkEditable(l, path, block, it); err != nil {
			return nil, err
		}
		lines, err := renderEntry(kind, nameField, x.Name, vals[i], it.col, st)
		if err != nil {
			return nil, err
		}
		a, b, extra := d.entrySpan(l, items, idx)
		ss = append(ss, textedit.Splice{At: d.lineStart(a), Del: d.lineEnd(b) - d.lineStart(a), Ins: []byte(joinLines(lines, d.nl))})
		for _, m := range extra {
			ss = append(ss, d.cutLines(m, m))
		}
		newValue[x.Name] = x.Value
	}
	var want []Member
	for _, it := range items {
		if it.foreign {
			continue
		}
		v, ok := newValue[it.key]
		if !ok {
			v = it.json
		}
		want = append(want, Member{Key: it.key, Value: v})
	}
	nd, err := d.verify(d, edit{ss: ss}, path, kind, nameField, want)
	if err != nil {
		return nil, err
	}
	nd.origins = slices.Clone(d.origins)
	return nd, nil
}

// Delete removes the entry name from the container at path. If the entry
// or the container is missing it returns d itself and no error. See the
// rules above for a container left empty.
func (d *Doc) Delete(path []string, kind Kind, nameField, name string) (*Doc, error) {
	return d.DeleteAll(path, kind, nameField, []string{name})
}

// Entries returns the entries of the container at path, converted to JSON
// (see Member). found is false when the container is missing, null or
// empty. A container of the wrong kind, a duplicate key or name, a List
// item without a string name or a value JSON cannot hold is a *ShapeError.
func (d *Doc) Entries(path []string, kind Kind, nameField string) ([]Member, bool, error) {
	if err := checkArgs(path, kind, nameField, ""); err != nil {
		return nil, false, err
	}
	l, err := d.locate(path)
	if err != nil {
		return nil, false, err
	}
	if l.depth < len(path) || isNull(l.val) {
		return nil, false, nil
	}
	es, _, err := d.entries(l, path, kind, nameField)
	if err != nil {
		return nil, false, err
	}
	ms := make([]Member, 0, len(es))
	for _, e := range es {
		if !e.foreign {
			ms = append(ms, Member{Key: e.key, Value: e.json, Line: e.line})
		}
	}
	if len(ms) == 0 {
		return nil, false, nil
	}
	return ms, true, nil
}

// findEntry returns the index of the entry name in es, or -1.
func findEntry(es []entry, name string) int {
	return slices.IndexFunc(es, func(e entry) bool { return !e.foreign && e.key == name })
}

func checkArgs(path []string, kind Kind, nameField, name string) error {
	if len(path) == 0 {
		return &ValueError{Msg: "empty path: the container must be under a key"}
	}
	if kind != Map && kind != List {
		return &ValueError{Msg: fmt.Sprintf("unknown kind %d", kind)}
	}
	if kind == List && nameField == "" {
		return &ValueError{Msg: "a List needs a name field"}
	}
	for _, s := range append(slices.Clone(path), nameField, name) {
		if !utf8.ValidString(s) {
			return &ValueError{Msg: fmt.Sprintf("%q is not valid UTF-8", s)}
		}
	}
	return nil
}

func checkValue(value []byte, kind Kind, nameField string) (gjson.Result, error) {
	if !utf8.Valid(value) || !json.Valid(value) {
		return gjson.Result{}, &ValueError{Msg: "the value is not valid JSON"}
	}
	v := gjson.ParseBytes(value)
	if !v.IsObject() {
		return gjson.Result{}, &ValueError{Msg: "the value is not a JSON object"}
	}
	if kind == List {
		var err error
		v.ForEach(func(k, _ gjson.Result) bool {
			if k.Str == nameField {
				err = &ValueError{Msg: fmt.Sprintf("the value holds the name field %q; it is written from the name", nameField)}
				return false
			}
			return true
		})
		if err != nil {
			return gjson.Result{}, err
		}
	}
	// Render once with a default style to report value errors before any
	// other work.
	if _, err := renderEntry(kind, nameField, "x", v, 0, style{unit: 2, seqIndent: 2, itemOff: 2}); err != nil {
		return gjson.Result{}, err
	}
	return v, nil
}

// prepare returns the document with one structural step done towards a
// container entries can be written into, or nil when l is ready (a block
// container of the right kind or a bare `key:`).
func (d *Doc) prepare(l loc, path []string, kind Kind) (*Doc, error) {
	if l.depth < len(path) {
		return d.addMissingKeys(l, path)
	}
	return d.clearContainer(l, path, kind)
}

// addMissingKeys adds the keys of path from l.depth on, as a chain of
// block mappings, where the first is missing: in the mapping l.host, in an
// empty document, or under l.mv, whose null or {} value it clears first
// (one step).
func (d *Doc) addMissingKeys(l loc, path []string) (*Doc, error) {
	unit := d.detectStyle(nil).unit
	missing := path[l.depth:]
	switch {
	case l.host != nil:
		return d.appendKeyChain(l, path, unit)
	case l.depth == 0:
		// An empty document.
		lines, err := renderKeyChain(missing, 0, unit)
		if err != nil {
			return nil, err
		}
		if err := d.checkAppend(d.lastRow); err != nil {
			return nil, err
		}
		return d.step(d.insertion(d.lastRow, lines, probeChain(len(missing), 0, unit)))
	}
	// The value of l.mv is null or {}: clear it, then add the keys
	// under it.
	if err := d.checkKeyLine(l, path[:l.depth]); err != nil {
		return nil, err
	}
	if ss, ok, err := d.clearValue(l, path[:l.depth]); err != nil {
		return nil, err
	} else if ok {
		return d.step(edit{ss: ss})
	}
	kl, kc := nodePos(l.mv.Key)
	lines, err := renderKeyChain(missing, kc-1+unit, unit)
	if err != nil {
		return nil, err
	}
	return d.step(d.insertion(kl, lines, probeChain(len(missing), kc-1+unit, unit)))
}

// appendKeyChain adds the missing keys of path to the block mapping
// l.host, which lacks the first: after its last member, at the column of
// its keys.
func (d *Doc) appendKeyChain(l loc, path []string, unit int) (*Doc, error) {
	missing := path[l.depth:]
	if l.host.IsFlowStyle {
		line, col := nodePos(l.host)
		return nil, &ShapeError{Line: line, Col: col, Msg: fmt.Sprintf("%s is a flow-style mapping; cannot add %q to it", formatPath(path[:l.depth]), missing[0])}
	}
	if l.alias {
		return nil, d.aliasError(l, path)
	}
	if len(l.host.Values) == 0 {
		return nil, errors.New("yamledit: internal error: empty block mapping")
	}
	_, kc := nodePos(l.host.Values[0].Key)
	after := d.lastRow
	if l.depth > 0 {
		last := l.host.Values[len(l.host.Values)-1]
		kl, _ := nodePos(last.Key)
		after = d.lastContent(kl, l.hostBound, hasKeepChomping(last))
	}
	if d.endsScalarAtEOF(after) || d.checkAppend(after) != nil {
		// After the block scalar that ends the file, the key would
		// give it a line break; after a tag or an anchor waiting
		// for its node, it would become that node: it goes before
		// the last member.
		after = d.beforeLastMember(l)
	}
	lines, err := renderKeyChain(missing, kc-1, unit)
	if err != nil {
		return nil, err
	}
	if err := d.checkAppend(after); err != nil {
		return nil, err
	}
	return d.step(d.insertion(after, lines, probeChain(len(missing), kc-1, unit)))
}

// clearContainer makes the value at path, which is there, ready for
// entries: a null value becomes a bare `key:`, and so does an empty flow
// container ([] or {}) of the right kind. Otherwise it returns nil: the
// value is ready, or d.entries reports why it cannot hold entries.
func (d *Doc) clearContainer(l loc, path []string, kind Kind) (*Doc, error) {
	switch {
	case isNull(l.val):
		if err := d.checkKeyLine(l, path); err != nil {
			return nil, err
		}
		ss, ok, err := d.clearValue(l, path)
		if err != nil || !ok {
			return nil, err
		}
		return d.step(edit{ss: ss})
	case isFlowEmpty(l.val):
		if _, isSeq := l.val.(*ast.SequenceNode); isSeq != (kind == List) {
			return nil, d.kindError(l, path, kind)
		}
		if err := d.checkKeyLine(l, path); err != nil {
			return nil, err
		}
		ss, _, err := d.clearValue(l, path)
		if err != nil {
			return nil, err
		}
		return d.step(edit{ss: ss})
	}
	return nil, nil
}

// beforeLastMember returns the line after which a key goes to come before
// the last member of l.host: the end of the member before it, or the line
// before the last member's key when it is the only one (for a nested host,
// the line of its own key).
func (d *Doc) beforeLastMember(l loc) int {
	vs := l.host.Values
	lastLine, _ := nodePos(vs[len(vs)-1].Key)
	if len(vs) > 1 {
		prev := vs[len(vs)-2]
		pl, _ := nodePos(prev.Key)
		return d.lastContent(pl, lastLine-1, hasKeepChomping(prev))
	}
	if l.depth > 0 && l.mv != nil {
		kl, _ := nodePos(l.mv.Key)
		return kl
	}
	return lastLine - 1
}

func isImplicitNull(n ast.Node) bool {
	if isNil(n) {
		return true
	}
	nn, ok := n.(*ast.NullNode)
	if !ok {
		return false
	}
	return nn.Token == nil || nn.Token.Type == token.ImplicitNullType
}

// checkKeyLine checks that the value of l.mv can be edited as text on its
// key line: no anchor, tag or alias, and an implicit key on one line.
func (d *Doc) checkKeyLine(l loc, path []string) error {
	if l.props || l.alias {
		return d.aliasError(l, path)
	}
	if _, explicit := l.mv.Key.(*ast.MappingKeyNode); explicit || l.mv.Start == nil || l.mv.Start.Position == nil {
		line, col := nodePos(l.mv.Key)
		return &ShapeError{Line: line, Col: col, Msg: fmt.Sprintf("%s is written as an explicit (\"? \") key; rewrite it as `key:` to let repo edit it", formatPath(path))}
	}
	kl, _ := nodePos(l.mv.Key)
	if l.mv.Start.Position.Line != kl {
		line, col := nodePos(l.mv.Key)
		return &ShapeError{Line: line, Col: col, Msg: fmt.Sprintf("%s: the key and its colon are on different lines", formatPath(path))}
	}
	return nil
}

func (d *Doc) aliasError(l loc, path []string) error {
	line, col := 1, 1
	if l.mv != nil {
		line, col = nodePos(l.mv.Value)
	}
	return &ShapeError{Line: line, Col: col, Msg: fmt.Sprintf("%s has an anchor, a tag or an alias; repo does not edit such values", formatPath(path))}
}

// clearValue returns the splices that remove an explicit null or an empty
// flow collection from the key line of l.mv, leaving `key:`; ok is false
// when there is nothing to remove (an implicit null).
func (d *Doc) clearValue(l loc, path []string) ([]textedit.Splice, bool, error) {
	if isImplicitNull(l.val) {
		return nil, false, nil
	}
	kl, _ := nodePos(l.mv.Key)
	var tk *token.Token
	width := 1
	switch x := l.val.(type) {
	case *ast.NullNode:
		tk = x.Token
		if tk != nil {
			width = len(tk.Value)
		}
	case *ast.SequenceNode:
		tk = x.End
	case *ast.MappingNode:
		tk = x.End
	default:
		return nil, false, shapeAt(l.mv.Value, "%s: unexpected value", formatPath(path))
	}
	if tk == nil || tk.Position == nil || tk.Position.Line != kl {
		return nil, false, shapeAt(l.mv.Value, "%s: the value is not on the key's line; write `key:` alone to let repo fill it", formatPath(path))
	}
	start, err := d.colonEnd(l.mv)
	if err != nil {
		return nil, false, err
	}
	end := d.offsetOf(kl, tk.Position.Column) + width
	if end <= start || end > d.lineEnd(kl) {
		return nil, false, shapeAt(l.mv.Value, "%s: cannot find the value on the key's line", formatPath(path))
	}
	return []textedit.Splice{{At: start, Del: end - start}}, true, nil
}

// colonEnd returns the offset just past the colon of a member.
func (d *Doc) colonEnd(mv *ast.MappingValueNode) (int, error) {
	if mv.Start == nil || mv.Start.Position == nil {
		return 0, shapeAt(mv, "cannot find the colon of the key")
	}
	p := mv.Start.Position
	if p.Line < 1 || p.Line > len(d.lines) {
		return 0, shapeAt(mv, "cannot find the colon of the key")
	}
	off := d.offsetOf(p.Line, p.Column)
	if off >= len(d.body) || d.body[off] != ':' {
		return 0, shapeAt(mv, "cannot find the colon of the key")
	}
	return off + 1, nil
}

// edit is a set of splices, with for an insertion the same insertion of
// neutral content (probe) that tells a problem of the place from a problem
// of the content.
type edit struct {
	ss    []textedit.Splice
	probe []textedit.Splice
}

// insertion returns the edit that adds lines after line l, with probe
// lines as the neutral content.
func (d *Doc) insertion(l int, lines, probe []string) edit {
	return edit{ss: []textedit.Splice{d.insertAfter(l, lines)}, probe: []textedit.Splice{d.insertAfter(l, probe)}}
}

// step applies a structural edit and parses the result.
func (d *Doc) step(e edit) (*Doc, error) {
	return d.reparse(e, "creating the container")
}

// reparse applies an edit to d and parses the result.
//
// goccy/go-yaml accepts a few broken constructs at the very end of its
// input only (a block scalar header with a bad indicator, a plain scalar
// continued at the wrong indentation, ...): once lines follow, it rejects
// the document. Such a failure is the original document's and is reported
// as a *ShapeError: a syntax error at or before the last line kept as it
// was, or one in inserted lines when inserting neutral lines at the same
// place fails too. Any other failure is an internal error.
func (d *Doc) reparse(e edit, what string) (*Doc, error) {
	out, err := textedit.Apply(d.body, e.ss)
	if err != nil {
		return nil, fmt.Errorf("yamledit: internal error: %w", err)
	}
	nd, err := parse(d.bom, out)
	if err == nil {
		return nd, nil
	}
	first := len(d.body)
	for _, s := range e.ss {
		first = min(first, s.At)
	}
	lastKept, _ := d.position(first)
	var se *SyntaxError
	if errors.As(err, &se) {
		if se.Line <= lastKept {
			return nil, &ShapeError{Line: se.Line, Col: se.Col, Msg: fmt.Sprintf("repo cannot add lines here: once something follows, the YAML parser rejects line %d (%s)", se.Line, se.Msg)}
		}
		if e.probe != nil {
			probed, aerr := textedit.Apply(d.body, e.probe)
			if aerr != nil {
				return nil, fmt.Errorf("yamledit: internal error: %w", aerr)
			}
			if _, perr := parse(d.bom, probed); perr != nil {
				return nil, &ShapeError{Line: lastKept, Col: 1, Msg: fmt.Sprintf("repo cannot add lines after line %d: the YAML parser then rejects the document (%s)", lastKept, se.Msg)}
			}
		}
	}
	return nil, fmt.Errorf("yamledit: internal error: %s would produce an invalid document (%v)", what, err)
}

// checkEditable checks that an existing entry can be cut out as lines.
func (d *Doc) checkEditable(l loc, path []string, block bool, e entry) error {
	if err := d.checkCuttable(l, path, block, e); err != nil {
		return err
	}
	return d.checkAnchors(e, d.aliasNodes, nil)
}

// checkCuttable is checkEditable but for the anchors: what the container
// and the entry's first line say.
func (d *Doc) checkCuttable(l loc, path []string, block bool, e entry) error {
	if !block {
		line, col := nodePos(l.mv.Value)
		return &ShapeError{Line: line, Col: col, Msg: fmt.Sprintf("%s is written in flow style ([...] or {...}); rewrite it in block style to let repo edit it", formatPath(path))}
	}
	if l.props || l.alias {
		return d.aliasError(l, path)
	}
	if !e.ownsLine {
		return &ShapeError{Line: e.line, Col: e.col + 1, Msg: fmt.Sprintf("entry %q of %s does not start its line", e.key, formatPath(path))}
	}
	kl, _ := nodePos(l.mv.Key)
	if e.line <= kl {
		return &ShapeError{Line: e.line, Col: e.col + 1, Msg: fmt.Sprintf("entry %q of %s is on the key's line", e.key, formatPath(path))}
	}
	return nil
}

// checkAnchors refuses an entry that defines an anchor used outside it,
// which would be lost with it. aliases lists the document's aliases (asked
// only when the entry defines an anchor); gone, when not nil, says which
// lines an edit in progress has already removed.
func (d *Doc) checkAnchors(e entry, aliases func() []*ast.AliasNode, gone func(line int) bool) error {
	defined := map[string]bool{}
	walk(e.node, func(n ast.Node) {
		if a, ok := n.(*ast.AnchorNode); ok {
			defined[anchorName(a)] = true
		}
	})
	if len(defined) == 0 {
		return nil
	}
	for _, a := range aliases() {
		line, col := nodePos(a)
		if defined[aliasName(a)] && (line < e.line || line > e.end) && (gone == nil || !gone(line)) {
			return &ShapeError{Line: line, Col: col, Msg: fmt.Sprintf("alias *%s refers to an anchor in entry %q, which repo would remove", aliasName(a), e.key)}
		}
	}
	return nil
}

// aliasNodes returns the document's aliases, in document order.
func (d *Doc) aliasNodes() []*ast.AliasNode {
	var out []*ast.AliasNode
	if d.nodes != nil {
		walk(d.nodes.Body, func(n ast.Node) {
			if a, ok := n.(*ast.AliasNode); ok {
				out = append(out, a)
			}
		})
	}
	return out
}

// entrySpan returns the lines a..b to replace or delete for es[idx] (its
// marker comments included when they are right next to it) and other
// lines holding its markers.
func (d *Doc) entrySpan(l loc, es []entry, idx int) (a, b int, extra []int) {
	e := es[idx]
	a, b = e.line, e.end
	prevEnd, _ := nodePos(l.mv.Key)
	if idx > 0 {
		prevEnd = es[idx-1].end
	}
	nextStart := l.bound + 1
	if idx+1 < len(es) {
		nextStart = es[idx+1].line
	}
	opens := d.markerLines(prevEnd+1, a-1, openMarker(e.key))
	if n := len(opens); n > 0 && opens[n-1] == a-1 {
		a, opens = a-1, opens[:n-1]
	}
	closes := d.markerLines(b+1, nextStart-1, closeMarker(e.key))
	if len(closes) > 0 && closes[0] == b+1 {
		b, closes = b+1, closes[1:]
	}
	return a, b, append(opens, closes...)
}

// insertEntries returns the edit that adds the entries to the container at
// l, which is a block container of the right kind or a bare `key:`, and
// the line they go after. They go after the last item, at the column of
// the items; into a bare `key:`, on the lines after the key, indented by
// the file's unit (Map) or sequence indentation (List).
func (d *Doc) insertEntries(l loc, path []string, kind Kind, nameField string, es []Entry, vals []gjson.Result) (edit, int, error) {
	st := d.detectStyle(l.mv)
	var col, after int
	if isNull(l.val) {
		if err := d.checkKeyLine(l, path); err != nil {
			return edit{}, 0, err
		}
		kl, kc := nodePos(l.mv.Key)
		col, after = kc-1+st.unit, kl
		if kind == List {
			col = kc - 1 + st.seqIndent
		}
	} else {
		items, block, err := d.entries(l, path, kind, nameField)
		if err != nil {
			return edit{}, 0, err
		}
		if len(items) == 0 {
			return edit{}, 0, errors.New("yamledit: internal error: empty block container")
		}
		last := items[len(items)-1]
		if err := d.checkEditable(l, path, block, last); err != nil {
			return edit{}, 0, err
		}
		col, after = items[0].col, d.itemEnd(l, items, len(items)-1)
		if d.endsScalarAtEOF(after) || d.checkAppend(after) != nil {
			// Lines after it would give the block scalar ending the file a
			// line break it does not have, or become the node a tag or an
			// anchor at its end waits for: the entries go before the last
			// item instead.
			after, _ = nodePos(l.mv.Key)
			if len(items) > 1 {
				after = d.itemEnd(l, items, len(items)-2)
			}
		}
		if err := d.checkAppend(after); err != nil {
			return edit{}, 0, err
		}
	}
	var lines []string
	for i, x := range es {
		r, err := renderEntry(kind, nameField, x.Name, vals[i], col, st)
		if err != nil {
			return edit{}, 0, err
		}
		lines = append(lines, r...)
	}
	return d.insertion(after, lines, probeEntry(kind, nameField, col, st)), after, nil
}

// itemEnd is the last line of es[i] together with its closing marker, if
// the marker follows it.
func (d *Doc) itemEnd(l loc, es []entry, i int) int {
	e := es[i]
	bound := l.bound
	if i+1 < len(es) {
		bound = es[i+1].line - 1
	}
	if closes := d.markerLines(e.end+1, bound, closeMarker(e.key)); len(closes) > 0 && !e.foreign {
		return closes[0]
	}
	return e.end
}

// verify applies splices to base (d or a document derived from it by
// structural steps), parses the result and checks that the container holds
// exactly want, in order, compared semantically.
func (d *Doc) verify(base *Doc, e edit, path []string, kind Kind, nameField string, want []Member) (*Doc, error) {
	nd, err := base.reparse(e, "the edit")
	if err != nil {
		return nil, err
	}
	got, _, err := nd.Entries(path, kind, nameField)
	if err != nil {
		return nil, fmt.Errorf("yamledit: internal error: re-reading the edited document: %w", err)
	}
	if len(got) != len(want) {
		return nil, fmt.Errorf("yamledit: internal error: the edited container has %d entries, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].Key != want[i].Key || !sameJSON(got[i].Value, want[i].Value) {
			return nil, fmt.Errorf("yamledit: internal error: entry %d of the edited container reads back as %q: %s, want %q: %s", i+1, got[i].Key, got[i].Value, want[i].Key, want[i].Value)
		}
	}
	return nd, nil
}

// probeChain and probeEntry render neutral content shaped like what an
// insertion writes (see reparse).
func probeChain(n, col, unit int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "repo_probe"
	}
	lines, _ := renderKeyChain(keys, col, unit)
	return lines
}

func probeEntry(kind Kind, nameField string, col int, st style) []string {
	lines, _ := renderEntry(kind, nameField, "repo-probe", gjson.Parse(`{"k":"v"}`), col, st)
	return lines
}
