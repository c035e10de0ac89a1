package jsonedit

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"slices"
)

// The scanners below run on the clean copy, which validate has accepted,
// so they can be simple. They still stay inside the slice bounds so that a
// bug shows up as a failed validation rather than a panic.

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func skipWS(b []byte, i int) int {
	for i < len(b) && isWS(b[i]) {
		if b[i] == '\n' { // then, in a pretty-printed file, the indentation
			for i+9 <= len(b) && binary.LittleEndian.Uint64(b[i+1:]) == ones*' ' {
				i += 8
			}
		}
		i++
	}
	return i
}

// lastNonWS returns the offset of the last non-whitespace byte before i, or -1.
func lastNonWS(b []byte, i int) int {
	for i--; i >= 0 && isWS(b[i]); i-- {
	}
	return i
}

func allBlank(b []byte) bool {
	for _, c := range b {
		if !isBlank(c) {
			return false
		}
	}
	return true
}

func allWS(b []byte) bool {
	for _, c := range b {
		if !isWS(c) {
			return false
		}
	}
	return true
}

// stringEnd returns the offset just past the string that starts at b[i] == '"'.
// It jumps from quote to quote (bytes.IndexByte is vectorised): a
// ~/.claude.json is mostly long strings, and this is its hottest loop.
func stringEnd(b []byte, i int) int {
	for i++; i < len(b); {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return len(b)
		}
		q := i + j
		// The quote is escaped when an odd number of backslashes precede it.
		k := q
		for k > i && b[k-1] == '\\' {
			k--
		}
		if (q-k)%2 == 0 {
			return q + 1
		}
		i = q + 1
	}
	return len(b)
}

// valueEnd returns the offset just past the value that starts at b[i].
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return len(b)
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = stringEnd(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	default: // number, true, false, null
		for i < len(b) && !isWS(b[i]) && b[i] != ',' && b[i] != '}' && b[i] != ']' {
			i++
		}
		return i
	}
}

// commentEnd returns the offset just past the comment starting at data[i]
// ("//" or "/*"), without going past limit. Like jsonc.ToJSON, a line comment
// ends before its '\n' and a block comment after "*/".
func commentEnd(data []byte, i, limit int) int {
	if data[i+1] == '/' {
		if j := bytes.IndexByte(data[i:limit], '\n'); j >= 0 {
			return i + j
		}
		return limit
	}
	if j := bytes.Index(data[i+2:limit], []byte("*/")); j >= 0 {
		return i + 2 + j + 2
	}
	return limit
}

// skipTrivia skips whitespace and comments in the ORIGINAL bytes, starting
// between two tokens, and returns the offset of the next other byte (or limit).
func skipTrivia(data []byte, i, limit int) int {
	for i < limit {
		switch {
		case isWS(data[i]):
			i++
		case data[i] == '/' && i+1 < limit && (data[i+1] == '/' || data[i+1] == '*'):
			i = commentEnd(data, i, limit)
		default:
			return i
		}
	}
	return limit
}

// member is one key/value pair of an object, as offsets into the document.
type member struct {
	key              string // decoded
	keyStart, keyEnd int    // the quoted key
	valStart, valEnd int
}

// object is an object's braces and members, in document order.
type object struct {
	open, close int // offsets of '{' and '}'
	members     []member
}

// index returns the position of key among the members, or -1.
func (o *object) index(key string) int {
	return slices.IndexFunc(o.members, func(m member) bool { return m.key == key })
}

// indexes maps each key to its position among the members (the first,
// should one be there twice), for an edit of many members: an index of
// each would grow with the square of the object.
func (o *object) indexes() map[string]int {
	at := make(map[string]int, len(o.members))
	for i := len(o.members) - 1; i >= 0; i-- {
		at[o.members[i].key] = i
	}
	return at
}

// valueEnd is valueEnd on the document's clean copy, skipping a large
// container in one step when the index knows it: the projects object of a
// ~/.claude.json is most of the file, and a walk crosses it member by
// member.
func (d *Doc) valueEnd(i int) int {
	if i < len(d.clean) && (d.clean[i] == '{' || d.clean[i] == '[') {
		if end, ok := d.idx.end(i); ok {
			return end
		}
	}
	return valueEnd(d.clean, i)
}

// readObject reads the object whose '{' is at clean[open].
func (d *Doc) readObject(open int) object {
	clean := d.clean
	o := object{open: open}
	i := skipWS(clean, open+1)
	for i < len(clean) && clean[i] != '}' {
		if clean[i] != '"' { // the ',' between members
			i = skipWS(clean, i+1)
			continue
		}
		m := member{keyStart: i, keyEnd: stringEnd(clean, i)}
		m.key = decodeKey(clean[m.keyStart:m.keyEnd])
		i = skipWS(clean, m.keyEnd) // at ':'
		m.valStart = skipWS(clean, i+1)
		m.valEnd = d.valueEnd(m.valStart)
		o.members = append(o.members, m)
		i = skipWS(clean, m.valEnd)
	}
	o.close = i
	return o
}

// decodeKey decodes a quoted JSON string.
func decodeKey(raw []byte) string {
	if len(raw) >= 2 && bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	_ = json.Unmarshal(raw, &s) // raw is valid: validate accepted the document
	return s
}

// walk descends from the top-level object along path. objs[i] is the object
// at path[:i]; when fewer than len(path)+1 objects come back, path[len(objs)-1]
// is missing. Every object it looks into is checked for duplicate keys, and a
// segment whose value is not an object is a *TypeError.
//
// A segment whose value is null counts as missing (Zed writes
// "context_servers": null): there is nothing in it to read, and Insert
// writes the object in the null's place.
func (d *Doc) walk(path []string) ([]object, error) {
	objs, _, err := d.walkNull(path)
	return objs, err
}

// walkNull is walk that also says where it stopped at a null: the index,
// in the last object it returns, of the member whose value is null, or -1.
func (d *Doc) walkNull(path []string) (_ []object, null int, _ error) {
	objs := make([]object, 0, len(path)+1)
	o := d.readObject(d.root)
	for i := 0; ; i++ {
		if err := d.checkDuplicates(&o, path[:i]); err != nil {
			return nil, -1, err
		}
		objs = append(objs, o)
		if i == len(path) {
			return objs, -1, nil
		}
		j := o.index(path[i])
		if j < 0 {
			return objs, -1, nil
		}
		m := o.members[j]
		if m.valStart >= len(d.clean) {
			return nil, -1, errors.New("jsonedit: internal error: value out of range")
		}
		if d.clean[m.valStart] == 'n' {
			return objs, j, nil
		}
		if d.clean[m.valStart] != '{' {
			line, col := position(d.data, d.bom, m.valStart)
			return nil, -1, &TypeError{Path: slices.Clone(path[:i+1]), Got: typeName(d.clean[m.valStart]), Line: line, Col: col}
		}
		o = d.readObject(m.valStart)
	}
}

func (d *Doc) checkDuplicates(o *object, path []string) error {
	if len(o.members) < 2 {
		return nil
	}
	seen := make(map[string]struct{}, len(o.members))
	for _, m := range o.members {
		if _, dup := seen[m.key]; dup {
			line, col := position(d.data, d.bom, m.keyStart)
			return &DuplicateKeyError{Path: slices.Clone(path), Key: m.key, Line: line, Col: col}
		}
		seen[m.key] = struct{}{}
	}
	return nil
}

// Member is one member of an object, as returned by Object.
type Member struct {
	Key   string // decoded key
	Value []byte // the value as compact strict JSON (comments and trailing commas removed)
	Line  int    // 1-based line where the key starts
}

// Object returns the members of the object at path, in document order. path
// is a list of literal keys (no gjson syntax: every byte is literal); an empty
// path means the top-level object. found is false (with a nil error) when some
// segment is missing. A segment that exists but is not an object is a
// *TypeError; a duplicate key in any object on the way, the final one
// included, is a *DuplicateKeyError.
func (d *Doc) Object(path []string) (members []Member, found bool, err error) {
	return d.object(path, true)
}

// Members is Object without the line numbers (Line is 0): numbering an
// entry in the middle of a 100 MB ~/.claude.json means counting the line
// breaks of the 50 MB before it, a tenth of checking the whole file, for
// a number only an error message needs (see MemberLine).
func (d *Doc) Members(path []string) (members []Member, found bool, err error) {
	return d.object(path, false)
}

func (d *Doc) object(path []string, numbered bool) (members []Member, found bool, err error) {
	objs, err := d.walk(path)
	if err != nil {
		return nil, false, err
	}
	if len(objs) != len(path)+1 {
		return nil, false, nil
	}
	o := objs[len(path)]
	members = make([]Member, 0, len(o.members))
	lines := lineCounter{data: d.data}
	for _, m := range o.members {
		member := Member{Key: m.key, Value: compact(d.clean[m.valStart:m.valEnd])}
		if numbered {
			member.Line = lines.lineAt(m.keyStart)
		}
		members = append(members, member)
	}
	return members, true, nil
}

// MemberLine returns the 1-based line where key starts in the object at
// path, or 0 if it is not there.
func (d *Doc) MemberLine(path []string, key string) int {
	objs, err := d.walk(path)
	if err != nil || len(objs) != len(path)+1 {
		return 0
	}
	o := objs[len(path)]
	if i := o.index(key); i >= 0 {
		lines := lineCounter{data: d.data}
		return lines.lineAt(o.members[i].keyStart)
	}
	return 0
}

// compactEqual reports whether compact(a) and compact(b) are equal, without
// making either: an insertion checks each member it wrote this way
// (verifyInsert), and compacting both sides was a third of that check.
func compactEqual(a, b []byte) bool {
	i, j := 0, 0
	for {
		for i < len(a) && isWS(a[i]) {
			i++
		}
		for j < len(b) && isWS(b[j]) {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i] != b[j] {
			return false
		}
		if a[i] == '"' {
			ea, eb := stringEnd(a, i), stringEnd(b, j)
			if !bytes.Equal(a[i:ea], b[j:eb]) {
				return false
			}
			i, j = ea, eb
			continue
		}
		i++
		j++
	}
}

// compact returns v, which must be valid JSON, without insignificant
// whitespace: json.Compact's output (TestCompactMatchesEncodingJSON), at a
// fraction of its cost — Object compacts every entry of every file on
// every run.
func compact(v []byte) []byte {
	out := make([]byte, 0, len(v))
	for i := 0; i < len(v); {
		switch c := v[i]; {
		case c == '"':
			end := stringEnd(v, i)
			out = append(out, v[i:end]...)
			i = end
		case isWS(c):
			i++
		default:
			out = append(out, c)
			i++
		}
	}
	return out
}
