package jsonedit

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/repo-manager/repo/internal/jsonvalue"
	"github.com/repo-manager/repo/internal/textedit"
)

// Formatting rules of Insert, Replace and Delete (the tests spell them out as golden
// files):
//
// Multi-line objects (the '{' and '}' on different lines, and an empty
// top-level object):
//   - A new member goes on its own line after the last member, after any
//     comment lines that follow it, immediately before the line holding the
//     closing brace. It is indented like the last member that starts its own
//     line, or, in an empty object, like the brace's line plus one indent
//     unit. A comma is added after the previous member; if that member had a
//     trailing comma (JSONC) the new member gets one too.
//   - Values are pretty-printed by renderMember at the member's indentation.
// Single-line objects (`{"a": 1}`, minified files, and an empty object whose
// parent object is on one line):
//   - A new member is appended after the last one as compact JSON, copying
//     the object's separator (", " or ",") and colon (": " or ":") style.
//   - A replaced value is written as compact JSON.
// Delete removes a member that has lines to itself together with those lines
// (and a // comment at the end of its last line); otherwise just the member,
// its comma and the blanks next to it. The comma of the previous member goes
// when the deleted member was the last one without a trailing comma. An object
// left with nothing but whitespace inside becomes {}.

// Insert adds members that the object at path does not have yet, in one
// edit: the bytes are those of inserting each in turn, but the document is
// parsed and verified once, not once per member — a first sync writes
// hundreds of entries into one file. Missing objects along path are created.
func (d *Doc) Insert(path []string, kvs []KeyValue) (*Doc, error) {
	if len(kvs) == 0 {
		return d, nil
	}
	if err := checkMembers("Insert", path, kvs); err != nil {
		return nil, err
	}
	objs, null, err := d.walkNull(path)
	if err != nil {
		return nil, err
	}
	return d.insert(objs, null, path, kvs)
}

// insert is Insert on the objects walkNull found along path (null is
// where it stopped at a null value, or -1).
func (d *Doc) insert(objs []object, null int, path []string, kvs []KeyValue) (*Doc, error) {
	var ss []textedit.Splice
	var err error
	if found := len(objs) - 1; found < len(path) {
		missing := path[found:]
		if null >= 0 {
			// The null becomes the object, as if it had been empty.
			ss, err = d.replaceValue(objs, objs[found].members[null], nestMany(missing[1:], kvs))
		} else {
			ss, err = d.insertMember(objs, missing[0], nestMany(missing[1:], kvs))
		}
	} else {
		at := objs[found].indexes()
		for _, kv := range kvs {
			if _, ok := at[kv.Key]; ok {
				return nil, fmt.Errorf("jsonedit: Insert: %q is already in the object", kv.Key)
			}
		}
		ss, err = d.insertMembers(objs, kvs)
	}
	if err != nil {
		return nil, err
	}
	return d.verifyInsert(ss, objs, path, kvs)
}

// Replace sets new values for members that the object at path already has,
// in one edit: the bytes are those of replacing each in turn (each value is
// its own span, so the splices do not touch), parsed and verified once.
func (d *Doc) Replace(path []string, kvs []KeyValue) (*Doc, error) {
	if len(kvs) == 0 {
		return d, nil
	}
	if err := checkMembers("Replace", path, kvs); err != nil {
		return nil, err
	}
	objs, err := d.walk(path)
	if err != nil {
		return nil, err
	}
	if len(objs) != len(path)+1 {
		return nil, errors.New("jsonedit: Replace: the object is missing")
	}
	return d.replace(objs, path, kvs)
}

// replace is Replace on the objects walk found along path.
func (d *Doc) replace(objs []object, path []string, kvs []KeyValue) (*Doc, error) {
	o := objs[len(path)]
	at := o.indexes()
	var ss []textedit.Splice
	for _, kv := range kvs {
		i, ok := at[kv.Key]
		if !ok {
			return nil, fmt.Errorf("jsonedit: Replace: %q is not in the object", kv.Key)
		}
		s, err := d.replaceValue(objs, o.members[i], kv.Value)
		if err != nil {
			return nil, err
		}
		ss = append(ss, s...)
	}
	return d.verifyInsert(ss, objs, path, kvs)
}

// checkMembers checks the keys and values an edit (op) is to write: valid
// UTF-8 keys, each given once, and values that are valid JSON.
func checkMembers(op string, path []string, kvs []KeyValue) error {
	seen := make(map[string]bool, len(kvs))
	for _, kv := range kvs {
		if err := checkKeys(path, kv.Key); err != nil {
			return err
		}
		if seen[kv.Key] {
			return fmt.Errorf("jsonedit: %s: key %q given twice", op, kv.Key)
		}
		seen[kv.Key] = true
		if !validValue(kv.Value) {
			return fmt.Errorf("jsonedit: %s: the value of %q is not valid JSON", op, kv.Key)
		}
	}
	return nil
}

// verifyInsert makes the edit, checks that the result is valid (derive),
// and reads every member back with its value; gjson reads the first one
// back as a second opinion.
func (d *Doc) verifyInsert(ss []textedit.Splice, edited []object, path []string, kvs []KeyValue) (*Doc, error) {
	nd, region, depth, err := d.derive(ss, edited)
	if err != nil {
		return nil, err
	}
	objs, err := nd.walk(path)
	if err != nil || len(objs) != len(path)+1 {
		return nil, fmt.Errorf("jsonedit: internal error: re-reading the edited document: %v", err)
	}
	o := objs[len(path)]
	at := make(map[string]member, len(o.members))
	for _, m := range o.members {
		at[m.key] = m
	}
	for _, kv := range kvs {
		m, ok := at[kv.Key]
		if !ok || !sameJSON(nd.clean[m.valStart:m.valEnd], kv.Value) {
			return nil, fmt.Errorf("jsonedit: internal error: the edited document does not hold the new value of %q", kv.Key)
		}
	}
	rel := append(slices.Clone(path[depth:]), kvs[0].Key)
	if r := gjsonGet(region, rel); !r.Exists() || !sameJSON([]byte(r.Raw), kvs[0].Value) {
		return nil, errors.New("jsonedit: internal error: gjson does not read the new value back")
	}
	return nd, nil
}

// Delete removes the member key from the object at path. If the key or some
// segment of path is missing it returns d itself, bytes unchanged, and no
// error.
//
// Delete exactly undoes (byte for byte) an Insert of a new key into
// an object that already existed and was non-empty, provided that object is
// on one line or there is a line break between its last member (or comment)
// and its closing brace. Emptying an object otherwise leaves {}. A path segment that is not an object is a *TypeError, a duplicate
// key in an object on the path a *DuplicateKeyError.
func (d *Doc) Delete(path []string, key string) (*Doc, error) {
	objs, err := d.walk(path)
	if err != nil {
		return nil, err
	}
	if len(objs) != len(path)+1 {
		return d, nil
	}
	o := objs[len(path)]
	i := o.index(key)
	if i < 0 {
		return d, nil
	}
	return d.verifyDelete(d.removeMember(o, i), objs, path, key)
}

// Depth returns how many leading keys of path lead to objects in the
// document: len(path) when the object at path exists. A segment that is
// not an object is a *TypeError, a duplicate key on the way a
// *DuplicateKeyError.
//
// A null on the way counts as an object (an empty one): it is the user's,
// not something repo creates when it writes the object in its place.
func (d *Doc) Depth(path []string) (int, error) {
	objs, null, err := d.walkNull(path)
	if err != nil {
		return 0, err
	}
	if null >= 0 {
		return len(objs), nil
	}
	return len(objs) - 1, nil
}

// DeleteEmpty removes the object at path from its parent if it is empty:
// no members and nothing but whitespace between its braces (a comment
// there is someone's, and keeps it). It is how a container repo created
// goes once its last entry has: the member goes by the rules of Delete,
// so removing a container Insert created in an object that already existed
// gives back the object's bytes. removed is false, with d itself, when
// the object is missing, not empty, or the top-level one.
func (d *Doc) DeleteEmpty(path []string) (nd *Doc, removed bool, err error) {
	if len(path) == 0 {
		return d, false, nil
	}
	objs, err := d.walk(path)
	if err != nil {
		return nil, false, err
	}
	if len(objs) != len(path)+1 {
		return d, false, nil
	}
	o := objs[len(path)]
	if len(o.members) > 0 || !allWS(d.data[o.open+1:o.close]) {
		return d, false, nil
	}
	parent, key := objs[len(path)-1], path[len(path)-1]
	i := parent.index(key)
	if i < 0 {
		return nil, false, errors.New("jsonedit: internal error: the object is not in its parent")
	}
	nd, err = d.verifyDelete(d.removeMember(parent, i), objs[:len(path)], path[:len(path)-1], key)
	if err != nil {
		return nil, false, err
	}
	return nd, true, nil
}

// validValue reports whether a value to write is valid JSON in valid
// UTF-8 (json.Valid does not check the text of strings; validate does both).
func validValue(v []byte) bool {
	_, ok := validateOnePass(v)
	return ok
}

func checkKeys(path []string, key string) error {
	for _, k := range append(path[:len(path):len(path)], key) {
		if !utf8.ValidString(k) {
			return fmt.Errorf("jsonedit: key %q is not valid UTF-8", k)
		}
	}
	return nil
}

// isInline reports whether the last object of objs is edited in single-line
// style: it is non-empty and on one line, or it is empty and its parent
// object is on one line. An empty top-level object is expanded.
func (d *Doc) isInline(objs []object) bool {
	o := objs[len(objs)-1]
	if len(o.members) > 0 {
		return d.sameLine(o.open, o.close)
	}
	if len(objs) == 1 {
		return false
	}
	p := objs[len(objs)-2]
	return d.sameLine(p.open, p.close)
}

// KeyValue is one member to insert: a literal key and compact JSON.
type KeyValue struct {
	Key   string
	Value []byte
}

// insertMember returns the splices that add key: value to the last object of
// objs, which does not contain key.
func (d *Doc) insertMember(objs []object, key string, value []byte) ([]textedit.Splice, error) {
	return d.insertMembers(objs, []KeyValue{{key, value}})
}

// insertMembers returns the splices that add the members, in order, to the
// last object of objs, which contains none of them. The result is what
// inserting them one at a time would give.
func (d *Doc) insertMembers(objs []object, kvs []KeyValue) ([]textedit.Splice, error) {
	if d.isInline(objs) {
		return d.insertInline(objs, kvs), nil
	}
	return d.insertMultiline(objs, kvs)
}

// insertMultiline adds the members on lines of their own (see the rules at
// the top of this file).
func (d *Doc) insertMultiline(objs []object, kvs []KeyValue) ([]textedit.Splice, error) {
	o := objs[len(objs)-1]
	nl, unit := d.newline(), d.indentUnit(objs)
	openIndent := d.lineIndent(o.open)
	indent := d.childIndent(o, openIndent, unit)
	trailing := false
	var ss []textedit.Splice
	if n := len(o.members); n > 0 {
		last := o.members[n-1]
		if d.commaAfter(last.valEnd, o.close) >= 0 {
			trailing = true // keep the trailing-comma style
		} else {
			ss = append(ss, textedit.Splice{At: last.valEnd, Ins: []byte{','}})
		}
	}
	// The members are rendered first, and the text inserted is then built
	// in one buffer of its final size: grown member by member, it was
	// allocated four times over (a first sync of 20 servers: 0.8 MB).
	ms := make([][]byte, len(kvs))
	size := 0
	for i, kv := range kvs {
		m, err := renderMember(quoteKey(kv.Key), kv.Value, indent, unit, nl)
		if err != nil {
			return nil, err
		}
		ms[i] = m
		size += len(m) + 1 + len(nl) + len(indent)
	}
	members := func(prefix []byte, suffix ...[]byte) []byte {
		n := len(prefix) + len(indent) + size + 1
		for _, x := range suffix {
			n += len(x)
		}
		b := make([]byte, 0, n)
		b = append(b, prefix...)
		b = append(b, indent...)
		for i, m := range ms {
			if i > 0 {
				b = append(b, ',')
				b = append(b, nl...)
				b = append(b, indent...)
			}
			b = append(b, m...)
		}
		if trailing {
			b = append(b, ',')
		}
		for _, x := range suffix {
			b = append(b, x...)
		}
		return b
	}

	// q: just past the last non-whitespace byte before the closing brace (the
	// last member, its comma, or a comment).
	q := o.close
	for q > o.open+1 && isWS(d.data[q-1]) {
		q--
	}
	if i := bytes.IndexByte(d.data[q:o.close], '\n'); i >= 0 {
		// The brace is on a later line: open a new line just before the
		// first line break, reusing that line break's bytes so that deleting
		// the member again restores the file exactly. Inserting before the
		// break (not after) also ends a // comment there correctly.
		at, br := q+i, []byte("\n")
		if at > q && d.data[at-1] == '\r' {
			at, br = at-1, []byte("\r\n")
		}
		return append(ss, textedit.Splice{At: at, Ins: members(br)}), nil
	}
	// The brace is on the same line as the last member or the '{': put the
	// member and the brace on lines of their own.
	return append(ss, textedit.Splice{At: q, Del: o.close - q, Ins: members([]byte(nl), []byte(nl), []byte(openIndent))}), nil
}

// insertInline appends the members in single-line style.
func (d *Doc) insertInline(objs []object, kvs []KeyValue) []textedit.Splice {
	o := objs[len(objs)-1]
	colon := d.colonStyle(objs)
	sep := d.separatorStyle(o, colon)
	var member []byte
	for i, kv := range kvs {
		if i > 0 {
			member = append(member, sep...)
		}
		member = append(member, slices.Concat(quoteKey(kv.Key), colon, compact(kv.Value))...)
	}
	n := len(o.members)
	if n == 0 {
		return []textedit.Splice{{At: o.open + 1, Ins: member}}
	}
	last := o.members[n-1]
	if c := d.commaAfter(last.valEnd, o.close); c >= 0 {
		// After the trailing comma, with a trailing comma of its own.
		return []textedit.Splice{{At: c + 1, Ins: slices.Concat(sep[1:], member, []byte{','})}}
	}
	return []textedit.Splice{{At: last.valEnd, Ins: slices.Concat(sep, member)}}
}

// colonStyle returns what separates a key from its value in the nearest
// object of objs that has members, if it is plain (":" with optional blanks);
// else ":".
func (d *Doc) colonStyle(objs []object) []byte {
	for i := len(objs) - 1; i >= 0; i-- {
		if len(objs[i].members) == 0 {
			continue
		}
		m := objs[i].members[0]
		s := d.data[m.keyEnd:m.valStart]
		if bytes.Count(s, []byte{':'}) == 1 && allBlank(bytes.Replace(s, []byte{':'}, nil, 1)) {
			return s
		}
		break
	}
	return []byte{':'}
}

// separatorStyle returns what separates the object's first two members if it
// is a comma followed by blanks; else ", " or "," to match colon.
func (d *Doc) separatorStyle(o object, colon []byte) []byte {
	if len(o.members) >= 2 {
		s := d.data[o.members[0].valEnd:o.members[1].keyStart]
		if len(s) > 0 && s[0] == ',' && allBlank(s[1:]) {
			return s
		}
	}
	if bytes.HasSuffix(colon, []byte{' '}) {
		return []byte(", ")
	}
	return []byte{','}
}

// childIndent returns the indentation for a new member of o: that of the
// last member that starts its own line, else the brace's line plus one unit.
func (d *Doc) childIndent(o object, openIndent, unit string) string {
	for i := len(o.members) - 1; i >= 0; i-- {
		if ks := o.members[i].keyStart; d.startsLine(ks) {
			return d.lineIndent(ks)
		}
	}
	return openIndent + unit
}

// commaAfter returns the offset of the comma that follows a value ending at
// from (skipping whitespace and comments, before limit), or -1.
func (d *Doc) commaAfter(from, limit int) int {
	if i := skipTrivia(d.data, from, limit); i < limit && d.data[i] == ',' {
		return i
	}
	return -1
}

// replaceValue returns the splice that replaces m's value in o. Only the
// value's bytes change.
func (d *Doc) replaceValue(objs []object, m member, value []byte) ([]textedit.Splice, error) {
	o := objs[len(objs)-1]
	var v []byte
	if d.sameLine(o.open, o.close) {
		v = compact(value)
	} else {
		unit := d.indentUnit(objs)
		indent := d.childIndent(o, d.lineIndent(o.open), unit)
		if d.startsLine(m.keyStart) {
			indent = d.lineIndent(m.keyStart)
		}
		var err error
		v, err = renderValue(d.data[m.keyStart:m.keyEnd], value, indent, unit, d.newline())
		if err != nil {
			return nil, err
		}
	}
	return []textedit.Splice{{At: m.valStart, Del: m.valEnd - m.valStart, Ins: v}}, nil
}

// removeMember returns the splices that delete o.members[i] (see the rules at
// the top of this file, and cutMember).
func (d *Doc) removeMember(o object, i int) []textedit.Splice {
	m := o.members[i]
	lo, hi := o.open+1, o.close
	if i > 0 {
		lo = o.members[i-1].valEnd
	}
	if i+1 < len(o.members) {
		hi = o.members[i+1].keyStart
	}
	c := cutMember(d.data[lo:m.keyStart], d.data[m.valEnd:hi], i == 0, i == len(o.members)-1, len(o.members) == 1)
	if c.all {
		return []textedit.Splice{{At: o.open + 1, Del: o.close - o.open - 1}}
	}
	var ss []textedit.Splice
	if c.comma >= 0 {
		ss = append(ss, textedit.Splice{At: lo + c.comma, Del: 1})
	}
	return append(ss, textedit.Splice{At: lo + c.from, Del: m.valEnd + c.to - (lo + c.from)})
}

// gapCut is what deleting a member takes from the text around it: before
// is the text between the previous member's value (or the '{') and the
// member's key, after the text between its value and the next member's key
// (or the '}'). The member goes with before[from:] and after[:to]; comma,
// when >= 0, is the previous member's comma in before, which goes too (the
// member was the last, with no comma of its own); all: nothing but
// whitespace would be left, and everything between the braces goes.
type gapCut struct {
	from, to, comma int
	all             bool
}

// cutMember applies the deletion rules to the text around a member: first,
// last and only say where the member stands among those left. Every rule
// looks no further than the two texts (a comment never crosses a member,
// and a member's first and last bytes are never blank), which is what lets
// DeleteAll delete many members without a document per step.
func cutMember(before, after []byte, first, last, only bool) gapCut {
	c := gapCut{from: len(before), comma: -1}
	comma := -1
	if i := skipTrivia(after, 0, len(after)); i < len(after) && after[i] == ',' {
		comma, c.to = i, i+1
	}
	if from, to, ok := ownLines(before, after, c.to); ok {
		c.from, c.to = from, to
	} else {
		// Take the blanks on one side with the member: `{"a": 1, "b": 2}`
		// loses "a": 1 and the space after its comma.
		e := c.to
		for e < len(after) && isBlank(after[e]) {
			e++
		}
		if e > c.to && !last {
			c.to = e
		} else {
			for c.from > 0 && isBlank(before[c.from-1]) {
				c.from--
			}
		}
	}
	if last && comma < 0 && !first {
		// The previous member becomes the last one: drop its comma.
		if pc := skipTrivia(before, 0, len(before)); pc < len(before) && before[pc] == ',' {
			c.comma = pc
		}
	}
	// Nothing but whitespace would be left: write {}.
	c.all = only && allWS(before[:c.from]) && allWS(after[c.to:])
	return c
}

// ownLines reports whether the member between before and after (its comma,
// up to to in after, included) has its lines to itself: only blanks before
// it on its first line, and only blanks and possibly a // comment after it
// on its last line. If so it returns where those whole lines start in
// before and end in after, line break included. A member without a line
// break in before shares its line with the '{' or the previous member.
func ownLines(before, after []byte, to int) (from, end int, ok bool) {
	nl := bytes.LastIndexByte(before, '\n')
	if nl < 0 || !allBlank(before[nl+1:]) {
		return 0, 0, false
	}
	r := to
	for r < len(after) && isBlank(after[r]) {
		r++
	}
	if r+1 < len(after) && after[r] == '/' && after[r+1] == '/' {
		r = commentEnd(after, r, len(after))
	}
	switch {
	case r < len(after) && after[r] == '\n':
		return nl + 1, r + 1, true
	case r+1 < len(after) && after[r] == '\r' && after[r+1] == '\n':
		return nl + 1, r + 2, true
	}
	return 0, 0, false
}

// verifyDelete makes the edit, checks that the result is valid (derive),
// that path still exists and that key is gone.
func (d *Doc) verifyDelete(ss []textedit.Splice, edited []object, path []string, key string) (*Doc, error) {
	nd, _, _, err := d.derive(ss, edited)
	if err != nil {
		return nil, err
	}
	objs, err := nd.walk(path)
	if err != nil {
		return nil, fmt.Errorf("jsonedit: internal error: re-reading the edited document: %w", err)
	}
	if len(objs) != len(path)+1 || objs[len(path)].index(key) >= 0 {
		return nil, errors.New("jsonedit: internal error: the member is still there after deleting it")
	}
	return nd, nil
}

// derive applies splices to the last object of edited (the object the
// edit is in) and returns the new document, after checking that it is
// valid. When every splice falls between that object's braces, which is
// how every edit of this package is made, only the object is checked
// again: the document was valid, the object was one value in it, and JSON
// has no context beyond a value's boundaries, so a valid object in its
// place leaves a valid document. Editing one entry of a 100 MB
// ~/.claude.json then costs what the entry's object costs, not a second
// pass over the file. Otherwise the whole result is parsed again.
//
// It also returns the clean bytes that were checked and how many keys of
// the edit's path lead to them, for reading the edit back.
func (d *Doc) derive(ss []textedit.Splice, edited []object) (nd *Doc, region []byte, depth int, err error) {
	invalid := func(err error) error {
		return fmt.Errorf("jsonedit: internal error: the edit would produce an invalid document (%v)", err)
	}
	o := edited[len(edited)-1]
	delta, inside := 0, true
	for _, s := range ss {
		delta += len(s.Ins) - s.Del
		if s.At <= o.open || s.At+s.Del > o.close {
			inside = false
		}
	}
	out, err := textedit.Apply(d.data, ss)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("jsonedit: internal error: %w", err)
	}
	if !inside {
		if nd, err = parse(out, d.dialect); err != nil {
			return nil, nil, 0, invalid(err)
		}
		return nd, nd.clean, 0, nil
	}
	end := o.close + 1 + delta
	raw := out[o.open:end]
	region = raw
	aliased := &d.clean[0] == &d.data[0] // strict JSON without a BOM: clean is data
	if !aliased {
		if region, err = stripComments(raw, 0); err != nil {
			return nil, nil, 0, invalid(err)
		}
		p := problem{off: -1}
		checkDialect(&p, raw, region, 0, d.dialect)
		if p.off >= 0 {
			return nil, nil, 0, invalid(syntaxErrorAt(out, d.bom, o.open+p.off, p.msg))
		}
	}
	inner, ok := validate(region)
	if !ok || region[0] != '{' || region[len(region)-1] != '}' {
		off, msg := jsonError(region, d.dialect)
		return nil, nil, 0, invalid(syntaxErrorAt(out, d.bom, o.open+off, msg))
	}
	nd = &Doc{dialect: d.dialect, data: out, clean: out, bom: d.bom, root: d.root,
		idx: d.idx.shift(o.open, o.close+1, len(region), inner)}
	if !aliased {
		nd.clean = slices.Concat(d.clean[:o.open], region, d.clean[o.close+1:])
	}
	return nd, region, len(edited) - 1, nil
}

// sameJSON reports whether a and b decode to equal values (numbers compared
// by their text, so 1 and 1.0 differ).
func sameJSON(a, b []byte) bool {
	if bytes.Equal(a, b) || compactEqual(a, b) {
		return true // the same text once whitespace is gone: the common case
	}
	return jsonvalue.Equal(a, b, jsonvalue.SameText)
}
