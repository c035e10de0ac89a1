// Package canon is the one canonical form of JSON values in repo: compact,
// object members sorted by key, one spelling per string. The ownership
// record fingerprints entries in this form (so a tool that reorders or
// reindents its file has not edited an entry), and the planner compares
// and strips entries through it.
//
// The walk uses gjson rather than decoding into Go values: a sync
// canonicalises every entry of every file, and this is the hot path.
package canon

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/ordered"
)

// JSON is raw in the canonical form: compact, object keys sorted (members
// with equal keys keep their order), strings spelled as ordered.AppendString
// spells them whatever their escapes, numbers as written. Text that is not
// JSON is returned as it is. JSON(JSON(x)) == JSON(x).
func JSON(raw []byte) []byte {
	r := gjson.ParseBytes(raw)
	if !r.IsObject() && !r.IsArray() && !gjson.ValidBytes(raw) {
		return raw
	}
	return appendValue(make([]byte, 0, len(raw)), r, nil)
}

// Without is JSON(raw) without the object members named in keys. As when
// an object is decoded into a map, a key that appears twice counts once,
// with its last value. A raw that is not an object, or no keys, gives
// JSON(raw).
func Without(raw []byte, keys []string) []byte {
	r := gjson.ParseBytes(raw)
	if len(keys) == 0 || !r.IsObject() || !gjson.ValidBytes(raw) {
		return JSON(raw)
	}
	return appendValue(make([]byte, 0, len(raw)), r, keys)
}

type member struct {
	key string
	val gjson.Result
}

// appendValue appends r in the canonical form; at the top level, drop
// names members to leave out (and makes the remaining keys unique, last
// one winning), as Without does.
func appendValue(b []byte, r gjson.Result, drop []string) []byte {
	switch {
	case r.IsObject():
		var members []member
		r.ForEach(func(k, v gjson.Result) bool {
			members = append(members, member{k.String(), v})
			return true
		})
		if drop != nil {
			members = lastOfEach(members, drop)
		}
		slices.SortStableFunc(members, func(x, y member) int { return strings.Compare(x.key, y.key) })
		b = append(b, '{')
		for i, m := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = ordered.AppendString(b, m.key)
			b = append(b, ':')
			b = appendValue(b, m.val, nil)
		}
		b = append(b, '}')
	case r.IsArray():
		b = append(b, '[')
		i := 0
		r.ForEach(func(_, v gjson.Result) bool {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, v, nil)
			i++
			return true
		})
		b = append(b, ']')
	case r.Type == gjson.String:
		b = ordered.AppendString(b, r.String()) // one spelling per string, whatever the escapes
	default:
		b = append(b, r.Raw...)
	}
	return b
}

// lastOfEach keeps, of members, the last one of each key not in drop.
func lastOfEach(members []member, drop []string) []member {
	last := make(map[string]int, len(members))
	for i, m := range members {
		last[m.key] = i
	}
	out := members[:0:0]
	for i, m := range members {
		if last[m.key] == i && !slices.Contains(drop, m.key) {
			out = append(out, m)
		}
	}
	return out
}

// Text is s as it appears inside a JSON string (quotes removed), as
// json.Marshal spells it: with HTML characters escaped, which is how the
// workspace root has always been looked for in entries. Most roots need
// no escaping at all.
func Text(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || strings.IndexByte(`"\<>&`, c) >= 0 {
			b, _ := json.Marshal(s)
			return string(b[1 : len(b)-1])
		}
	}
	return s
}

// Only is JSON(raw) with only the object members named in keys, each once
// with its last value, as Without keeps the others. A raw that is not an
// object gives JSON(raw).
func Only(raw []byte, keys []string) []byte {
	r := gjson.ParseBytes(raw)
	if !r.IsObject() || !gjson.ValidBytes(raw) {
		return JSON(raw)
	}
	var drop []string
	seen := map[string]bool{}
	r.ForEach(func(k, _ gjson.Result) bool {
		if name := k.String(); !seen[name] && !slices.Contains(keys, name) {
			seen[name] = true
			drop = append(drop, name)
		}
		return true
	})
	if drop == nil {
		drop = []string{}
	}
	return appendValue(make([]byte, 0, len(raw)), r, drop)
}
