package yamledit

import (
	"bytes"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/jsonvalue"
)

// Rendering rules (the tests spell them out):
//
//   - Block style throughout. A mapping member is `key: scalar`, `key: {}`,
//     `key: []`, or `key:` followed by its members (indented by the file's
//     unit) or its items (indented like the file's other sequences, possibly
//     flush with the key).
//   - A sequence item is `- scalar`, `- {}`, `- []`, or a "-" followed by
//     the first member (or item) of the nested value, the others aligned
//     under it (the "-" is followed by as many spaces as the file's mapping
//     items use, usually one).
//   - Strings are plain unless needsQuote says otherwise; then they are
//     double-quoted with JSON-compatible escapes.
//   - Numbers keep their JSON text when every YAML reader takes it as a
//     number: an integer that fits 64 bits, or a decimal with a '.' and no
//     exponent or a signed one. Any other number is written in scientific
//     form with a '.' and a signed exponent (1e3 becomes 1.0e+3), which
//     goccy/go-yaml, YAML 1.1 and YAML 1.2 readers all take as a float.
//     A number beyond the float64 range is a *ValueError.
//   - true, false and null are written as such.

// style is how a file indents, copied into the entries we write.
type style struct {
	unit      int // a nested mapping: columns past its key
	seqIndent int // a block sequence under a key: its "-" column past the key's
	itemOff   int // a sequence item's content: columns past its "-"
}

type renderer struct {
	st    style
	lines []string
}

func (r *renderer) add(s string) { r.lines = append(r.lines, s) }

type pair struct {
	key string
	val gjson.Result
}

// objectPairs returns the members of a JSON object in order, rejecting
// duplicate keys.
func objectPairs(v gjson.Result) ([]pair, error) {
	var ps []pair
	seen := map[string]bool{}
	var err error
	v.ForEach(func(k, val gjson.Result) bool {
		if seen[k.Str] {
			err = &ValueError{Msg: fmt.Sprintf("duplicate key %q in the value", k.Str)}
			return false
		}
		seen[k.Str] = true
		ps = append(ps, pair{key: k.Str, val: val})
		return true
	})
	return ps, err
}

// mapping renders the pairs as members at column col.
func (r *renderer) mapping(ps []pair, col int) error {
	for _, p := range ps {
		if err := r.member(p.key, p.val, col); err != nil {
			return err
		}
	}
	return nil
}

func (r *renderer) member(key string, v gjson.Result, col int) error {
	k, err := renderKey(key)
	if err != nil {
		return err
	}
	prefix := spaces(col) + k + ":"
	switch {
	case v.IsObject():
		ps, err := objectPairs(v)
		if err != nil {
			return err
		}
		if len(ps) == 0 {
			r.add(prefix + " {}")
			return nil
		}
		r.add(prefix)
		return r.mapping(ps, col+r.st.unit)
	case v.IsArray():
		items := v.Array()
		if len(items) == 0 {
			r.add(prefix + " []")
			return nil
		}
		r.add(prefix)
		return r.sequence(items, col+r.st.seqIndent)
	}
	s, err := renderScalar(v)
	if err != nil {
		return err
	}
	r.add(prefix + " " + s)
	return nil
}

func (r *renderer) sequence(items []gjson.Result, col int) error {
	for _, it := range items {
		if err := r.item(it, col); err != nil {
			return err
		}
	}
	return nil
}

// item renders one sequence item with its "-" at column col.
func (r *renderer) item(v gjson.Result, col int) error {
	dash := spaces(col) + "-" + spaces(r.st.itemOff-1)
	inner := col + r.st.itemOff
	switch {
	case v.IsObject():
		ps, err := objectPairs(v)
		if err != nil {
			return err
		}
		if len(ps) == 0 {
			r.add(spaces(col) + "- {}")
			return nil
		}
		return r.nested(dash, inner, func() error { return r.mapping(ps, inner) })
	case v.IsArray():
		items := v.Array()
		if len(items) == 0 {
			r.add(spaces(col) + "- []")
			return nil
		}
		return r.nested(dash, inner, func() error { return r.sequence(items, inner) })
	}
	s, err := renderScalar(v)
	if err != nil {
		return err
	}
	r.add(spaces(col) + "- " + s)
	return nil
}

// nested renders a collection at column inner and moves its first line up
// onto the "-" of its item.
func (r *renderer) nested(dash string, inner int, render func() error) error {
	start := len(r.lines)
	if err := render(); err != nil {
		return err
	}
	r.lines[start] = dash + r.lines[start][inner:]
	return nil
}

func spaces(n int) string { return strings.Repeat(" ", max(n, 0)) }

// renderEntry renders one managed entry with its "-" or key at column col,
// between marker comments. For a List the item is the name member followed
// by the members of value.
func renderEntry(kind Kind, nameField, name string, value gjson.Result, col int, st style) ([]string, error) {
	r := &renderer{st: st}
	r.add(spaces(col) + openMarker(name))
	switch kind {
	case Map:
		if err := r.member(name, value, col); err != nil {
			return nil, err
		}
	case List:
		ps, err := objectPairs(value)
		if err != nil {
			return nil, err
		}
		ps = append([]pair{{key: nameField, val: gjson.Result{Type: gjson.String, Str: name}}}, ps...)
		inner := col + st.itemOff
		dash := spaces(col) + "-" + spaces(st.itemOff-1)
		if err := r.nested(dash, inner, func() error { return r.mapping(ps, inner) }); err != nil {
			return nil, err
		}
	}
	r.add(spaces(col) + closeMarker(name))
	return r.lines, nil
}

// renderKeyChain renders keys nested under each other, the first at column
// col, the last without a value.
func renderKeyChain(keys []string, col, unit int) ([]string, error) {
	lines := make([]string, len(keys))
	for i, k := range keys {
		rk, err := renderKey(k)
		if err != nil {
			return nil, err
		}
		lines[i] = spaces(col+i*unit) + rk + ":"
	}
	return lines, nil
}

const (
	openPrefix  = "# >>> repo managed: "
	closePrefix = "# <<< repo managed: "
)

func openMarker(name string) string  { return openPrefix + markerName(name) }
func closeMarker(name string) string { return closePrefix + markerName(name) }

// markerName is the name as written in a marker comment: as is when it is
// printable and has no surrounding blanks, else as a JSON string.
func markerName(name string) string {
	plain := name != "" && strings.TrimSpace(name) == name && !strings.HasPrefix(name, `"`)
	for _, r := range name {
		if !unicode.IsPrint(r) {
			plain = false
		}
	}
	if plain {
		return name
	}
	return doubleQuote(name)
}

// renderKey renders a mapping key. YAML limits implicit keys to 1024
// characters.
func renderKey(k string) (string, error) {
	s := quoteString(k)
	if utf8.RuneCountInString(s) > 1024 {
		return "", &ValueError{Msg: fmt.Sprintf("key %.40q... is longer than YAML allows (1024 characters)", k)}
	}
	return s, nil
}

func renderScalar(v gjson.Result) (string, error) {
	switch v.Type {
	case gjson.String:
		return quoteString(v.Str), nil
	case gjson.Number:
		return renderNumber(v.Raw)
	case gjson.True:
		return "true", nil
	case gjson.False:
		return "false", nil
	case gjson.Null:
		return "null", nil
	}
	return "", &ValueError{Msg: fmt.Sprintf("unexpected JSON value %q", v.Raw)}
}

func quoteString(s string) string {
	if needsQuote(s) {
		return doubleQuote(s)
	}
	return s
}

// needsQuote is a conservative rule for strings that cannot be written as
// plain scalars, or whose plain form some YAML reader (1.1 or 1.2, goccy,
// Continue's, Goose's) would take as something else.
func needsQuote(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' || s[len(s)-1] == ':' {
		return true
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") {
		return true
	}
	if strings.ContainsRune("-?:,[]{}#&*!|>'\"%@`", rune(s[0])) {
		return true
	}
	// goccy/go-yaml reads "<<" followed by ":" as a merge key even inside
	// a plain scalar ("A<<: x").
	if strings.Contains(s, "<<") || strings.HasPrefix(s, "...") || strings.HasPrefix(s, "---") {
		return true
	}
	// Looks like a number, a boolean or null (YAML 1.1 or 1.2).
	if s[0] >= '0' && s[0] <= '9' || s[0] == '+' {
		return true
	}
	if s[0] == '.' && len(s) > 1 && (s[1] >= '0' && s[1] <= '9') {
		return true
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~",
		".inf", ".nan", "-.inf", "+.inf":
		return true
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return true
		}
	}
	return false
}

// doubleQuote writes s as a YAML double-quoted scalar with escapes JSON
// also understands, except for non-printable characters beyond the Basic
// Multilingual Plane (\UXXXXXXXX, YAML only).
func doubleQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			switch {
			case unicode.IsPrint(r):
				b.WriteRune(r)
			case r <= 0xFFFF:
				fmt.Fprintf(&b, `\u%04X`, r)
			default:
				fmt.Fprintf(&b, `\U%08X`, r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// renderNumber renders a JSON number (see the rules at the top).
func renderNumber(raw string) (string, error) {
	if !strings.ContainsAny(raw, ".eE") {
		if _, err := strconv.ParseInt(raw, 10, 64); err == nil {
			return raw, nil
		}
		if _, err := strconv.ParseUint(raw, 10, 64); err == nil {
			return raw, nil
		}
	}
	out := raw
	if i := strings.IndexAny(raw, "eE"); !strings.Contains(raw, ".") || (i >= 0 && raw[i+1] != '+' && raw[i+1] != '-') {
		neg, digits, exp, ok := jsonvalue.Decimal(raw)
		if !ok {
			return "", &ValueError{Msg: fmt.Sprintf("invalid number %q", raw)}
		}
		// digits × 10^exp = d.ddd × 10^(exp+len(digits)-1)
		e := new(big.Int).Add(exp, big.NewInt(int64(len(digits)-1)))
		if e.CmpAbs(big.NewInt(10000)) > 0 {
			return "", &ValueError{Msg: fmt.Sprintf("the number %.40s is out of range", raw)}
		}
		frac := digits[1:]
		if frac == "" {
			frac = "0"
		}
		sign := ""
		if neg {
			sign = "-"
		}
		es := e.String()
		if e.Sign() >= 0 {
			es = "+" + es
		}
		out = sign + digits[:1] + "." + frac + "e" + es
	}
	if _, err := strconv.ParseFloat(out, 64); err != nil {
		return "", &ValueError{Msg: fmt.Sprintf("the number %.40s is out of range", raw)}
	}
	return out, nil
}

// sameJSON reports whether a and b decode to equal values, numbers
// compared by value. Equal text is the common case (an entry read back as
// it was written).
func sameJSON(a, b []byte) bool {
	return bytes.Equal(a, b) || jsonvalue.Equal(a, b, jsonvalue.SameNumber)
}
