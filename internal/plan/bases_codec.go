package plan

import (
	"maps"
	"slices"
	"unicode/utf8"
)

// The bases file's text, without reflection. The file is
// json.MarshalIndent(basesFile, "", "  ") and a newline (files written by
// earlier versions stay byte for byte); a sync reads it and plans it anew
// on every run, and encoding/json's reflection and second, indenting pass
// made that about a twentieth of a first sync's instructions.
// bases_codec_test.go checks both directions against encoding/json.

// appendBases appends f as json.MarshalIndent(f, "", "  ") renders it,
// and a newline: map keys sorted, empty sections left out (omitempty),
// strings escaped as encoding/json does (HTML characters included).
func appendBases(b []byte, f *basesFile) []byte {
	b = append(b, "{\n  \"version\": "...)
	b = appendInt(b, f.Version)
	b = append(b, ",\n  \"root\": "...)
	b = appendJSONString(b, f.Root)
	b = appendBasesSection(b, "workspace", f.Workspace)
	b = appendBasesSection(b, "user", f.User)
	return append(b, "\n}\n"...)
}

func appendBasesSection(b []byte, name string, m map[string]string) []byte {
	if len(m) == 0 {
		return b
	}
	b = append(b, ",\n  \""...)
	b = append(b, name...)
	b = append(b, "\": {"...)
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		b = appendJSONString(b, k)
		b = append(b, ": "...)
		b = appendJSONString(b, m[k])
	}
	return append(b, "\n  }"...)
}

// basesSize is about the length of f's text, to allocate it once.
func basesSize(f *basesFile) int {
	n := 64 + len(f.Root)
	for _, m := range []map[string]string{f.Workspace, f.User} {
		for k, v := range m {
			n += 16 + len(k) + len(v) + len(v)/8 // escaped quotes
		}
	}
	return n
}

func appendInt(b []byte, n int) []byte {
	if n < 0 {
		b = append(b, '-')
		n = -n // the version: never the smallest int
	}
	var digits [20]byte
	i := len(digits)
	for {
		i--
		digits[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return append(b, digits[i:]...)
}

// jsonHex is encoding/json's hex alphabet (lower case).
const jsonHex = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json does with HTML
// escaping on (Marshal's default): \" \\ \b \f \n \r \t, \u00XX for the
// other control characters and for < > &, \ufffd for each byte that is
// not UTF-8, \u2028 and \u2029.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonSafe(c) {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', jsonHex[c>>4], jsonHex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', jsonHex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// jsonSafe reports an ASCII byte encoding/json writes as is with HTML
// escaping on: printable, and none of " \ < > &.
func jsonSafe(c byte) bool { return jsonSafeSet[c] }

var jsonSafeSet = func() (set [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		set[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return set
}()

// decodeCanonicalBases reads data as appendBases writes it, byte for byte,
// and nothing else: another layout, an escape the encoder does not write,
// raw text it would escape, keys out of order or twice, another version,
// anything after the last brace — each gives ok false, and readBasesFile
// then reads the file with encoding/json as before. So for every file
// this reader takes, encoding/json reads the same, and appendBases gives
// the file's bytes back (FuzzBasesDecode checks both): a store the plan
// leaves as it was is known unchanged without encoding it again.
func decodeCanonicalBases(data []byte) (f basesFile, ok bool) {
	r := canonReader{data: data}
	if !r.lit("{\n  \"version\": 1,\n  \"root\": ") {
		return f, false
	}
	f.Version = 1
	if f.Root, ok = r.str(); !ok {
		return f, false
	}
	if r.lit(",\n  \"workspace\": {") {
		if f.Workspace, ok = r.section(); !ok {
			return f, false
		}
	}
	if r.lit(",\n  \"user\": {") {
		if f.User, ok = r.section(); !ok {
			return f, false
		}
	}
	if !r.lit("\n}\n") || r.pos != len(data) {
		return f, false
	}
	return f, true
}

// canonReader reads the bases file's text as appendBases writes it.
type canonReader struct {
	data []byte
	pos  int
	buf  []byte // the text of a string with escapes, unescaped
}

// lit consumes s if the text goes on with it.
func (r *canonReader) lit(s string) bool {
	if len(r.data)-r.pos < len(s) || string(r.data[r.pos:r.pos+len(s)]) != s {
		return false
	}
	r.pos += len(s)
	return true
}

// section reads the members of a section after its opening brace, up to
// its closing one: at least one, keys in strictly increasing order.
func (r *canonReader) section() (map[string]string, bool) {
	m := map[string]string{}
	prev := ""
	for first := true; ; first = false {
		if !r.lit("\n    ") {
			return nil, false
		}
		k, ok := r.str()
		if !ok || (!first && k <= prev) || !r.lit(": ") {
			return nil, false
		}
		v, ok := r.str()
		if !ok {
			return nil, false
		}
		m[k], prev = v, k
		if r.lit("\n  }") {
			return m, true
		}
		if !r.lit(",") {
			return nil, false
		}
	}
}

// str reads a string as appendJSONString writes it.
func (r *canonReader) str() (string, bool) {
	if !r.lit(`"`) {
		return "", false
	}
	data := r.data
	start := r.pos
	escaped := false // then r.buf holds the text up to start
	for i := r.pos; i < len(data); {
		c := data[i]
		if jsonSafeSet[c] {
			i++
			continue
		}
		switch {
		case c == '"':
			r.pos = i + 1
			if !escaped {
				return string(data[start:i]), true
			}
			return string(append(r.buf, data[start:i]...)), true
		case c == '\\':
			if !escaped {
				r.buf, escaped = r.buf[:0], true
			}
			r.buf = append(r.buf, data[start:i]...)
			e, n, ok := canonEscape(data[i:])
			if !ok {
				return "", false
			}
			if e < utf8.RuneSelf {
				r.buf = append(r.buf, byte(e))
			} else {
				r.buf = utf8.AppendRune(r.buf, e)
			}
			i += n
			start = i
		case c < utf8.RuneSelf:
			return "", false // a character the encoder escapes
		default:
			e, size := utf8.DecodeRune(data[i:])
			if (e == utf8.RuneError && size == 1) || e == '\u2028' || e == '\u2029' {
				return "", false
			}
			i += size
		}
	}
	return "", false
}

// canonEscape reads an escape at the start of b as appendJSONString writes
// one: what it stands for and its length. \ufffd is refused: it stands for
// a byte that is not UTF-8, which a decoder cannot give back.
func canonEscape(b []byte) (rune, int, bool) {
	if len(b) < 2 {
		return 0, 0, false
	}
	switch b[1] {
	case '"', '\\':
		return rune(b[1]), 2, true
	case 'b':
		return '\b', 2, true
	case 'f':
		return '\f', 2, true
	case 'n':
		return '\n', 2, true
	case 'r':
		return '\r', 2, true
	case 't':
		return '\t', 2, true
	case 'u':
	default:
		return 0, 0, false
	}
	if len(b) < 6 {
		return 0, 0, false
	}
	switch {
	case b[2] == '2' && b[3] == '0' && b[4] == '2' && (b[5] == '8' || b[5] == '9'):
		return rune(0x2020 + int(b[5]-'0')), 6, true
	case b[2] == '0' && b[3] == '0':
		hi, lo := hexDigit(b[4]), hexDigit(b[5])
		if hi < 0 || lo < 0 {
			return 0, 0, false
		}
		c := byte(hi<<4 | lo)
		// only what the encoder writes so: the control characters
		// without a short escape, and < > &
		if (c < 0x20 && c != '\b' && c != '\f' && c != '\n' && c != '\r' && c != '\t') || c == '<' || c == '>' || c == '&' {
			return rune(c), 6, true
		}
	}
	return 0, 0, false
}

// hexDigit is the value of a lower-case hex digit, or -1.
func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return -1
}
