package jsonedit

import (
	"bytes"
	"errors"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/pretty"
)

// prettyWidth is the line width up to which an array of scalars is written on
// one line ("args": ["-y", "server"]); tidwall/pretty's default.
const prettyWidth = 80

// newline returns the file's line break: "\r\n" if its first line ends with
// one, else "\n" (also for a file with no line break at all).
func (d *Doc) newline() []byte {
	i := bytes.IndexByte(d.data, '\n')
	if i > 0 && d.data[i-1] == '\r' {
		return []byte("\r\n")
	}
	return []byte("\n")
}

// indentUnit returns the indentation unit to use inside the last object of
// objs. It is learnt from the nearest object (innermost first) that has a
// member on a line of its own indented deeper than the object's '{' line: the
// difference is the unit. Failing that, the whole file is looked at
// (fileIndentUnit).
func (d *Doc) indentUnit(objs []object) string {
	for i := len(objs) - 1; i >= 0; i-- {
		o := objs[i]
		open := d.lineIndent(o.open)
		for _, m := range o.members {
			if !d.startsLine(m.keyStart) {
				continue
			}
			in := d.lineIndent(m.keyStart)
			if u, ok := strings.CutPrefix(in, open); ok && isUnit(u) {
				return u
			}
			break
		}
	}
	return d.fileIndentUnit()
}

// isUnit accepts one tab or 1 to 8 spaces.
func isUnit(u string) bool {
	return u == "\t" || (len(u) >= 1 && len(u) <= 8 && strings.Trim(u, " ") == "")
}

// maxUnitLines bounds the lines fileIndentUnit looks at, so a huge minified
// file costs one scan at most.
const maxUnitLines = 1000

// fileIndentUnit detects the file's indentation unit from its first lines
// that start with indented JSON (not a comment, not inside one): "\t" if the
// first of them starts with a tab, else the smallest run of spaces (1 to 8).
// It defaults to two spaces, for example for minified JSON or New's "{}\n".
func (d *Doc) fileIndentUnit() string {
	best := 0
	for ls, n := d.bom, 0; ls < len(d.data) && n < maxUnitLines; n++ {
		le := bytes.IndexByte(d.data[ls:], '\n')
		if le < 0 {
			le = len(d.data)
		} else {
			le += ls
		}
		i := ls
		for i < le && isBlank(d.data[i]) {
			i++
		}
		// data == clean at i means i is JSON, not a comment (jsonc blanks
		// comments). Trailing commas are blanked too; a line starting with
		// one is skipped, which is harmless.
		if i > ls && i < le && d.data[i] != '\r' && d.data[i] == d.clean[i] {
			if d.data[ls] == '\t' {
				if best == 0 {
					return "\t"
				}
			} else if sp := i - ls; d.data[i-1] == ' ' && (best == 0 || sp < best) && isUnit(string(d.data[ls:i])) {
				best = sp
			}
		}
		ls = le + 1
	}
	if best == 0 {
		return "  "
	}
	return strings.Repeat(" ", best)
}

// lineStart returns the offset of the first byte of the line holding off
// (after the BOM on the first line).
func (d *Doc) lineStart(off int) int {
	ls := bytes.LastIndexByte(d.data[:off], '\n') + 1
	if ls < d.bom {
		ls = d.bom
	}
	return ls
}

// lineIndent returns the spaces and tabs that start the line holding off.
func (d *Doc) lineIndent(off int) string {
	ls := d.lineStart(off)
	i := ls
	for i < off && isBlank(d.data[i]) {
		i++
	}
	return string(d.data[ls:i])
}

// startsLine reports whether only spaces and tabs precede off on its line.
func (d *Doc) startsLine(off int) bool {
	return allBlank(d.data[d.lineStart(off):off])
}

// sameLine reports whether offsets a <= b are on the same line.
func (d *Doc) sameLine(a, b int) bool {
	return bytes.IndexByte(d.data[a:b], '\n') < 0
}

// renderMember renders `"key": value` for a member whose line is indented by
// indent: the value is pretty-printed by tidwall/pretty, nested lines indented
// by indent plus multiples of unit, lines joined by nl. rawKey is the quoted
// key as it appears (or will appear) in the file.
//
// pretty decides whether an array fits on one line from the column where it
// starts, so the member is rendered inside a wrapper object: then pretty sees
// the key in front of a top-level array too. The wrapper's extra level of
// indentation is taken off again, and the width is widened by the same amount
// so the decisions are those of a member rendered in place. Rendering a member
// is therefore a pure function of (indent, unit, key, value), which makes a
// repeated identical Replace a byte-for-byte no-op.
func renderMember(rawKey, value []byte, indent, unit string, nl []byte) ([]byte, error) {
	wrapped := make([]byte, 0, len(rawKey)+len(value)+3)
	wrapped = append(wrapped, '{')
	wrapped = append(wrapped, rawKey...)
	wrapped = append(wrapped, ':')
	wrapped = append(wrapped, value...)
	wrapped = append(wrapped, '}')
	out := pretty.PrettyOptions(wrapped, &pretty.Options{
		Width:  prettyWidth + len(unit),
		Prefix: indent,
		Indent: unit,
	})
	// out is: indent "{" \n (indent unit member-line \n)+ indent "}" \n.
	// Keep the member lines, one indent unit less, joined by nl.
	body := bytes.TrimSuffix(out, []byte("\n"))
	first, last := bytes.IndexByte(body, '\n'), bytes.LastIndexByte(body, '\n')
	if first < 0 || last == first {
		return nil, errors.New("jsonedit: unexpected pretty-printer output")
	}
	inner := indent + unit
	lines := body[first+1 : last]
	// The lines are re-indented where they are, in pretty's buffer: each
	// loses "\n" and inner, and gains nl and indent, which is no more when
	// nl is at most one byte longer than unit, so the text written never
	// reaches the text still to read. A new buffer for them was a
	// twentieth of what a first sync allocates.
	dst := body[first+1:]
	if len(nl) > 1+len(unit) {
		dst = make([]byte, len(lines)+bytes.Count(lines, []byte{'\n'})*(len(nl)+len(indent)))
	}
	w := 0
	for i := 0; ; i++ {
		line, rest, more := bytes.Cut(lines, []byte{'\n'})
		if !bytes.HasPrefix(line, []byte(inner)) {
			return nil, errors.New("jsonedit: unexpected pretty-printer output")
		}
		if i > 0 {
			w += copy(dst[w:], nl)
			w += copy(dst[w:], indent)
		}
		w += copy(dst[w:], line[len(inner):])
		if !more {
			return dst[:w:w], nil
		}
		lines = rest
	}
}

// renderValue renders value as it appears after `"key": ` in renderMember.
func renderValue(rawKey, value []byte, indent, unit string, nl []byte) ([]byte, error) {
	m, err := renderMember(rawKey, value, indent, unit, nl)
	if err != nil {
		return nil, err
	}
	head := len(rawKey) + len(": ")
	if len(m) < head || !bytes.HasPrefix(m, rawKey) {
		return nil, errors.New("jsonedit: unexpected pretty-printer output")
	}
	return m[head:], nil
}

// quoteKey encodes s (valid UTF-8) as a JSON string, escaping only what JSON
// requires: non-ASCII text stays readable.
func quoteKey(s string) []byte {
	const hex = "0123456789abcdef"
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// nestMany wraps the members in one object per segment: nestMany([a b],
// [k: v]) is {"a":{"b":{"k":v}}}. It builds the value inserted when
// parents are missing.
func nestMany(segments []string, kvs []KeyValue) []byte {
	var b []byte
	for _, s := range segments {
		b = append(b, '{')
		b = append(b, quoteKey(s)...)
		b = append(b, ':')
	}
	b = append(b, '{')
	for i, kv := range kvs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, quoteKey(kv.Key)...)
		b = append(b, ':')
		b = append(b, kv.Value...)
	}
	b = append(b, '}')
	for range segments {
		b = append(b, '}')
	}
	return b
}

// PathSegment escapes one literal key for use as a component of a gjson or
// sjson path. It is the one escaping function: the paths this package builds
// are made of its output (see getPath for the one exception). The rules
// (aesthetics.md §4):
//
//  1. gjson.Escape(k) backslash-escapes every byte except [A-Za-z0-9_:-],
//     bytes <= ' ' and bytes > '~';
//  2. a result starting with ':' gets a '\' in front, because sjson strips a
//     leading ':' (the "force an object key" marker);
//  3. an all-digit key or "-1" becomes ":"+k, because sjson would otherwise
//     create an array (or append) when the parent object is missing.
//
// Rule 3 is sjson-only: gjson has no ':' marker and would look for the key
// ":42", so gjson reads of such keys use the key as is, which gjson matches
// against object keys. The empty key escapes to "", which gjson reads fine
// but sjson cannot create under a missing parent (it makes an array). This
// package locates members with its own scanner and uses gjson only to
// cross-check edits; it never writes with sjson. TestPathSegmentRoundTrip
// verifies all of this.
func PathSegment(k string) string {
	if isIndexLike(k) {
		return ":" + k
	}
	e := gjson.Escape(k)
	if strings.HasPrefix(e, ":") {
		e = `\` + e
	}
	return e
}

// isIndexLike reports whether sjson would read k as an array index.
func isIndexLike(k string) bool {
	if k == "-1" {
		return true
	}
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return false
		}
	}
	return true
}

// getPath joins literal keys into a gjson (read) path: PathSegment, except
// that all-digit keys and "-1" are used as they are (rule 3 is sjson-only).
func getPath(keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		if isIndexLike(k) {
			parts[i] = k // gjson: an all-digit component matches the object key
		} else {
			parts[i] = PathSegment(k)
		}
	}
	return strings.Join(parts, ".")
}

// gjsonGet reads the value at keys with gjson. A path whose first two keys
// are empty would start with "..", which gjson reads as JSON Lines syntax, so
// leading empty keys are read one at a time.
func gjsonGet(json []byte, keys []string) gjson.Result {
	if len(keys) < 2 || keys[0] != "" || keys[1] != "" {
		return gjson.GetBytes(json, getPath(keys))
	}
	r := gjson.GetBytes(json, "")
	for keys = keys[1:]; len(keys) >= 2 && keys[0] == "" && keys[1] == ""; keys = keys[1:] {
		r = r.Get("")
	}
	return r.Get(getPath(keys))
}
