package tomledit

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Rendering rules (the golden tests spell them out):
//
//   - The entry is the table [<table>."<name>"]: the table path's segments
//     are bare keys when they match [A-Za-z0-9_-]+ and basic strings
//     otherwise; the name is always a basic string.
//   - Members whose value is a scalar or an array that is not an array of
//     tables come first, as `key = value` lines, in the JSON object's order.
//   - Then, in the JSON order, every object member becomes a sub-table
//     [<header>.<key>] (an empty object: the header alone), recursively, and
//     every non-empty array whose elements are all objects becomes an array
//     of tables, one [[<header>.<key>]] per element. A sub-table holding
//     only tables gets no header of its own: {"tools": {"x": {…}}} is
//     written [<header>.tools.x], as Codex writes it.
//   - One blank line before every header but the first.
//   - Keys are bare when they match [A-Za-z0-9_-]+, basic strings otherwise.
//   - Strings are basic strings ("…"), never literal strings: `"` and `\`
//     are escaped, so are control characters (\b \t \n \f \r, else \uXXXX)
//     and DEL (\u007F); everything else is written as is (UTF-8).
//   - Numbers keep their JSON text: with a fraction or an exponent they are
//     TOML floats, otherwise TOML integers, which must fit in 64 bits.
//   - Booleans as true/false. Arrays inline, ["a", "b"]; an object inside an
//     inline array is an inline table { k = v, k2 = v2 } ({} when empty).
//   - JSON null has no TOML form and is an error, as is a key repeated in
//     one object.

// renderEntry renders the entry name of the table path as TOML lines, each
// ending with nl.
func renderEntry(table []string, name string, value []byte, nl string) ([]byte, error) {
	v := gjson.ParseBytes(value)
	if !v.IsObject() {
		return nil, errors.New("tomledit: the value of a server must be a JSON object")
	}
	r := renderer{nl: nl}
	hdr := formatPath(table) + "." + basicString(name)
	if err := r.table(hdr, false, true, v, []string{name}); err != nil {
		return nil, err
	}
	return []byte(r.b.String()), nil
}

type renderer struct {
	b  strings.Builder
	nl string
}

// table renders one [hdr] (or [[hdr]]) table with its sub-tables. where is
// the JSON path, for error messages.
func (r *renderer) table(hdr string, array, top bool, obj gjson.Result, where []string) error {
	type sub struct {
		key string
		v   gjson.Result
	}
	var subs []sub
	var lines []string
	seen := map[string]bool{}
	var err error
	obj.ForEach(func(k, v gjson.Result) bool {
		key := k.String()
		if seen[key] {
			err = fmt.Errorf("tomledit: %s: duplicate key %s", jsonWhere(where), strconv.Quote(key))
			return false
		}
		seen[key] = true
		if v.IsObject() || isArrayOfObjects(v) {
			subs = append(subs, sub{key, v})
			return true
		}
		var s string
		s, err = inline(v, append(where[:len(where):len(where)], key))
		lines = append(lines, tomlKey(key)+" = "+s)
		return err == nil
	})
	if err != nil {
		return err
	}
	// A table holding nothing but tables is created by their headers; its
	// own header would be an empty table in the middle of the entry.
	if top || array || len(lines) > 0 || len(subs) == 0 {
		if r.b.Len() > 0 {
			r.b.WriteString(r.nl)
		}
		if array {
			r.b.WriteString("[[" + hdr + "]]" + r.nl)
		} else {
			r.b.WriteString("[" + hdr + "]" + r.nl)
		}
		for _, l := range lines {
			r.b.WriteString(l + r.nl)
		}
	}
	for _, s := range subs {
		h := hdr + "." + tomlKey(s.key)
		w := append(where[:len(where):len(where)], s.key)
		if s.v.IsObject() {
			if err := r.table(h, false, false, s.v, w); err != nil {
				return err
			}
			continue
		}
		for i, e := range s.v.Array() {
			if err := r.table(h, true, false, e, append(w[:len(w):len(w)], strconv.Itoa(i))); err != nil {
				return err
			}
		}
	}
	return nil
}

// isArrayOfObjects reports a non-empty array whose elements are all objects.
func isArrayOfObjects(v gjson.Result) bool {
	if !v.IsArray() {
		return false
	}
	n := 0
	all := true
	v.ForEach(func(_, e gjson.Result) bool {
		n++
		all = e.IsObject()
		return all
	})
	return all && n > 0
}

// inline renders a value on one line.
func inline(v gjson.Result, where []string) (string, error) {
	switch v.Type {
	case gjson.Null:
		return "", fmt.Errorf("tomledit: %s: null has no TOML form", jsonWhere(where))
	case gjson.True:
		return "true", nil
	case gjson.False:
		return "false", nil
	case gjson.String:
		return basicString(v.String()), nil
	case gjson.Number:
		return number(v.Raw, where)
	}
	var parts []string
	var err error
	if v.IsArray() {
		i := 0
		v.ForEach(func(_, e gjson.Result) bool {
			var s string
			s, err = inline(e, append(where[:len(where):len(where)], strconv.Itoa(i)))
			parts = append(parts, s)
			i++
			return err == nil
		})
		if err != nil {
			return "", err
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	}
	seen := map[string]bool{}
	v.ForEach(func(k, e gjson.Result) bool {
		key := k.String()
		if seen[key] {
			err = fmt.Errorf("tomledit: %s: duplicate key %s", jsonWhere(where), strconv.Quote(key))
			return false
		}
		seen[key] = true
		var s string
		s, err = inline(e, append(where[:len(where):len(where)], key))
		parts = append(parts, tomlKey(key)+" = "+s)
		return err == nil
	})
	if err != nil {
		return "", err
	}
	if len(parts) == 0 {
		return "{}", nil
	}
	return "{ " + strings.Join(parts, ", ") + " }", nil
}

// number checks a JSON number and returns its TOML text, which is the same:
// every JSON number is a valid TOML integer or float.
func number(raw string, where []string) (string, error) {
	if strings.ContainsAny(raw, ".eE") {
		if _, err := strconv.ParseFloat(raw, 64); err != nil {
			return "", fmt.Errorf("tomledit: %s: the number %s is out of the range of a TOML float", jsonWhere(where), raw)
		}
		return raw, nil
	}
	if _, err := strconv.ParseInt(raw, 10, 64); err != nil {
		return "", fmt.Errorf("tomledit: %s: the integer %s does not fit in a TOML integer (64 bits)", jsonWhere(where), raw)
	}
	return raw, nil
}

// jsonWhere renders a JSON path for error messages: "x" > "env" > "K".
func jsonWhere(where []string) string {
	q := make([]string, len(where))
	for i, k := range where {
		q[i] = strconv.Quote(k)
	}
	return "server " + strings.Join(q, " > ")
}

// isBareKey reports whether k can be written as a bare key.
func isBareKey(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// tomlKey renders a key: bare when possible, else a basic string.
func tomlKey(k string) string {
	if isBareKey(k) {
		return k
	}
	return basicString(k)
}

// basicString renders s as a TOML basic string. s is valid UTF-8.
func basicString(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7F {
				b.WriteString(`\u00`)
				b.WriteByte(hex[r>>4])
				b.WriteByte(hex[r&0xF])
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
