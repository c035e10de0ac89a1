package extensions

import (
	"fmt"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/repo-manager/repo/internal/lazy"
)

// The type each key of a TOML file must have, in the words a type error
// uses: "field version: must be a string, not an integer", as the MCP
// file's errors say it, never Go's type names. Built on the first error.
var (
	manifestTypes = lazy.Value[map[string]string]{New: func() map[string]string {
		return map[string]string{
			"name": "a string", "version": "a string",
			"provides": "a table", "provides.mcp": "a string",
			"runtime": "a table", "runtime.python": "a string",
		}
	}}
	configTypes = lazy.Value[map[string]string]{New: func() map[string]string {
		return map[string]string{
			"mcp": "a table", "mcp.tools": "an array of strings", "mcp.portable": "a boolean",
			"mcp.gitignore": "a boolean",
		}
	}}
)

// typeMismatch explains a go-toml decoding error about a value of the
// wrong type: the field (with the index of an array element) and what it
// must be instead of what it is. ok is false for any other error.
func typeMismatch(derr *toml.DecodeError, data []byte, want map[string]string) (field, msg string, ok bool) {
	key := derr.Key()
	if len(key) == 0 {
		return "", "", false // a syntax error
	}
	field = strings.Join(key, ".")
	expected, known := want[field]
	if !known {
		return "", "", false
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return "", "", false
	}
	var v any = doc
	for _, k := range key {
		m, isTable := v.(map[string]any)
		if !isTable {
			return "", "", false
		}
		if v, isTable = m[k]; !isTable {
			return "", "", false
		}
	}
	if elem, isArrayOf := strings.CutPrefix(expected, "an array of "); isArrayOf {
		if list, isList := v.([]any); isList {
			elemWant := "a " + strings.TrimSuffix(elem, "s")
			for i, e := range list {
				if got := tomlType(e); got != elemWant {
					return fmt.Sprintf("%s[%d]", field, i), fmt.Sprintf("must be %s, not %s", elemWant, got), true
				}
			}
			return "", "", false
		}
	}
	got := tomlType(v)
	if got == expected {
		return "", "", false
	}
	return field, fmt.Sprintf("must be %s, not %s", expected, got), true
}

// tomlType names a decoded TOML value's type as the TOML spec does.
func tomlType(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	case toml.LocalDate:
		return "a date"
	case toml.LocalTime:
		return "a time"
	case toml.LocalDateTime, time.Time:
		return "a date-time"
	}
	return fmt.Sprintf("a %T", v)
}
