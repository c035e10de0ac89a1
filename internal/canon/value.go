package canon

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/ordered"
)

// Value is JSON(ordered.JSON(v)) for a value of the ordered model, without
// rendering and re-parsing it: the planner fingerprints every entry it
// builds on every run, and going through the text costs a --check of 100
// servers a quarter more time and memory (BenchmarkNoopCheck). ok is false
// for a value it does not take apart (json.RawMessage: raw text, which
// only JSON reads as the rendered whole would be read). FuzzValue keeps
// the two equal.
func Value(v any) (_ []byte, ok bool) { return appendOrdered(make([]byte, 0, 512), v) }

// AppendValue is Value appended to b: b is b grown, and when ok is false
// its contents are undefined.
func AppendValue(b []byte, v any) (_ []byte, ok bool) { return appendOrdered(b, v) }

func appendOrdered(b []byte, v any) (_ []byte, ok bool) {
	switch t := v.(type) {
	case ordered.Object:
		type kv struct {
			key string // as JSON reads it back
			val any
		}
		members := make([]kv, len(t))
		for i, m := range t {
			members[i] = kv{stringAsRead(m.Key), m.Value}
		}
		slices.SortStableFunc(members, func(x, y kv) int { return strings.Compare(x.key, y.key) })
		b = append(b, '{')
		for i, m := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = ordered.AppendString(b, m.key)
			b = append(b, ':')
			if b, ok = appendOrdered(b, m.val); !ok {
				return nil, false
			}
		}
		return append(b, '}'), true
	case map[string]any:
		// ordered.JSON renders a map as an Object with its keys sorted.
		obj := make(ordered.Object, 0, len(t))
		for _, k := range slices.Sorted(maps.Keys(t)) {
			obj = append(obj, ordered.Member{Key: k, Value: t[k]})
		}
		return appendOrdered(b, obj)
	case []string:
		b = append(b, '[')
		for i, s := range t {
			if i > 0 {
				b = append(b, ',')
			}
			b = ordered.AppendString(b, stringAsRead(s))
		}
		return append(b, ']'), true
	case []any:
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			if b, ok = appendOrdered(b, e); !ok {
				return nil, false
			}
		}
		return append(b, ']'), true
	case string:
		return ordered.AppendString(b, stringAsRead(t)), true
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, t), true
	case int:
		return strconv.AppendInt(b, int64(t), 10), true
	case int64:
		return strconv.AppendInt(b, t, 10), true
	case float64:
		return append(b, ordered.JSON(t)...), true // JSON keeps a number's text
	}
	return nil, false
}

// stringAsRead is the string JSON reads back from the JSON text of
// s: s itself, unless s is not valid UTF-8 (JSON text spells each bad byte
// as U+FFFD).
func stringAsRead(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return gjson.ParseBytes(ordered.JSON(s)).String()
}
