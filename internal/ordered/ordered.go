// Package ordered holds the one value model every writer renders: a JSON-like
// object whose members keep the order they were given in. Tool configs are
// read by people, so "type, command, args, env" must come out in that order
// every time, on every machine — a Go map cannot promise that.
package ordered

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/repo-manager/repo/internal/stdjson"
)

// Member is one key of an Object.
type Member struct {
	Key   string
	Value any // string, bool, int64, float64, []string, []any, Object, json.RawMessage
}

// Object is an ordered set of members; keys are unique.
type Object []Member

// Get returns the value of key and whether it is present.
func (o Object) Get(key string) (any, bool) {
	for _, m := range o {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// Set replaces key's value in place, or appends the member.
func (o Object) Set(key string, v any) Object {
	for i, m := range o {
		if m.Key == key {
			o[i].Value = v
			return o
		}
	}
	return append(o, Member{Key: key, Value: v})
}

// Without returns a copy of o without the listed keys.
func (o Object) Without(keys ...string) Object {
	out := make(Object, 0, len(o))
next:
	for _, m := range o {
		for _, k := range keys {
			if m.Key == k {
				continue next
			}
		}
		out = append(out, m)
	}
	return out
}

// Keys lists the keys in order.
func (o Object) Keys() []string {
	ks := make([]string, len(o))
	for i, m := range o {
		ks[i] = m.Key
	}
	return ks
}

// MarshalJSON renders o compactly, in member order, without HTML escaping
// (a URL with & must stay readable in a config file).
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.Grow(size(o))
	if err := encode(&b, o); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// JSON is MarshalJSON for callers that know the value is well-formed.
func JSON(v any) []byte {
	var b bytes.Buffer
	b.Grow(size(v))
	if err := encode(&b, v); err != nil {
		panic(err) // only reachable with a value type this package does not model
	}
	return b.Bytes()
}

func encode(b *bytes.Buffer, v any) error {
	switch t := v.(type) {
	case Object:
		b.WriteByte('{')
		for i, m := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			encodeString(b, m.Key)
			b.WriteByte(':')
			if err := encode(b, m.Value); err != nil {
				return fmt.Errorf("%s: %w", m.Key, err)
			}
		}
		b.WriteByte('}')
	case []string:
		b.WriteByte('[')
		for i, s := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			encodeString(b, s)
		}
		b.WriteByte(']')
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := encode(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case string:
		encodeString(b, t)
	case json.RawMessage:
		b.Write(t)
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case int:
		b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(t), 10))
	case int64:
		b.Write(strconv.AppendInt(b.AvailableBuffer(), t, 10))
	case float64:
		raw, err := json.Marshal(t)
		if err != nil {
			return err
		}
		b.Write(raw)
	case map[string]any:
		// Only reached for values decoded from TOML profile data; sort for determinism.
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		obj := make(Object, 0, len(keys))
		for _, k := range keys {
			obj = append(obj, Member{Key: k, Value: t[k]})
		}
		return encode(b, obj)
	default:
		return fmt.Errorf("ordered: cannot encode %T", v)
	}
	return nil
}

// size is about the length of v's text: exact without escapes and
// floats, which are rare. The buffer is allocated once at that size; it
// grew from 64 bytes by doubling, which was an eighth of the bytes a no-op
// check allocated (bench/RESULTS.md, "Sixth round").
func size(v any) int {
	switch t := v.(type) {
	case Object:
		n := 2 + len(t)
		for _, m := range t {
			n += len(m.Key) + 3 + size(m.Value)
		}
		return n
	case []string:
		n := 2 + len(t)
		for _, s := range t {
			n += len(s) + 2
		}
		return n
	case []any:
		n := 2 + len(t)
		for _, e := range t {
			n += size(e)
		}
		return n
	case string:
		return len(t) + 2
	case json.RawMessage:
		return len(t)
	case map[string]any:
		n := 2 + len(t)
		for k, e := range t {
			n += len(k) + 3 + size(e)
		}
		return n
	}
	return 8 // null, a boolean, a number
}

func encodeString(b *bytes.Buffer, s string) {
	b.Write(AppendString(b.AvailableBuffer(), s))
}

// AppendString appends s as JSON(s) renders it (encoding/json's text with
// HTML escaping off, stdjson.AppendStringNoHTML), for callers that build
// JSON text of their own.
func AppendString(dst []byte, s string) []byte { return stdjson.AppendStringNoHTML(dst, s) }
